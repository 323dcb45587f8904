"""The score histogram of a stream: when an :class:`~confmat.Accumulator` must or must not
be given scores, which classes its first histogram has, how a chunk's scores are added and
how two states' histograms merge. The functions read the accumulator only through its public
interface (``track_scores``, ``histogram``, ``n_samples``, ``labels``, ``labels_fixed``,
``bins``, ``score_range``); the accumulator stores what they return."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar, unify_numbers

__all__ = [
    "add_chunk_scores", "check_scores_given", "merged_histogram", "new_histogram",
    "retyped_histogram",
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


def new_histogram(labels: list[Any], bins: int, score_range: tuple[float, float]) -> Any:
    """An empty :class:`~confmat.binned.ScoreHistogram` of an accumulator's layout.

    Parameters
    ----------
    labels : list
        The histogram's classes (binary: ``labels[1]`` is the positive class).
    bins : int
        Number of score bins.
    score_range : (float, float)
        Range of the scores.

    Returns
    -------
    ScoreHistogram

    Examples
    --------
    >>> new_histogram(["a", "b"], 4, (0.0, 1.0))
    ScoreHistogram(labels=['a', 'b'], bins=4, score_range=(0.0, 1.0), n=0)
    """
    from ..binned import ScoreHistogram

    return ScoreHistogram(labels, bins=bins, score_range=score_range)


def add_chunk_scores(
    acc: Any, y_true: np.ndarray, scores: Any, sample_weight: Any, seen: list[Any], where: str
) -> Any:
    """Add a chunk's scores into the accumulator's histogram, made on the first chunk.

    The first histogram's classes are the fixed labels, else the sorted labels known after
    this chunk; without fixed labels, multiclass score columns are refused until every class
    was seen (which class a column scores is unknown before). :meth:`ScoreHistogram.update
    <confmat.binned.ScoreHistogram.update>` validates the whole chunk before adding it, so a
    rejected chunk leaves the running histogram untouched.

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
        Scores or labels the histogram refuses (the message names the chunk).

    Examples
    --------
    >>> import numpy as np
    >>> from confmat import Accumulator
    >>> add_chunk_scores(Accumulator(), np.array([0, 1]), [0.2, 0.9], None, [0, 1], "chunk 1").n
    2
    """
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
        hist = new_histogram(classes, acc.bins, acc.score_range)
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
