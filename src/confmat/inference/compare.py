"""Compare several classifiers on one test set: a table of metrics with intervals, and pairwise
tests with Holm's correction, ranked (the shape of seed 002's Tables 11-5/11-6/11-13/11-14)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves import PRCurve, ROCCurve, roc_pr_curves
from ..inputs.encode import as_1d, py_scalar
from ..inputs.targets import (
    default_pos_label,
    encode_truth,
    negative_label,
    resolve_pos_label,
)
from ..metrics import get_metric
from .common import DEFAULT_RESAMPLES, check_level, check_n_resamples, check_random_state
from .intervals import ConfidenceInterval, confidence_interval
from .paired import REF_HOLM, encode_many, holm, mcnemar, paired_bootstrap
from .scores import delong, score_ci, score_metric_name

_MCNEMAR_METRICS = ("accuracy", "error_rate", "weighted_accuracy", "hamming_loss")


@dataclass
class Comparison:
    """The one model-comparison result: models (rows, ranked) x metrics (columns) with
    intervals, pairwise tests, and, for models given binary scores, their ROC and
    precision-recall curves (as in Kneusel 2021, Figure 11-3).

    Attributes
    ----------
    models : list of str
        Model names, best first by ``test_metric``.
    metrics : list of str
        Canonical metric names of the table.
    intervals : dict
        ``intervals[model][metric]``: a :class:`ConfidenceInterval`.
    pairwise : list of dict
        Pairwise tests, most significant first (``model_a``, ``model_b``, ``difference``,
        ``pvalue``, ``pvalue_adjusted``, ``method``, ...).
    test_metric, level, correction, notes
        Metric of the tests and ranking, confidence level, p-value adjustment, notes.
    roc, pr : dict
        ``model -> ROCCurve`` / ``PRCurve`` for models with binary scores (empty otherwise).
    pos_label : label or None
        The positive class of those curves.

    Examples
    --------
    >>> cmp = compare({"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]}, [0, 0, 1, 1],
    ...               ["roc_auc"], n_resamples=200, random_state=0)
    >>> cmp.models, cmp.auc, cmp.ranking()
    (['b', 'a'], {'b': 1.0, 'a': 0.75}, ['b', 'a'])
    """

    models: list[str]
    metrics: list[str]
    intervals: dict[str, dict[str, ConfidenceInterval]]
    pairwise: list[dict[str, Any]]
    test_metric: str
    level: float
    correction: str = "holm"
    notes: list[str] = field(default_factory=list)
    roc: dict[str, ROCCurve] = field(default_factory=dict)
    pr: dict[str, PRCurve] = field(default_factory=dict)
    pos_label: Any = None

    @property
    def auc(self) -> dict[str, float]:
        """ROC AUC of every model with curves, in ranked order.

        Returns
        -------
        dict of str to float

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).auc
        {'a': 0.75}
        """
        return {n: self.roc[n].auc for n in self.models if n in self.roc}

    @property
    def average_precision(self) -> dict[str, float]:
        """Average precision of every model with curves, in ranked order.

        Returns
        -------
        dict of str to float

        Examples
        --------
        >>> round(compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).average_precision["a"], 4)
        0.8333
        """
        return {n: self.pr[n].average_precision for n in self.models if n in self.pr}

    def ranking(self, by: str = "auc") -> list[str]:
        """Model names from best to worst by ROC AUC or average precision of their curves.

        Parameters
        ----------
        by : {'auc', 'average_precision'}, default='auc'

        Returns
        -------
        list of str

        Raises
        ------
        ValueError
            ``by`` is another value.

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]}
        ...                ).ranking("average_precision")
        ['b', 'a']
        """
        if by not in ("auc", "average_precision"):
            raise ValueError(f"by must be 'auc' or 'average_precision', got {by!r}")
        values = self.auc if by == "auc" else self.average_precision
        return sorted(values, key=lambda n: -values[n])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (the report's input).

        Returns
        -------
        dict
            Schema ``confmat.comparison`` version 1; ``curves`` (per model ``name``, ``roc``,
            ``pr``) is present when models gave binary scores.

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).to_dict()["curves"][0]["name"]
        'a'
        """
        out = self._table_dict()
        if self.roc:
            out["pos_label"] = py_scalar(self.pos_label)
            out["curves"] = [{"name": n, "roc": self.roc[n].to_dict(), "pr": self.pr[n].to_dict()}
                             for n in self.models if n in self.roc]
        return out

    def _table_dict(self) -> dict[str, Any]:
        return {
            "schema": "confmat.comparison",
            "version": 1,
            "level": self.level,
            "test_metric": self.test_metric,
            "correction": self.correction,
            "models": list(self.models),
            "metrics": list(self.metrics),
            "table": [
                {"model": m, **{k: self.intervals[m][k].to_dict() for k in self.metrics}}
                for m in self.models
            ],
            "pairwise": [dict(r) for r in self.pairwise],
            "notes": list(self.notes),
        }

    def to_frame(self) -> Any:
        """pandas DataFrame: one row per model (ranked), columns ``(metric, estimate|low|high)``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> cmp = compare({"a": [0, 1, 1, 1], "b": [0, 0, 1, 1]}, [0, 0, 1, 1], ["accuracy"],
        ...               n_resamples=200, random_state=0)
        >>> cmp.to_frame()[("accuracy", "estimate")].tolist()
        [1.0, 0.75]
        """
        import pandas as pd

        data = {
            (k, part): [float(getattr(self.intervals[m][k], part)) for m in self.models]
            for k in self.metrics for part in ("estimate", "low", "high")
        }
        frame = pd.DataFrame(data, index=pd.Index(self.models, name="model"))
        frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["metric", ""])
        return frame

    def pairwise_frame(self) -> Any:
        """pandas DataFrame of the pairwise tests, most significant first.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> cmp = compare({"a": [0, 1, 1, 1], "b": [0, 0, 1, 1]}, [0, 0, 1, 1], ["accuracy"],
        ...               n_resamples=200, random_state=0)
        >>> cmp.pairwise_frame()["method"].tolist()
        ['mcnemar (exact binomial)']
        """
        import pandas as pd

        return pd.DataFrame(self.pairwise)

    def __str__(self) -> str:
        head = ["model", *(f"{k} [{self.level:.0%} CI]" for k in self.metrics)]
        rows = [head]
        for m in self.models:
            cells = [m]
            for k in self.metrics:
                ci = self.intervals[m][k]
                cells.append(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
            rows.append(cells)
        widths = [max(len(r[j]) for r in rows) for j in range(len(head))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
        if self.pairwise:
            lines.append("")
            lines.append(f"pairwise tests on {self.test_metric} ({self.correction} adjusted):")
            for r in self.pairwise:
                lines.append(
                    f"  {r['model_a']} vs {r['model_b']}: diff {r['difference']:+.4f}, "
                    f"p = {r['pvalue']:.4g}, adjusted p = {r['pvalue_adjusted']:.4g} "
                    f"({r['method']})"
                )
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def _split_model(name: str, value: Any, labels_hint: list[Any] | None, threshold: float
                 ) -> tuple[Any, Any]:
    """(predictions or None, scores or None) of one model's input."""
    if isinstance(value, Mapping):
        extra = set(value) - {"pred", "score"}
        if extra or not value:
            raise ValueError(
                f"model {name!r}: a mapping must have keys 'pred' and/or 'score', got "
                f"{sorted(map(str, value))}"
            )
        return value.get("pred"), value.get("score")
    arr = np.asarray(value) if not hasattr(value, "to_numpy") else np.asarray(value.to_numpy())
    if arr.ndim == 2:
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"model {name!r}: a 2-D input must be numeric class scores")
        return None, arr
    if arr.ndim != 1:
        raise ValueError(f"model {name!r} must be 1-D predictions or scores, got shape {arr.shape}")
    if arr.dtype.kind == "f" and labels_hint is not None:
        seen = set(np.unique(arr).tolist())
        if not seen <= set(labels_hint):
            return None, arr
    return value, None


def compare(
    models: Mapping[str, Any],
    y_true: Any = None,
    metrics: Sequence[str] = ("accuracy", "mcc"),
    *,
    level: float = 0.95,
    method: str = "auto",
    average: str | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    random_state: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    test_metric: str | None = None,
    threshold: float = 0.5,
) -> Comparison:
    """Compare classifiers evaluated on the same test set.

    Parameters
    ----------
    models : mapping name -> predictions, scores or ConfusionMatrix
        Each value is one of: 1-D predicted labels; a 1-D float array of positive-class scores
        (binary ``y_true``; values that are not all labels mark it as scores, and labels are
        ``pos_label if score >= threshold``); a 2-D ``(n, K)`` array of class scores in
        label order (labels are the argmax); a mapping ``{"pred": ..., "score": ...}``; or a
        :class:`~confmat.ConfusionMatrix` (intervals only: without samples no paired test).
    y_true : array-like of shape (n,), optional
        The shared truth. Required unless every model is a ConfusionMatrix.
    metrics : sequence of str
        Registry metrics and/or 'roc_auc' / 'average_precision' (binary scores needed). A
        per-class metric is macro-averaged unless ``average`` or ``pos_label`` is given.
    level, method, n_resamples, random_state
        As in :meth:`ConfusionMatrix.ci` (score metrics use DeLong for ROC AUC and the
        sample bootstrap for average precision).
    test_metric : str, optional
        Metric of the pairwise tests and of the ranking; default the first of ``metrics``.
        Tests: McNemar for accuracy / error rate, DeLong for ROC AUC, the paired bootstrap
        otherwise; p-values adjusted over all pairs with Holm's method.

    Returns
    -------
    Comparison
        ``models`` ranked by ``test_metric`` (best first, following the metric's
        ``higher_is_better``), ``intervals[model][metric]``, ``pairwise`` (sorted by p-value),
        ``to_frame()``, ``pairwise_frame()``, ``to_dict()``.
    """
    from ..matrix import ConfusionMatrix

    level = check_level(level)
    n_used = check_n_resamples(n_resamples, level)
    rng = check_random_state(random_state)
    if not isinstance(models, Mapping) or len(models) == 0:
        raise TypeError("models must be a non-empty mapping of name -> predictions or scores")
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics:
        raise ValueError("metrics must name at least one metric")
    names = [str(m) for m in models]
    canon: list[str] = []
    for m in metrics:
        s = score_metric_name(m)
        canon.append(s if s is not None else get_metric(m).name)
    if len(set(canon)) != len(canon):
        raise ValueError(f"metrics contains duplicates: {canon}")
    tmetric = canon[0] if test_metric is None else (
        score_metric_name(test_metric) or get_metric(test_metric).name)
    if tmetric not in canon:
        raise ValueError(f"test_metric {tmetric!r} must be one of metrics {canon}")
    notes: list[str] = []

    cms: dict[str, ConfusionMatrix] = {}
    preds: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    t_arr = None
    book = None
    if y_true is not None:
        t_arr = as_1d(y_true, "y_true")
        book = encode_truth(t_arr)[0]
    for name, value in zip(names, models.values(), strict=True):
        if isinstance(value, ConfusionMatrix):
            cms[name] = value
            continue
        if t_arr is None:
            raise ValueError(
                f"model {name!r} gives predictions or scores, so y_true is needed"
            )
        pred, score = _split_model(name, value, labels if labels is not None else book, threshold)
        if score is not None:
            sarr = np.asarray(score, dtype=np.float64)
            if sarr.shape[0] != t_arr.shape[0]:
                raise ValueError(
                    f"model {name!r} has {sarr.shape[0]} scores but y_true has {t_arr.shape[0]} "
                    "samples; every model must be evaluated on the same samples"
                )
            scores[name] = sarr
            if pred is None:
                klist: list[Any] = list(labels) if labels is not None else list(book or [])
                if sarr.ndim == 2:
                    if sarr.shape[1] != len(klist):
                        raise ValueError(
                            f"model {name!r} has {sarr.shape[1]} score columns but there are "
                            f"{len(klist)} classes {klist}"
                        )
                    pred = np.asarray(klist)[sarr.argmax(axis=1)]
                else:
                    if len(klist) != 2:
                        raise ValueError(
                            f"model {name!r} gives 1-D scores, which need a binary y_true"
                        )
                    pl = resolve_pos_label(klist, pos_label)
                    neg = negative_label(klist, pl)
                    pred = np.where(sarr >= threshold, pl, neg)
                    notes.append(f"1-D scores turned into labels with score >= {threshold}")
        if pred is not None:
            parr = as_1d(pred, f"models[{name!r}]")
            if parr.shape[0] != t_arr.shape[0]:
                raise ValueError(
                    f"model {name!r} has {parr.shape[0]} predictions but y_true has "
                    f"{t_arr.shape[0]} samples; every model must be evaluated on the same samples"
                )
            preds[name] = parr
    # one code book for all models
    if preds:
        pnames = list(preds)
        tc, pcs, kbook, has_other = encode_many(t_arr, [preds[n] for n in pnames],
                                                [f"models[{n!r}]" for n in pnames], labels)
        del tc, pcs, has_other
        for n in pnames:
            cms[n] = ConfusionMatrix.from_predictions(
                t_arr, preds[n], labels=labels if labels is not None else kbook)
    _check_same_truth(cms, t_arr, names)

    intervals: dict[str, dict[str, ConfidenceInterval]] = {n: {} for n in names}
    for metric in canon:
        if metric in ("roc_auc", "average_precision"):
            for n in names:
                if n not in scores or (scores[n].ndim != 1 and scores[n].shape[1] != 2):
                    raise ValueError(
                        f"metric {metric!r} needs binary scores, which model {n!r} does not give"
                    )
                s = scores[n] if scores[n].ndim == 1 else scores[n][:, _pos_col(book, pos_label)]
                intervals[n][metric] = score_ci(
                    t_arr, s, metric, level=level, n_resamples=n_used, random_state=rng,
                    pos_label=pos_label)
            continue
        spec = get_metric(metric)
        avg = average
        pl = None
        if spec.kind == "per_class":
            if pos_label is not None and average is None:
                pl = pos_label
            elif avg is None:
                avg = "macro"
                notes.append(f"{metric} is per-class: macro-averaged")
        else:
            avg = None
        for n in names:
            intervals[n][metric] = confidence_interval(
                cms[n], metric, level=level, method=method, average=avg, pos_label=pl,
                n_resamples=n_used, random_state=rng)

    spec_hib = True if tmetric in ("roc_auc", "average_precision") else \
        get_metric(tmetric).higher_is_better
    sign = -1.0 if spec_hib is False else 1.0
    ranked = sorted(names, key=lambda n: -sign * _nan_low(intervals[n][tmetric].estimate))

    pairwise: list[dict[str, Any]] = []
    paired_ok = all(n in preds or n in scores for n in names) and t_arr is not None
    if len(names) > 1 and not paired_ok:
        notes.append("pairwise tests need per-sample predictions; some models are only counts")
    elif len(names) > 1:
        ci0 = intervals[names[0]][tmetric]
        for i, a in enumerate(ranked):
            for b in ranked[i + 1:]:
                pairwise.append(_pair_test(tmetric, a, b, t_arr, preds, scores, book, ci0, level,
                                           n_used, rng, pos_label, labels))
        adj = holm([r["pvalue"] for r in pairwise])
        for r, p in zip(pairwise, adj, strict=True):
            r["pvalue_adjusted"] = float(p)
            r["significant"] = bool(p < 1.0 - level)
        pairwise.sort(key=lambda r: (r["pvalue_adjusted"], r["pvalue"]))
    if pairwise:
        notes.append(f"pairwise p-values adjusted with Holm's method ({REF_HOLM})")
    roc: dict[str, ROCCurve] = {}
    pr: dict[str, PRCurve] = {}
    curve_pos = None
    binary = book is not None and len(book) == 2
    if binary and (pos_label is not None or default_pos_label(list(book or [])) is not None):
        for n in names:
            if n in scores and (scores[n].ndim == 1 or scores[n].shape[1] == 2):
                roc[n], pr[n] = roc_pr_curves(t_arr, _score1(scores[n], book, pos_label),
                                              pos_label=pos_label, label=n)
                curve_pos = resolve_pos_label(list(book or []), pos_label)
    return Comparison(ranked, canon, intervals, pairwise, tmetric, level, "holm",
                      list(dict.fromkeys(notes)), roc, pr, curve_pos)


def _score_items(scores: Any, names: Sequence[str] | None) -> list[tuple[str, Any]]:
    if isinstance(scores, Mapping):
        if names is not None:
            raise ValueError("give names only when scores is a sequence, not a mapping")
        items = [(str(k), v) for k, v in scores.items()]
    elif isinstance(scores, Sequence) and not isinstance(scores, str):
        names = [f"model {i}" for i in range(len(scores))] if names is None else list(names)
        if len(names) != len(scores):
            raise ValueError(f"names has {len(names)} entries but scores has {len(scores)}")
        items = list(zip(names, scores, strict=True))
    else:
        raise TypeError("scores must be a mapping name -> scores or a sequence of score vectors")
    if not items:
        raise ValueError("scores is empty; give at least one model")
    if len({n for n, _ in items}) != len(items):
        raise ValueError("model names must be unique")
    return items


def compare_curves(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    names: Sequence[str] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> Comparison:
    """ROC and precision-recall curves of several binary scorers on one ``y_true``, as a
    :class:`Comparison` without intervals or tests (for those use :func:`compare`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The shared truth (the positive class follows confmat's one ``pos_label`` rule).
    scores : mapping name -> scores, or a sequence of score vectors
        One 1-D score vector per model, all of length ``len(y_true)``.
    names : sequence of str, optional
        Model names when ``scores`` is a sequence (default ``model 0``, ``model 1``, ...).
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    drop_intermediate : bool, default=True
        Drop collinear ROC points.

    Returns
    -------
    Comparison
        ``models`` ranked by ROC AUC; ``roc``, ``pr``, ``auc``, ``average_precision``,
        ``ranking()``.

    Raises
    ------
    ValueError, TypeError
        Bad ``scores`` or ``names``; invalid labels, scores or ``pos_label`` (the message is
        prefixed by the model's name).

    Examples
    --------
    >>> cmp = compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]})
    >>> cmp.auc, cmp.ranking()
    ({'b': 1.0, 'a': 0.75}, ['b', 'a'])
    """
    items = _score_items(scores, names)
    roc: dict[str, ROCCurve] = {}
    pr: dict[str, PRCurve] = {}
    pos = None
    for name, sc in items:
        try:
            roc[name], pr[name] = roc_pr_curves(y_true, sc, pos_label=pos_label,
                                                sample_weight=sample_weight,
                                                drop_intermediate=drop_intermediate, label=name)
            pos = resolve_pos_label(encode_truth(y_true)[0], pos_label)
        except ValueError as exc:
            raise ValueError(f"scores[{name!r}]: {exc}") from exc
    order = sorted((n for n, _ in items), key=lambda n: -_nan_low(roc[n].auc))
    return Comparison(order, [], {n: {} for n in order}, [], "roc_auc", 0.95, "holm", [],
                      roc, pr, pos)


@dataclass
class _LegacyModelComparison(Comparison):
    """What the deprecated ``compare_models`` returns: a :class:`Comparison` that keeps the
    old ``names`` (input order) and ``to_dict`` layout for one release."""

    names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pos_label": py_scalar(self.pos_label),
            "models": [{"name": n, "roc": self.roc[n].to_dict(), "pr": self.pr[n].to_dict()}
                       for n in self.names],
        }


def compare_models(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    names: Sequence[str] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> Comparison:
    """Deprecated alias of :func:`compare_curves` (removed in the next release).

    Parameters
    ----------
    y_true, scores, names, pos_label, sample_weight, drop_intermediate
        As in :func:`compare_curves`.

    Returns
    -------
    Comparison
        With the old ``names`` attribute and ``to_dict`` layout.

    Raises
    ------
    ValueError, TypeError
        As :func:`compare_curves`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     compare_models([0, 0, 1, 1], [[.1, .4, .35, .8]]).names
    ['model 0']
    """
    warnings.warn(
        "confmat.compare_models is deprecated and will be removed in the next release; use "
        "confmat.inference.compare_curves(y_true, scores) for curves, or confmat.compare("
        "models, y_true, ['roc_auc', 'average_precision']) for intervals and tests: both "
        "return a confmat.inference.Comparison",
        DeprecationWarning,
        stacklevel=2,
    )
    cmp = compare_curves(y_true, scores, names=names, pos_label=pos_label,
                         sample_weight=sample_weight, drop_intermediate=drop_intermediate)
    order = [n for n, _ in _score_items(scores, names)]
    return _LegacyModelComparison(cmp.models, cmp.metrics, cmp.intervals, cmp.pairwise,
                                  cmp.test_metric, cmp.level, cmp.correction, cmp.notes,
                                  cmp.roc, cmp.pr, cmp.pos_label, order)


def _pos_col(book: list[Any] | None, pos_label: Any) -> int:
    """Column of the positive class in (n, 2) scores whose columns follow ``book``."""
    classes = list(book or [])
    pos = resolve_pos_label(classes, pos_label)
    return classes.index(pos) if len(classes) == 2 and pos in classes else 1


def _nan_low(v: Any) -> float:
    v = float(v)
    return -np.inf if np.isnan(v) else v


def _check_same_truth(cms: Mapping[str, Any], t_arr: Any, names: list[str]) -> None:
    """Models given as matrices must have been counted on the same truth (same class supports)."""
    ref_name, ref = None, None
    for n in names:
        cm = cms[n]
        sup = dict(zip(cm.labels, cm.counts.sum(axis=1).tolist(), strict=True))
        if ref is None:
            ref_name, ref = n, sup
            continue
        if sup != ref:
            raise ValueError(
                f"models {ref_name!r} and {n!r} were evaluated on different y_true: class "
                f"supports {ref} vs {sup}"
            )


def _pair_test(metric: str, a: str, b: str, t_arr: Any, preds: dict[str, Any],
               scores: dict[str, Any], book: Any, ci0: ConfidenceInterval, level: float,
               n_resamples: int, rng: Any, pos_label: Any, labels: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"model_a": a, "model_b": b, "metric": metric}
    if metric == "roc_auc":
        sa = scores[a] if scores[a].ndim == 1 else scores[a][:, _pos_col(book, pos_label)]
        sb = scores[b] if scores[b].ndim == 1 else scores[b][:, _pos_col(book, pos_label)]
        r: Any = delong(t_arr, sa, sb, pos_label=pos_label, level=level)
        row.update(difference=r.difference, low=r.low, high=r.high, statistic=r.statistic,
                   pvalue=r.pvalue, method="delong")
        return row
    if metric == "average_precision":
        r = paired_bootstrap(t_arr, _score1(scores[a], book, pos_label),
                             _score1(scores[b], book, pos_label), metric, level=level,
                             n_resamples=n_resamples, random_state=rng, pos_label=pos_label)
        row.update(difference=r.difference, low=r.low, high=r.high, statistic=None,
                   pvalue=r.pvalue, method="paired bootstrap")
        return row
    if metric in _MCNEMAR_METRICS:
        r = mcnemar(t_arr, preds[a], preds[b])
        diff = ((r.table[0, 1] - r.table[1, 0]) / r.table.sum())
        if metric in ("error_rate", "hamming_loss"):
            diff = -diff
        row.update(difference=float(diff), low=None, high=None, statistic=r.statistic,
                   pvalue=r.pvalue, method=f"mcnemar ({r.method})")
        return row
    avg = ci0.average
    pl = pos_label if (get_metric(metric).kind == "per_class" and avg is None) else None
    r = paired_bootstrap(t_arr, preds[a], preds[b], metric, level=level, average=avg,
                         n_resamples=n_resamples, random_state=rng, labels=labels, pos_label=pl)
    row.update(difference=float(r.difference), low=float(r.low), high=float(r.high),
               statistic=None, pvalue=float(r.pvalue), method="paired bootstrap")
    return row


def _score1(s: np.ndarray, book: Any, pos_label: Any) -> np.ndarray:
    return s if s.ndim == 1 else s[:, _pos_col(book, pos_label)]
