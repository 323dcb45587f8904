"""The division-by-zero policy of metrics: ``zero_division``, as scikit-learn spells it.

A ratio whose denominator is 0 (precision of a class never predicted, recall of a class
absent from the truth) is undefined. One policy, chosen per call with ``zero_division``, fills
it: 0 with an :class:`UndefinedMetricWarning` (``"warn"``, the default), 0, 1 or NaN. Every
metric divides through a :class:`Division`, which applies the policy and remembers what was
undefined so that one warning names it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

__all__ = ["ZERO_DIVISION_CHOICES", "Division", "UndefinedMetricWarning", "check_zero_division"]

ZERO_DIVISION_CHOICES = ("warn", 0, 1, "nan")


class UndefinedMetricWarning(UserWarning):
    """A metric was undefined (zero denominator) and replaced per ``zero_division``.

    Examples
    --------
    >>> import warnings
    >>> from confmat.metrics import Stats, UndefinedMetricWarning, evaluate
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = evaluate("precision", Stats([[2, 0], [3, 0]]))
    >>> caught[0].category is UndefinedMetricWarning
    True
    """


def check_zero_division(zero_division: Any) -> Any:
    """Validate a ``zero_division`` argument, as scikit-learn spells it.

    Parameters
    ----------
    zero_division : {"warn", 0, 1, numpy.nan}
        What an undefined value becomes: 0 with a warning, 0, 1 or NaN.

    Returns
    -------
    str or int
        The value, with NaN spelled ``"nan"``.

    Raises
    ------
    ValueError
        For any other value (``True`` included).

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.zero_division import check_zero_division
    >>> check_zero_division(np.nan)
    'nan'
    >>> check_zero_division(2)
    Traceback (most recent call last):
    ...
    ValueError: zero_division must be one of 'warn', 0, 1 or np.nan, got 2
    """
    if isinstance(zero_division, float) and np.isnan(zero_division):
        return "nan"
    if isinstance(zero_division, bool) or zero_division not in ZERO_DIVISION_CHOICES:
        raise ValueError(
            f"zero_division must be one of 'warn', 0, 1 or np.nan, got {zero_division!r}"
        )
    return zero_division


class Division:
    """Divides arrays applying the zero-division policy; remembers what was undefined.

    Calling it as ``div(num, den, what)`` returns ``num / den`` with the policy's fill where
    ``den == 0`` and records ``what``; with an explicit ``fill`` nothing is recorded.

    Parameters
    ----------
    zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
        See :func:`check_zero_division`.

    Raises
    ------
    ValueError
        For a bad ``zero_division``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics import Division
    >>> div = Division()
    >>> div(np.array([1, 2]), np.array([2, 0]), "ppv").tolist(), div.undefined
    ([0.5, 0.0], ['ppv'])
    """

    def __init__(self, zero_division: Any = "warn") -> None:
        self.zero_division = check_zero_division(zero_division)
        self.undefined: list[str] = []

    @property
    def fill(self) -> float:
        """The value an undefined ratio becomes.

        Returns
        -------
        float
            0.0 for ``"warn"``, NaN for ``"nan"``, else ``zero_division``.

        Examples
        --------
        >>> from confmat.metrics import Division
        >>> Division(1).fill
        1.0
        """
        if self.zero_division == "nan":
            return float("nan")
        if self.zero_division == "warn":
            return 0.0
        return float(self.zero_division)

    def __call__(self, num: Any, den: Any, what: str = "ratio", fill: float | None = None) -> np.ndarray:
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        zero = den == 0
        if not zero.any():
            with np.errstate(invalid="ignore"):  # inf / inf, nan stay nan
                return num / den
        with np.errstate(divide="ignore", invalid="ignore"):
            out = num / np.where(zero, 1.0, den)
        out = np.where(zero, self.fill if fill is None else fill, out)
        if fill is None:
            self.undefined.append(what)
        return out

    def warn(self, metric: str, stacklevel: int = 4) -> None:
        """Emit one :class:`UndefinedMetricWarning` for ``metric`` if something was undefined under
        ``zero_division="warn"``, then forget the notes.

        Parameters
        ----------
        metric : str
            The metric named in the message.
        stacklevel : int, default 4
            Passed to :func:`warnings.warn` so the warning points at the user's call.

        Returns
        -------
        None

        Examples
        --------
        >>> import numpy as np
        >>> from confmat.metrics import Division
        >>> div = Division(0)
        >>> _ = div(np.array([1.0]), np.array([0.0]), "ppv")
        >>> div.warn("precision")  # zero_division=0: silent
        >>> div.undefined
        []
        """
        if self.undefined and self.zero_division == "warn":
            what = ", ".join(dict.fromkeys(self.undefined))
            warnings.warn(
                f"{metric} is ill-defined for some classes ({what} has a zero denominator) and "
                "is set to 0.0 there. Use zero_division to control this.",
                UndefinedMetricWarning,
                stacklevel=stacklevel,
            )
        self.undefined.clear()
