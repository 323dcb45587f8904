"""One order of the checks of a truth and its scores: the shapes first, then the labels.

When ``y_true`` is bad (a missing label) and ``y_score`` has another length, or a matrix
without one column per class of the report, every entry point reports the shape:
``build_report``, ``build_comparison``, the curve functions and the score histogram. This is
scikit-learn's order in ``_check_targets`` (``check_consistent_length`` before
``type_of_target``), the oracle here: scikit-learn's ``accuracy_score`` on the same truth
reports the lengths, with the same two numbers; ``check_consistent_length`` refuses the pair;
and its ``roc_auc_score`` refuses the same too-narrow matrix naming ``y_score``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.utils import check_consistent_length

import confmat
from confmat import ConfusionMatrix
from confmat.binned import ScoreHistogram
from confmat.curves.calibration import calibration
from confmat.report import build_comparison, build_report

#: bad truths of four samples: a missing label in a list, NaN in a float array
BAD_TRUTHS = {
    "None in a list": [0, 1, None, 1],
    "NaN in an array": np.array([0.0, 1.0, np.nan, 1.0]),
}
SHORT = [0.1, 0.8, 0.4]  # three scores for four samples
LENGTHS = "y_true and y_score have different lengths: 4 and 3"


def _refusal(run: Callable[[], Any]) -> str:
    with pytest.raises(ValueError) as info:
        run()
    return str(info.value)


def _sklearn_reports_the_lengths(y: Any) -> None:
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[4, 3\]"):
        check_consistent_length(y, SHORT)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[4, 3\]"):
        accuracy_score(y, [0, 1, 1])  # the shape first, though y_true is bad too


CM2 = ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])

#: entry points given (bad truth, three scores); each must report the lengths
PATHS: dict[str, Callable[[Any], Any]] = {
    "build_report": lambda y: build_report(CM2, y_true=y, y_score=SHORT, intervals=False),
    "build_comparison": lambda y: build_comparison(y, {"a": [0, 1, 1, 0]},
                                                   scores={"a": SHORT}, intervals=False),
    "roc_curve": lambda y: confmat.roc_curve(y, SHORT),
    "precision_recall_curve": lambda y: confmat.precision_recall_curve(y, SHORT),
    "threshold_sweep": lambda y: confmat.threshold_sweep(y, SHORT),
    "roc_auc": lambda y: confmat.roc_auc(y, SHORT),
    "average_precision": lambda y: confmat.average_precision(y, SHORT),
    "roc_curve_ovr": lambda y: confmat.roc_curve_ovr(y, np.full((3, 2), 0.5)),
    "calibration": lambda y: calibration(y, SHORT),
    "ScoreHistogram.update": lambda y: ScoreHistogram(bins=4).update(y, SHORT),
}


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("truth", list(BAD_TRUTHS))
def test_a_length_mismatch_is_reported_before_a_bad_truth(truth: str, path: str) -> None:
    y = BAD_TRUTHS[truth]
    _sklearn_reports_the_lengths(y)
    said = _refusal(lambda: PATHS[path](y))
    if path == "build_comparison":  # the comparison names the model the scores are of
        assert said == f"while evaluating model 'a': {LENGTHS}"
    elif path == "calibration":  # its argument is y_prob
        assert said == LENGTHS.replace("y_score", "y_prob")
    else:
        assert said == LENGTHS


@pytest.mark.parametrize("truth", list(BAD_TRUTHS))
def test_a_matrix_without_a_column_per_class_is_reported_before_a_bad_truth(truth: str) -> None:
    y = BAD_TRUTHS[truth]
    cm = ConfusionMatrix.from_predictions([0, 1, 2, 2], [0, 1, 2, 1])
    narrow = np.full((4, 2), 0.5)
    with pytest.raises(ValueError, match="'y_score'"):  # scikit-learn names y_score
        roc_auc_score([0, 1, 2, 2], narrow, multi_class="ovr", labels=[0, 1, 2])
    said = _refusal(lambda: build_report(cm, y_true=y, y_score=narrow, intervals=False))
    assert said == ("y_score has 2 columns but the labels are [0, 1, 2]; give one score "
                    "column per class, in label order")


def test_a_good_truth_with_bad_scores_still_names_the_scores() -> None:
    # the order changes nothing when only the scores are wrong
    y = [0, 1, 1, 0]
    assert _refusal(lambda: build_report(CM2, y_true=y, y_score=[0.1, np.nan, 0.2, 0.3],
                                         intervals=False)) == (
        "y_score contains NaN at position 1; scores must be finite")
    # and a bad truth with scores of the right shape is the truth's error
    said = _refusal(lambda: build_report(CM2, y_true=[0, 1, None, 0],
                                         y_score=[0.1, 0.2, 0.3, 0.4], intervals=False))
    assert "y_true" in said and "y_score" not in said
