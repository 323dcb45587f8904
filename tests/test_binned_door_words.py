"""A score histogram refuses a bad score matrix in the input door's words.

The same mistake - a score matrix whose columns are not one per label, or a score outside
the histogram's fixed range - gets the same message from ``ScoreHistogram.update``,
``Accumulator.update(scores=)`` (naming its own argument, ``scores``), Dask's
``score_histogram`` and ``build_report``: the argument, what was expected and what was found.

Oracles: scikit-learn refuses the same score matrices (``roc_auc_score`` with the labels
given) and names the same argument, ``y_score``; the expected columns, labels, values, rows
and ranges of the messages are worked out by hand from the inputs below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from confmat import Accumulator, ConfusionMatrix
from confmat.binned import ScoreHistogram
from confmat.report import build_report

Y3 = np.array([0, 1, 2, 2])
Y2 = np.array([0, 1, 1, 0])

#: (labels, truth, a score matrix of the wrong width, what the message must say expected)
WRONG_WIDTH = {
    "two columns, three labels": ([0, 1, 2], Y3, np.full((4, 2), 0.5),
                                  "one score column per class, in label order"),
    "four columns, three labels": ([0, 1, 2], Y3, np.full((4, 4), 0.25),
                                   "one score column per class, in label order"),
    "three columns, two labels": ([0, 1], Y2, np.full((4, 3), 1 / 3),
                                  "one score column (of the positive class) or two, in label "
                                  "order"),
}


def _message(width: int, labels: list[int], want: str, arg: str = "y_score") -> str:
    return (f"{arg} has {width} columns but the labels are {labels}; give {want}")


def _refusal(run: Callable[[], Any]) -> str:
    with pytest.raises(ValueError) as info:
        run()
    return str(info.value)


@pytest.mark.parametrize("case", list(WRONG_WIDTH))
def test_a_matrix_of_the_wrong_width_gets_the_doors_message_everywhere(case: str) -> None:
    labels, y, s, want = WRONG_WIDTH[case]
    width = s.shape[1]
    if len(labels) > 2:  # scikit-learn refuses it too, naming y_score
        sk = _refusal(lambda: roc_auc_score(y, s, multi_class="ovr", labels=labels))
        assert "'y_score'" in sk and f"{len(labels)}" in sk and f"{width}" in sk, sk
    expected = _message(width, labels, want)
    hist = _refusal(lambda: ScoreHistogram(labels, bins=4).update(y, s))
    assert hist == expected
    cm = ConfusionMatrix.from_predictions(y, y, labels=labels)
    report = _refusal(lambda: build_report(cm, y_true=y, y_score=s, intervals=False))
    assert report == expected
    acc = _refusal(lambda: Accumulator(labels=labels, bins=4, scores=True).update(
        y, y, scores=s))
    assert acc == "chunk 1: " + _message(width, labels, want, arg="scores")


def test_a_binary_histogram_takes_one_column_or_two() -> None:
    # one column is the scores of labels[1], as the message says; two: the second column
    one = ScoreHistogram([0, 1], bins=4).update(Y2, np.array([[0.1], [0.9], [0.6], [0.3]]))
    two = ScoreHistogram([0, 1], bins=4).update(Y2, np.array([[0.9, 0.1], [0.1, 0.9],
                                                              [0.4, 0.6], [0.7, 0.3]]))
    vector = ScoreHistogram([0, 1], bins=4).update(Y2, [0.1, 0.9, 0.6, 0.3])
    assert one == vector and two == vector
    # by hand: bins of width 0.25; class 0 at 0.1 and 0.3 (bins 0, 1), class 1 at 0.9, 0.6
    assert vector.counts[:, 0].tolist() == [[1, 1, 0, 0], [0, 0, 1, 1]]


def test_the_shape_is_checked_before_the_labels() -> None:
    # y_true holds a label outside the histogram's labels AND the matrix has two columns:
    # the shape is reported, as build_report and scikit-learn's _check_targets order it
    bad_truth = np.array([0, 1, 7, 2])
    said = _refusal(lambda: ScoreHistogram([0, 1, 2], bins=4).update(bad_truth,
                                                                      np.full((4, 2), 0.5)))
    assert said == _message(2, [0, 1, 2], "one score column per class, in label order")
    said = _refusal(lambda: ScoreHistogram([0, 1, 2], bins=4).update(bad_truth,
                                                                      np.full((3, 3), 1 / 3)))
    assert said == "y_true and y_score have different lengths: 4 and 3"


#: a score outside the fixed range: (score_range, scores, the bad score, its row)
OUTSIDE = {
    "above one": ((0.0, 1.0), [0.2, 0.5, 1.25, 0.75], 1.25, 2),
    "below zero": ((0.0, 1.0), [0.2, -0.5, 0.4, 0.75], -0.5, 1),
    "below a wider range": ((-1.0, 1.0), [0.2, 0.5, 0.4, -1.5], -1.5, 3),
}


@pytest.mark.parametrize("case", list(OUTSIDE))
def test_a_score_outside_the_range_names_argument_value_range_and_row(case: str) -> None:
    score_range, scores, bad, row = OUTSIDE[case]
    lo, hi = score_range
    tail = (f" has a score {bad!r} outside score_range=({lo}, {hi}) at row {row}; choose a "
            "score_range that covers every score")
    hist = _refusal(lambda: ScoreHistogram(bins=4, score_range=score_range).update(Y2, scores))
    assert hist == "y_score" + tail
    acc = _refusal(lambda: Accumulator(bins=4, score_range=score_range, scores=True).update(
        Y2, Y2, scores=scores))
    assert acc == "chunk 1: scores" + tail


def test_dask_score_histogram_says_the_same() -> None:
    da = pytest.importorskip("dask.array")
    y = da.from_array(Y3, chunks=2)
    said = _refusal(lambda: _dask_histogram(y, da.from_array(np.full((4, 2), 0.5),
                                                             chunks=(2, 2)), [0, 1, 2]))
    # the partition's Accumulator words it, naming the partition
    assert re.fullmatch(r"partition \d: scores has 2 columns but the labels are \[0, 1, 2\]; "
                        r"give one score column per class, in label order", said), said


def _dask_histogram(y: Any, s: Any, labels: list[int]) -> Any:
    import dask

    from confmat.dask import score_histogram

    with dask.config.set(scheduler="synchronous"):
        return score_histogram(y, s, labels=labels, bins=4)
