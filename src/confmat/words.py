"""The names a caller knows the library's arguments by, for the messages of its checks.

A check deep in the library refuses ``labels`` or ``pos_label=7``; a Python caller typed
those words, a command-line user typed ``--labels`` and ``--pos-label 7`` (or typed nothing,
and the command inferred the positive class). Messages are therefore phrased with
:func:`arg`, :func:`arg_value`, :func:`give` and :func:`say`, which read the current
:class:`Vocabulary`. The default vocabulary is the Python one: every name stands for itself,
so Python callers see ``labels``, ``pos_label=7``, ``pass skip_invalid=True``, and one entry
of a mapping argument as ``column_types={'y': 'string'}`` (:func:`entry`), which another
vocabulary writes as its option with a ``KEY=VALUE`` value (``--column-type y=string``). A
hint that tells the caller what to type (:func:`give`, :func:`give_entry`) writes the value
as a shell user pastes it (:func:`shell_value`: ``give --pos-label a``, not ``'a'``). The
command line enters its own vocabulary with :func:`speaking` around each command, built from
the options the command declares and the ones the user typed.

The vocabulary lives in a :class:`contextvars.ContextVar`. Each thread (and each asyncio
task) has its own context, so a command line entering its vocabulary changes the words of no
other thread: a library used from several threads at once keeps the Python words in all of
them. A new thread starts from the default, so a message built inside a worker thread that
the caller did not start (a thread pool inside the library) is in the Python words; the
library's checks run in the calling thread.

This module imports nothing from confmat, so every layer may use it.
"""

from __future__ import annotations

import contextvars
import shlex
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PYTHON", "Vocabulary", "arg", "arg_value", "current", "entry", "give", "give_entry",
           "say", "shell_value", "speaking"]


@dataclass(frozen=True)
class Vocabulary:
    """How the caller names the library's arguments.

    Parameters
    ----------
    names : mapping of str to str
        The caller's words for a Python argument (``{"labels": "--labels", "y_true":
        "the --true column"}``); a name not in it stands for itself.
    flags : frozenset of str
        Arguments whose caller's name alone sets them to True (``--skip-invalid``).
    given : frozenset of str or None
        Arguments the caller typed; None: all of them (a Python call names what it passes).
    implied : mapping of str to str
        For an argument the caller did not type, what its value is (``{"pos_label": "the
        positive class"}``): :func:`arg_value` then says the value was implied.

    Examples
    --------
    >>> Vocabulary({"labels": "--labels"}).names["labels"]
    '--labels'
    """

    names: Mapping[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    given: frozenset[str] | None = None
    implied: Mapping[str, str] = field(default_factory=dict)


#: The Python vocabulary: every argument is named as in the function's signature.
PYTHON = Vocabulary()

_CURRENT: contextvars.ContextVar[Vocabulary] = contextvars.ContextVar("confmat_words",
                                                                      default=PYTHON)


def current() -> Vocabulary:
    """The vocabulary of the running code (this thread, this task).

    Returns
    -------
    Vocabulary

    Examples
    --------
    >>> current() is PYTHON
    True
    """
    return _CURRENT.get()


@contextmanager
def speaking(vocabulary: Vocabulary) -> Iterator[Vocabulary]:
    """Phrase the library's messages in ``vocabulary`` inside the ``with`` block.

    Parameters
    ----------
    vocabulary : Vocabulary
        The caller's names.

    Yields
    ------
    Vocabulary
        ``vocabulary``; the previous one is back when the block ends, raising or not.

    Raises
    ------
    TypeError
        If ``vocabulary`` is not a :class:`Vocabulary`.

    Examples
    --------
    >>> with speaking(Vocabulary({"labels": "--labels"})):
    ...     arg("labels")
    '--labels'
    >>> arg("labels")
    'labels'
    """
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
    token = _CURRENT.set(vocabulary)
    try:
        yield vocabulary
    finally:
        _CURRENT.reset(token)


def arg(name: str) -> str:
    """The caller's name of the argument ``name``.

    Parameters
    ----------
    name : str
        The Python argument (or function) the message is about.

    Returns
    -------
    str
        ``name`` itself in the Python vocabulary.

    Examples
    --------
    >>> arg("labels")
    'labels'
    >>> with speaking(Vocabulary({"y_true": "the --true column"})):
    ...     f"labels names no class that occurs in {arg('y_true')}"
    'labels names no class that occurs in the --true column'
    """
    return current().names.get(name, name)


def arg_value(name: str, value: Any, sep: str = "=") -> str:
    """The argument ``name`` with its value, as the caller would have written it.

    Parameters
    ----------
    name : str
        The Python argument.
    value : object
        Its value (shown with ``repr``).
    sep : str, default "="
        What stands between the name and the value in Python (``" "``: ``pos_label 7 is
        not one of the labels``).

    Returns
    -------
    str
        ``name=value`` in Python; in another vocabulary the caller's name and the value
        (only the name for a flag), or, for an argument the caller did not type but whose
        value the caller's tool implied, what the value is and that it was implied.

    Examples
    --------
    >>> arg_value("pos_label", 1)
    'pos_label=1'
    >>> cli = Vocabulary({"pos_label": "--pos-label"}, given=frozenset({"pos_label"}),
    ...                  implied={"pos_label": "the positive class"})
    >>> with speaking(cli):
    ...     arg_value("pos_label", "b")
    "--pos-label 'b'"
    >>> with speaking(Vocabulary(cli.names, given=frozenset(), implied=cli.implied)):
    ...     arg_value("pos_label", 1)
    'the positive class 1 (implied: no --pos-label given)'
    """
    words = current()
    if name not in words.names:
        return f"{name}{sep}{value!r}"
    said = words.names[name]
    if words.given is not None and name not in words.given and name in words.implied:
        return f"{words.implied[name]} {value!r} (implied: no {said} given)"
    if name in words.flags and value is True:
        return said
    return f"{said} {value!r}"


def give(name: str, value: Any) -> str:
    """A hint telling what to pass: ``pass name=value``, or the caller's option.

    Parameters
    ----------
    name : str
        The Python argument.
    value : object
        The value to pass: in Python shown with ``repr``; in another vocabulary as the
        caller types it after the option (:func:`shell_value`: ``--pos-label a``, quoted only
        where a shell needs it), a flag's True as the option alone. The option takes the
        value whole (not a comma-separated list: :func:`give_entry` writes one entry of a
        mapping so).

    Returns
    -------
    str

    Examples
    --------
    >>> give("skip_invalid", True), give("pos_label", "a")
    ('pass skip_invalid=True', "pass pos_label='a'")
    >>> with speaking(Vocabulary({"skip_invalid": "--skip-invalid", "pos_label": "--pos-label"},
    ...                          flags=frozenset({"skip_invalid"}))):
    ...     print(give("skip_invalid", True), give("pos_label", "a"), give("pos_label", "a b"),
    ...           sep="; ")
    give --skip-invalid; give --pos-label a; give --pos-label 'a b'
    """
    words = current()
    if name not in words.names:
        return f"pass {name}={value!r}"
    said = words.names[name]
    return (f"give {said}" if name in words.flags and value is True
            else f"give {said} {shell_value(value)}")


def say(python: str, name: str, caller: str = "{}") -> str:
    """A phrase about the argument ``name`` that the caller's words say differently.

    Parameters
    ----------
    python : str
        The phrase in the Python vocabulary (``"the fixed labels"``).
    name : str
        The argument it is about.
    caller : str, default "{}"
        The phrase when the caller names ``name`` otherwise; ``{}`` stands for that name.

    Returns
    -------
    str

    Examples
    --------
    >>> say("the fixed labels", "labels")
    'the fixed labels'
    >>> with speaking(Vocabulary({"labels": "--labels"})):
    ...     say("the fixed labels", "labels")
    '--labels'
    """
    words = current()
    if name not in words.names:
        return python
    return caller.format(words.names[name])


def shell_value(value: Any, listed: bool = False) -> str:
    """``value`` as a shell user types it after an option, to paste as it is shown.

    The value's text (``str``: ``a``, ``1``, ``True``), quoted for a POSIX shell only when
    it needs it (:func:`shlex.quote`: ``'a b'``). A value of a comma-separated option
    (``listed``) is first put in double quotes when it holds a comma, a double quote or
    surrounding spaces (a quote inside doubled), as the option reads a CSV field.

    Parameters
    ----------
    value : object
        The value.
    listed : bool, default False
        Whether the option splits its value at commas (``--labels``, ``--column-type``).

    Returns
    -------
    str

    Examples
    --------
    >>> print(shell_value("a"), shell_value(1), shell_value("a b"), shell_value(""))
    a 1 'a b' ''
    >>> print(shell_value("a,b"), shell_value("a,b", listed=True))
    a,b '"a,b"'
    """
    text = str(value)
    if listed and (not text or text != text.strip() or "," in text or '"' in text):
        text = '"' + text.replace('"', '""') + '"'
    return shlex.quote(text)


def entry(name: str, key: Any, value: Any) -> str:
    """One entry of the mapping argument ``name``, as the caller would write it.

    Parameters
    ----------
    name : str
        The Python argument, a mapping (``column_types``).
    key, value : object
        The entry.

    Returns
    -------
    str
        ``name={key: value}`` in Python; in another vocabulary the caller's option with the
        value ``key=value`` (the option is repeated for several entries), quoted as one
        comma-separated value typed in a shell when it needs it.

    Examples
    --------
    >>> entry("column_types", "y", "string")
    "column_types={'y': 'string'}"
    >>> with speaking(Vocabulary({"column_types": "--column-type"})):
    ...     print(entry("column_types", "y", "string"))
    ...     print(entry("column_types", "true, y", "string"))
    --column-type y=string
    --column-type '"true, y=string"'
    """
    words = current()
    if name not in words.names:
        return f"{name}={{{key!r}: {value!r}}}"
    return f"{words.names[name]} {shell_value(f'{key}={value}', listed=True)}"


def give_entry(name: str, key: Any, value: Any) -> str:
    """A hint telling what to pass: ``pass name={key: value}``, or the caller's option.

    Parameters
    ----------
    name : str
        The Python argument, a mapping.
    key, value : object
        The entry to pass.

    Returns
    -------
    str

    Examples
    --------
    >>> give_entry("column_types", "g", "string")
    "pass column_types={'g': 'string'}"
    >>> with speaking(Vocabulary({"column_types": "--column-type"})):
    ...     give_entry("column_types", "g", "string")
    'give --column-type g=string'
    """
    said = entry(name, key, value)
    return f"{'pass' if name not in current().names else 'give'} {said}"
