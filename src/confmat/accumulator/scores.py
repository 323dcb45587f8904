"""The score histogram of a stream: when an :class:`~confmat.Accumulator` must or must not
be given scores, which classes its first histogram has and which class one score column
scores (the door's one rule, :func:`confmat.inputs.score_columns.score_column_class`), how a
chunk's scores are added and how two states' histograms and ``pos_label`` merge. The
functions read the accumulator only through its public interface (``track_scores``,
``histogram``, ``n_samples``, ``labels``, ``labels_fixed``, ``pos_label``, ``bins``,
``score_range``); the accumulator stores what they return."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.kinds import label_kind, py_scalar, unify_numbers
from ..inputs.score_columns import score_column_class
from ..inputs.targets import binary_pos_label
from ..words import arg, arg_value

__all__ = [
    "add_chunk_scores", "check_pos_label", "check_scores_given", "merged_histogram",
    "merged_pos_label", "new_histogram", "retyped_histogram", "same_class", "scored_class",
]


def check_scores_given(acc: Any, scores: Any, where: str) -> None:
    """Check that a chunk comes with scores exactly when the accumulator tracks them.

    Parameters
    ----------
    acc : Accumulator
        The accumulator the chunk is for.
    scores : array-like or None
        The chunk's scores.
    where : str
        Names the chunk in errors (``"chunk 2"``).

    Raises
    ------
    ValueError
        Scores given to an accumulator made with ``scores=False`` or whose earlier chunks had
        none, or missing from one that tracks them.

    Examples
    --------
    >>> from confmat import Accumulator
    >>> check_scores_given(Accumulator(scores=True), [0.2], "chunk 1")
    >>> check_scores_given(Accumulator(scores=True), None, "chunk 1")
    Traceback (most recent call last):
    ...
    ValueError: chunk 1 has no scores but this Accumulator tracks them; pass scores= to every update
    """
    if scores is not None:
        if acc.track_scores is False:
            raise ValueError("scores were given but this Accumulator was made with scores=False")
        if acc.histogram is None and acc.n_samples:
            raise ValueError(
                f"{where} has scores but the earlier chunks had none; the curves would "
                "miss their samples (make the Accumulator with scores=True)"
            )
    elif acc.track_scores or acc.histogram is not None:
        raise ValueError(
            f"{where} has no scores but this Accumulator tracks them; pass scores= "
            "to every update"
        )


def new_histogram(labels: list[Any], bins: int, score_range: tuple[float, float],
                  pos_label: Any = None) -> Any:
    """An empty :class:`~confmat.binned.ScoreHistogram` of an accumulator's layout.

    Parameters
    ----------
    labels : list
        The histogram's classes (binary: ``labels[1]`` is the positive class).
    bins : int
        Number of score bins.
    score_range : (float, float)
        Range of the scores.
    pos_label : label, optional
        The positive class of two ``labels`` (the labels are then ``[other, pos_label]``).

    Returns
    -------
    ScoreHistogram

    Raises
    ------
    ValueError
        A ``pos_label`` beside more than two labels, or not among two.

    Examples
    --------
    >>> new_histogram(["a", "b"], 4, (0.0, 1.0))
    ScoreHistogram(labels=['a', 'b'], bins=4, score_range=(0.0, 1.0), n=0)
    >>> new_histogram(["a", "b"], 4, (0.0, 1.0), pos_label="a").labels
    ['b', 'a']
    """
    from ..binned import ScoreHistogram

    return ScoreHistogram(labels, bins=bins, score_range=score_range, pos_label=pos_label)


def check_pos_label(labels: list[Any] | None, pos_label: Any) -> Any:
    """``pos_label`` of an accumulator, checked against its fixed labels when they are given.

    Parameters
    ----------
    labels : list or None
        The fixed labels, or None when they are discovered.
    pos_label : label or None
        The user's ``pos_label``.

    Returns
    -------
    label or None
        ``pos_label`` as a Python scalar (the class of the fixed labels equal to it).

    Raises
    ------
    ValueError
        Fixed labels that are not two classes, or that do not hold ``pos_label``
        (:func:`confmat.inputs.targets.binary_pos_label`).

    Examples
    --------
    >>> check_pos_label(None, "pos"), check_pos_label(["neg", "pos"], "neg")
    ('pos', 'neg')
    """
    if pos_label is None:
        return None
    if labels is None:
        return py_scalar(pos_label)
    return binary_pos_label(labels, pos_label)


def scored_class(classes: list[Any], pos_label: Any, given: bool, where: str,
                 truth: list[Any] | None = None) -> Any:
    """The class one score column of an accumulator scores, by the door's one rule
    (:func:`confmat.inputs.score_columns.score_column_class`): two labels given keep their
    order (the second, or ``pos_label``); two labels discovered need ``pos_label`` unless
    they are {0, 1}, {-1, 1} or {False, True}.

    Parameters
    ----------
    classes : list
        The two classes of the histogram (given, or the labels seen so far).
    pos_label : label or None
        The accumulator's ``pos_label``.
    given : bool
        Whether ``classes`` were given (``labels=``, ``score_labels=``).
    where : str
        Names the chunk in the message (empty: not named).
    truth : list, optional
        The true classes, when they are known (a pass over the whole data counted them); by
        default ``classes`` (a stream's first chunk does not show the whole truth).

    Returns
    -------
    label

    Raises
    ------
    ValueError
        The door's refusal, prefixed with ``where``.

    Examples
    --------
    >>> scored_class([0, 1], None, False, "chunk 1")
    1
    >>> scored_class(["neg", "pos"], None, False, "chunk 1")
    Traceback (most recent call last):
    ...
    ValueError: chunk 1: y_true takes values ['neg', 'pos'] and pos_label is not specified: ...
    """
    try:
        return score_column_class(classes if truth is None else truth, classes, pos_label,
                                  where=where, scores=["scores"], labels_given=given)
    except ValueError as exc:
        if not where:
            raise
        raise ValueError(f"{where}: {exc}") from exc


def _first_histogram(acc: Any, classes: list[Any], scores: Any, where: str) -> Any:
    """The histogram made at the first update with scores: one score column beside two
    classes scores :func:`scored_class`; otherwise the classes in their order."""
    from ..binned.histogram import score_column_histogram

    if np.ndim(scores) == 1 and len(classes) == 2:
        pos = scored_class(classes, acc.pos_label, acc.labels_fixed, where)
        return score_column_histogram(classes, pos, acc.bins, acc.score_range)
    try:  # pos_label beside three or more classes: a positive class makes it binary
        return new_histogram(classes, acc.bins, acc.score_range, pos_label=acc.pos_label)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from exc


def add_chunk_scores(
    acc: Any, y_true: np.ndarray, scores: Any, sample_weight: Any, seen: list[Any], where: str
) -> Any:
    """Add a chunk's scores into the accumulator's histogram, made on the first chunk.

    The first histogram's classes are the fixed labels, else the sorted labels known after
    this chunk; without fixed labels, multiclass score columns are refused until every class
    was seen (which class a column scores is unknown before). One score column beside two
    classes scores the class of :func:`scored_class` (the door's one rule: labels discovered
    other than {0, 1}, {-1, 1}, {False, True} need ``pos_label``); ``pos_label`` names the
    class of one score column, so scores with a column per class are refused beside it.
    :meth:`ScoreHistogram.update <confmat.binned.ScoreHistogram.update>` validates the whole
    chunk before adding it, so a rejected chunk leaves the running histogram untouched.

    Parameters
    ----------
    acc : Accumulator
        The accumulator; its histogram, if any, is updated in place.
    y_true : ndarray of shape (n_samples,)
        The chunk's true labels, checked by the input door.
    scores : array-like
        The chunk's scores: shape (n_samples,) or (n_samples, n_classes).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    seen : list
        The labels of the chunk (true and predicted).
    where : str
        Names the chunk in errors (``"chunk 2"``).

    Returns
    -------
    ScoreHistogram
        The histogram with the chunk added, for the accumulator to keep.

    Raises
    ------
    ValueError, TypeError
        Scores or labels the histogram refuses, one score column of two labels discovered
        that imply no positive class without ``pos_label``, scores of a column per class
        beside ``pos_label`` (the message names the chunk).

    Examples
    --------
    >>> import numpy as np
    >>> from confmat import Accumulator
    >>> add_chunk_scores(Accumulator(), np.array([0, 1]), [0.2, 0.9], None, [0, 1], "chunk 1").n
    2
    """
    if acc.pos_label is not None and np.ndim(scores) == 2:
        raise ValueError(
            f"{where}: {arg_value('pos_label', acc.pos_label)} names the class of one score "
            "column, but the scores have one column per class (in the order of the labels): "
            f"give the 1-D scores of that class, or no {arg('pos_label')}"
        )
    hist = acc.histogram
    if hist is None:
        if acc.labels_fixed:
            classes = acc.labels
        else:
            classes = unify_numbers(sorted(set(acc.labels) | {py_scalar(v) for v in seen}))
        width = np.shape(scores)[1] if np.ndim(scores) == 2 else 0
        # fixed labels: the histogram refuses a matrix that does not fit them, in the door's
        # words; grown ones may still lack the classes of the columns
        if width > 2 and width != len(classes) and not acc.labels_fixed:
            raise ValueError(
                f"{where}: scores has {width} columns (one per class) but the "
                f"classes seen so far are {classes[:10]}; which class each column scores "
                "is unknown until every class was seen: pass labels= to the Accumulator"
            )
        if len(classes) < 2:
            raise ValueError(
                f"{where}: the score histogram needs at least two classes but only "
                f"{classes} were seen; pass labels= to the Accumulator"
            )
        hist = _first_histogram(acc, classes, scores, where)
    # ScoreHistogram.update validates the whole chunk before adding it, so a rejected
    # chunk leaves the running histogram untouched (tested in test_scores_rules).
    try:
        hist.update(y_true, scores, sample_weight=sample_weight, score_name="scores")
    except (ValueError, TypeError) as exc:
        hint = ("" if acc.labels_fixed or "not in labels" not in str(exc)
                else " (pass labels= to fix the classes up front)")
        raise type(exc)(f"{where}: {exc}{hint}") from exc
    return hist


def merged_histogram(acc: Any, other: Any) -> Any:
    """The score histogram of ``acc`` merged with ``other``'s, once the merge is allowed.

    Neither accumulator is changed, so every check comes before the merge changes anything.

    Parameters
    ----------
    acc : Accumulator
        The accumulator merged into.
    other : Accumulator
        The accumulator merged in.

    Returns
    -------
    ScoreHistogram or None
        The merged histogram (a new one when ``acc`` has none yet), ``acc.histogram`` when
        ``other`` has none.

    Raises
    ------
    ValueError
        One state tracks scores and the other has samples without them, histograms merged
        into an accumulator made with ``scores=False``, or histograms of other bins /
        score_range.

    Examples
    --------
    >>> from confmat import Accumulator
    >>> a, b = Accumulator(scores=True), Accumulator(scores=True)
    >>> b.update([0, 1], [0, 1], scores=[0.2, 0.8])
    >>> merged_histogram(a, b).n
    2
    >>> c = Accumulator()
    >>> c.update([0], [0])
    >>> merged_histogram(b, c)
    Traceback (most recent call last):
    ...
    ValueError: cannot merge an Accumulator that tracks scores with one that has samples without scores: the curves would miss those samples
    """
    mine, theirs = acc.histogram, other.histogram
    acc_bare = bool(acc.n_samples) and mine is None
    other_bare = bool(other.n_samples) and theirs is None
    if (acc_bare and theirs is not None) or (
        other_bare and (mine is not None or acc.track_scores is True)
    ):
        raise ValueError(
            "cannot merge an Accumulator that tracks scores with one that has samples "
            "without scores: the curves would miss those samples"
        )
    if theirs is not None and acc.track_scores is False:
        raise ValueError("cannot merge score histograms into an Accumulator made with scores=False")
    if theirs is None:
        return mine
    if mine is None:
        layout = (theirs.bins, theirs.score_range)
        if layout != (acc.bins, acc.score_range):
            raise ValueError(
                "cannot merge score histograms of bins, score_range "
                f"{layout} into an Accumulator made with {(acc.bins, acc.score_range)}"
            )
        return theirs.copy()
    return mine + theirs


def same_class(a: Any, b: Any) -> bool:
    """Whether two labels are one class: equal and of one kind (``True == 1`` in Python, but
    a boolean class is not the class 1).

    Parameters
    ----------
    a, b : label
        Two labels.

    Returns
    -------
    bool

    Examples
    --------
    >>> same_class(1, 1.0), same_class(True, 1)
    (True, False)
    """
    return bool(a == b) and label_kind(a) == label_kind(b)


def merged_pos_label(acc: Any, other: Any) -> Any:
    """The ``pos_label`` of ``acc`` merged with ``other``: whichever side has one (as fixed
    labels), once neither disagrees with the other side's ``pos_label`` or with the class
    its score histogram scores.

    Parameters
    ----------
    acc : Accumulator
        The accumulator merged into.
    other : Accumulator
        The accumulator merged in.

    Returns
    -------
    label or None

    Raises
    ------
    ValueError
        Two different ``pos_label``, or a ``pos_label`` that is not the positive class of the
        other side's histogram.

    Examples
    --------
    >>> from confmat import Accumulator
    >>> merged_pos_label(Accumulator(pos_label="a"), Accumulator())
    'a'
    >>> merged_pos_label(Accumulator(pos_label="a"), Accumulator(pos_label="b"))
    Traceback (most recent call last):
    ...
    ValueError: cannot merge an Accumulator of pos_label='a' with one of pos_label='b'
    """
    mine, theirs = acc.pos_label, other.pos_label
    if mine is not None and theirs is not None and not same_class(mine, theirs):
        raise ValueError(f"cannot merge an Accumulator of {arg_value('pos_label', mine)} with "
                         f"one of {arg_value('pos_label', theirs)}")
    for pos, hist in ((mine, other.histogram), (theirs, acc.histogram)):
        if pos is not None and hist is not None and not (
                hist.is_binary and same_class(hist.labels[1], pos)):
            scored = (f"scores {hist.labels[1]!r}" if hist.is_binary
                      else "has one column per class")
            raise ValueError(
                f"cannot merge an Accumulator of {arg_value('pos_label', pos)} with one whose "
                f"score histogram {scored}"
            )
    return theirs if mine is None else mine


def retyped_histogram(hist: Any, classes: list[Any]) -> Any:
    """The histogram with its numeric classes in the type of the accumulator's classes: once
    a float label made the accumulator's integer classes floats
    (:func:`confmat.inputs.kinds.unify_numbers`), the histogram's classes follow.

    Parameters
    ----------
    hist : ScoreHistogram or None
        The accumulator's histogram.
    classes : list
        The accumulator's classes (grown, not fixed).

    Returns
    -------
    ScoreHistogram or None
        ``hist`` itself when nothing changes, else a histogram of the same counts over the
        retyped classes.

    Examples
    --------
    >>> h = new_histogram([0, 1], 4, (0.0, 1.0))
    >>> retyped_histogram(h, [0.0, 0.5, 1.0]).labels
    [0.0, 1.0]
    >>> retyped_histogram(h, [0, 1]) is h
    True
    """
    if hist is None:
        return None
    labels = unify_numbers(hist.labels, also=classes)
    if labels is hist.labels:
        return hist
    out = new_histogram(labels, hist.bins, hist.score_range)
    out.counts = hist.counts
    return out
