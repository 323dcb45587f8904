"""Versioned JSON state: the one reader of ``from_dict`` / ``from_json`` input.

:class:`~confmat.ConfusionMatrix`, :class:`~confmat.Accumulator` and
:class:`~confmat.binned.ScoreHistogram` save themselves as small versioned JSON objects
(``{"schema": ..., "version": ..., ...}``) and read them back from files and other
processes, that is from untrusted input. Every such read goes through this module:
:func:`parse_json` (text), :func:`check_envelope` (schema name and version), then one
``read_*`` function per field. Each class's ``from_dict`` only says which fields it has and
how they must agree with each other; :func:`json_labels` is the matching writer of labels.

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

import json
import math
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any, Literal

import numpy as np

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
    "read_labels",
    "require",
]

#: Largest value of an int64 count (and of a table's total).
INT64_MAX = 2**63 - 1

#: A field: its key, or the path of keys/indices to it from the top-level object
#: (``("scores", "index")`` is shown as ``'scores'['index']``).
Field = str | tuple[Any, ...]

_REQUIRED: Any = object()


def field_name(field: Field) -> str:
    """How errors show a field: ``'counts'``, ``'counts'[1][0]``, ``'scores'['index']``."""
    if isinstance(field, str):
        return repr(field)
    first, *rest = field
    return repr(first) + "".join(f"[{k!r}]" for k in rest)


def _path(field: Field, *more: Any) -> tuple[Any, ...]:
    return ((field,) if isinstance(field, str) else tuple(field)) + more


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _got(v: Any) -> str:
    """A JSON value as error messages show it: ``null``, ``true (a boolean)``, ``'3' (a
    string)``, ``a list``, or the number."""
    if v is None:
        return "null"
    if isinstance(v, bool | np.bool_):
        return f"{str(bool(v)).lower()} (a boolean)"
    if isinstance(v, str):
        return f"{_show(v)} (a string)"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
    if isinstance(v, int | float | np.number):
        return _show(v)
    return f"{_show(v)} (a {type(v).__name__})"


# ------------------------------------------------------------------------------ text
class _NotFinite(ValueError):
    pass


def _reject_constant(literal: str) -> Any:
    raise _NotFinite(literal)


def _finite_float(literal: str) -> float:
    v = float(literal)
    if not math.isfinite(v):
        raise _NotFinite(literal)
    return v


def parse_json(text: Any, name: str) -> Any:
    """``json.loads`` for state: errors name the caller, and the non-standard literals
    ``NaN`` / ``Infinity`` (which Python's json accepts) and numbers beyond float64 such
    as ``1e400`` are rejected instead of becoming non-finite counts."""
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"{name}: text must be a JSON string, got {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except _NotFinite as exc:
        raise ValueError(
            f"{name}: text contains {exc.args[0]}, which is not a finite number "
            "(JSON state holds finite counts only)"
        ) from None
    except RecursionError:
        raise ValueError(f"{name}: text is nested too deeply to be confmat state") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, integers beyond the digit limit
        raise ValueError(f"{name}: text is not valid JSON: {exc}") from exc


# ------------------------------------------------------------------------------ envelope
def _key(field: Field) -> Any:
    return field if isinstance(field, str) else field[-1]


def require(data: Mapping[str, Any], field: Field, name: str, default: Any = _REQUIRED) -> Any:
    """The value of ``field`` in ``data`` (the innermost object), or ``default`` when the
    key is absent (an error naming the field when there is no default)."""
    key = _key(field)
    if key in data:
        return data[key]
    if default is _REQUIRED:
        raise ValueError(f"{name}: data is missing the {field_name(field)} field")
    return default


def check_envelope(
    data: Any, schema: str, version: int, name: str, *, what: str, at: tuple[Any, ...] = ()
) -> int:
    """Check that ``data`` is a mapping whose ``schema`` is ``schema`` and whose ``version``
    this code reads (1 to ``version``); return the version. ``what`` says in words what the
    object is ("confmat confusion matrix"); ``at`` is the path of a nested object."""
    where = f"field {field_name(at)} " if at else "data "
    if not isinstance(data, Mapping):
        raise TypeError(
            f"{name}: {where}must be a mapping (the output of to_dict()), got "
            f"{type(data).__name__}"
        )
    got = data.get("schema")
    if not isinstance(got, str) or got != schema:
        raise ValueError(
            f"{name}: {where}is not a {what}: field {field_name(_path(at, 'schema'))} must be "
            f"{schema!r}, got {_got(got)}"
        )
    v = require(data, _path(at, "version"), name)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(
            f"{name}: field {field_name(_path(at, 'version'))} must be an integer, got "
            f"{_got(v)}"
        )
    if v > version:
        raise ValueError(
            f"{name}: unsupported schema version {v} of {schema!r} (field "
            f"{field_name(_path(at, 'version'))}): it was written by a newer confmat; this "
            f"one reads {'version 1' if version == 1 else f'versions 1 to {version}'}, "
            "upgrade confmat to read it"
        )
    if v < 1:
        raise ValueError(
            f"{name}: unsupported schema version {v} of {schema!r} (field "
            f"{field_name(_path(at, 'version'))}): versions start at 1"
        )
    return v


# ------------------------------------------------------------------------------ scalars
def read_int(
    data: Mapping[str, Any], field: Field, name: str, *, minimum: int | None = None,
    maximum: int | None = None, default: Any = _REQUIRED,
) -> int:
    """An integer field (an integral float such as ``10.0`` is accepted; ``10.5``, ``true``
    and ``"10"`` are not)."""
    if default is not _REQUIRED and _key(field) not in data:
        return default
    v = require(data, field, name)
    out = _as_int(v)
    if out is None:
        err = ValueError if isinstance(v, float | np.floating) else TypeError
        raise err(f"{name}: field {field_name(field)} must be an integer, got {_got(v)}")
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
                     default: Any = _REQUIRED) -> tuple[float, float]:
    """A ``[lo, hi]`` pair of finite numbers with ``lo < hi`` (a score range)."""
    if default is not _REQUIRED and _key(field) not in data:
        return default
    v = require(data, field, name)
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise TypeError(
            f"{name}: field {field_name(field)} must be a list [lo, hi] of two numbers, got "
            f"{_got(v)}"
        )
    out = []
    for i, x in enumerate(v):
        if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.number):
            raise TypeError(
                f"{name}: field {field_name(_path(field, i))} must be a number, got "
                f"{_got(x)}"
            )
        try:
            f = float(x)
        except OverflowError:
            f = math.inf
        if not math.isfinite(f):
            raise ValueError(f"{name}: field {field_name(_path(field, i))} must be finite, got {_got(x)}")
        out.append(f)
    lo, hi = out
    if not lo < hi:
        raise ValueError(f"{name}: field {field_name(field)} must have lo < hi, got [{lo!r}, {hi!r}]")
    return lo, hi


def read_choice(data: Mapping[str, Any], field: Field, name: str, choices: Sequence[Any],
                default: Any = _REQUIRED) -> Any:
    """A field that takes one of a few JSON values (compared with their type: ``1`` is not
    ``true``)."""
    if default is not _REQUIRED and _key(field) not in data:
        return default
    v = require(data, field, name)
    for c in choices:
        if v is c or (type(v) is type(c) and v == c):
            return c
    shown = ", ".join("null" if c is None else json.dumps(c) for c in choices)
    raise ValueError(f"{name}: field {field_name(field)} must be one of {shown}; got {_got(v)}")


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
        f"{name}: {where} must be a string, number or boolean, got {_got(v)}"
    )


def _label(v: Any, name: str, field: Field, tuples: bool) -> Any:
    if tuples and isinstance(v, list | tuple):
        return tuple(_scalar_label(x, name, f"field {field_name(_path(field, j))}")
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
    without duplicates, at least ``minimum`` of them. With ``tuples``, a label may also be
    a list of such scalars (read as a tuple: ``ConfusionMatrix`` accepts tuple labels)."""
    raw = require(data, field, name)
    if isinstance(raw, np.ndarray):
        raw = raw.tolist()
    if not isinstance(raw, list | tuple):
        raise TypeError(
            f"{name}: field {field_name(field)} must be a list of labels, got "
            f"{_got(raw)}"
        )
    out = [_label(v, name, _path(field, i), tuples) for i, v in enumerate(raw)]
    return _check_label_list(out, name, field, minimum)


def json_labels(labels: Sequence[Any], name: str, field: str = "labels") -> list[Any]:
    """Labels as JSON values, checked by the rules of :func:`read_labels` (tuples allowed),
    so that ``to_dict`` never writes state that ``from_dict`` would refuse."""
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
                where = _path(field, *_unravel(idx, dims))
                raise TypeError(
                    f"{name}: field {field_name(where)} must be a list (the field is a "
                    f"{len(shape)}-D array), got {_got(node)}"
                )
            if n is None:
                n, first = len(node), idx
            elif len(node) != n:
                a = field_name(_path(field, *_unravel(idx, dims)))
                b = field_name(_path(field, *_unravel(first, dims)))
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
                f"{name}: field {field_name(_path(field, *_unravel(i, dims)))} must be {want}, "
                f"got {_got(v)}"
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
    """An array of counts stored as nested JSON lists: ``int64`` when ``integer`` (exact
    Python-int checks: 2**63 is refused, 2**53 + 1 is kept), ``float64`` otherwise, and with
    ``"auto"`` int64 when every value is an integer and float64 when one is not.

    Every value is non-negative and finite; ``shape`` gives the length of every dimension
    (``None``: any); ``why`` explains the expected shape in the error. With ``check_total``
    the sum must fit int64 (or be finite), since metrics add the counts up.
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
        return field_name(_path(field, *_unravel(i, dims)))

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
                f"{_show(flat[i])}"
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
                f"{_show(flat[i])}"
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
    (exact: the reader checked it fits), a float otherwise."""
    if arr.dtype.kind == "f":
        return float(arr.sum())
    return int(arr.sum())
