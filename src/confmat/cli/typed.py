"""Values typed on the command line (``--labels``, ``--pos-label``) read in the type of the
file's label column: ``--labels 0,1`` are the integers of an integer column, ``--pos-label
1.0`` the integer 1, ``yes`` a boolean's True."""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import InputError, truth_classes

__all__ = ["coerce"]


def coerce(values: list[str], like: np.ndarray, what: str) -> list[Any]:
    """Typed-in labels as the type of the file's label column (1 -> int 1 for an int column).

    A text denotes a label when it is that label written as a number in any notation:
    ``1.0`` or ``1e0`` is the integer label 1, and ``1.0`` / ``0.0`` are also True / False
    of a boolean column, as numpy's equality (and so scikit-learn's ``pos_label=1.0``)
    takes them. The reading is exact (decimal, not through a float): ``9007199254740993.0``
    is that integer, never its float64 neighbour. A text that denotes no label of the
    column's type (``1.5`` for integers) is an error naming the option and the labels.

    Parameters
    ----------
    values : list of str
        The labels as typed.
    like : ndarray
        Values of the label column (or its labels); its dtype decides (integer, float, bool
        ``true/false`` in any case or a number equal to 1 / 0, else text).
    what : str
        The option, for the message (``"--pos-label"``).

    Returns
    -------
    list
        The labels as int, float, bool or str.

    Raises
    ------
    InputError
        If a value cannot be read in the column's type.

    Examples
    --------
    >>> coerce(["1", "0"], np.array([0, 1]), "--labels value")
    [1, 0]
    >>> coerce(["1.0", "1e1"], np.array([1, 10]), "--pos-label")
    [1, 10]
    >>> coerce(["1.5"], np.array([0, 1, 1]), "--pos-label")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --pos-label '1.5' is not one of the labels [0, 1]: the label column holds integers (int64)
    >>> coerce(["yes"], np.array([True, False]), "--pos-label")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --pos-label 'yes' does not match the label column, whose values are bool (e.g. [True, False])
    """
    kind = like.dtype.kind
    out: list[Any] = []
    for v in values:
        try:
            if kind in "iu":
                out.append(_integer(v))
            elif kind == "f":
                out.append(float(v))
            elif kind == "b":
                low = v.strip().lower()
                if low in ("true", "false"):
                    out.append(low == "true")
                else:
                    n = _integer(v)
                    if n not in (0, 1):
                        raise ValueError(v)
                    out.append(n == 1)
            else:
                out.append(v)
        except ValueError:
            if kind in "iu":
                shown = truth_classes(like)
                more = "..." if len(shown) > 20 else ""
                raise InputError(
                    f"{what} {v!r} is not one of the labels {shown[:20]}{more}: the label "
                    f"column holds integers ({like.dtype.name})"
                ) from None
            raise InputError(
                f"{what} {v!r} does not match the label column, whose values are "
                f"{like.dtype.name} (e.g. {like[:3].tolist()})"
            ) from None
    return out


def _integer(text: str) -> int:
    """The integer a text denotes exactly (``"1"``, ``"1.0"``, ``"1e3"``), else ValueError."""
    from decimal import Decimal, InvalidOperation

    t = text.strip()
    try:
        return int(t)
    except ValueError:
        pass
    try:
        d = Decimal(t)
    except InvalidOperation:
        raise ValueError(text) from None
    if not d.is_finite() or d != d.to_integral_value() or abs(d.adjusted()) > 4300:
        raise ValueError(text)
    return int(d)
