"""JSON text and scalar fields for reading state (:mod:`confmat.inputs.state`): the strict
parser, how errors name a field and show a value, required / optional fields, integers,
ranges and choices."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "INT64_MAX",
    "REQUIRED",
    "Field",
    "describe",
    "field_key",
    "field_name",
    "field_path",
    "parse_json",
    "read_choice",
    "read_float_range",
    "read_int",
    "require",
    "show_value",
]

#: Largest value of an int64 count (and of a table's total).
INT64_MAX = 2**63 - 1

#: A field: its key, or the path of keys/indices to it from the top-level object
#: (``("scores", "index")`` is shown as ``'scores'['index']``).
Field = str | tuple[Any, ...]

REQUIRED: Any = object()


def field_name(field: Field) -> str:
    """How errors show a field: ``'counts'``, ``'counts'[1][0]``, ``'scores'['index']``.

    Parameters
    ----------
    field : str or tuple
        A key, or the path of keys / indices from the top-level object.

    Returns
    -------
    str

    Examples
    --------
    >>> field_name("counts"), field_name(("counts", 1, 0))
    ("'counts'", "'counts'[1][0]")
    """
    if isinstance(field, str):
        return repr(field)
    first, *rest = field
    return repr(first) + "".join(f"[{k!r}]" for k in rest)


def field_path(field: Field, *more: Any) -> tuple[Any, ...]:
    """The path to an element of ``field``: ``field`` as a tuple, followed by ``more``.

    Parameters
    ----------
    field : str or tuple
        A key or a path.
    *more
        Further keys or indices.

    Returns
    -------
    tuple

    Examples
    --------
    >>> field_path("counts", 1, 0)
    ('counts', 1, 0)
    """
    return ((field,) if isinstance(field, str) else tuple(field)) + more


def show_value(v: Any) -> str:
    """``repr(v)``, shortened to 60 characters.

    Parameters
    ----------
    v : object
        A value.

    Returns
    -------
    str

    Examples
    --------
    >>> show_value("x" * 100)[-5:]
    'xx...'
    """
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def describe(v: Any) -> str:
    """A JSON value as error messages show it: ``null``, ``true (a boolean)``, ``'3' (a
    string)``, ``a list``, or the number.

    Parameters
    ----------
    v : object
        A JSON value.

    Returns
    -------
    str

    Examples
    --------
    >>> describe(None), describe(True), describe("3"), describe([1]), describe(2.5)
    ('null', 'true (a boolean)', "'3' (a string)", 'a list', '2.5')
    """
    if v is None:
        return "null"
    if isinstance(v, bool | np.bool_):
        return f"{str(bool(v)).lower()} (a boolean)"
    if isinstance(v, str):
        return f"{show_value(v)} (a string)"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
    if isinstance(v, int | float | np.number):
        return show_value(v)
    return f"{show_value(v)} (a {type(v).__name__})"


class _NotFinite(ValueError):
    pass


def _reject_constant(literal: str) -> Any:
    raise _NotFinite(literal)


def _finite_float(literal: str) -> float:
    v = float(literal)
    if not math.isfinite(v):
        raise _NotFinite(literal)
    return v


class _Repeated(Exception):
    """A key that appears twice in one JSON object."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key)
            seen.add(key)
    return out


def parse_json(text: Any, name: str) -> Any:
    """``json.loads`` for state: errors name the caller, and the non-standard literals
    ``NaN`` / ``Infinity`` (which Python's json accepts) and numbers beyond float64 such
    as ``1e400`` are rejected instead of becoming non-finite counts.

    Parameters
    ----------
    text : str, bytes or bytearray
        JSON text.
    name : str
        The caller, for messages (``"ConfusionMatrix.from_json"``).

    Returns
    -------
    object

    Raises
    ------
    TypeError
        If ``text`` is not text.
    ValueError
        Text that is not JSON, holds NaN / Infinity / 1e400, names a field twice in one
        object (``json.loads`` would keep the last copy silently), or is nested too deeply.

    Examples
    --------
    >>> parse_json('{"counts": [[1, 2]]}', "demo")
    {'counts': [[1, 2]]}
    >>> parse_json('[NaN]', "demo")
    Traceback (most recent call last):
    ...
    ValueError: demo: text contains NaN, which is not a finite number (JSON state holds finite counts only)
    """
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"{name}: text must be a JSON string, got {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float,
                          object_pairs_hook=_unique_keys)
    except _Repeated as exc:
        raise ValueError(
            f"{name}: text names the field {exc.args[0]!r} more than once in one object "
            "(which copy is meant is not defined: RFC 8259 asks for unique names)"
        ) from None
    except _NotFinite as exc:
        raise ValueError(
            f"{name}: text contains {exc.args[0]}, which is not a finite number "
            "(JSON state holds finite counts only)"
        ) from None
    except RecursionError:
        raise ValueError(f"{name}: text is nested too deeply to be confmat state") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, integers beyond the digit limit
        raise ValueError(f"{name}: text is not valid JSON: {exc}") from exc


def field_key(field: Field) -> Any:
    """The key of ``field`` in its innermost object.

    Parameters
    ----------
    field : str or tuple
        A key or a path.

    Returns
    -------
    object

    Examples
    --------
    >>> field_key("counts"), field_key(("scores", "index"))
    ('counts', 'index')
    """
    return field if isinstance(field, str) else field[-1]


def require(data: Mapping[str, Any], field: Field, name: str, default: Any = REQUIRED) -> Any:
    """The value of ``field`` in ``data`` (the innermost object), or ``default`` when the
    key is absent.

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    default : object, optional
        Returned when the key is absent; without it the field is required.

    Returns
    -------
    object

    Raises
    ------
    ValueError
        A required field that is absent, naming it.

    Examples
    --------
    >>> require({"bins": 10}, "bins", "demo")
    10
    >>> require({}, "bins", "demo")
    Traceback (most recent call last):
    ...
    ValueError: demo: data is missing the 'bins' field
    """
    key = field_key(field)
    if key in data:
        return data[key]
    if default is REQUIRED:
        raise ValueError(f"{name}: data is missing the {field_name(field)} field")
    return default


def read_int(
    data: Mapping[str, Any], field: Field, name: str, *, minimum: int | None = None,
    maximum: int | None = None, default: Any = REQUIRED,
) -> int:
    """An integer field (an integral float such as ``10.0`` is accepted; ``10.5``, ``true``
    and ``"10"`` are not).

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    minimum, maximum : int, optional
        Bounds.
    default : object, optional
        Returned when the field is absent.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        A value that is not an integer.
    ValueError
        A value outside the bounds, or a required field that is absent.

    Examples
    --------
    >>> read_int({"bins": 10.0}, "bins", "demo", minimum=1)
    10
    """
    if default is not REQUIRED and field_key(field) not in data:
        return default
    v = require(data, field, name)
    out = _as_int(v)
    if out is None:
        err = ValueError if isinstance(v, float | np.floating) else TypeError
        raise err(f"{name}: field {field_name(field)} must be an integer, got {describe(v)}")
    if (minimum is not None and out < minimum) or (maximum is not None and out > maximum):
        bounds = (f">= {minimum}" if maximum is None else
                  f"<= {maximum}" if minimum is None else f"between {minimum} and {maximum}")
        raise ValueError(f"{name}: field {field_name(field)} must be an integer {bounds}, got {out}")
    return out


def _as_int(v: Any) -> int | None:
    if isinstance(v, bool | np.bool_):
        return None
    if isinstance(v, int | np.integer):
        return int(v)
    if isinstance(v, float | np.floating) and math.isfinite(v) and float(v).is_integer():
        return int(v)
    return None


def read_float_range(data: Mapping[str, Any], field: Field, name: str,
                     default: Any = REQUIRED) -> tuple[float, float]:
    """A ``[lo, hi]`` pair of finite numbers with ``lo < hi`` (a score range).

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    default : object, optional
        Returned when the field is absent.

    Returns
    -------
    (float, float)

    Raises
    ------
    TypeError
        A value that is not a pair of numbers.
    ValueError
        Non-finite values or ``lo >= hi``.

    Examples
    --------
    >>> read_float_range({"score_range": [0, 1]}, "score_range", "demo")
    (0.0, 1.0)
    """
    if default is not REQUIRED and field_key(field) not in data:
        return default
    v = require(data, field, name)
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise TypeError(
            f"{name}: field {field_name(field)} must be a list [lo, hi] of two numbers, got "
            f"{describe(v)}"
        )
    out = []
    for i, x in enumerate(v):
        if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.number):
            raise TypeError(
                f"{name}: field {field_name(field_path(field, i))} must be a number, got "
                f"{describe(x)}"
            )
        try:
            f = float(x)
        except OverflowError:
            f = math.inf
        if not math.isfinite(f):
            raise ValueError(f"{name}: field {field_name(field_path(field, i))} must be finite, got {describe(x)}")
        out.append(f)
    lo, hi = out
    if not lo < hi:
        raise ValueError(f"{name}: field {field_name(field)} must have lo < hi, got [{lo!r}, {hi!r}]")
    return lo, hi


def read_choice(data: Mapping[str, Any], field: Field, name: str, choices: Sequence[Any],
                default: Any = REQUIRED) -> Any:
    """A field that takes one of a few JSON values (compared with their type: ``1`` is not
    ``true``).

    Parameters
    ----------
    data : mapping
        The object holding the field.
    field : str or tuple
        The field.
    name : str
        The caller, for messages.
    choices : sequence
        The allowed values.
    default : object, optional
        Returned when the field is absent.

    Returns
    -------
    object
        One of ``choices``.

    Raises
    ------
    ValueError
        Another value, or a required field that is absent.

    Examples
    --------
    >>> read_choice({"dtype": "int64"}, "dtype", "demo", ("int64", "float64"))
    'int64'
    >>> read_choice({"fixed": 1}, "fixed", "demo", (True, False))
    Traceback (most recent call last):
    ...
    ValueError: demo: field 'fixed' must be one of true, false; got 1
    """
    if default is not REQUIRED and field_key(field) not in data:
        return default
    v = require(data, field, name)
    for c in choices:
        if v is c or (type(v) is type(c) and v == c):
            return c
    shown = ", ".join("null" if c is None else json.dumps(c) for c in choices)
    raise ValueError(f"{name}: field {field_name(field)} must be one of {shown}; got {describe(v)}")
