r"""Partial area under the ROC curve on a specificity or a sensitivity range, with McClish's
standardisation, and the sensitivity / specificity points the ROC tools of pROC work on.

The empirical ROC curve here is pROC's (Robin et al. 2011): one point per distinct score
(a sample is positive when ``score >= threshold``) plus the point of the infinite threshold,
with sensitivity :math:`TP/P` and specificity :math:`(N - FP)/N`, joined by straight lines
(ties between the classes give diagonal segments). The partial area over a specificity range
:math:`[a, b]` is the exact integral of that piecewise-linear curve,

.. math:: \mathrm{pAUC}_{sp}(a, b) = \int_a^b \mathrm{Se}(\mathrm{Sp})\, d\mathrm{Sp},

and over a sensitivity range the integral of the specificity along the sensitivity axis.
McClish (1989) maps it onto [0.5, 1] with the area of the diagonal :math:`m = (2 - a - b)(b -
a)/2` and of the perfect curve :math:`M = b - a`:

.. math:: \mathrm{pAUC}_{corr} = \frac{1}{2}\left(1 + \frac{\mathrm{pAUC} - m}{M - m}\right),

defined only when :math:`\mathrm{pAUC} \ge m` (a curve above the diagonal on the range).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.options import check_flag
from ..inputs.targets import binary_target
from ..metrics import UndefinedMetricWarning
from .rank import cumulative_counts

REF_MCCLISH = (
    "McClish, D. K. (1989), Analyzing a portion of the ROC curve, Medical Decision Making "
    "9(3), 190-195."
)
REF_ROBIN = (
    "Robin, X., Turck, N., Hainard, A., Tiberti, N., Lisacek, F., Sanchez, J.-C., Mueller, M. "
    "(2011), pROC: an open-source package for R and S+ to analyze and compare ROC curves, BMC "
    "Bioinformatics 12, 77."
)

FOCUSES = ("specificity", "sensitivity")


def check_range(value: Any, name: str) -> tuple[float, float]:
    """Two distinct numbers in [0, 1], returned as ``(low, high)``.

    Parameters
    ----------
    value : sequence of two numbers
        The range, in either order.
    name : str
        The argument's name, for error messages.

    Returns
    -------
    tuple of float
        ``(low, high)`` with ``low < high``.

    Raises
    ------
    TypeError
        Not two numbers.
    ValueError
        Outside [0, 1] or equal.

    Examples
    --------
    >>> check_range((1, 0.8), "specificity")
    (0.8, 1.0)
    """
    try:
        pair = [v for v in value]
    except TypeError:
        raise TypeError(f"{name} must be a pair of numbers such as (0.8, 1.0), got "
                        f"{value!r}") from None
    if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, int | float | np.number)
                             for v in pair):
        raise TypeError(f"{name} must be a pair of numbers such as (0.8, 1.0), got {value!r}")
    lo, hi = sorted(float(v) for v in pair)
    if not (0.0 <= lo and hi <= 1.0) or np.isnan(lo) or np.isnan(hi):
        raise ValueError(f"{name} must lie within [0, 1], got {value!r}")
    if lo == hi:
        raise ValueError(f"{name} must be a range of positive width, got {value!r}")
    return lo, hi


def check_focus(value: Any, name: str = "partial_auc_focus") -> str:
    """The axis of a partial-area range: ``'specificity'`` or ``'sensitivity'`` (pROC's
    ``partial.auc.focus``).

    Parameters
    ----------
    value : str
        The focus.
    name : str
        The argument's name, for error messages.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Any other value.

    Examples
    --------
    >>> check_focus("sensitivity")
    'sensitivity'
    """
    if not isinstance(value, str) or value not in FOCUSES:
        raise ValueError(f"{name} must be 'specificity' or 'sensitivity', got {value!r}")
    return value


@dataclass(frozen=True)
class PartialRange:
    """A range of a partial AUC: its axis, its bounds and whether the area is
    McClish-standardised (pROC's ``partial.auc``, ``partial.auc.focus``,
    ``partial.auc.correct``), with the words the reports use for it.

    Build it with :meth:`parse`, which validates the three arguments.

    Parameters
    ----------
    focus : {'specificity', 'sensitivity'}
    low, high : float
        ``0 <= low < high <= 1``.
    correct : bool, default True
        McClish's (1989) standardisation.

    Examples
    --------
    >>> r = PartialRange.parse((1, 0.8), "sensitivity")
    >>> r.label, r.curve_kwargs()
    ('sensitivity 0.8 to 1, McClish-corrected', {'sensitivity': (0.8, 1.0)})
    """

    focus: str
    low: float
    high: float
    correct: bool = True

    @classmethod
    def parse(cls, bounds: Any, focus: Any = "specificity", correct: Any = True,
              name: str = "partial_auc") -> PartialRange:
        """Validate a range given as ``bounds`` on the axis ``focus``.

        Parameters
        ----------
        bounds : pair of float
            The range, in either order.
        focus : {'specificity', 'sensitivity'}, default 'specificity'
        correct : bool, default True
        name : str
            The name of the ``bounds`` argument, for error messages (the focus is named
            ``<name>_focus``, the flag ``<name>_correct``).

        Returns
        -------
        PartialRange

        Raises
        ------
        TypeError
            ``bounds`` not two numbers, ``correct`` not a bool.
        ValueError
            A focus other than the two axes, bounds outside [0, 1] or equal.

        Examples
        --------
        >>> PartialRange.parse([0.9, 0.8])
        PartialRange(focus='specificity', low=0.8, high=0.9, correct=True)
        """
        axis = check_focus(focus, f"{name}_focus")
        check_flag(correct, f"{name}_correct")
        lo, hi = check_range(bounds, name)
        return cls(axis, lo, hi, bool(correct))

    @classmethod
    def optional(cls, bounds: Any, focus: Any = "specificity", correct: Any = True,
                 name: str = "partial_auc") -> PartialRange | None:
        """:meth:`parse` for functions whose range is optional: None without ``bounds``,
        and an error for a focus (or a correction flag) given without them, which would be
        ignored.

        Parameters
        ----------
        bounds : pair of float or None
        focus, correct, name
            As :meth:`parse`.

        Returns
        -------
        PartialRange or None

        Raises
        ------
        TypeError, ValueError
            As :meth:`parse`; ``focus='sensitivity'`` or ``correct=False`` without
            ``bounds``.

        Examples
        --------
        >>> PartialRange.optional(None) is None
        True
        >>> try:
        ...     PartialRange.optional(None, "sensitivity")
        ... except ValueError as exc:
        ...     print(str(exc).split(":")[0])
        partial_auc_focus='sensitivity' applies to a partial AUC
        """
        if bounds is not None:
            return cls.parse(bounds, focus, correct, name)
        if check_focus(focus, f"{name}_focus") != "specificity":
            raise ValueError(f"{name}_focus={focus!r} applies to a partial AUC: give "
                             f"{name}=(low, high) too")
        if correct is not True:
            raise ValueError(f"{name}_correct={correct!r} applies to a partial AUC: give "
                             f"{name}=(low, high) too")
        return None

    @property
    def bounds(self) -> tuple[float, float]:
        """``(low, high)``."""
        return self.low, self.high

    @property
    def label(self) -> str:
        """The range in words, e.g. ``'specificity 0.8 to 1, McClish-corrected'``."""
        return (f"{self.focus} {self.low:g} to {self.high:g}"
                + (", McClish-corrected" if self.correct else ", uncorrected"))

    @property
    def name(self) -> str:
        """The partial AUC's name in tables (:func:`partial_auc_name`), e.g.
        ``'partial_auc[specificity 0.8 to 1, McClish-corrected]'``."""
        return partial_auc_name(self.label)

    def curve_kwargs(self) -> dict[str, Any]:
        """The range as the keyword of :func:`partial_auc` and
        :func:`confmat.inference.roc_ci.partial_auc_ci` (``specificity=`` or
        ``sensitivity=``).

        Returns
        -------
        dict
        """
        return {self.focus: self.bounds}

    def test_kwargs(self) -> dict[str, Any]:
        """The range as the keywords of :func:`confmat.inference.roc_test.roc_test`
        (``partial_specificity=`` or ``partial_sensitivity=``, and ``correct=``).

        Returns
        -------
        dict

        Examples
        --------
        >>> PartialRange.parse((0.8, 1)).test_kwargs()
        {'partial_specificity': (0.8, 1.0), 'correct': True}
        """
        return {f"partial_{self.focus}": self.bounds, "correct": self.correct}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``focus``, ``range``, ``corrected``.

        Returns
        -------
        dict

        Examples
        --------
        >>> PartialRange.parse((0.8, 1), "sensitivity").to_dict()
        {'focus': 'sensitivity', 'range': [0.8, 1.0], 'corrected': True}
        """
        return {"focus": self.focus, "range": [self.low, self.high], "corrected": self.correct}


def partial_auc_name(range_label: str) -> str:
    """The name of a partial AUC in machine-readable tables (a comparison's
    ``to_frame()``, the CSV of reports): ``partial_auc`` with its range in words
    (:attr:`PartialRange.label`: focus, bounds, McClish-corrected or uncorrected) in brackets,
    so that two partial AUCs never share a column and a reader sees which area it is.

    Parameters
    ----------
    range_label : str
        :attr:`PartialRange.label`.

    Returns
    -------
    str

    Examples
    --------
    >>> partial_auc_name(PartialRange.parse((0.8, 1)).label)
    'partial_auc[specificity 0.8 to 1, McClish-corrected]'
    """
    return f"partial_auc[{range_label}]"


def se_sp_points(pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds (decreasing, ``inf`` first), sensitivities and specificities of the
    empirical ROC curve of validated binary input.

    Parameters
    ----------
    pos : ndarray of bool
        True for positive samples.
    score : ndarray of float
        Scores.
    weight : ndarray or None
        Non-negative weights.

    Returns
    -------
    thresholds, se, sp : ndarray
        ``se = TP/P`` increasing from 0, ``sp = (N - FP)/N`` decreasing from 1.

    Examples
    --------
    >>> t, se, sp = se_sp_points(np.array([False, True, True]), np.array([.1, .5, .3]), None)
    >>> se.tolist(), sp.tolist()
    ([0.0, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0])
    """
    thr, tps, fps = cumulative_counts(pos, score, weight)
    p, n = tps[-1], fps[-1]
    se = np.concatenate([[0.0], tps / p])
    sp = np.concatenate([[1.0], (n - fps) / n])
    return np.concatenate([[np.inf], thr.astype(np.float64)]), se, sp


def partial_area(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Integral over ``x`` in ``[lo, hi]`` of the polyline through ``(x, y)`` along the last axis.

    Parameters
    ----------
    x, y : ndarray of shape (..., m)
        Points of the curve, ``x`` non-decreasing along the last axis (vertical segments,
        equal ``x``, add nothing).
    lo, hi : float
        The range, ``lo < hi``.

    Returns
    -------
    ndarray of shape (...)
        The areas.

    Examples
    --------
    >>> float(partial_area(np.array([0.0, 1.0]), np.array([0.0, 1.0]), 0.5, 1.0))
    0.375
    """
    x0, x1 = x[..., :-1], x[..., 1:]
    y0, y1 = y[..., :-1], y[..., 1:]
    a = np.maximum(x0, lo)
    b = np.minimum(x1, hi)
    width = x1 - x0
    inside = (b > a) & (width > 0)
    safe = np.where(width > 0, width, 1.0)
    ya = y0 + (a - x0) / safe * (y1 - y0)
    yb = y0 + (b - x0) / safe * (y1 - y0)
    return np.where(inside, (b - a) * (ya + yb) / 2.0, 0.0).sum(axis=-1)


def focus_area(se: np.ndarray, sp: np.ndarray, lo: float, hi: float, focus: str) -> np.ndarray:
    """Partial area of curves given as ``se`` increasing / ``sp`` decreasing along the last axis.

    Parameters
    ----------
    se, sp : ndarray of shape (..., m)
        Sensitivities and specificities in the order of :func:`se_sp_points`.
    lo, hi : float
        The range of the focus axis.
    focus : {'specificity', 'sensitivity'}
        The axis of the range.

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    >>> a = focus_area(np.array([0.0, 1.0]), np.array([1.0, 0.0]), 0.8, 1.0, "specificity")
    >>> round(float(a), 12)  # the diagonal: (2 - 0.8 - 1) * 0.2 / 2
    0.02
    """
    if focus == "specificity":
        return partial_area(sp[..., ::-1], se[..., ::-1], lo, hi)
    return partial_area(se, sp, lo, hi)


def mcclish(area: np.ndarray | float, lo: float, hi: float) -> np.ndarray:
    """McClish's (1989) standardised partial area (may fall below 0.5 for curves under the
    diagonal; the caller decides what to do with those).

    Parameters
    ----------
    area : float or ndarray
        Partial areas on ``[lo, hi]``.
    lo, hi : float
        The range.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> float(mcclish(0.2, 0.8, 1.0))
    1.0
    """
    low = (2.0 - lo - hi) * (hi - lo) / 2.0
    high = hi - lo
    return np.asarray((1.0 + (np.asarray(area) - low) / (high - low)) / 2.0)


def diagonal_area(lo: float, hi: float) -> float:
    """Partial area of the chance diagonal on ``[lo, hi]`` (either focus).

    Parameters
    ----------
    lo, hi : float
        The range.

    Returns
    -------
    float

    Examples
    --------
    >>> diagonal_area(0.0, 1.0)
    0.5
    """
    return (2.0 - lo - hi) * (hi - lo) / 2.0


def resolve_focus(specificity: Any, sensitivity: Any) -> tuple[str, float, float]:
    """The focus and range of a partial-area call given ``specificity=`` or ``sensitivity=``.

    Parameters
    ----------
    specificity, sensitivity : pair of numbers or None
        Exactly one must be given.

    Returns
    -------
    tuple
        ``(focus, low, high)``.

    Raises
    ------
    ValueError
        Neither or both given.

    Examples
    --------
    >>> resolve_focus(None, (0.9, 1))
    ('sensitivity', 0.9, 1.0)
    """
    if (specificity is None) == (sensitivity is None):
        raise ValueError("give exactly one of specificity=(low, high) or "
                         "sensitivity=(low, high) for a partial AUC")
    if specificity is not None:
        return ("specificity", *check_range(specificity, "specificity"))
    return ("sensitivity", *check_range(sensitivity, "sensitivity"))


def partial_auc(
    y_true: Any,
    y_score: Any,
    *,
    specificity: Any = None,
    sensitivity: Any = None,
    correct: bool = False,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Partial area under the ROC curve on a specificity or a sensitivity range.

    pROC's ``auc(roc, partial.auc=, partial.auc.focus=, partial.auc.correct=)`` (Robin et al.
    2011): the exact area of the empirical ROC curve over the range, optionally standardised
    as McClish (1989) proposed.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (two classes, or any labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Finite scores; higher means more likely positive.
    specificity : pair of float, optional
        The specificity range, e.g. ``(0.8, 1.0)``: the area of sensitivity over it.
    sensitivity : pair of float, optional
        The sensitivity range: the area of specificity over it. Give exactly one of the two.
    correct : bool, default=False
        McClish's standardisation to [0.5, 1] (0.5 for the diagonal, 1 for a perfect curve).
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (weighted rates).

    Returns
    -------
    float
        The partial area (at most ``high - low``), or the standardised one; nan with an
        :class:`~confmat.metrics.UndefinedMetricWarning` when a class is missing, or when
        ``correct=True`` and the curve lies under the diagonal on the range (pROC gives NA).

    Raises
    ------
    ValueError
        Neither or both ranges, a range outside [0, 1] or of zero width, bad labels,
        scores or weights.
    TypeError
        A range that is not two numbers.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> partial_auc(y, s, specificity=(0.5, 1.0))
    0.25
    >>> partial_auc(y, s, specificity=(0.5, 1.0), correct=True)  # (1 + 0.125 / 0.375) / 2
    0.6666666666666666
    """
    focus, lo, hi = resolve_focus(specificity, sensitivity)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    w = b.weight
    p_mass = np.count_nonzero(b.pos) if w is None else float(w[b.pos].sum())
    n_mass = np.count_nonzero(~b.pos) if w is None else float(w[~b.pos].sum())
    if p_mass == 0 or n_mass == 0:
        warnings.warn("Only one class is present in y_true (or has weight); the partial AUC "
                      "is not defined", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    _, se, sp = se_sp_points(b.pos, b.score, w)
    area = float(focus_area(se, sp, lo, hi, focus))
    if not correct:
        return area
    if area < diagonal_area(lo, hi):
        warnings.warn("McClish's correction is not defined for a ROC curve below the diagonal "
                      "on the range; returning nan", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float(mcclish(area, lo, hi))
