"""A comparison of classifiers on the same samples, for the renderers.

The statistics - intervals, the ranking and the pairwise tests with Holm's adjustment - are
those of :func:`confmat.inference.compare`, held unchanged in :attr:`Comparison.result`;
this module only adds each model's :class:`~confmat.report.model.Report` and a table for
display. It runs no test of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..curves.partial import PartialRange
from ..inputs.encode import check_pair_lengths, encode_pair
from ..inputs.score_columns import scores_pos_label
from ..inputs.score_shape import check_score_length
from ..inputs.targets import EncodedTruth, default_pos_label, encoded_truth, resolve_pos_label
from ..matrix import ConfusionMatrix
from ..metrics import get_metric
from ..words import arg, arg_value
from .build import REPORT_RESAMPLES, build_report
from .findings import headline_names
from .jsonable import clean
from .model import Displayable, Report

if TYPE_CHECKING:
    from .. import inference

#: the note of a comparison given sample weights: they weigh each model's report, while the
#: side-by-side table and the pairwise tests (:func:`confmat.inference.compare`, which takes
#: no weights) count every sample once
UNWEIGHTED_NOTE = ("sample weights weigh each model's report (its matrix and metrics), not the "
                   "side-by-side table and the pairwise tests: those count every sample once "
                   "(confmat.inference.compare takes no weights)")


@dataclass
class Comparison(Displayable):
    """Several classifiers on the same samples, side by side, with pairwise tests.

    ``result`` is the :class:`confmat.inference.Comparison` (models ranked, metrics,
    intervals, pairwise tests, test metric, level, correction, notes); ``reports`` holds one
    report per model in ``names`` order.

    Parameters
    ----------
    title : str
        Heading of the comparison.
    names : list of str
        The model names, in the order the models were given.
    reports : list of Report
        One report per model, in ``names`` order.
    result : confmat.inference.Comparison
        The intervals, ranking and pairwise tests.
    intervals : bool, default True
        Whether the table shows confidence intervals.
    notes : list of str, optional
        Notes shown under the comparison.
    source : dict, optional
        Where the data came from (``key: value`` lines of the rendered output; empty values
        are left out).

    Examples
    --------
    >>> cmp = build_comparison([0, 1, 1, 0], {"a": [0, 1, 1, 1], "b": [0, 1, 0, 0]},
    ...                        intervals=False, n_resamples=100)
    >>> cmp.names, [t["model_a"] for t in cmp.tests]
    (['a', 'b'], ['a'])
    """

    title: str
    names: list[str]
    reports: list[Report]
    result: inference.Comparison
    intervals: bool = True
    notes: list[str] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def tests(self) -> list[dict[str, Any]]:
        """The pairwise tests of ``result`` (``model_a``, ``model_b``, ``metric``,
        ``method``, ``statistic``, ``pvalue``, ``pvalue_adjusted``, ...)."""
        return list(self.result.pairwise)

    @property
    def table(self) -> list[dict[str, Any]]:
        """One row per model (ranked): each metric's estimate and, with ``intervals``, its
        interval under ``<metric>_interval`` (with a partial AUC, ``partial_auc``: its range,
        focus and interval method are :attr:`partial_auc`); when every model has a score
        matrix of more than two classes, then Hand and Till's (2001) multi-class AUC under
        ``hand_till_auc`` (its interval is always None: pROC's ``multiclass.roc`` has none).

        Examples
        --------
        >>> cmp = build_comparison([0, 1, 1, 0], {"a": [0, 1, 1, 1]}, intervals=False,
        ...                        metrics=["accuracy"])
        >>> cmp.table
        [{'model': 'a', 'accuracy': 0.75, 'accuracy_interval': None}]
        """
        rows = []
        reports = dict(zip(self.names, self.reports, strict=True))
        hand_till = all(r.multiclass_auc is not None for r in self.reports)
        for m in self.result.models:
            row: dict[str, Any] = {"model": m}
            for k in self.result.metrics:
                ci = self.result.intervals[m][k]
                row[k] = float(ci.estimate)
                row[k + "_interval"] = [float(ci.low), float(ci.high)] if self.intervals \
                    else None
            mc = reports[m].multiclass_auc if hand_till else None
            if mc is not None:
                row["hand_till_auc"] = float(mc.auc)
                row["hand_till_auc_interval"] = None
            rows.append(row)
        return rows

    @property
    def partial_auc(self) -> dict[str, Any] | None:
        """What the table's ``partial_auc`` column is (None without one): ``focus``,
        ``range``, ``corrected``, ``label``, ``interval_method``, ``test_method``,
        ``references`` (:func:`confmat.inference.compare.partial_auc_description`)."""
        return self.result.partial_auc

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the inference result, the table and every model's report.

        Returns
        -------
        dict
            ``schema`` 'confmat.comparison', version 2; ``partial_auc`` is
            :attr:`partial_auc` (null without a partial AUC).

        Examples
        --------
        >>> cmp = build_comparison([0, 1, 1, 0], {"a": [0, 1, 1, 1]}, intervals=False,
        ...                        metrics=["accuracy"])
        >>> cmp.to_dict()["models"]
        ['a']
        """
        return {
            "schema": "confmat.comparison",
            "version": 2,
            "title": self.title,
            "source": dict(self.source),
            "models": list(self.names),
            "table": clean(self.table),
            "partial_auc": clean(self.partial_auc),
            "comparison": clean(self.result.to_dict()),
            "reports": [r.to_dict() for r in self.reports],
            "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        return f"<Comparison {self.title!r}: {', '.join(self.names)}>"


def build_comparison(
    y_true: Any,
    models: Mapping[str, Any],
    *,
    scores: Mapping[str, Any] | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    intervals: bool = True,
    level: float = 0.95,
    n_resamples: int = REPORT_RESAMPLES,
    metrics: Sequence[str] | None = None,
    test_metric: str | None = None,
    title: str = "Model comparison",
    source: Mapping[str, Any] | None = None,
    interval_metrics: Any = None,
    partial_auc: Any = None,
    partial_auc_focus: str = "specificity",
    partial_auc_correct: bool = True,
) -> Comparison:
    """Compare classifiers evaluated on the same samples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    models : mapping name -> predicted labels
    scores : mapping name -> scores, optional
        Positive-class scores (or per-class score arrays) for the models that have them.
        When every model has a score vector, 'roc_auc' joins the compared metrics; when
        every model has a score matrix of more than two classes, the table gets Hand and
        Till's (2001) multi-class AUC (``hand_till_auc``).
    labels, pos_label, sample_weight, level, title, source, interval_metrics
        As in :func:`confmat.report.build_report` (``sample_weight`` weighs the per-model
        reports; the comparison's statistics are unweighted, as in
        :func:`confmat.inference.compare`; ``interval_metrics`` restricts the intervals of
        the per-model reports, not those of the table). With ``labels`` a subset that leaves
        samples out (a true class outside it), the table and the tests count the samples the
        printed tables count, those inside ``labels``, so that every number of the page is on
        the same samples (:func:`confmat.inference.compare` on its own counts every sample in
        its overall metrics, as scikit-learn's ``accuracy_score`` ignores ``labels``).
        Beside a score vector, the class it scores follows the rule of every entry point
        (:func:`confmat.inputs.score_columns.score_column_class`): ``pos_label``, else 1
        (True) beside {0, 1}, {-1, 1}, {False, True} found or given in any order, else the
        second of two other ``labels`` given (then the positive class of the page, as if
        given as ``pos_label``); other labels found need ``pos_label``.
    intervals : bool
        Show intervals in the reports and the table.
    n_resamples : int
        Bootstrap resamples (fixed ``random_state=0``: reproducible reports).
    metrics : sequence of str, optional
        Overall metrics of the side-by-side table ('partial_auc' places the column of
        ``partial_auc`` among them; otherwise it comes last). Default: the headline metrics of a
        single report (:func:`confmat.report.findings.headline_names`): accuracy, balanced
        accuracy, MCC and F1 of the positive class (multi-class: macro F1 and Cohen's
        kappa), then ROC AUC and average precision when every model has a binary score
        vector.
    test_metric : str, optional
        Metric of the pairwise tests (default 'accuracy', McNemar's test, when compared,
        else the first metric; 'partial_auc' with ``partial_auc``); see
        :func:`confmat.inference.compare`.
    partial_auc : pair of float, optional
        A range such as ``(0.8, 1.0)`` of specificity (or of sensitivity, with
        ``partial_auc_focus='sensitivity'``); needs a binary score vector for every model.
        The table gets each model's McClish-corrected (McClish 1989; the partial area itself
        with ``partial_auc_correct=False``) partial AUC on it with
        its stratified percentile bootstrap interval (column ``partial_auc``), every pair of
        models is tested on it with pROC's ``roc.test`` bootstrap (Robin et al. 2011; pROC's
        method for partial areas), and each model's report shows it as
        ``build_report(partial_auc=)`` does.
    partial_auc_focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of ``partial_auc`` (pROC's ``partial.auc.focus``).
    partial_auc_correct : bool, default True
        McClish's standardised partial AUC, or the partial area itself (pROC's
        ``partial.auc.correct``).

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        No models; two model names with the same text (``1`` and ``"1"``); predictions or
        scores of another length than ``y_true``; scores of
        unknown models; models that leave different samples out of ``labels`` (a prediction
        outside ``labels``, even where the class supports agree); a model's predicted label
        that is no class of its score vector (neither of ``y_true`` nor the positive class:
        :func:`confmat.report.build_report`'s rule); a per-class metric; ``partial_auc``
        without a binary score vector for every model, not a range within [0, 1], or a bad
        ``partial_auc_focus``. An error
        of the input door about one model's predictions or scores names that model.
    TypeError
        ``models`` is not a mapping; a model's labels of another kind than ``y_true``'s
        (``"1"`` against ``1``, ``True`` against ``1``), naming the model.

    Examples
    --------
    >>> cmp = build_comparison([0, 1, 1, 0, 1], {"a": [0, 1, 1, 1, 1], "b": [0, 1, 0, 0, 0]},
    ...                        intervals=False, metrics=["accuracy", "mcc"], n_resamples=100)
    >>> [(r["model"], r["accuracy"]) for r in cmp.table]
    [('a', 0.8), ('b', 0.6)]
    >>> cmp.tests[0]["method"].startswith("mcnemar")
    True

    With scores, the partial AUC on a sensitivity range:

    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> s = {"a": [.1, .4, .35, .8, .2, .9, .6, .7], "b": [.2, .1, .3, .4, .5, .6, .1, .9]}
    >>> cmp = build_comparison(y, {k: [int(v >= .5) for v in s[k]] for k in s}, scores=s,
    ...                        partial_auc=(0.5, 1), partial_auc_focus="sensitivity",
    ...                        n_resamples=200)
    >>> cmp.partial_auc["label"], [t["metric"] for t in cmp.tests]
    ('sensitivity 0.5 to 1, McClish-corrected', ['accuracy', 'partial_auc'])
    """
    if not isinstance(models, Mapping):
        raise TypeError("models must be a mapping of model name to predicted labels, got "
                        f"{type(models).__name__}")
    if not models:
        raise ValueError("models is empty: give at least one model's predictions")
    from ..inference.comparison import model_names  # on use, as compare below

    model_names(models)  # every table, test and page names a model by its text
    partial = PartialRange.optional(partial_auc, partial_auc_focus, partial_auc_correct)
    scores = dict(scores or {})
    unknown = set(scores) - set(models)
    if unknown:
        raise ValueError(f"scores given for unknown models: {sorted(unknown)}")
    y = np.asarray(y_true)
    for name, pred in models.items():
        if len(pred) != len(y):
            raise ValueError(
                f"model {name!r} has {len(pred)} predictions but y_true has {len(y)} samples"
            )
    for name, s in scores.items():  # lengths before the labels' content, as build_report
        with _naming(name):
            check_score_length(y, s)
    # y_true is encoded once for every model: their label books, tables (the counting kernels
    # read the EncodedTruth's codes), samples, reports and the comparison's statistics
    truth: EncodedTruth | None = None
    if labels is not None and any(np.ndim(v) == 1 for v in scores.values()):
        # a score vector scores the class of two labels given (pos_label, the implied 1 /
        # True, else the second), the rule
        # of every entry point (score_column_class); each model's report reads it as pos_label
        pos_label = scores_pos_label(labels, pos_label, scores="scores")
    if labels is None:  # the union of each model's label book, each checked by the door
        books = []
        for name, pred in models.items():
            with _naming(name):
                if truth is None:  # an error of y_true names the first model, as it did when
                    # the door read y_true in each model's pair
                    check_pair_lengths(len(y), len(pred))
                    truth = encoded_truth(y)
                books.append(encode_pair(truth, np.asarray(pred))[2])
        labels = sorted(set().union(*books))
    truth = encoded_truth(y) if truth is None else truth
    with_scores = bool(scores) and set(scores) == set(models) \
        and all(np.ndim(v) == 1 for v in scores.values()) and len(labels) == 2
    truth_classes = list(truth.classes)
    # a truth of one class has no ROC curve: the areas are not compared (each model's report
    # still shows its scores), and the reports infer the positive class as a single one does
    one_class = with_scores and partial is None and len(truth_classes) < 2
    with_scores = with_scores and not one_class
    given_pos_label = pos_label
    if partial is not None and not with_scores:
        raise ValueError("partial_auc needs a binary problem and a score vector (positive-"
                         "class scores) for every model: it is an area under each model's "
                         "ROC curve")
    average = None
    if metrics is None:
        names, average, pos_label = _headline(list(labels), pos_label, with_scores)
    else:
        names = []
        for m in metrics:
            if m == "partial_auc":  # its column; compare() asks for the range if missing
                names.append(m)
                continue
            spec = get_metric(m)
            if spec.kind != "overall":
                raise ValueError(f"compare shows overall metrics; {spec.name!r} is per-class "
                                 "(its per-class values are in each model's report)")
            names.append(spec.name)
        names += ["roc_auc"] if with_scores else []
    reports = []
    first: tuple[str, ConfusionMatrix] | None = None
    kept_first: np.ndarray | None = None
    for name, pred in models.items():
        pred = np.asarray(pred)
        with _naming(name):  # the input door's message, with the model it is about
            cm = ConfusionMatrix.from_predictions(truth, pred, labels=labels,
                                                  sample_weight=sample_weight)
        first = first or (name, cm)
        _check_same_samples(first, (name, cm), labels)
        kept = None
        if cm.n_outside:  # the samples the table counts: both labels in labels (the door's codes)
            t_codes, p_codes, book, _ = encode_pair(truth, pred, labels)
            kept = (t_codes < len(book)) & (p_codes < len(book))
        if kept is not None and kept_first is not None and not np.array_equal(kept, kept_first):
            raise ValueError(
                f"models {first[0]!r} and {name!r} leave different samples out of "
                f"{arg_value('labels', list(labels))} (a sample whose prediction is outside "
                f"{arg('labels')} is left out of that model's table), so they would not be "
                f"compared on the same samples; add the classes they predict to {arg('labels')}")
        kept_first = kept if kept_first is None else kept_first
        if pos_label is not None and scores.get(name) is None:
            # about the labels, not this model: the door's message as it is (build_report
            # makes the same check, under the model's name)
            resolve_pos_label(list(cm.labels), pos_label)
        with _naming(name):
            reports.append(build_report(
                cm, y_true=truth, y_score=scores.get(name), y_pred=pred,
                pos_label=pos_label if given_pos_label is not None or pos_label in
                truth_classes else None,
                sample_weight=sample_weight, intervals=intervals, level=level,
                n_resamples=n_resamples, title=str(name), source=source,
                interval_metrics=interval_metrics,
                partial_auc=None if partial is None else partial.bounds,
                partial_auc_focus=partial_auc_focus, partial_auc_correct=partial_auc_correct))
    if test_metric is None:
        test_metric = "accuracy" if "accuracy" in names else names[0]
    # the table and the tests count the samples the printed tables count: with labels= a
    # subset that leaves samples out (a true class outside it), every statistic of the page
    # is on the samples inside it (compare() alone would count every sample in its overall
    # metrics, as scikit-learn's accuracy_score ignores labels=)
    rows = slice(None) if kept_first is None else kept_first
    given = {str(k): ({"pred": np.asarray(v)[rows],
                       "score": np.asarray(scores[k], np.float64)[rows]}
                      if k in scores and with_scores else np.asarray(v)[rows])
             for k, v in models.items()}
    from ..inference.compare import compare  # on use: printing a report never loads it

    kept_truth = truth if kept_first is None else truth.take(kept_first)
    result = compare(given, kept_truth, names, level=level, n_resamples=n_resamples,
                     random_state=0, labels=list(labels), pos_label=pos_label,
                     test_metric=test_metric, average=average,
                     partial_auc=None if partial is None else partial.bounds,
                     partial_auc_focus=partial_auc_focus,
                     partial_auc_correct=partial_auc_correct)
    notes = list(result.notes)
    if sample_weight is not None:
        notes.insert(0, UNWEIGHTED_NOTE)
    if one_class:
        notes.insert(0, f"ROC AUC and average precision are not compared: y_true holds one "
                        f"class ({truth_classes[0]!r}), so no model has a ROC curve (each "
                        "model's report shows its scores)")
    return Comparison(title, [str(n) for n in models], reports, result, intervals, notes,
                      dict(source or {}))


@contextmanager
def _naming(model: str) -> Iterator[None]:
    """A ValueError or TypeError raised inside names the model being evaluated."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"while evaluating model {model!r}: {exc}") from exc


def _check_same_samples(first: tuple[str, ConfusionMatrix], this: tuple[str, ConfusionMatrix],
                        labels: Sequence[Any]) -> None:
    """Every model's table must count the same samples: a prediction outside ``labels``
    leaves its sample out of that model's table only, and the models would no longer be
    compared on the same samples (paired tests need them)."""
    (a, cm_a), (b, cm_b) = first, this
    # weighted tables of the same samples add their weights in another order: their sums
    # may differ in the last bits (the samples themselves are compared exactly, by the codes,
    # in build_comparison)
    if not (np.isclose(cm_a.n_outside, cm_b.n_outside, rtol=1e-9, atol=0.0)
            and np.allclose(cm_a.counts.sum(axis=1), cm_b.counts.sum(axis=1), rtol=1e-9,
                            atol=0.0)):
        raise ValueError(
            f"models {a!r} and {b!r} leave different samples out of "
            f"{arg_value('labels', list(labels))} ({cm_a.n_outside:g} and {cm_b.n_outside:g} "
            f"samples: a sample whose prediction is outside {arg('labels')} is left out of that "
            "model's table), so they would not be compared on the same samples; add the "
            f"classes they predict to {arg('labels')}")


def _headline(labels: list[Any], pos_label: Any, with_scores: bool
              ) -> tuple[list[str], str | None, Any]:
    """The comparison's default metrics: a single report's headline
    (:func:`confmat.report.findings.headline_names`) as :func:`confmat.inference.compare`
    names them, with the ``average`` and ``pos_label`` that make its F1 the headline's one
    (binary: of the positive class; multi-class, or binary labels that imply no positive
    class: macro)."""
    names, average = [], None
    binary = len(labels) == 2
    if binary and pos_label is None:
        pos_label = default_pos_label(labels)
    for h in headline_names(len(labels)):
        if h in ("roc_auc", "average_precision"):
            if with_scores:
                names.append(h)
        elif h == "f1_macro" or (h == "f1" and pos_label is None):
            names.append("f1")  # macro F1, as a report without a positive class shows
            average = "macro"
        else:
            names.append(h)
    return names, average, pos_label
