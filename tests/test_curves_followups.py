"""The rows of docs/curves.md's table "Where confmat differs from scikit-learn" that
tests/test_curves_probe.py left untested: all-zero sample weights, and multiclass ``y_true``
with 1-D scores and ``pos_label`` in ``roc_auc`` / ``average_precision``. Each is checked as
the table says, scikit-learn (1.9) being the oracle of its own column and of the values."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import sklearn
from sklearn import metrics as skm

import confmat

DOC = Path(__file__).resolve().parents[1] / "docs" / "curves.md"
SKLEARN_1_9 = tuple(int(p) for p in re.findall(r"\d+", sklearn.__version__)[:2]) >= (1, 9)


def _row(situation: str) -> list[str]:
    """The cells of the table row whose first cell starts with ``situation``."""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(situation):
            return cells
    raise AssertionError(f"docs/curves.md has no row {situation!r}")


Y, S = [0, 1, 1, 0], [0.1, 0.8, 0.4, 0.3]
Y3 = [0, 1, 2, 0, 2, 1]
PROB = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4],
                 [0.1, 0.3, 0.6], [0.5, 0.4, 0.1]])
ML = np.array([[0, 1], [1, 1], [1, 0], [0, 0]])
ML_S = np.array([[0.1, 0.9], [0.8, 0.7], [0.6, 0.2], [0.3, 0.4]])
ZERO_CASES = [  # (confmat function, scikit-learn function, args, kwargs)
    (confmat.roc_curve, skm.roc_curve, (Y, S), {}),
    (confmat.precision_recall_curve, skm.precision_recall_curve, (Y, S), {}),
    (confmat.roc_auc, skm.roc_auc_score, (Y, S), {}),
    (confmat.roc_auc, skm.roc_auc_score, (Y, S), {"max_fpr": 0.5}),
    (confmat.average_precision, skm.average_precision_score, (Y, S), {}),
    (confmat.roc_auc, skm.roc_auc_score, (Y3, PROB), {"multi_class": "ovr"}),
    (confmat.average_precision, skm.average_precision_score, (Y3, PROB), {}),
    (confmat.roc_auc, skm.roc_auc_score, (ML, ML_S), {"average": "micro"}),
    (confmat.average_precision, skm.average_precision_score, (ML, ML_S), {}),
]


@pytest.mark.parametrize(("ours", "theirs", "args", "kwargs"), ZERO_CASES)
@pytest.mark.parametrize("zeros", [np.zeros(4), np.zeros(4, dtype=np.int64)],
                         ids=["float", "int"])
def test_all_zero_weights_as_documented(ours, theirs, args, kwargs, zeros):
    row = _row("sample weights that are all zero")
    assert "`ValueError` naming `sample_weight`" in row[2]
    zeros = np.zeros(len(args[0]), dtype=zeros.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if SKLEARN_1_9:  # the table's scikit-learn column
            with pytest.raises(ValueError, match="non-zero"):
                theirs(*args, sample_weight=zeros, **kwargs)
        else:
            out = theirs(*args, sample_weight=zeros, **kwargs)
            assert np.isnan(np.concatenate([np.ravel(o) for o in np.atleast_1d(out)])).any()
    with pytest.raises(ValueError, match="sample_weight"):
        ours(*args, sample_weight=zeros, **kwargs)


@pytest.mark.parametrize("pos_label", [0, 1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_one_class_against_the_rest_from_1d_scores_as_documented(pos_label, weighted):
    row = _row("multiclass `y_true` with 1-D scores and `pos_label`")
    assert "refused" in row[1] and "against the rest" in row[2]
    rng = np.random.default_rng(pos_label)
    y = rng.integers(0, 3, 60)
    s = rng.normal(size=60) + (y == pos_label)
    w = rng.random(60) if weighted else None
    # scikit-learn refuses both calls ...
    with pytest.raises(TypeError, match="pos_label"):
        skm.roc_auc_score(y, s, pos_label=pos_label)
    if pos_label != 1:
        with pytest.raises(ValueError, match="pos_label"):
            skm.average_precision_score(y, s, pos_label=pos_label, sample_weight=w)
    else:  # pos_label=1 is its default, so y_true must be binary: it refuses the targets
        with pytest.raises(ValueError):
            skm.average_precision_score(y, s, pos_label=pos_label, sample_weight=w)
    # ... its binary functions on y == pos_label are the oracle of confmat's answer
    binary = (y == pos_label).astype(np.int64)
    assert confmat.roc_auc(y, s, pos_label=pos_label, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(binary, s, sample_weight=w), rel=1e-12)
    assert confmat.average_precision(y, s, pos_label=pos_label, sample_weight=w) == (
        pytest.approx(skm.average_precision_score(binary, s, sample_weight=w), rel=1e-12))
    # and the curves read the same targets the same way in both libraries
    for ours, theirs in ((confmat.roc_curve, skm.roc_curve),
                         (confmat.precision_recall_curve, skm.precision_recall_curve)):
        for a, b in zip(ours(y, s, pos_label=pos_label, sample_weight=w),
                        theirs(y, s, pos_label=pos_label, sample_weight=w), strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)
