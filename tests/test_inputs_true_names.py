"""Each entry point names its own labels argument in the label checks of the input door.

``roc_test`` / ``roc_cov`` of unpaired curves read a second sample ``y_true_b``: a refusal of
those labels names ``y_true_b``, not ``y_true``. Oracle: the argument the test passed the
bad labels in (the expected text is written by hand from the call).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import confmat
from confmat.inference.roc_var import roc_cov

Y = ["neg", "pos", "neg", "pos", "neg", "pos"]
A = [0.1, 0.8, 0.3, 0.7, 0.2, 0.9]
B = [0.2, 0.6, 0.4, 0.9, 0.1, 0.5]


def named(exc: pytest.ExceptionInfo[Any], arg: str) -> bool:
    """Whether the message names ``arg`` as a whole word (``y_true`` not inside ``y_true_b``)."""
    return re.search(rf"\b{arg}\b", str(exc.value)) is not None


@pytest.mark.parametrize("func", [confmat.roc_test, roc_cov])
def test_second_sample_lacking_the_positive_class_names_y_true_b(func: Any) -> None:
    with pytest.raises(ValueError) as exc:
        func(Y, A, B[:4], y_true_b=["neg"] * 4, pos_label="pos")
    assert named(exc, "y_true_b") and not named(exc, "y_true"), str(exc.value)
    assert "'pos'" in str(exc.value)


@pytest.mark.parametrize("func", [confmat.roc_test, roc_cov])
@pytest.mark.parametrize("yb", [[], ["neg", None, "pos"], [True, False, True]])
def test_other_refusals_of_the_second_sample_name_y_true_b(func: Any, yb: list[Any]) -> None:
    with pytest.raises((ValueError, TypeError)) as exc:
        func(Y, A, B[:len(yb)], y_true_b=yb, pos_label="pos")
    assert named(exc, "y_true_b") and not named(exc, "y_true"), str(exc.value)


@pytest.mark.parametrize("func", [confmat.roc_test, roc_cov])
def test_first_sample_still_named_y_true(func: Any) -> None:
    with pytest.raises(ValueError) as exc:
        func(["neg"] * 6, A, B, y_true_b=Y, pos_label="pos")
    assert named(exc, "y_true") and not named(exc, "y_true_b"), str(exc.value)


def test_single_curve_callers_name_y_true() -> None:
    with pytest.raises(ValueError) as exc:
        confmat.roc_auc(["neg"] * 6, A, pos_label="pos")
    assert named(exc, "y_true"), str(exc.value)
