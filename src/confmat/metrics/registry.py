"""The metric registry: every metric declared once, with its metadata.

Reports, the CLI, ``explain``, the docs generator and the oracle tests read this registry; no
other module keeps its own list of metric names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import words

Kind = Literal["per_class", "overall"]
AVERAGES = ("micro", "macro", "weighted")


@dataclass(frozen=True)
class MetricSpec:
    """Declaration of one metric: the function and everything a reader needs to use it.

    ``func`` is a pure function of the counts. Per-class metrics receive a
    :class:`~confmat.metrics.stats.ClassCounts` (one-vs-rest ``tp, fp, fn, tn`` with the class on
    the last axis) so that micro averaging is the same function on summed counts; overall metrics
    receive the whole :class:`~confmat.metrics.stats.Stats`.

    Parameters
    ----------
    name : str
        Canonical name, e.g. ``"recall"``.
    kind : {"per_class", "overall"}
        Whether ``func`` gives one value per class or one value per table.
    func : callable
        The pure function of the counts.
    full_name, family, formula, meaning : str
        Long name, family (``"rates"``, ``"agreement"``, ...), formula and one-paragraph meaning.
    range : tuple of float
        Lowest and highest value.
    higher_is_better : bool or None
        None for descriptive quantities such as counts.
    aliases : tuple of str
        Other names that :func:`get_metric` accepts.
    references : tuple of str
        Sources, author and year first.
    sklearn, pycm : str or None
        The scikit-learn function and the PyCM key that give the same value.
    params : mapping
        Keyword parameters and their defaults (``{"beta": 1.0}``).
    check : callable or None
        Validates bound parameters; raises ``ValueError``/``TypeError``.
    prefer_when, avoid_when, notes : str
        Advice shown by ``explain`` and the metric guide.
    is_count : bool
        The value is a count (reports print it without decimals).
    uses_table : bool
        A per-class metric that needs the whole table (``func`` receives :class:`Stats`).
    scale_degree : float, None or callable
        The degree ``d`` for which ``metric(c * table) = c**d * metric(table)`` for every
        ``c > 0`` (0 for ratios such as recall or kappa, 1 for counts and chi-squared, -1/2
        for standard errors); a multiple of 1/2, or None when the metric is not homogeneous
        in the counts (or the degree was not declared); or a function of the metric's
        parameters that returns one of those (see :meth:`degree`). Weighted tables of such
        metrics are evaluated rescaled by a power of two (:meth:`Stats.homogeneous`), so
        that products of counts neither overflow nor underflow float64.

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> spec = get_metric("sensitivity")
    >>> spec.name, spec.kind, spec.range
    ('recall', 'per_class', (0.0, 1.0))
    """

    name: str
    kind: Kind
    func: Callable[..., Any]
    full_name: str
    family: str
    formula: str
    meaning: str
    range: tuple[float, float]
    higher_is_better: bool | None
    aliases: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    sklearn: str | None = None
    pycm: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[..., None] | None = None
    prefer_when: str = ""
    avoid_when: str = ""
    notes: str = ""
    is_count: bool = False
    uses_table: bool = False
    scale_degree: float | Callable[..., float | None] | None = None

    def __post_init__(self) -> None:
        if not callable(self.scale_degree):
            self.check_degree(self.scale_degree)

    def check_degree(self, d: Any) -> float | None:
        """Check a scale degree of this metric: None or a multiple of 1/2.

        Parameters
        ----------
        d : float or None
            The degree.

        Returns
        -------
        float or None
            ``d``.

        Raises
        ------
        ValueError
            For anything else, naming the metric.

        Examples
        --------
        >>> from confmat.metrics import get_metric
        >>> get_metric("recall").check_degree(0.5)
        0.5
        """
        if d is not None and (isinstance(d, bool) or not isinstance(d, int | float)
                              or not math.isfinite(d) or 2 * d != round(2 * d)):
            raise ValueError(
                f"scale_degree of metric {self.name!r} must be None or a multiple of 1/2, got {d!r}"
            )
        return d

    def degree(self, params: Mapping[str, Any]) -> float | None:
        """The scale degree of the metric with these parameters (see ``scale_degree``).

        Parameters
        ----------
        params : mapping
            The bound parameters (defaults included).

        Returns
        -------
        float or None

        Examples
        --------
        >>> from confmat.metrics import get_metric
        >>> spec = get_metric("zero_one_loss")
        >>> spec.degree({"normalize": True}), spec.degree({"normalize": False})
        (0.0, 1.0)
        """
        d = self.scale_degree
        return self.check_degree(d(**params)) if callable(d) else d

    def describe(self) -> dict[str, Any]:
        """The spec as plain data (no function object), e.g. for JSON.

        Returns
        -------
        dict
            Every field except ``func`` and ``check``, plus ``"pycm_keys"``: the PyCM statistics
            the metric reproduces.

        Examples
        --------
        >>> from confmat.metrics import get_metric
        >>> d = get_metric("f1").describe()
        >>> d["name"], d["sklearn"]
        ('f1', 'sklearn.metrics.f1_score')
        """
        return {
            "name": self.name,
            "aliases": list(self.aliases),
            "full_name": self.full_name,
            "kind": self.kind,
            "family": self.family,
            "formula": self.formula,
            "meaning": self.meaning,
            "range": list(self.range),
            "higher_is_better": self.higher_is_better,
            "references": list(self.references),
            "sklearn": self.sklearn,
            "pycm": self.pycm,
            "params": dict(self.params),
            "prefer_when": self.prefer_when,
            "avoid_when": self.avoid_when,
            "notes": self.notes,
            "pycm_keys": [k.describe() for k in pycm_keys_of(self.name)],
        }


_REGISTRY: dict[str, MetricSpec] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(spec: MetricSpec) -> MetricSpec:
    """Add a metric to the registry under its name and aliases.

    Parameters
    ----------
    spec : MetricSpec
        The declaration. Names and aliases are matched case- and dash-insensitively.

    Returns
    -------
    MetricSpec
        ``spec`` itself.

    Raises
    ------
    ValueError
        If the name or an alias is already registered (the message names the owner).

    Examples
    --------
    >>> from confmat.metrics import get_metric, register
    >>> register(get_metric("recall"))
    Traceback (most recent call last):
    ...
    ValueError: metric name 'recall' is already registered for 'recall'
    """
    for n in (spec.name, *spec.aliases):
        k = _key(n)
        if k in _ALIASES:
            raise ValueError(f"metric name {n!r} is already registered for {_ALIASES[k]!r}")
    _REGISTRY[spec.name] = spec
    for n in (spec.name, *spec.aliases):
        _ALIASES[_key(n)] = spec.name
    return spec


def metric(name: str, kind: Kind, **meta: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator declaring ``func`` as the metric ``name``.

    The catalogue families use it through ``confmat.metrics.common.declare``, which makes every
    explanatory field required.

    Parameters
    ----------
    name : str
        Canonical name.
    kind : {"per_class", "overall"}
        What the function returns: one value per class or per table.
    **meta
        The remaining :class:`MetricSpec` fields (``full_name``, ``family``, ``formula``, ...).

    Returns
    -------
    callable
        A decorator that registers the function and returns it unchanged.

    Examples
    --------
    >>> from confmat.metrics.registry import metric
    >>> deco = metric("my_rate", "per_class", full_name="my rate", family="rates",
    ...               formula="TP / N", meaning="an example", range=(0.0, 1.0),
    ...               higher_is_better=True)
    >>> callable(deco)
    True
    """

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        register(MetricSpec(name=name, kind=kind, func=func, **meta))
        return func

    return deco


def get_metric(name: str) -> MetricSpec:
    """Look a metric up by canonical name or alias (case- and dash-insensitive).

    Parameters
    ----------
    name : str
        A name or alias, e.g. ``"recall"``, ``"TPR"``, ``"sensitivity"``.

    Returns
    -------
    MetricSpec
        The declaration.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If no metric has that name; the message suggests close names.

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> get_metric("TPR").name
    'recall'
    >>> get_metric("recal")
    Traceback (most recent call last):
    ...
    ValueError: unknown metric 'recal'; did you mean 'recall'? (confmat.list_metrics() lists them all)
    """
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is not None:  # a canonical name as given: no normalisation needed
        return spec
    if not isinstance(name, str):
        raise TypeError(f"metric name must be a string, got {type(name).__name__}")
    k = _key(name)
    if k in _ALIASES:
        return _REGISTRY[_ALIASES[k]]
    import difflib

    close = difflib.get_close_matches(k, list(_ALIASES), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(_ALIASES[c]) for c in close)}?" if close else ""
    lister = words.arg("confmat.list_metrics()")
    raise ValueError(f"unknown metric {name!r}{hint} ({lister} lists them all)")


def list_metrics(kind: Kind | None = None, family: str | None = None) -> list[MetricSpec]:
    """All registered metric specs, optionally filtered by kind or family.

    Parameters
    ----------
    kind : {"per_class", "overall"}, optional
        Keep only this kind.
    family : str, optional
        Keep only this family (``"counts"``, ``"rates"``, ``"agreement"``, ...).

    Returns
    -------
    list of MetricSpec
        In registration order.

    Raises
    ------
    ValueError
        A ``kind`` or ``family`` that no metric has (a typo would otherwise list nothing).

    Examples
    --------
    >>> from confmat.metrics import list_metrics
    >>> [s.name for s in list_metrics(family="counts")][:4]
    ['tp', 'fn', 'fp', 'tn']
    >>> list_metrics(family="rate")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown family 'rate'; did you mean 'rates'? The families are [...]
    """
    import difflib

    for arg, plural, value in (("kind", "kinds", kind), ("family", "families", family)):
        known = sorted({getattr(s, arg) for s in _REGISTRY.values()})
        if value is not None and value not in known:
            close = difflib.get_close_matches(str(value), known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else "."
            raise ValueError(f"unknown {arg} {value!r}{hint} The {plural} are {known}")
    return [
        s
        for s in _REGISTRY.values()
        if (kind is None or s.kind == kind) and (family is None or s.family == family)
    ]


# ---------------------------------------------------------------------------------------------
# PyCM keys. A spec's ``pycm`` field names the PyCM statistic that equals the metric with no
# average and default parameters. Other PyCM keys are the same metric with an average or a
# parameter ("TPR Macro", "F0.5"), a synonym PyCM keeps twice ("PR" = "PRE"), or one element of
# a tuple ("95% CI"); those are declared here, next to the registry, so the oracle tests, the
# docs and ``explain`` read one table.


@dataclass(frozen=True)
class PycmKey:
    """One PyCM statistic and the confmat evaluation that reproduces it.

    Parameters
    ----------
    key : str
        PyCM's key, e.g. ``"F0.5"``.
    table : {"class", "overall"}
        ``"class"`` for PyCM's ``class_stat``, ``"overall"`` for ``overall_stat``.
    metric : str
        The registry metric.
    average : str or None
        The average to apply.
    params : mapping
        Metric parameters (``{"beta": 0.5}``).
    element : int or None
        Position inside a tuple-valued statistic (``"95% CI"``).
    differs : str
        Where confmat deliberately gives another value than PyCM, in one sentence (such keys are
        declared here rather than in the spec's ``pycm`` field, which promises identity).

    Examples
    --------
    >>> from confmat.metrics import find_pycm
    >>> find_pycm("F0.5")[0].params
    {'beta': 0.5}
    """

    key: str
    table: Literal["class", "overall"]
    metric: str
    average: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    element: int | None = None
    differs: str = ""

    def describe(self) -> dict[str, Any]:
        """The entry as plain data, e.g. for JSON.

        Returns
        -------
        dict
            All fields, ``params`` as a plain dict.

        Examples
        --------
        >>> from confmat.metrics import find_pycm
        >>> find_pycm("TPR")[0].describe()["metric"]
        'recall'
        """
        return {
            "key": self.key,
            "table": self.table,
            "metric": self.metric,
            "average": self.average,
            "params": dict(self.params),
            "element": self.element,
            "differs": self.differs,
        }

    def call(self) -> str:
        """How to ask confmat for the statistic.

        Returns
        -------
        str
            A call on a ``ConfusionMatrix`` named ``cm``.

        Examples
        --------
        >>> from confmat.metrics import find_pycm
        >>> find_pycm("TPR Macro")[0].call()
        "cm.metric('recall', average='macro')"
        """
        args = [repr(self.metric)]
        if self.average is not None:
            args.append(f"average={self.average!r}")
        args += [f"{k}={v!r}" for k, v in self.params.items()]
        return f"cm.metric({', '.join(args)})"


_PYCM_EXTRA: list[PycmKey] = []
# PyCM reports the population once per class although it is one number.
_PYCM_TABLE_OVERRIDE: dict[str, Literal["class", "overall"]] = {"n": "class"}


def pycm_key(key: str, table: Literal["class", "overall"], metric: str,
             average: str | None = None, element: int | None = None, differs: str = "",
             **params: Any) -> PycmKey:
    """Declare a PyCM key reproduced by a metric with an average, parameters or an element, or one
    where confmat deliberately differs.

    Parameters
    ----------
    key : str
        PyCM's key.
    table : {"class", "overall"}
        PyCM's table.
    metric : str
        The registry metric.
    average : str, optional
        The average to apply.
    element : int, optional
        Position inside a tuple-valued statistic.
    differs : str, optional
        Where and why confmat's value differs from PyCM's.
    **params
        Metric parameters.

    Returns
    -------
    PycmKey
        The entry, also recorded for :func:`pycm_keys`.

    Examples
    --------
    >>> from confmat.metrics.registry import PycmKey
    >>> entry = PycmKey("F2", "class", "fbeta", params={"beta": 2.0})
    >>> entry.call()
    "cm.metric('fbeta', beta=2.0)"
    """
    entry = PycmKey(key, table, metric, average, dict(params), element, differs)
    _PYCM_EXTRA.append(entry)
    return entry


def pycm_keys() -> dict[tuple[str, str], tuple[PycmKey, ...]]:
    """Every PyCM statistic confmat reproduces.

    Returns
    -------
    dict
        ``(table, key) -> entries``: one entry, or one per element for a tuple-valued statistic
        such as ``("overall", "95% CI")``.

    Examples
    --------
    >>> from confmat.metrics import pycm_keys
    >>> pycm_keys()[("class", "F2")][0].metric
    'fbeta'
    """
    out: dict[tuple[str, str], list[PycmKey]] = {}
    for spec in _REGISTRY.values():
        if spec.pycm:
            table: Literal["class", "overall"] = _PYCM_TABLE_OVERRIDE.get(
                spec.name, "class" if spec.kind == "per_class" else "overall"
            )
            out.setdefault((table, spec.pycm), []).append(PycmKey(spec.pycm, table, spec.name))
    for entry in _PYCM_EXTRA:
        out.setdefault((entry.table, entry.key), []).append(entry)
    return {
        k: tuple(sorted(v, key=lambda e: -1 if e.element is None else e.element))
        for k, v in out.items()
    }


def pycm_keys_of(name: str) -> list[PycmKey]:
    """The PyCM keys that a registry metric reproduces.

    Parameters
    ----------
    name : str
        Canonical metric name.

    Returns
    -------
    list of PycmKey

    Examples
    --------
    >>> from confmat.metrics.registry import pycm_keys_of
    >>> [k.key for k in pycm_keys_of("fbeta")]
    ['F0.5', 'F2']
    """
    return [e for entries in pycm_keys().values() for e in entries if e.metric == name]


def find_pycm(key: str) -> tuple[PycmKey, ...]:
    """Look up a PyCM statistic by its exact key (per-class table first).

    Parameters
    ----------
    key : str
        PyCM's key, e.g. ``"TPR"``, ``"F0.5"``, ``"Overall MCC"``.

    Returns
    -------
    tuple of PycmKey
        One entry, or one per element of a tuple-valued statistic.

    Raises
    ------
    TypeError
        If ``key`` is not a string.
    ValueError
        If PyCM has no such key that confmat reproduces; the message suggests close keys.

    Examples
    --------
    >>> from confmat.metrics import find_pycm
    >>> find_pycm("TPR")[0].metric
    'recall'
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a string, got {type(key).__name__}")
    table = pycm_keys()
    for t in ("class", "overall"):
        if (t, key) in table:
            return table[(t, key)]
    names = sorted({k for _, k in table})
    import difflib

    close = difflib.get_close_matches(key, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValueError(f"unknown PyCM key {key!r}{hint}")
