"""The entry point of evaluation by group: :func:`by_group` reads the arguments through the
input door (:mod:`confmat.inputs.grouping` for ``groups``), counts the groups' tables in one
pass (:func:`confmat.counting.grouped.grouped_counts`) and puts the scores in group order."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..counting.grouped import GroupedCounts, grouped_counts
from ..inputs.columns import check_label_pair
from ..inputs.decisions import check_scored_predictions
from ..inputs.grouping import GroupCodes, encode_groups
from ..inputs.score_columns import scores_pos_label
from ..inputs.targets import binary_target, one_class_book, resolve_pos_label
from .binned_scores import BinnedGroupedScores
from .evaluation import DEFAULT_MIN_SUPPORT, GroupedEvaluation
from .scores import GroupedScores

__all__ = ["by_group", "evaluation_from_counts"]


def by_group(
    y_true: Any,
    y_pred: Any,
    groups: Any,
    *,
    scores: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    min_support: int = DEFAULT_MIN_SUPPORT,
) -> GroupedEvaluation:
    """Evaluate a classifier in every group: one confusion table per slice, counted at once.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels of one kind (numbers, strings or booleans), as for
        :meth:`confmat.ConfusionMatrix.from_predictions`.
    groups : array-like of shape (n_samples,), or several
        The group of each sample: one column, or several sensitive features (a pandas /
        polars DataFrame, a dict of name to column, a list of columns, a 2-D array) whose
        intersections that occur are the groups.
    scores : array-like of shape (n_samples,), optional
        Scores of the positive class (binary problems, or one class against the rest of
        three or more): ROC AUC and average precision per group. Which class they score is the
        rule of every entry point (:func:`confmat.inputs.score_columns.score_column_class`):
        ``pos_label`` if given; else 1 (True) beside {0, 1}, {-1, 1} or {False, True}, found
        or given in any order; else the second of two other ``labels`` given; any other two
        labels found are refused (give ``pos_label``). The predicted labels must
        then be classes of ``y_true`` or the positive class
        (:func:`confmat.inputs.decisions.check_scored_predictions`): a class may go
        unpredicted, but a predicted label with no score, most often one label spelled two
        ways, is refused.
    labels : sequence, optional
        Classes and their order (as in ``from_predictions``); by default the sorted labels
        seen in any group, so that every group's table has the same classes. Data of one
        class also get the positive class (``pos_label``, or 1 beside 0 or -1, True beside
        False), which no sample holds, so that the binary measures are defined (as in
        scikit-learn and fairlearn). Two labels given also name the class ``scores`` score
        (the second), but not the positive class of the binary measures, nor the default
        class of per-class metrics: those stay ``pos_label``'s, as ``labels`` in
        scikit-learn and fairlearn only selects and orders the classes.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights; the tables then hold float sums of weights.
    pos_label : label, optional
        The positive class: per-class metrics default to it, and the binary measures
        (selection rate, equalized odds, scores) use it. Without it, labels within {0, 1},
        {-1, 1} or {False, True} take 1 (True) where a positive class is needed.
    min_support : int, default 30
        Groups with fewer samples are flagged ``small`` (never dropped).

    Returns
    -------
    GroupedEvaluation

    Raises
    ------
    ValueError
        ``groups``, ``scores`` or ``sample_weight`` of another length than ``y_true``, missing
        labels or group keys, ``pos_label`` not among the labels, a predicted label beside
        ``scores`` that is neither a class of ``y_true`` nor the positive class, or as
        ``from_predictions``.
    TypeError
        Labels or group keys of kinds that cannot be ordered together.

    Examples
    --------
    >>> ev = by_group(["no", "yes", "yes", "no"], ["no", "yes", "no", "no"],
    ...               {"site": ["A", "A", "B", "B"]}, pos_label="yes")
    >>> ev.groups, ev.metric("recall").tolist(), ev.overall.counts.tolist()
    (['A', 'B'], [1.0, 0.0], [[2, 0], [1, 1]])
    """
    t, p = check_label_pair(y_true, y_pred)
    n = len(t)
    codes = encode_groups(groups, n)
    counts = grouped_counts(codes.codes, codes.n_groups, t, p, labels=labels,
                            sample_weight=sample_weight)
    book = None if labels is not None else one_class_book(counts.labels, pos_label)
    if book is not None:  # one class seen: the binary measures need the positive one too
        counts = grouped_counts(codes.codes, codes.n_groups, t, p, labels=book,
                                sample_weight=sample_weight)
    if labels is not None and pos_label is not None:  # the classes came from labels
        resolve_pos_label(counts.labels, pos_label, "labels")
    grouped_scores = None
    if scores is not None:
        # the class the scores score: labels given score the second (unless pos_label), labels
        # found follow scikit-learn's rule (the one rule of every path, score_column_class)
        target = binary_target(y_true, scores, scores_pos_label(labels, pos_label,
                                                                scores="scores"),
                               sample_weight, score_name="scores")
        # the classes of y_true from the door's one encoding of it (no second pass)
        check_scored_predictions(target.classes, y_pred, score_name="scores",
                                 pos_label=target.pos_label)
        grouped_scores = GroupedScores.build(target, codes.codes, codes.sizes)
    return GroupedEvaluation(counts, codes, min_support=min_support, pos_label=pos_label,
                             scores=grouped_scores)


def evaluation_from_counts(
    counts: GroupedCounts,
    groups: list[Any],
    names: list[str],
    *,
    min_support: int = DEFAULT_MIN_SUPPORT,
    pos_label: Any = None,
    histograms: list[Any] | None = None,
) -> GroupedEvaluation:
    """The evaluation by group of a stack of tables counted elsewhere: a
    :class:`~confmat.accumulator.GroupedAccumulator`, a file's ``GROUP BY``
    (:func:`confmat.io.evaluate_file` with ``group_cols``) or a Dask collection. They reach it
    through the hook ``confmat.hooks.GROUPED_EVALUATION``.

    Parameters
    ----------
    counts : GroupedCounts
        The G x K x K stack, its labels and the group sizes.
    groups : list
        The G group keys, sorted (tuples for several features).
    names : list of str
        The sensitive features' names.
    min_support : int, default 30
        Groups with fewer samples are flagged small.
    pos_label : label, optional
        The positive class.
    histograms : list of ScoreHistogram, optional
        One binary score histogram per group, in the order of ``groups`` (a file's
        ``GROUP BY group, true, pred, bin``): ROC AUC and average precision by group, by the
        histogram's rule (:class:`~confmat.groups.binned_scores.BinnedGroupedScores`).

    Returns
    -------
    GroupedEvaluation

    Raises
    ------
    ValueError
        ``groups`` not matching the stack or naming a group twice, ``pos_label`` not
        among the labels, or ``histograms`` not one per group or of different layouts.

    Examples
    --------
    >>> import numpy as np
    >>> gc = GroupedCounts(np.array([[[2, 0], [1, 1]]]), ["no", "yes"], False, np.array([4]))
    >>> evaluation_from_counts(gc, ["A"], ["site"], pos_label="yes").metric("recall").tolist()
    [0.5]
    """
    if len(groups) != counts.stack.shape[0]:
        raise ValueError(f"groups names {len(groups)} groups but the stack holds "
                         f"{counts.stack.shape[0]} tables")
    keys = [tuple(k) if isinstance(k, list) else k for k in groups]
    seen: dict[Any, int] = {}
    for i, k in enumerate(keys):
        j = seen.setdefault(k, i)
        if j != i:
            raise ValueError(f"groups: the key {k!r} names tables {j} and {i}; each group's "
                             "table must come once")
    codes = GroupCodes(np.zeros(0, dtype=np.int16), keys, list(names),
                       np.asarray(counts.sizes, dtype=np.int64))
    scores = None
    if histograms is not None:
        if len(histograms) != len(keys):
            raise ValueError(f"histograms holds {len(histograms)} histograms for "
                             f"{len(keys)} groups; give one per group")
        scores = BinnedGroupedScores(list(histograms))
    return GroupedEvaluation(counts, codes, min_support=min_support, pos_label=pos_label,
                             scores=scores)
