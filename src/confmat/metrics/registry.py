"""The metric registry: every metric declared once, with its metadata.

Reports, the CLI, ``explain``, the docs generator and the oracle tests read this registry; no
other module keeps its own list of metric names.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .stats import Stats

Kind = Literal["per_class", "overall"]
AVERAGES = ("micro", "macro", "weighted")


@dataclass(frozen=True)
class MetricSpec:
    """Declaration of one metric.

    ``func`` is a pure function of the counts. Per-class metrics receive a
    :class:`~confmat.metrics.stats.ClassCounts` (one-vs-rest ``tp, fp, fn, tn`` with the class on
    the last axis) so that micro averaging is the same function on summed counts; overall metrics
    receive the whole :class:`~confmat.metrics.stats.Stats`.
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

    def describe(self) -> dict[str, Any]:
        """The spec as plain data (no function object), e.g. for JSON."""
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
    for n in (spec.name, *spec.aliases):
        k = _key(n)
        if k in _ALIASES:
            raise ValueError(f"metric name {n!r} is already registered for {_ALIASES[k]!r}")
    _REGISTRY[spec.name] = spec
    for n in (spec.name, *spec.aliases):
        _ALIASES[_key(n)] = spec.name
    return spec


def metric(name: str, kind: Kind, **meta: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator declaring ``func`` as the metric ``name``."""

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        register(MetricSpec(name=name, kind=kind, func=func, **meta))
        return func

    return deco


def get_metric(name: str) -> MetricSpec:
    """Look a metric up by canonical name or alias (case- and dash-insensitive)."""
    if not isinstance(name, str):
        raise TypeError(f"metric name must be a string, got {type(name).__name__}")
    k = _key(name)
    if k in _ALIASES:
        return _REGISTRY[_ALIASES[k]]
    close = difflib.get_close_matches(k, list(_ALIASES), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(_ALIASES[c]) for c in close)}?" if close else ""
    raise ValueError(f"unknown metric {name!r}{hint} (confmat.list_metrics() lists them all)")


def list_metrics(kind: Kind | None = None, family: str | None = None) -> list[MetricSpec]:
    """All registered metric specs, optionally filtered by kind or family."""
    return [
        s
        for s in _REGISTRY.values()
        if (kind is None or s.kind == kind) and (family is None or s.family == family)
    ]


def bind_params(spec: MetricSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(params) - set(spec.params)
    if unknown:
        allowed = ", ".join(sorted(spec.params)) or "none"
        raise TypeError(
            f"metric {spec.name!r} got unexpected parameter(s) {sorted(unknown)}; "
            f"it accepts: {allowed}"
        )
    bound = {**spec.params, **params}
    if spec.check is not None:
        spec.check(**bound)
    return bound


def check_average(average: Any) -> None:
    if average is not None and average not in AVERAGES:
        raise ValueError(
            f"average must be None, 'micro', 'macro' or 'weighted', got {average!r}"
        )


def average_values(values: np.ndarray, weights: np.ndarray | None, stats: Stats) -> np.ndarray:
    """Macro (``weights`` None) or weighted mean over the class axis, following scikit-learn:
    NaN values (``zero_division=np.nan``) are left out, and when every weight is zero the plain
    mean is used. All values NaN gives NaN."""
    values = np.asarray(values, dtype=np.float64)
    defined = ~np.isnan(values)
    v = np.where(defined, values, 0.0)
    count = defined.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        plain = v.sum(axis=-1) / np.where(count == 0, 1, count)
        plain = np.where(count == 0, np.nan, plain)
        if weights is None:
            return plain
        w = np.where(defined, np.broadcast_to(np.asarray(weights, np.float64), values.shape), 0.0)
        total = w.sum(axis=-1)
        weighted = (v * w).sum(axis=-1) / np.where(total == 0, 1.0, total)
    return np.where(total == 0, plain, weighted)


def _pooled_ovr(stats: Stats) -> Stats:
    """The summed one-vs-rest table ``[[TP, FN], [FP, TN]]`` as 2 x 2 statistics."""
    m = stats.micro
    top = np.stack([m.tp[..., 0], m.fn[..., 0]], axis=-1)
    bottom = np.stack([m.fp[..., 0], m.tn[..., 0]], axis=-1)
    pooled = Stats(np.stack([top, bottom], axis=-2))
    pooled.div = stats.div
    return pooled


def evaluate(
    name: str,
    stats: Stats,
    average: str | None = None,
    *,
    warn: bool = True,
    **params: Any,
) -> np.ndarray:
    """Evaluate a metric on (batched) statistics. Returns an array with the batch shape, plus a
    class axis for per-class metrics with ``average=None``."""
    spec = get_metric(name)
    check_average(average)
    bound = bind_params(spec, params)
    if spec.kind == "overall":
        if average is not None:
            raise ValueError(
                f"{spec.name!r} is an overall metric; average={average!r} does not apply"
            )
        out = spec.func(stats, **bound)
    elif spec.uses_table:
        # per-class values that need the whole table (e.g. confusion entropy). Micro averaging
        # is, as for every per-class metric, the metric of the pooled one-vs-rest 2 x 2 table.
        if average == "micro":
            out = spec.func(_pooled_ovr(stats), **bound)[..., 0]
        else:
            out = spec.func(stats, **bound)
        if average in ("macro", "weighted"):
            weights = stats.support if average == "weighted" else None
            out = average_values(out, weights, stats)
    elif average is None:
        out = spec.func(stats.per_class, **bound)
    elif average == "micro":
        out = spec.func(stats.micro, **bound)[..., 0]
    else:
        values = spec.func(stats.per_class, **bound)
        weights = stats.support if average == "weighted" else None
        out = average_values(values, weights, stats)
    if warn:
        stats.div.warn(spec.name)
    else:
        stats.div.undefined.clear()
    return np.asarray(out)


# ---------------------------------------------------------------------------------------------
# PyCM keys. A spec's ``pycm`` field names the PyCM statistic that equals the metric with no
# average and default parameters. Other PyCM keys are the same metric with an average or a
# parameter ("TPR Macro", "F0.5"), a synonym PyCM keeps twice ("PR" = "PRE"), or one element of
# a tuple ("95% CI"); those are declared here, next to the registry, so the oracle tests, the
# docs and ``explain`` read one table.


@dataclass(frozen=True)
class PycmKey:
    """One PyCM statistic and the confmat evaluation that reproduces it.

    ``table`` is ``"class"`` for ``ConfusionMatrix.class_stat`` and ``"overall"`` for
    ``overall_stat``; ``element`` is the position inside a tuple-valued statistic. ``differs``
    says, in one sentence, where confmat deliberately gives another value than PyCM (such keys
    are declared here rather than in the spec's ``pycm`` field, which promises identity).
    """

    key: str
    table: Literal["class", "overall"]
    metric: str
    average: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    element: int | None = None
    differs: str = ""

    def describe(self) -> dict[str, Any]:
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
        """How to ask confmat for it, e.g. ``cm.metric('recall', average='macro')``."""
        args = [repr(self.metric)]
        if self.average is not None:
            args.append(f"average={self.average!r}")
        args += [f"{k}={v!r}" for k, v in self.params.items()]
        return f"cm.metric({', '.join(args)})"


_PYCM_EXTRA: list[PycmKey] = []
# PyCM reports the population once per class although it is one number.
_PYCM_TABLE_OVERRIDE = {"n": "class"}


def pycm_key(key: str, table: Literal["class", "overall"], metric: str,
             average: str | None = None, element: int | None = None, differs: str = "",
             **params: Any) -> PycmKey:
    """Declare a PyCM key reproduced by ``metric`` with an average, parameters or an element,
    or one where confmat deliberately differs (``differs`` says where and why)."""
    entry = PycmKey(key, table, metric, average, dict(params), element, differs)
    _PYCM_EXTRA.append(entry)
    return entry


def pycm_keys() -> dict[tuple[str, str], tuple[PycmKey, ...]]:
    """Every PyCM statistic confmat reproduces: ``(table, key) -> entries`` (two entries for a
    tuple-valued statistic such as ``("overall", "95% CI")``)."""
    out: dict[tuple[str, str], list[PycmKey]] = {}
    for spec in _REGISTRY.values():
        if spec.pycm:
            table = _PYCM_TABLE_OVERRIDE.get(
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
    """The PyCM keys that a registry metric reproduces."""
    return [e for entries in pycm_keys().values() for e in entries if e.metric == name]


def find_pycm(key: str) -> tuple[PycmKey, ...]:
    """Look up a PyCM statistic by its exact key (per-class table first)."""
    if not isinstance(key, str):
        raise TypeError(f"key must be a string, got {type(key).__name__}")
    table = pycm_keys()
    for t in ("class", "overall"):
        if (t, key) in table:
            return table[(t, key)]
    names = sorted({k for _, k in table})
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValueError(f"unknown PyCM key {key!r}{hint}")
