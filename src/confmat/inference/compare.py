"""Compare several classifiers on one test set: a table of metrics with intervals, and pairwise
tests with Holm's correction, ranked (the shape of Kneusel 2021, Tables 11-5, 11-6, 11-13 and
11-14).

The result type, :class:`Comparison`, and the curves-only :func:`compare_curves` live in
:mod:`confmat.inference.comparison` and are importable from here too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..curves import PRCurve, ROCCurve, roc_pr_curves
from ..curves.partial import REF_MCCLISH, REF_ROBIN, PartialRange
from ..inputs.decisions import check_scored_predictions
from ..inputs.encode import as_1d
from ..inputs.score_columns import positive_column_index, scores_pos_label
from ..inputs.scores import check_scores_1d, check_scores_2d, check_threshold
from ..inputs.targets import (
    default_pos_label,
    encode_truth,
    encoded_truth,
    negative_label,
    resolve_pos_label,
)
from ..metrics import get_metric
from ..words import arg, say
from .common import DEFAULT_RESAMPLES, check_level, check_n_resamples, check_random_state
from .comparison import (
    Comparison,
    compare_curves,
    compare_models,
    encode_many,
    model_names,
    nan_low,
)
from .intervals import ConfidenceInterval, confidence_interval
from .paired import REF_HOLM, holm, mcnemar, paired_bootstrap
from .roc_ci import partial_auc_ci
from .roc_test import roc_test
from .scores import delong, score_ci, score_metric_name

__all__ = ["Comparison", "compare", "compare_curves", "compare_models"]

_MCNEMAR_METRICS = ("accuracy", "error_rate", "weighted_accuracy", "hamming_loss")

#: the column of the partial AUC in a comparison (asked for with ``partial_auc=``)
PARTIAL_AUC = "partial_auc"

#: the pairwise test of partial areas, as the ``method`` of its rows
PARTIAL_AUC_TEST = "stratified bootstrap"



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
    partial_auc: Any = None,
    partial_auc_focus: str = "specificity",
    partial_auc_correct: bool = True,
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
        Predictions beside scores must be classes of the scores
        (:func:`confmat.inputs.decisions.check_scored_predictions`): beside 1-D scores a
        class of ``y_true`` or the positive class (a truth of 0 only may be predicted 1),
        beside 2-D scores a class of their columns or of ``y_true``.
    y_true : array-like of shape (n,), optional
        The shared truth, encoded once for every model, interval, test and curve (an
        :class:`~confmat.inputs.truth.EncodedTruth` is read as it is). Required unless every
        model is a ConfusionMatrix.
    metrics : sequence of str
        Registry metrics and/or 'roc_auc' / 'average_precision' (binary scores needed). A
        per-class metric is macro-averaged unless ``average`` or ``pos_label`` is given.
        'partial_auc' names the column of ``partial_auc`` (added last when not listed).
    level, method, n_resamples, random_state
        As in :meth:`ConfusionMatrix.ci` (score metrics use DeLong for ROC AUC and the
        sample bootstrap for average precision).
    average : {'macro', 'micro', 'weighted'}, optional
        Averaging of the per-class metrics (default: macro, said in ``notes``, unless
        ``pos_label`` is given).
    labels : array-like, optional
        The classes of the per-class metrics and their order (default: the sorted labels of
        ``y_true`` and the predictions); also the column order of 2-D scores. As in
        scikit-learn, it selects classes, never samples: a per-class metric (and its average)
        covers the classes in ``labels`` and counts every sample (a sample of another class
        predicted as class ``j`` is a false positive of ``j``, as
        ``precision_recall_fscore_support(labels=...)``), and the overall metrics
        (accuracy, kappa, MCC, ...), McNemar's test and the paired bootstrap of an overall
        metric use every sample and every class (``accuracy_score`` has no ``labels``).
        So every statistic of a comparison is computed on the same samples. A model given as a
        ConfusionMatrix counted on a label subset has only its per-class metrics.
    pos_label : label, optional
        The positive class: of binary scores (ROC AUC, average precision, scores turned into
        labels, the curves) and, without ``average``, of the per-class metrics. Needed for
        binary scores unless the labels are {0, 1}, {-1, 1} or {False, True}, or two
        other ``labels`` are given: a 1-D score vector then scores the second, which becomes
        the positive class as if given here (the rule of every entry point,
        :func:`confmat.inputs.score_columns.score_column_class`).
    threshold : float, default 0.5
        1-D scores are turned into labels with ``score >= threshold`` (said in ``notes``).
    test_metric : str, optional
        Metric of the pairwise tests and of the ranking; default the first of ``metrics``
        ('partial_auc' with ``partial_auc``: then the only tested metric). Tests: McNemar
        for accuracy / error rate, DeLong for ROC AUC, the stratified bootstrap for the
        partial AUC, the paired bootstrap otherwise; p-values adjusted over all pairs with
        Holm's method.
    partial_auc : pair of float, optional
        A range such as ``(0.8, 1.0)``: add the partial AUC of every model's binary scores
        on it (:func:`confmat.curves.partial.partial_auc`) as the column 'partial_auc', with
        its stratified percentile bootstrap interval
        (:func:`confmat.inference.roc_ci.partial_auc_ci`), and test every pair of models on
        it (:func:`confmat.inference.roc_test.roc_test`, ``method='bootstrap'``: the paired
        difference over its stratified bootstrap standard deviation, against the standard
        normal, as pROC's ``roc.test``, Robin et al. 2011). pROC refuses DeLong's test for
        a partial area; confmat's DeLong-type test of partial areas is
        :func:`confmat.inference.roc_test.roc_test` with ``method='delong'``. These tests are
        adjusted with Holm's method among themselves, apart from those of ``test_metric``.
    partial_auc_focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of ``partial_auc`` (pROC's ``partial.auc.focus``).
    partial_auc_correct : bool, default True
        McClish's (1989) standardisation of the partial areas (pROC's
        ``partial.auc.correct``); the value is nan, with a note, for a model whose curve
        lies under the diagonal on the range.

    Returns
    -------
    Comparison
        ``models`` ranked by ``test_metric`` (best first, following the metric's
        ``higher_is_better``), ``intervals[model][metric]``, ``pairwise`` (sorted by p-value),
        ``to_frame()``, ``pairwise_frame()``, ``to_dict()``.

    Raises
    ------
    TypeError
        If ``models`` is not a non-empty mapping, a 2-D model input or a model's scores are
        not numeric, or ``threshold`` is not a real number.
    ValueError
        A NaN ``threshold``; NaN or infinite scores (naming the model and the position); two
        model names written the same (``1`` and ``"1"``); no or duplicated metrics, a
        ``test_metric`` not among them, a model input of the wrong shape or length, score
        metrics without binary scores, a model's predicted label that is no class of its
        scores (naming ``models['name']['pred']``), invalid labels, ``pos_label``, ``level`` or
        ``n_resamples``; an overall metric of a ConfusionMatrix counted on a subset of
        the labels; ``partial_auc`` not a range within
        [0, 1], a ``partial_auc_focus`` other than the two axes, or 'partial_auc' in
        ``metrics`` (or a sensitivity focus) without ``partial_auc``.

    Examples
    --------
    >>> cmp = compare({"a": [0, 1, 1, 1, 0, 1], "b": [0, 0, 1, 1, 1, 1]}, [0, 0, 1, 1, 0, 1],
    ...               ["accuracy"], n_resamples=200, random_state=0)
    >>> [round(cmp.intervals[m]["accuracy"].estimate, 4) for m in cmp.models]
    [0.8333, 0.8333]
    >>> cmp.pairwise[0]["method"]
    'mcnemar (exact binomial)'

    The partial AUC on a specificity range, McClish-corrected, tested between the models:

    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> cmp = compare({"a": [.1, .4, .35, .8, .2, .9, .6, .7], "b": [.2, .1, .3, .4, .5, .6,
    ...                .1, .9]}, y, ["roc_auc"], partial_auc=(0.5, 1), n_resamples=200,
    ...               random_state=0)
    >>> cmp.metrics  # a: sensitivity 3/4 on the whole range, area 0.375 of at most 0.5
    ['roc_auc', 'partial_auc']
    >>> round(cmp.intervals["a"]["partial_auc"].estimate, 4)  # (1 + 0.25 / 0.375) / 2
    0.8333
    >>> [(r["metric"], r["method"]) for r in cmp.pairwise]
    [('roc_auc', 'delong'), ('partial_auc', 'stratified bootstrap')]
    """
    from ..matrix import ConfusionMatrix

    level = check_level(level)
    threshold = check_threshold(threshold)
    n_used = check_n_resamples(n_resamples, level)
    rng = check_random_state(random_state)
    # a seed gives each interval its own generator from that seed, so a model's interval is
    # the one its table alone gives (as cm.ci(..., random_state=seed)), whatever other models
    # are compared with it and in whatever order
    ci_state: Any = rng if random_state is None or isinstance(
        random_state, np.random.Generator) else int(random_state)
    if not isinstance(models, Mapping) or len(models) == 0:
        raise TypeError("models must be a non-empty mapping of name -> predictions or scores")
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics:
        raise ValueError("metrics must name at least one metric")
    names = model_names(models)
    prange = PartialRange.optional(partial_auc, partial_auc_focus, partial_auc_correct)
    canon: list[str] = []
    for m in metrics:
        s = score_metric_name(m)
        canon.append(PARTIAL_AUC if m == PARTIAL_AUC else
                     s if s is not None else get_metric(m).name)
    if len(set(canon)) != len(canon):
        raise ValueError(f"{arg('metrics')} contains duplicates: {canon}")
    if prange is None and PARTIAL_AUC in canon:
        raise ValueError("metric 'partial_auc' needs its range: "
                         + say("give partial_auc=(low, high)", "partial_auc", "give {} LOW,HIGH"))
    if prange is not None and PARTIAL_AUC not in canon:
        canon.append(PARTIAL_AUC)
    tmetric = canon[0] if test_metric is None else PARTIAL_AUC if test_metric == PARTIAL_AUC \
        else (score_metric_name(test_metric) or get_metric(test_metric).name)
    if tmetric not in canon:
        compared = say("metrics", "metrics", "the compared metrics ({})")
        raise ValueError(f"{arg('test_metric')} {tmetric!r} must be one of {compared} {canon}")
    notes: list[str] = []

    cms: dict[str, ConfusionMatrix] = {}
    preds: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    # y_true read once: each model's tables, intervals, tests and curves read the EncodedTruth
    truth = None if y_true is None else encoded_truth(y_true)
    book = None if truth is None else list(truth.classes)
    # the classes of the columns of 2-D scores: ``labels`` when given, in its order
    columns: list[Any] | None = list(labels) if labels is not None else book
    for name, value in zip(names, models.values(), strict=True):
        if isinstance(value, ConfusionMatrix):
            cms[name] = value
            continue
        if truth is None:
            raise ValueError(
                f"model {name!r} gives predictions or scores, so y_true is needed"
            )
        # every class a model may predict: ``labels`` and those of y_true (labels= selects
        # classes of per-class metrics, it does not shrink the problem)
        hint = book if labels is None else [*labels, *(c for c in book or [] if c not in
                                                       list(labels))]
        pred, score = _split_model(name, value, hint, threshold)
        given_pred = pred  # the model's own predictions (not labels made of its scores)
        if score is not None:
            sarr = np.asarray(score.to_numpy() if hasattr(score, "to_numpy") else score)
            if sarr.ndim and sarr.shape[0] != truth.n_samples:
                raise ValueError(
                    f"model {name!r} has {sarr.shape[0]} scores but y_true has {truth.n_samples} "
                    "samples; every model must be evaluated on the same samples"
                )
            # the door's checks (numbers, finite), naming the model
            sarr = (check_scores_2d if sarr.ndim == 2 else check_scores_1d)(
                sarr, truth.n_samples, f"models[{name!r}]")
            scores[name] = sarr
            if sarr.ndim == 1:  # labels given: the second scored, unless pos_label
                pos_label = scores_pos_label(labels, pos_label, scores=f"models[{name!r}]")
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
                    if len(klist) != 2:  # a subset in labels: the classes of y_true
                        klist = list(book or [])
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
            if parr.shape[0] != truth.n_samples:
                raise ValueError(
                    f"model {name!r} has {parr.shape[0]} predictions but y_true has "
                    f"{truth.n_samples} samples; every model must be evaluated on the same samples"
                )
            if given_pred is not None and score is not None:
                _check_beside_scores(name, parr, scores[name], book or [], columns, pos_label)
            preds[name] = parr
    # one code book for all models; ``labels`` selects the classes of per-class metrics, and
    # overall metrics see every sample and every class (``every``; see the docstring)
    every: dict[str, ConfusionMatrix] = {}
    all_labels: list[Any] | None = None
    if preds:
        pnames = list(preds)
        pargs = ([preds[n] for n in pnames], [f"models[{n!r}]" for n in pnames])
        kbook = encode_many(truth, *pargs, labels)[2]
        all_labels = kbook if labels is None else \
            [*kbook, *(c for c in encode_many(truth, *pargs)[2] if c not in kbook)]
        for n in pnames:
            cms[n] = ConfusionMatrix.from_predictions(truth, preds[n], labels=kbook)
            every[n] = cms[n] if all_labels == kbook else \
                ConfusionMatrix.from_predictions(truth, preds[n], labels=all_labels)
    for n in names:
        if n not in every:  # a ConfusionMatrix: its counts as given
            every[n] = cms[n]
    _check_same_truth(every, truth, names)

    intervals: dict[str, dict[str, ConfidenceInterval]] = {n: {} for n in names}
    for metric in canon:
        if metric in ("roc_auc", "average_precision", PARTIAL_AUC):
            for n in names:
                if n not in scores or (scores[n].ndim != 1 and scores[n].shape[1] != 2):
                    raise ValueError(
                        f"metric {metric!r} needs binary scores, which model {n!r} does not give"
                    )
                s = scores[n] if scores[n].ndim == 1 else scores[n][:, _pos_col(columns, pos_label)]
                if metric == PARTIAL_AUC and prange is not None:
                    intervals[n][metric] = partial_auc_ci(
                        truth, s, **prange.curve_kwargs(), correct=prange.correct, level=level,
                        n_resamples=n_used, stratified=True, random_state=ci_state,
                        pos_label=pos_label)
                    if np.isnan(intervals[n][metric].estimate):
                        notes.append(f"partial_auc of {n!r} is undefined: McClish's correction "
                                     "needs a ROC curve above the diagonal on the range")
                    continue
                intervals[n][metric] = score_ci(
                    truth, s, metric, level=level, n_resamples=n_used, random_state=ci_state,
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
            if spec.kind != "per_class" and every[n].has_outside_margin:
                raise ValueError(
                    f"model {n!r} is a ConfusionMatrix counted on a subset of the labels "
                    f"({every[n].n_outside:g} samples outside them): the overall metric "
                    f"{metric!r} of a comparison uses every sample; give its predictions, or "
                    "a matrix counted on every label")
            intervals[n][metric] = confidence_interval(
                (cms if spec.kind == "per_class" else every)[n], metric, level=level,
                method=method, average=avg, pos_label=pl, n_resamples=n_used,
                random_state=ci_state)

    spec_hib = True if tmetric in ("roc_auc", "average_precision", PARTIAL_AUC) else \
        get_metric(tmetric).higher_is_better
    sign = -1.0 if spec_hib is False else 1.0
    ranked = sorted(names, key=lambda n: -sign * nan_low(intervals[n][tmetric].estimate))

    pairwise: list[dict[str, Any]] = []
    paired_ok = all(n in preds or n in scores for n in names) and truth is not None
    tested = [tmetric] + ([PARTIAL_AUC] if prange is not None and tmetric != PARTIAL_AUC
                          else [])
    if len(names) > 1 and not paired_ok:
        notes.append("pairwise tests need per-sample predictions; some models are only counts")
    elif len(names) > 1:
        for fam in tested:  # one family of tests per metric, each adjusted on its own
            ci0 = intervals[names[0]][fam]
            rows = [_pair_test(fam, a, b, truth, preds, scores, columns, ci0, level, n_used, rng,
                               pos_label, labels, prange, all_labels)
                    for i, a in enumerate(ranked) for b in ranked[i + 1:]]
            adj = holm([r["pvalue"] for r in rows])
            for r, p in zip(rows, adj, strict=True):
                r["pvalue_adjusted"] = float(p)
                r["significant"] = bool(p < 1.0 - level)
            rows.sort(key=lambda r: (r["pvalue_adjusted"], r["pvalue"]))
            pairwise += rows
    if pairwise:
        notes.append(f"pairwise p-values adjusted with Holm's method ({REF_HOLM})" if
                     len(tested) == 1 else "pairwise p-values adjusted with Holm's method over "
                     f"the pairs, separately for each tested metric ({REF_HOLM})")
    if prange is not None:
        notes.append(partial_auc_note(prange, n_used, len(names) > 1 and paired_ok))
    roc: dict[str, ROCCurve] = {}
    pr: dict[str, PRCurve] = {}
    curve_pos = None
    binary = book is not None and len(book) == 2
    if binary and (pos_label is not None or default_pos_label(list(book or [])) is not None):
        for n in names:
            if n in scores and (scores[n].ndim == 1 or scores[n].shape[1] == 2):
                roc[n], pr[n] = roc_pr_curves(truth, _score1(scores[n], columns, pos_label),
                                              pos_label=pos_label, label=n)
                curve_pos = resolve_pos_label(list(book or []), pos_label)
    return Comparison(ranked, canon, intervals, pairwise, tmetric, level, "holm",
                      list(dict.fromkeys(notes)), roc, pr, curve_pos,
                      partial_auc=None if prange is None else partial_auc_description(
                          prange, n_used))


def partial_auc_description(prange: PartialRange, n_resamples: int) -> dict[str, Any]:
    """What a comparison's 'partial_auc' column is, JSON-ready: the range, its focus, McClish's
    correction, how the intervals and the pairwise tests were computed, and the references.

    Parameters
    ----------
    prange : PartialRange
    n_resamples : int
        Bootstrap resamples of the intervals and of each test.

    Returns
    -------
    dict
        ``focus``, ``range``, ``corrected``, ``label``, ``interval_method``,
        ``test_method``, ``references``.

    Examples
    --------
    >>> d = partial_auc_description(PartialRange.parse((0.8, 1), "sensitivity"), 500)
    >>> d["label"], d["interval_method"]
    ('sensitivity 0.8 to 1, McClish-corrected', 'stratified percentile bootstrap (500 resamples)')
    """
    refs = [REF_ROBIN] + ([REF_MCCLISH] if prange.correct else [])
    return {**prange.to_dict(), "label": prange.label,
            "interval_method": f"stratified percentile bootstrap ({n_resamples} resamples)",
            "test_method": f"{PARTIAL_AUC_TEST} ({n_resamples} paired resamples): the "
                           "difference over the standard deviation of the resampled "
                           "differences, against the standard normal",
            "references": refs}


def partial_auc_note(prange: PartialRange, n_resamples: int, tested: bool) -> str:
    """The note a comparison carries about its 'partial_auc' column.

    Parameters
    ----------
    prange : PartialRange
    n_resamples : int
    tested : bool
        Whether pairs of models were tested on it.

    Returns
    -------
    str

    Examples
    --------
    >>> for part in partial_auc_note(PartialRange.parse((0.8, 1)), 1000, False).split("; "):
    ...     print(part)
    partial_auc: the partial AUC on specificity 0.8 to 1, McClish-corrected (McClish 1989)
    intervals: stratified percentile bootstrap (1000 resamples)
    """
    d = partial_auc_description(prange, n_resamples)
    text = (f"partial_auc: the partial AUC on {prange.label}"
            + (" (McClish 1989)" if prange.correct else "")
            + f"; intervals: {d['interval_method']}")
    if tested:
        text += (f"; pairwise tests: {d['test_method']} (Robin et al. 2011) as pROC for partial "
                 "areas")
    return text


def _check_beside_scores(name: str, pred: np.ndarray, score: np.ndarray, classes: list[Any],
                         columns: list[Any] | None, pos_label: Any) -> None:
    """A model's predictions beside its scores must be classes of the scores, by the door's
    one rule (:func:`confmat.inputs.decisions.check_scored_predictions`): one score column
    is of the classes of ``y_true`` and its positive class; columns that cover every
    predicted class leave nothing to check."""
    if score.ndim == 2 and set(encode_truth(pred)[0]) <= set(columns or []):
        return
    pos = None
    if score.ndim == 1:
        pos = default_pos_label(classes) if pos_label is None else pos_label
    check_scored_predictions(classes, pred, name=f"models[{name!r}]['pred']",
                             score_name=f"models[{name!r}]['score']", pos_label=pos)


def _pos_col(columns: list[Any] | None, pos_label: Any) -> int:
    """Column of the positive class in (n, 2) scores whose columns follow ``columns``."""
    return positive_column_index(list(columns or []), pos_label)



def _check_same_truth(cms: Mapping[str, Any], y_true: Any, names: list[str]) -> None:
    """Models given as matrices must have been counted on the same truth (same class supports),
    that of ``y_true`` when it is given (on the matrix's classes, those without samples aside)."""
    if y_true is not None:
        classes, codes = encode_truth(y_true)
        truth = dict(zip(classes, np.bincount(codes, minlength=len(classes)).tolist(),
                         strict=True))
        for n in names:
            cm = cms[n]
            if cm.is_weighted:  # weighted counts have no supports to compare with y_true
                continue
            sup = {k: v for k, v in zip(cm.labels, _supports(cm), strict=True) if v}
            seen = {k: v for k, v in truth.items() if k in set(cm.labels)}  # labels= may subset
            if sup != seen:
                raise ValueError(
                    f"model {n!r} was evaluated on a different y_true than the one given: "
                    f"class supports {sup} vs y_true {seen}"
                )
    ref_name, ref = None, None
    for n in names:
        cm = cms[n]
        # a class no sample holds (predicted only, or a label given) is no difference of truth
        sup = {k: v for k, v in zip(cm.labels, _supports(cm), strict=True) if v}
        if ref is None:
            ref_name, ref = n, sup
            continue
        if sup != ref:
            raise ValueError(
                f"models {ref_name!r} and {n!r} were evaluated on different y_true: class "
                f"supports {ref} vs {sup}"
            )


def _supports(cm: Any) -> list[Any]:
    """Samples of each class of ``cm`` in the truth, whatever they were predicted as (a
    prediction outside a label subset included)."""
    return cm.full_table.sum(axis=1)[: cm.n_classes].tolist()


def _pair_test(metric: str, a: str, b: str, truth: Any, preds: dict[str, Any],
               scores: dict[str, Any], columns: Any, ci0: ConfidenceInterval, level: float,
               n_resamples: int, rng: Any, pos_label: Any, labels: Any,
               prange: PartialRange | None = None, all_labels: Any = None) -> dict[str, Any]:
    row: dict[str, Any] = {"model_a": a, "model_b": b, "metric": metric}
    if metric == PARTIAL_AUC and prange is not None:
        t = roc_test(truth, _score1(scores[a], columns, pos_label),
                     _score1(scores[b], columns, pos_label), method="bootstrap",
                     **prange.test_kwargs(), n_resamples=n_resamples, stratified=True,
                     random_state=rng, pos_label=pos_label)
        row.update(difference=float(t.estimate_a - t.estimate_b), low=None, high=None,
                   statistic=float(t.statistic), pvalue=float(t.pvalue),
                   method=PARTIAL_AUC_TEST)
        return row
    if metric == "roc_auc":
        sa = scores[a] if scores[a].ndim == 1 else scores[a][:, _pos_col(columns, pos_label)]
        sb = scores[b] if scores[b].ndim == 1 else scores[b][:, _pos_col(columns, pos_label)]
        r: Any = delong(truth, sa, sb, pos_label=pos_label, level=level)
        row.update(difference=r.difference, low=r.low, high=r.high, statistic=r.statistic,
                   pvalue=r.pvalue, method="delong")
        return row
    if metric == "average_precision":
        r = paired_bootstrap(truth, _score1(scores[a], columns, pos_label),
                             _score1(scores[b], columns, pos_label), metric, level=level,
                             n_resamples=n_resamples, random_state=rng, pos_label=pos_label)
        row.update(difference=r.difference, low=r.low, high=r.high, statistic=None,
                   pvalue=r.pvalue, method="paired bootstrap")
        return row
    if metric in _MCNEMAR_METRICS:
        r = mcnemar(truth, preds[a], preds[b])
        diff = ((r.table[0, 1] - r.table[1, 0]) / r.table.sum())
        if metric in ("error_rate", "hamming_loss"):
            diff = -diff
        row.update(difference=float(diff), low=None, high=None, statistic=r.statistic,
                   pvalue=r.pvalue, method=f"mcnemar ({r.method})")
        return row
    avg = ci0.average
    per_class = get_metric(metric).kind == "per_class"
    pl = pos_label if (per_class and avg is None) else None
    r = paired_bootstrap(truth, preds[a], preds[b], metric, level=level, average=avg,
                         n_resamples=n_resamples, random_state=rng,
                         labels=labels if per_class else all_labels, pos_label=pl)
    row.update(difference=float(r.difference), low=float(r.low), high=float(r.high),
               statistic=None, pvalue=float(r.pvalue), method="paired bootstrap")
    return row


def _score1(s: np.ndarray, columns: Any, pos_label: Any) -> np.ndarray:
    return s if s.ndim == 1 else s[:, _pos_col(columns, pos_label)]
