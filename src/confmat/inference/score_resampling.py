r"""The sample-level bootstrap of score metrics (ROC AUC, average precision), vectorised.

A resample is a vector of multiplicities ``w`` (how often each sample was drawn), and the
AUC and average precision of ``B`` resamples are computed from one sort of each score vector
by the engine of :mod:`confmat.inference.score_runs` (one sweep over the runs of tied scores
per resample), which also serves the stratified bootstrap by group. Paired resampling uses the
same ``w`` for every model. DeLong's method and :func:`confmat.inference.score_ci` live in
:mod:`confmat.inference.scores`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.encode import as_1d
from ..inputs.kinds import py_scalar
from ..inputs.targets import (
    EncodedTruth,
    binary_target,
    check_scores_2d,
    encode_truth,
    encoded_truth,
)
from .common import chunk_rows
from .score_runs import ScoreRuns

SCORE_METRICS = ("roc_auc", "average_precision")
_SCORE_ALIASES = {"auc": "roc_auc", "roc_auc": "roc_auc", "auroc": "roc_auc",
                  "average_precision": "average_precision", "ap": "average_precision"}


def score_metric_name(name: Any) -> str | None:
    """Canonical score-metric name, or None if ``name`` is not a score metric.

    Parameters
    ----------
    name : any
        A name such as ``'auc'``, ``'AUROC'`` or ``'ap'``.

    Returns
    -------
    str or None
        ``'roc_auc'``, ``'average_precision'`` or None.

    Examples
    --------
    >>> score_metric_name("AUROC"), score_metric_name("accuracy")
    ('roc_auc', None)
    """
    if not isinstance(name, str):
        return None
    return _SCORE_ALIASES.get(name.strip().lower().replace("-", "_"))


def need_both_classes(pos: np.ndarray) -> None:
    """Raise unless both classes are present (a score metric needs positives and negatives).

    Parameters
    ----------
    pos : ndarray of bool
        Which samples are positive.

    Raises
    ------
    ValueError
        If every sample, or none, is positive.
    """
    m = int(pos.sum())
    if m == 0 or m == pos.size:
        raise ValueError(
            "y_true contains only one class; ROC AUC needs positive and negative samples"
        )


_AVERAGES = ("macro", "weighted")


class _OneVsRest:
    """Multiclass scores (n, K) as K one-vs-rest problems, sorted once each.

    The metric of a resample is the mean of the K per-class values (``macro``) or their mean
    weighted by the classes' supports in that resample (``weighted``), as scikit-learn's
    ``roc_auc_score(multi_class="ovr")`` and ``average_precision_score`` on binarised labels.
    """

    def __init__(self, y_true: Any, y_score: np.ndarray, name: str, labels: Any,
                 average: str) -> None:
        if average not in _AVERAGES:
            raise ValueError(f"average must be one of {_AVERAGES} for multiclass scores, "
                             f"got {average!r}")
        y = _labels(y_true)
        k = y_score.shape[1]
        if labels is None:
            found = list(y_true.classes) if isinstance(y_true, EncodedTruth) else \
                encode_truth(y)[0]
            classes = np.asarray(found, dtype=y.dtype if y.dtype != object else object)
        else:
            classes = np.asarray(list(labels), dtype=y.dtype if y.dtype != object else object)
            if len(set(classes.tolist())) != len(classes):
                raise ValueError("labels must not repeat a class")
        if len(classes) != k:
            raise ValueError(
                f"{name} has {k} columns but there are {len(classes)} classes "
                f"({classes.tolist()[:10]}); give one score column per class, in label order"
            )
        unknown = ~np.isin(y, classes)
        if unknown.any():
            raise ValueError(f"y_true contains label {py_scalar(y[unknown][0])!r} not in labels "
                             f"{classes.tolist()[:10]}")
        self.average = average
        self.pos = np.stack([y == c for c in classes])  # (K, n)
        for c, p in zip(classes.tolist(), self.pos, strict=True):
            if not p.any() or p.all():
                raise ValueError(
                    f"class {c!r} has no {'samples' if not p.any() else 'negatives'} in y_true: "
                    "its one-vs-rest score metric is undefined"
                )
        self.parts = [ScoreRuns.build(p, y_score[:, j]) for j, p in enumerate(self.pos)]

    def evaluate(self, metric: str, draws: np.ndarray | None) -> np.ndarray:
        vals = np.concatenate([_values(part, metric, draws) for part in self.parts], axis=1)
        if self.average == "macro":
            return vals.mean(axis=1)
        if draws is None:
            support = self.pos.sum(axis=1, dtype=np.float64)[None, :]  # (1, K)
        else:  # each class's count in each resample (B, K)
            support = np.stack([p[draws].sum(axis=1) for p in self.pos], axis=1).astype(np.float64)
        total = support.sum(axis=1)
        with np.errstate(invalid="ignore"):
            return (vals * support).sum(axis=1) / total


def _labels(y_true: Any) -> np.ndarray:
    """The labels of ``y_true`` as a 1-D array; an EncodedTruth as an object array of its
    classes, for the one-vs-rest comparisons of multiclass scores."""
    if isinstance(y_true, EncodedTruth):
        uniques, codes = y_true.factors()
        return uniques[codes]
    return as_1d(y_true, "y_true")


def _values(runs: ScoreRuns, metric: str, draws: np.ndarray | None) -> np.ndarray:
    """(B, 1) values of the resamples that drew ``draws`` (B, n); (1, 1) on the samples."""
    return runs.values(metric) if draws is None else runs.values_of_draws(metric, draws)


def _evaluator(y_true: Any, y_score: Any, name: str, pos_label: Any, labels: Any,
               average: str) -> tuple[Any, int]:
    """(evaluator, n) for binary (n,) or multiclass (n, K) scores: the evaluator takes the
    metric and the (B, n) samples drawn by B resamples (None: the samples themselves) and
    returns (B,) values."""
    raw = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if raw.ndim == 2 and raw.shape[1] >= 3:
        if pos_label is not None:
            raise ValueError("pos_label applies to binary scores; multiclass scores (n, K) "
                             "make each class positive in turn")
        n = _labels(y_true).shape[0]
        ovr = _OneVsRest(y_true, check_scores_2d(raw, n, name), name, labels, average)
        return ovr.evaluate, n
    b = binary_target(y_true, y_score, pos_label, None, name)
    need_both_classes(b.pos)
    runs = ScoreRuns.build(b.pos, b.score)
    return (lambda metric, draws: _values(runs, metric, draws)[:, 0]), b.pos.size


def score_metric(y_true: Any, y_score: Any, metric: str = "roc_auc", *, pos_label: Any = None,
                 average: str = "macro", labels: Any = None) -> float:
    """ROC AUC or average precision (no resampling).

    Binary scores are ``(n,)``, of ``pos_label``. Multiclass scores are ``(n, K)``, one column
    per class in the order of ``labels`` (default: the sorted classes of ``y_true``), averaged
    one-vs-rest: ``average='macro'`` or ``'weighted'`` (by class support).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n,) or (n, K)
        Scores of the positive class, or one column per class (K >= 3).
    metric : str, default 'roc_auc'
        ``'roc_auc'`` or ``'average_precision'`` (aliases ``'auc'``, ``'auroc'``, ``'ap'``).
    pos_label : label, optional
        The positive class of binary scores (see
        :func:`confmat.inputs.targets.resolve_pos_label`); not with multiclass scores.
    average : {'macro', 'weighted'}, default 'macro'
        One-vs-rest average of multiclass scores.
    labels : array-like, optional
        The class of each column of multiclass scores.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        An unknown metric or ``average``, ``pos_label`` with multiclass scores, columns that
        do not match the classes, a class without samples or without negatives, or invalid
        labels or scores.

    Examples
    --------
    >>> score_metric([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> round(score_metric([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], "ap"), 6)
    0.916667
    """
    name = score_metric_name(metric)
    if name is None:
        raise ValueError(f"metric must be one of {SCORE_METRICS}, got {metric!r}")
    evaluate, _ = _evaluator(y_true, y_score, "y_score", pos_label, labels, average)
    return float(evaluate(name, None)[0])


def score_bootstrap(
    y_true: Any,
    scores: dict[str, Any] | list[Any],
    metric: str,
    n_resamples: int,
    rng: np.random.Generator,
    pos_label: Any = None,
    *,
    average: str = "macro",
    labels: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Point estimates (M,) and paired bootstrap values (B, M) of a score metric for M models
    (binary ``(n,)`` or multiclass ``(n, K)`` scores, as in :func:`score_metric`).

    Every model is evaluated on the same resamples, so the values are paired. The draws:
    ``rng.integers(0, n, size=(b, n))`` for chunks of ``b`` resamples (at most 2,000,000
    numbers a chunk, :func:`confmat.inference.common.chunk_rows`), row ``r`` holding the
    samples that resample ``r`` draws.

    Parameters
    ----------
    scores : dict of str to array-like, or list of array-like
        The scores of each model (a dict's keys name them in error messages).
    n_resamples : int
        Number of resamples ``B`` (validated by the caller).
    rng : numpy.random.Generator
        The random generator (advanced).
    y_true, metric, pos_label, average, labels
        As in :func:`score_metric`.

    Returns
    -------
    estimates : ndarray, shape (M,)
        The metric of each model on the samples.
    values : ndarray, shape (B, M)
        The metric of each model on each resample (NaN where a resample lacks a class).

    Raises
    ------
    ValueError
        As :func:`score_metric`.
    """
    name = score_metric_name(metric)
    if name is None:
        raise ValueError(f"metric must be one of {SCORE_METRICS}, got {metric!r}")
    items = list(scores.items()) if isinstance(scores, dict) else [
        (f"score_{i}", s) for i, s in enumerate(scores)]
    if len(items) > 1 and all(np.ndim(s) == 1 for _, s in items):  # binary: y_true read once
        y_true = encoded_truth(y_true)
    evals = [_evaluator(y_true, s, str(k), pos_label, labels, average) for k, s in items]
    n = evals[0][1]
    est = np.array([ev(name, None)[0] for ev, _ in evals])
    out = np.empty((n_resamples, len(evals)))
    for start, stop in chunk_rows(n_resamples, n, budget=2_000_000):
        draws = rng.integers(0, n, size=(stop - start, n))
        for j, (ev, _) in enumerate(evals):
            out[start:stop, j] = ev(name, draws)
    return est, out
