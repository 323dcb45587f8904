"""Interpretation scales as data: published bands that turn a metric value into words.

A scale is a list of bands ``[low, high)`` with a label, the metrics it applies to, where it
comes from and, when PyCM 4.6 reports the same bands, PyCM's key (so the oracle test can
check every band boundary against PyCM). ``interpret(metric, value)`` picks a band;
``ConfusionMatrix.interpret(name)`` does the same for a computed metric.

The bands are rules of thumb from the cited authors, not statistical tests; two scales can
call the same kappa "fair" and "poor", which is why the source travels with every answer.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from . import references as R
from .registry import get_metric

INF = math.inf


@dataclass(frozen=True)
class Band:
    """One band of a scale: values in ``[low, high)`` get ``label``.

    Parameters
    ----------
    low, high : float
        The band's edges.
    label : str
        The words for a value in the band.
    high_closed : bool, default False
        Include ``high`` (the last band of a bounded scale).
    low_open : bool, default False
        Exclude ``low`` (PyCM gives no band for exactly 0 on some scales).

    Examples
    --------
    >>> from confmat.metrics.scales import Band
    >>> b = Band(0.4, 0.6, "Moderate")
    >>> str(b), b.contains(0.4), b.contains(0.6)
    ('[0.4, 0.6) Moderate', True, False)
    """

    low: float
    high: float
    label: str
    high_closed: bool = False
    low_open: bool = False

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the band.

        Parameters
        ----------
        value : float
            The metric's value.

        Returns
        -------
        bool

        Examples
        --------
        >>> from confmat.metrics.scales import Band
        >>> Band(0.8, 1.0, "Almost Perfect", high_closed=True).contains(1.0)
        True
        """
        above = value > self.low if self.low_open else value >= self.low
        below = value <= self.high if self.high_closed else value < self.high
        return above and below

    def __str__(self) -> str:
        left = "(" if self.low_open else "["
        right = "]" if self.high_closed else ")"
        return f"{left}{self.low:g}, {self.high:g}{right} {self.label}"


@dataclass(frozen=True)
class Scale:
    """A named set of bands for one or more metrics, with its source.

    Parameters
    ----------
    name : str
        The key users pass as ``scale=`` (``"landis_koch"``, ``"yao2022"``, ...).
    title : str
        Author, year and what the bands grade.
    metrics : tuple of str
        Canonical names of the metrics the scale applies to.
    bands : tuple of Band
        In increasing order.
    reference : str
        The source, author and year first.
    pycm : str or None
        PyCM's key for the same bands, if any.
    note : str
        Where confmat's reading differs from a literal one, and why.

    Examples
    --------
    >>> from confmat.metrics.scales import get_scale
    >>> sc = get_scale("kappa", "fleiss")
    >>> sc.title, len(sc.bands)
    ('Fleiss (1981) benchmark', 3)
    """

    name: str
    title: str
    metrics: tuple[str, ...]
    bands: tuple[Band, ...]
    reference: str
    pycm: str | None = None
    note: str = ""

    def band(self, value: float) -> Band | None:
        """The band that ``value`` falls in.

        Parameters
        ----------
        value : float
            The metric's value.

        Returns
        -------
        Band or None
            None for NaN or a value outside every band.

        Examples
        --------
        >>> from confmat.metrics.scales import get_scale
        >>> print(get_scale("kappa").band(0.65))
        [0.6, 0.8) Substantial
        """
        if value is None or math.isnan(float(value)):
            return None
        for b in self.bands:
            if b.contains(float(value)):
                return b
        return None

    def describe(self) -> dict[str, Any]:
        """The scale as plain data, e.g. for JSON.

        Returns
        -------
        dict
            ``name``, ``title``, ``metrics``, ``bands`` (as strings), ``reference``, ``pycm`` and
            ``note``.

        Examples
        --------
        >>> from confmat.metrics.scales import get_scale
        >>> get_scale("kappa", "fleiss").describe()["bands"][0]
        '[-inf, 0.4) Poor'
        """
        return {
            "name": self.name,
            "title": self.title,
            "metrics": list(self.metrics),
            "bands": [str(b) for b in self.bands],
            "reference": self.reference,
            "pycm": self.pycm,
            "note": self.note,
        }


@dataclass(frozen=True)
class Interpretation:
    """The band a value falls in, with the scale and its source.

    Parameters
    ----------
    metric : str
        Canonical metric name.
    value : float
        The value interpreted.
    label : str
        The band's words, ``"undefined"`` for NaN or ``"outside the scale's bands"``.
    scale : str
        The scale's name.
    reference : str
        The scale's source.
    low, high : float or None
        The band's edges (None when no band applies).
    class_label : object
        The class, for per-class values.

    Examples
    --------
    >>> from confmat.metrics.scales import interpret
    >>> res = interpret("kappa", 0.65)
    >>> res.label, res.scale, (res.low, res.high)
    ('Substantial', 'landis_koch', (0.6, 0.8))
    """

    metric: str
    value: float
    label: str
    scale: str
    reference: str
    low: float | None = None
    high: float | None = None
    class_label: Any = None

    def __str__(self) -> str:
        who = f" [{self.class_label}]" if self.class_label is not None else ""
        rng = f" (band {self.low:g} to {self.high:g})" if self.low is not None else ""
        return (f"{self.metric}{who} = {self.value:.4g}: {self.label}{rng}, "
                f"scale {self.scale!r} ({self.reference})")


_SCALES: dict[str, Scale] = {}
_BY_METRIC: dict[str, list[str]] = {}


def _scale(name: str, title: str, metrics: Sequence[str], bands: Sequence[tuple], reference: str,
           pycm: str | None = None, note: str = "") -> Scale:
    made = tuple(Band(*b) for b in bands)
    scale = Scale(name, title, tuple(metrics), made, reference, pycm, note)
    _SCALES[name] = scale
    for m in metrics:
        _BY_METRIC.setdefault(m, []).append(name)
    return scale


_KAPPA_LIKE = ("kappa", "scott_pi", "gwet_ac1", "bennett_s", "kappa_no_prevalence")
_KAPPA_NOTE = ("Proposed for Cohen's kappa; confmat also offers it for the other kappa-type "
               "coefficients, as agreement studies commonly do.")

# The first scale listed for a metric is its default.
_scale("landis_koch", "Landis and Koch (1977) strength of agreement", _KAPPA_LIKE,
       [(-INF, 0.0, "Poor"), (0.0, 0.2, "Slight"), (0.2, 0.4, "Fair"), (0.4, 0.6, "Moderate"),
        (0.6, 0.8, "Substantial"), (0.8, 1.0, "Almost Perfect", True)],
       R.LANDIS_KOCH, pycm="SOA1(Landis & Koch)", note=_KAPPA_NOTE)
_scale("fleiss", "Fleiss (1981) benchmark", _KAPPA_LIKE,
       [(-INF, 0.4, "Poor"), (0.4, 0.75, "Intermediate to Good"), (0.75, INF, "Excellent")],
       R.FLEISS_BOOK, pycm="SOA2(Fleiss)", note=_KAPPA_NOTE)
_scale("altman", "Altman (1991) benchmark", _KAPPA_LIKE,
       [(-INF, 0.2, "Poor"), (0.2, 0.4, "Fair"), (0.4, 0.6, "Moderate"), (0.6, 0.8, "Good"),
        (0.8, 1.0, "Very Good", True)],
       R.ALTMAN, pycm="SOA3(Altman)", note=_KAPPA_NOTE)
_scale("cicchetti", "Cicchetti (1994) guideline", _KAPPA_LIKE,
       [(-INF, 0.4, "Poor"), (0.4, 0.59, "Fair"), (0.59, 0.74, "Good"),
        (0.74, 1.0, "Excellent", True)],
       R.CICCHETTI, pycm="SOA4(Cicchetti)", note=_KAPPA_NOTE)
_scale("yao2022", "Yao, Yang and Li (2022) kappa bands", ("kappa",),
       [(-1.0, 0.21, "Below acceptable (not named by Yao et al. 2022)"),
        (0.21, 0.41, "Acceptable (可接受)"), (0.41, 0.61, "Moderate (中等)"),
        (0.61, 0.81, "High (较高)"), (0.81, 1.0, "Almost perfect (几乎完全一致)", True)],
       R.YAO,
       note="Yao et al. (2022) print 0.21-0.40, 0.41-0.60, 0.61-0.80 and > 0.81, leaving gaps "
            "(0.40-0.41, 0.80-0.81) and nothing below 0.21; confmat closes each gap upward "
            "([0.21, 0.41), ...) and labels values below 0.21 as not named by the authors.")
_scale("cramer", "Cramér's V strength of association (PyCM)", ("cramer_v",),
       [(-INF, 0.1, "Negligible"), (0.1, 0.2, "Weak"), (0.2, 0.4, "Moderate"),
        (0.4, 0.6, "Relatively Strong"), (0.6, 0.8, "Strong"), (0.8, INF, "Very Strong")],
       R.PYCM, pycm="SOA5(Cramer)")
_scale("matthews", "Matthews correlation strength (PyCM)", ("mcc", "class_mcc"),
       [(-INF, 0.3, "Negligible"), (0.3, 0.5, "Weak"), (0.5, 0.7, "Moderate"),
        (0.7, 0.9, "Strong"), (0.9, INF, "Very Strong")],
       R.PYCM, pycm="SOA6(Matthews)",
       note="As in PyCM, every value below 0.3 is 'Negligible', including strongly negative "
            "ones; a negative MCC means inverted predictions, so read its sign first.")
_scale("lambda", "Goodman-Kruskal lambda strength (PyCM)", ("lambda_a", "lambda_b"),
       [(0.0, 0.2, "Very Weak", False, True), (0.2, 0.4, "Weak"), (0.4, 0.6, "Moderate"),
        (0.6, 0.8, "Strong"), (0.8, 1.0, "Very Strong"), (1.0, 1.0, "Perfect", True)],
       R.PYCM, pycm="SOA7(Lambda A)",
       note="PyCM gives no band for exactly 0 (no reduction in error); neither does confmat.")
_scale("krippendorff", "Krippendorff (2004) reliability thresholds", ("krippendorff_alpha",),
       [(-INF, 0.667, "Low"), (0.667, 0.8, "Tentative"), (0.8, INF, "High")],
       R.KRIPPENDORFF, pycm="SOA9(Krippendorff Alpha)")
_scale("pearson_c", "Pearson's C strength (PyCM)", ("pearson_c",),
       [(0.0, 0.1, "Not Appreciable", False, True), (0.1, 0.2, "Weak"), (0.2, 0.3, "Medium"),
        (0.3, INF, "Strong")],
       R.PYCM, pycm="SOA10(Pearson C)",
       note="PyCM gives no band for exactly 0; neither does confmat.")
_scale("plr", "positive likelihood ratio usefulness (PyCM)", ("lr_plus",),
       [(-INF, 1.0, "Negligible"), (1.0, 5.0, "Poor"), (5.0, 10.0, "Fair"),
        (10.0, INF, "Good", True)],
       R.PYCM, pycm="PLRI")
_scale("nlr", "negative likelihood ratio usefulness (PyCM)", ("lr_minus",),
       [(-INF, 0.1, "Good"), (0.1, 0.2, "Fair"), (0.2, 0.5, "Poor"),
        (0.5, INF, "Negligible", True)],
       R.PYCM, pycm="NLRI")
_scale("dp", "discriminant power (Sokolova et al. 2006)", ("dp",),
       [(-INF, 1.0, "Poor"), (1.0, 2.0, "Limited"), (2.0, 3.0, "Fair"), (3.0, INF, "Good", True)],
       R.SOKOLOVA_2006, pycm="DPI")
_scale("auc", "AUC quality (PyCM)", ("class_auc",),
       [(-INF, 0.6, "Poor"), (0.6, 0.7, "Fair"), (0.7, 0.8, "Good"), (0.8, 0.9, "Very Good"),
        (0.9, INF, "Excellent", True)],
       R.PYCM, pycm="AUCI")
_scale("yule_q", "Yule's Q strength (PyCM)", ("yule_q",),
       [(-INF, 0.25, "Negligible"), (0.25, 0.5, "Weak"), (0.5, 0.75, "Moderate"),
        (0.75, INF, "Strong", True)],
       R.PYCM, pycm="QI")
#: PyCM's interpretation keys of a scale's bands applied to another of its metrics:
#: ``key -> (scale, metric)`` (MCCI per class, SOA8 to lambda B; a scale's own ``pycm`` key
#: reads its first metric).
PYCM_ALSO = {"MCCI": ("matthews", "class_mcc"), "SOA8(Lambda B)": ("lambda", "lambda_b")}


@dataclass(frozen=True)
class PycmInterpretation:
    """One of PyCM's interpretation keys - a statistic whose value is words, such as
    ``'SOA1(Landis & Koch)'`` or ``'PLRI'`` - and the scale that reproduces its bands.

    Parameters
    ----------
    key : str
        PyCM's key.
    table : {"class", "overall"}
        ``"class"`` for PyCM's ``class_stat``, ``"overall"`` for ``overall_stat``.
    metric : str
        The registry metric whose value PyCM puts into words.
    scale : str
        The confmat scale with PyCM's bands.

    Examples
    --------
    >>> pycm_interpretations()["PLRI"].call()
    "cm.interpret('lr_plus', 'plr')"
    """

    key: str
    table: Literal["class", "overall"]
    metric: str
    scale: str

    def describe(self) -> dict[str, Any]:
        """The entry as plain data, e.g. for JSON.

        Returns
        -------
        dict
            All fields.

        Examples
        --------
        >>> pycm_interpretations()["MCCI"].describe()["table"]
        'class'
        """
        return {"key": self.key, "table": self.table, "metric": self.metric,
                "scale": self.scale}

    def call(self) -> str:
        """How to ask confmat for the statistic.

        Returns
        -------
        str
            A call on a ``ConfusionMatrix`` named ``cm`` (its ``label``, or each class's).

        Examples
        --------
        >>> pycm_interpretations()["SOA1(Landis & Koch)"].call()
        "cm.interpret('kappa', 'landis_koch')"
        """
        return f"cm.interpret({self.metric!r}, {self.scale!r})"


def pycm_interpretations() -> dict[str, PycmInterpretation]:
    """Every PyCM interpretation key confmat reproduces, read from the scales: the one list
    that ``confmat.explain`` accepts and ``confmat metrics --pycm`` shows beside the numeric
    statistics of :func:`confmat.metrics.pycm_keys`.

    Returns
    -------
    dict
        ``key -> PycmInterpretation``, in the order of the scales.

    Examples
    --------
    >>> keys = pycm_interpretations()
    >>> len(keys), keys["AUCI"].metric, keys["SOA8(Lambda B)"].table
    (16, 'class_auc', 'overall')
    """
    pairs = [(s.pycm, s.name, s.metrics[0]) for s in _SCALES.values() if s.pycm]
    pairs += [(key, scale, metric) for key, (scale, metric) in PYCM_ALSO.items()]
    out = {}
    for key, scale, metric in pairs:
        table: Literal["class", "overall"] = (
            "class" if get_metric(metric).kind == "per_class" else "overall")
        out[key] = PycmInterpretation(key, table, metric, scale)
    return out

#: Old scale names kept for one release: ``old -> new``. Asking for an old name works and
#: emits a ``DeprecationWarning`` that names the new one.
DEPRECATED_SCALES = {"seed000": "yao2022"}


def list_scales(metric: str | None = None) -> list[Scale]:
    """All scales, or those for one metric, its default first.

    Parameters
    ----------
    metric : str, optional
        A metric name or alias.

    Returns
    -------
    list of Scale

    Raises
    ------
    ValueError
        If ``metric`` is not a registry metric.

    Examples
    --------
    >>> from confmat.metrics.scales import list_scales
    >>> [s.name for s in list_scales("cohen_kappa")]
    ['landis_koch', 'fleiss', 'altman', 'cicchetti', 'yao2022']
    """
    if metric is None:
        return list(_SCALES.values())
    name = get_metric(metric).name
    return [_SCALES[s] for s in _BY_METRIC.get(name, [])]


def get_scale(metric: str, scale: str | None = None) -> Scale:
    """The scale ``scale`` for ``metric``, or the metric's default scale.

    Names are matched case-insensitively with spaces, dashes and ``&`` ignored
    (``"Landis & Koch"`` is ``"landis_koch"``). Old names listed in ``DEPRECATED_SCALES`` still
    work for one release and emit a ``DeprecationWarning`` naming the new one (``"yao2022"``).

    Parameters
    ----------
    metric : str
        A metric name or alias.
    scale : str, optional
        The scale's name; None for the metric's first (default) scale.

    Returns
    -------
    Scale

    Raises
    ------
    ValueError
        If the metric has no scale, or has none of that name (the message lists the choices).
    TypeError
        If ``scale`` is not a string.

    Examples
    --------
    >>> from confmat.metrics.scales import get_scale
    >>> get_scale("kappa").name
    'landis_koch'
    >>> get_scale("kappa", "Landis & Koch").name
    'landis_koch'
    >>> get_scale("kappa", "nope")
    Traceback (most recent call last):
    ...
    ValueError: unknown scale 'nope' for 'kappa'; available: landis_koch, fleiss, altman, cicchetti, yao2022
    """
    name = get_metric(metric).name
    available = _BY_METRIC.get(name, [])
    if not available:
        with_scales = ", ".join(sorted(_BY_METRIC))
        raise ValueError(f"metric {name!r} has no interpretation scale; metrics with scales: "
                         f"{with_scales}")
    if scale is None:
        return _SCALES[available[0]]
    if not isinstance(scale, str):
        raise TypeError(f"scale must be a string, got {type(scale).__name__}")
    key = scale.strip().lower().replace("-", "_").replace(" ", "_").replace("&", "")
    key = key.replace("__", "_")
    if key in DEPRECATED_SCALES:
        new = DEPRECATED_SCALES[key]
        warnings.warn(f"scale {scale!r} is deprecated and will be removed in the next release; "
                      f"use scale={new!r}", DeprecationWarning, stacklevel=3)
        key = new
    if key not in available:
        raise ValueError(f"unknown scale {scale!r} for {name!r}; available: "
                         f"{', '.join(available)}")
    return _SCALES[key]


def interpret(metric: str, value: Any, scale: str | None = None,
              class_labels: Sequence[Any] | None = None) -> Interpretation | list[Interpretation]:
    """Interpret a value, or an array of per-class values, of ``metric`` on ``scale``.

    Parameters
    ----------
    metric : str
        A metric name or alias.
    value : float or array_like
        A number, or a 1-D array with one value per class.
    scale : str, optional
        The scale's name (see :func:`get_scale`); the metric's default when None.
    class_labels : sequence, optional
        Labels of the classes for a 1-D ``value`` (0, 1, ... when None).

    Returns
    -------
    Interpretation or list of Interpretation
        One for a number, one per class for an array.

    Raises
    ------
    ValueError
        For an unknown metric or scale, an array of more than one dimension, or
        ``class_labels`` of the wrong length.

    Examples
    --------
    >>> from confmat.metrics.scales import interpret
    >>> interpret("kappa", 0.6768, "yao2022").label
    'High (较高)'
    >>> [r.label for r in interpret("class_mcc", [0.2, 0.95], class_labels=["a", "b"])]
    ['Negligible', 'Very Strong']
    """
    sc = get_scale(metric, scale)
    name = get_metric(metric).name
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        return _one(name, float(arr), sc, None)
    if arr.ndim != 1:
        raise ValueError(f"value must be a number or a 1-D array of per-class values, got "
                         f"shape {arr.shape}")
    labels = list(class_labels) if class_labels is not None else list(range(arr.size))
    if len(labels) != arr.size:
        raise ValueError(f"class_labels has {len(labels)} entries for {arr.size} values")
    return [_one(name, float(v), sc, lab) for v, lab in zip(arr, labels, strict=True)]


def _one(name: str, value: float, sc: Scale, class_label: Any) -> Interpretation:
    band = None if math.isnan(value) else sc.band(value)
    if band is None:
        label = "undefined" if math.isnan(value) else "outside the scale's bands"
        return Interpretation(name, value, label, sc.name, sc.reference, None, None, class_label)
    return Interpretation(name, value, band.label, sc.name, sc.reference, band.low, band.high,
                          class_label)
