"""Versioned JSON state: the one reader of ``from_dict`` / ``from_json`` input.

:class:`~confmat.ConfusionMatrix`, :class:`~confmat.Accumulator` and
:class:`~confmat.binned.ScoreHistogram` save themselves as small versioned JSON objects
(``{"schema": ..., "version": ..., ...}``) and read them back from files and other
processes, that is from untrusted input. Every such read goes through this module:
:func:`parse_json` (text), :func:`check_envelope` (schema name and version), then one
``read_*`` function per field. Each class's ``from_dict`` only says which fields it has and
how they must agree with each other; :func:`json_labels` is the matching writer of labels.
The text parser and the scalar readers live in :mod:`confmat.inputs.json_fields` and are
re-exported here.

Errors are ``ValueError`` (a wrong value: NaN, negative, fractional, ragged, inconsistent,
an unknown version) or ``TypeError`` (a wrong JSON type: a string or ``true`` where a count
belongs), and name the caller and the field down to the element, e.g.
``ConfusionMatrix.from_dict: field 'counts'[1][0] must be a non-negative integer, got 61.7``.

**Why no validator library.** jsonschema or pydantic would check the envelope and the JSON
types, but the checks that matter here are not schema checks. Counts are exact integers
below 2**63, and JSON numbers have arbitrary precision: a float conversion would keep
2**53 + 1 inexactly and let 2**63 wrap, so integers are checked as Python ints. Totals must
fit int64, and fields must agree with each other (a table's shape with its labels,
``n_samples`` with the table's total, a histogram's rows with its accumulator's labels).
That code is needed either way; for three schemas of a dozen fields a library would only
add a dependency to a numpy-only core and a second error vocabulary (and pydantic's lax
mode coerces ``"61"`` to 61, which must be rejected).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any, Literal

import numpy as np

from .json_fields import (
    INT64_MAX,
    Field,
    describe,
    field_name,
    field_path,
    parse_json,
    read_choice,
    read_float_range,
    read_int,
    require,
    show_value,
)

__all__ = [
    "INT64_MAX",
    "check_envelope",
    "exact_total",
    "field_name",
    "json_labels",
    "parse_json",
    "read_choice",
    "read_counts",
    "read_float_range",
    "read_int",
    "read_label",
    "read_labels",
    "require",
]


def check_envelope(
    data: Any, schema: str, version: int, name: str, *, what: str, fields: Sequence[str],
    at: tuple[Any, ...] = ()
) -> int:
    """Check that ``data`` is a mapping whose ``schema`` is ``schema``, whose ``version``
    this code reads (1 to ``version``) and whose fields are all known.

    A field the reader does not know is an error rather than ignored: a state is untrusted
    input, and a field read by nobody (a hand edit, another program's addition) would
    otherwise pass unseen. A newer confmat that writes more fields also writes a newer
    ``version``, refused with its own message.

    Parameters
    ----------
    data : object
        The state.
    schema : str
        Expected schema name.
    version : int
        Newest version this code reads.
    name : str
        The caller, for messages.
    what : str
        What the object is, in words ("confmat confusion matrix").
    fields : sequence of str
        The fields the reader knows besides ``schema`` and ``version`` (required or optional).
    at : tuple, default ()
        Path of a nested object.

    Returns
    -------
    int
        The version found.

    Raises
    ------
    TypeError
        ``data`` is not a mapping, or the version is not an integer.
    ValueError
        Another schema, a version this code does not read, or an unknown field.

    Examples
    --------
    >>> check_envelope({"schema": "demo", "version": 1}, "demo", 1, "f", what="demo state",
    ...                fields=["n"])
    1
    >>> check_envelope({"schema": "demo", "version": 2}, "demo", 1, "f", what="demo state",
    ...                fields=["n"])
    Traceback (most recent call last):
    ...
    ValueError: f: unsupported schema version 2 of 'demo' (field 'version'): it was written by a newer confmat; this one reads version 1, upgrade confmat to read it
    >>> check_envelope({"schema": "demo", "version": 1, "m": 2}, "demo", 1, "f",
    ...                what="demo state", fields=["n"])
    Traceback (most recent call last):
    ...
    ValueError: f: unknown field 'm': a demo state has the fields 'schema', 'version', 'n'
    """
    where = f"field {field_name(at)} " if at else "data "
    if not isinstance(data, Mapping):
        raise TypeError(
            f"{name}: {where}must be a mapping (the output of to_dict()), got "
            f"{type(data).__name__}"
        )
    got = data.get("schema")
    if not isinstance(got, str) or got != schema:
        raise ValueError(
            f"{name}: {where}is not a {what}: field {field_name(field_path(at, 'schema'))} must be "
            f"{schema!r}, got {describe(got)}"
        )
    v = require(data, field_path(at, "version"), name)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(
            f"{name}: field {field_name(field_path(at, 'version'))} must be an integer, got "
            f"{describe(v)}"
        )
    if v > version:
        raise ValueError(
            f"{name}: unsupported schema version {v} of {schema!r} (field "
            f"{field_name(field_path(at, 'version'))}): it was written by a newer confmat; this "
            f"one reads {'version 1' if version == 1 else f'versions 1 to {version}'}, "
            "upgrade confmat to read it"
        )
    if v < 1:
        raise ValueError(
            f"{name}: unsupported schema version {v} of {schema!r} (field "
            f"{field_name(field_path(at, 'version'))}): versions start at 1"
        )
    known = ("schema", "version", *fields)
    unknown = [k for k in data if k not in known]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise ValueError(
            f"{name}: unknown field{plural} "
            f"{', '.join(field_name(field_path(at, k)) for k in unknown[:5])}: a {what} has "
            f"the fields {', '.join(map(repr, known))}"
        )
    return v


# ------------------------------------------------------------------------------ labels
def _label_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "list"


def _scalar_label(v: Any, name: str, where: str) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{name}: {where} must be finite, got {v!r}")
        return v
    raise TypeError(
        f"{name}: {where} must be a string, number or boolean, got {describe(v)}"
    )


def _label(v: Any, name: str, field: Field, tuples: bool) -> Any:
    if tuples and isinstance(v, list | tuple):
        return tuple(_scalar_label(x, name, f"field {field_name(field_path(field, j))}")
                     for j, x in enumerate(v))
    return _scalar_label(v, name, f"field {field_name(field)}")


def _check_label_list(out: list[Any], name: str, field: Field, minimum: int) -> list[Any]:
    if len(out) < minimum:
        raise ValueError(
            f"{name}: field {field_name(field)} must name at least {minimum} "
            f"class{'es' if minimum > 1 else ''}, got {len(out)}"
        )
    kinds = sorted({_label_kind(v) for v in out})
    if len(kinds) > 1:
        raise TypeError(
            f"{name}: field {field_name(field)} mixes label kinds {kinds}; labels must be of "
            "one kind"
        )
    seen: set[Any] = set()
    dups = [v for v in out if v in seen or seen.add(v)]  # type: ignore[func-returns-value]
    if dups:
        raise ValueError(f"{name}: field {field_name(field)} contains duplicates: {dups[:5]}")
    return out


def read_labels(data: Mapping[str, Any], field: Field, name: str, *, minimum: int = 1,
                tuples: bool = False) -> list[Any]:
    """A list of class labels: JSON strings, finite numbers or booleans, all of one kind,
    without duplicates, at least ``minimum`` of them.

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    minimum : int, default 1
        Fewest labels.
    tuples : bool, default False
        A label may also be a list of such scalars (read as a tuple: ``ConfusionMatrix``
        accepts tuple labels).

    Returns
    -------
    list

    Raises
    ------
    TypeError
        Not a list, or labels of several kinds.
    ValueError
        Too few, duplicated or non-finite labels.

    Examples
    --------
    >>> read_labels({"labels": ["cat", "dog"]}, "labels", "demo")
    ['cat', 'dog']
    """
    raw = require(data, field, name)
    if isinstance(raw, np.ndarray):
        raw = raw.tolist()
    if not isinstance(raw, list | tuple):
        raise TypeError(
            f"{name}: field {field_name(field)} must be a list of labels, got "
            f"{describe(raw)}"
        )
    out = [_label(v, name, field_path(field, i), tuples) for i, v in enumerate(raw)]
    return _check_label_list(out, name, field, minimum)


def read_label(data: Mapping[str, Any], field: Field, name: str) -> Any:
    """One optional class label (a JSON string, finite number or boolean), or None when the
    field is ``null`` or absent.

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.

    Returns
    -------
    str, int, float, bool or None

    Raises
    ------
    TypeError
        A value that is not a label.
    ValueError
        A non-finite number.

    Examples
    --------
    >>> read_label({"pos_label": "sick"}, "pos_label", "demo")
    'sick'
    >>> read_label({}, "pos_label", "demo") is None
    True
    """
    raw = require(data, field, name, None)
    return None if raw is None else _label(raw, name, field, False)


def json_labels(labels: Sequence[Any], name: str, field: str = "labels") -> list[Any]:
    """Labels as JSON values, checked by the rules of :func:`read_labels` (tuples allowed),
    so that ``to_dict`` never writes state that ``from_dict`` would refuse.

    Parameters
    ----------
    labels : sequence
        The labels.
    name : str
        The caller, for messages.
    field : str, default 'labels'
        The field they are written to.

    Returns
    -------
    list

    Raises
    ------
    TypeError, ValueError
        Labels that :func:`read_labels` would refuse.

    Examples
    --------
    >>> json_labels([("a", 1), ("b", 2)], "demo")
    [['a', 1], ['b', 2]]
    """
    out = [_label(v, name, (field, i), True) for i, v in enumerate(labels)]
    _check_label_list(out, name, field, 0)
    return [list(v) if isinstance(v, tuple) else v for v in out]


# ------------------------------------------------------------------------------ counts
def _flatten(raw: Any, shape: tuple[int | None, ...], name: str,
             field: Field) -> tuple[list[int], list[Any]]:
    """Nested lists -> (dims, flat leaves), rejecting scalars where lists belong and ragged
    rows."""
    level = [raw]
    dims: list[int] = []
    for want in shape:
        n: int | None = None
        first = 0
        for idx, node in enumerate(level):
            if not isinstance(node, list | tuple):
                where = field_path(field, *_unravel(idx, dims))
                raise TypeError(
                    f"{name}: field {field_name(where)} must be a list (the field is a "
                    f"{len(shape)}-D array), got {describe(node)}"
                )
            if n is None:
                n, first = len(node), idx
            elif len(node) != n:
                a = field_name(field_path(field, *_unravel(idx, dims)))
                b = field_name(field_path(field, *_unravel(first, dims)))
                raise ValueError(
                    f"{name}: field {a} has {len(node)} entries but {b} has {n}: rows must "
                    "have equal lengths"
                )
        dims.append(n if n is not None else (want or 0))
        level = list(chain.from_iterable(level))
    return dims, level


def _unravel(i: int, dims: Sequence[int]) -> tuple[int, ...]:
    if not dims:
        return ()
    return tuple(int(x) for x in np.unravel_index(i, tuple(dims)))


def _normalize_leaves(flat: list[Any], integer: bool | str, name: str, field: Field,
                      dims: list[int]) -> list[Any]:
    """Leaves that are not plain ints/floats: numpy scalars (from Python callers) become
    Python numbers; anything else is a TypeError naming the element."""
    out = list(flat)
    for i, v in enumerate(out):
        t = type(v)
        if t is int or t is float:
            continue
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | float | np.integer | np.floating):
            want = "a non-negative integer" if integer is True else "a non-negative number"
            raise TypeError(
                f"{name}: field {field_name(field_path(field, *_unravel(i, dims)))} must be {want}, "
                f"got {describe(v)}"
            )
        out[i] = int(v) if isinstance(v, int | np.integer) else float(v)
    return out


def _bad_element(flat: list[Any], ok: Any) -> int:
    return next(i for i, v in enumerate(flat) if not ok(v))


def read_counts(
    data: Mapping[str, Any],
    field: Field,
    name: str,
    *,
    shape: tuple[int | None, ...],
    integer: bool | Literal["auto"] = True,
    why: str = "",
    check_total: bool = True,
) -> np.ndarray:
    """An array of counts stored as nested JSON lists.

    Every value is non-negative and finite; ``shape`` gives the length of every dimension
    (``None``: any). Integers are checked as Python ints, so 2**63 is refused and 2**53 + 1 is
    kept exactly.

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    shape : tuple of int or None
        Expected length of each dimension.
    integer : bool or 'auto', default True
        ``int64`` counts (True), ``float64`` (False), or int64 when every value is an integer
        and float64 when one is not ('auto').
    why : str, default ''
        Explains the expected shape in the error.
    check_total : bool, default True
        The sum must fit int64 (or be finite), since metrics add the counts up.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        Values that are not numbers, scalars where lists belong.
    ValueError
        Ragged, negative, fractional (when integer), non-finite counts or a wrong shape.
    OverflowError
        Counts or a total past int64.

    Examples
    --------
    >>> read_counts({"counts": [[1, 2], [3, 4]]}, "counts", "demo", shape=(2, 2)).tolist()
    [[1, 2], [3, 4]]
    >>> read_counts({"counts": [[1, 2.5]]}, "counts", "demo", shape=(1, 2))
    Traceback (most recent call last):
    ...
    ValueError: demo: field 'counts'[0][1] must be a non-negative integer, got 2.5
    """
    raw = require(data, field, name)
    if isinstance(raw, np.ndarray):
        raw = raw.tolist()
    dims, flat = _flatten(raw, shape, name, field)
    if any(w is not None and d != w for d, w in zip(dims, shape, strict=True)):
        want = "(" + ", ".join("any" if w is None else str(w) for w in shape) + ")"
        raise ValueError(
            f"{name}: field {field_name(field)} must have shape {want}{why}, got {tuple(dims)}"
        )
    types = set(map(type, flat))
    if not types <= {int, float}:
        flat = _normalize_leaves(flat, integer, name, field, dims)
        types = set(map(type, flat))
    if integer == "auto":
        integer = float not in types

    def where(i: int) -> str:
        return field_name(field_path(field, *_unravel(i, dims)))

    if integer:
        if float in types:
            i = next((i for i, v in enumerate(flat) if type(v) is float
                      and not (math.isfinite(v) and v.is_integer())), None)
            if i is not None:
                raise ValueError(
                    f"{name}: field {where(i)} must be a non-negative integer, got {flat[i]!r}"
                )
            flat = [int(v) for v in flat]
        try:
            arr = np.array(flat, dtype=np.int64)
        except OverflowError:
            i = _bad_element(flat, lambda v: -INT64_MAX - 1 <= v <= INT64_MAX)
            raise ValueError(
                f"{name}: field {where(i)} must be a non-negative integer below 2**63, got "
                f"{show_value(flat[i])}"
            ) from None
        if arr.size and arr.min() < 0:
            i = int(np.argmax(arr < 0))
            raise ValueError(f"{name}: field {where(i)} must be a non-negative integer, got {flat[i]}")
        if check_total and arr.size and int(arr.max()) > INT64_MAX // arr.size:
            total = sum(flat)
            if total > INT64_MAX:
                raise ValueError(
                    f"{name}: field {field_name(field)} adds up to {total}, beyond the int64 "
                    "range of a count (2**63 - 1)"
                )
    else:
        try:
            arr = np.array(flat, dtype=np.float64)
        except OverflowError:
            i = _bad_element(flat, lambda v: abs(v) < 2**1024)
            raise ValueError(
                f"{name}: field {where(i)} must be a finite non-negative number, got "
                f"{show_value(flat[i])}"
            ) from None
        bad = ~np.isfinite(arr) | (arr < 0)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(
                f"{name}: field {where(i)} must be a finite non-negative number, got {flat[i]!r}"
            )
        if check_total:
            with np.errstate(over="ignore"):
                if not np.isfinite(arr.sum()):
                    raise ValueError(
                        f"{name}: field {field_name(field)} adds up to more than the float64 range"
                    )
    return arr.reshape(dims)


def exact_total(arr: np.ndarray) -> int | float:
    """The sum of a counts array read by :func:`read_counts`: a Python int for int64 counts
    (exact: the reader checked it fits), a float otherwise.

    Parameters
    ----------
    arr : ndarray
        Counts.

    Returns
    -------
    int or float

    Examples
    --------
    >>> exact_total(np.array([[2**62, 2**62 - 1]], dtype=np.int64)) == 2**63 - 1
    True
    """
    if arr.dtype.kind == "f":
        return float(arr.sum())
    return int(arr.sum())
