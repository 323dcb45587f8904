"""Strict JSON values for the report's ``to_dict`` forms: NaN and infinities become ``null``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar


def num(x: Any) -> float | None:
    """A JSON-safe float: NaN and infinities become ``None``.

    Parameters
    ----------
    x : number

    Returns
    -------
    float or None

    Examples
    --------
    >>> num(0.5), num(float("nan"))
    (0.5, None)
    """
    v = float(x)
    return v if math.isfinite(v) else None


def label_json(v: Any) -> Any:
    """A class label as a JSON value (numpy scalars unwrapped, other objects as ``str``).

    Parameters
    ----------
    v : label

    Returns
    -------
    str, int, float, bool or None

    Examples
    --------
    >>> label_json(np.int64(3)), label_json((1, 2))
    (3, '(1, 2)')
    """
    v = py_scalar(v)
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    return str(v)


def clean(x: Any) -> Any:
    """Any nested mapping / sequence / numpy value as strict JSON data (NaN -> None).

    Parameters
    ----------
    x : object

    Returns
    -------
    object
        Built from dict, list, str, int, float, bool and None only.

    Examples
    --------
    >>> clean({"a": np.float64("nan"), 1: (np.int64(2),)})
    {'a': None, '1': [2]}
    """
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [clean(v) for v in x]
    if isinstance(x, np.ndarray):
        return clean(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float):
        return num(x)
    if isinstance(x, str | int | bool) or x is None:
        return x
    return str(x)
