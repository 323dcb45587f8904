"""Partial areas in Hand and Till's (2001) multi-class AUC
(``multiclass_roc(..., partial_specificity= | partial_sensitivity=, correct=)``) against pROC's
``multiclass.roc(..., partial.auc=, partial.auc.focus=, partial.auc.correct=)`` (Robin et al.
2011) in both forms, run through Rscript on random data sets: 2 to 5 classes, ties, level
subsets in any order, every direction, both foci, McClish (1989) corrected or not; the mean and
every pair's area to 1e-9 relative (NA in pROC, nan here, when a corrected pair lies under the
diagonal)."""

from __future__ import annotations

import warnings
from itertools import combinations

import numpy as np
import pytest

from confmat.curves.multiclass_roc import multiclass_roc
from confmat.metrics import UndefinedMetricWarning
from proc_oracle import proc  # noqa: F401  (the fixture)

KMAX = 5

R_COMMON = r"""
res <- numeric(length(dirs)); pairs <- c()
foc <- c("specificity", "sensitivity")
"""

R_MATRIX = R_COMMON + r"""
X <- matrix(X, ncol = KMAX, byrow = TRUE)
for (d in seq_along(dirs)) {
  idx <- ds == d
  M <- X[idx, 1:kk[d], drop = FALSE]
  colnames(M) <- as.character(0:(kk[d] - 1))
  pa <- c(hi[d], lo[d]); pf <- foc[focus[d] + 1]; pc <- corr[d] == 1
  mc <- suppressWarnings(multiclass.roc(as.character(y[idx]), M,
                                        levels = as.character(lv[lvds == d]),
                                        direction = if (dirs[d] == 0) ">" else "<",
                                        quiet = TRUE, partial.auc = pa,
                                        partial.auc.focus = pf, partial.auc.correct = pc))
  res[d] <- as.numeric(mc$auc)
  pairs <- c(pairs, sapply(mc$rocs, function(r) suppressWarnings(mean(c(
    auc(r[[1]], partial.auc = pa, partial.auc.focus = pf, partial.auc.correct = pc),
    auc(r[[2]], partial.auc = pa, partial.auc.focus = pf, partial.auc.correct = pc))))))
}
out <- list(res = res, pairs = pairs)
""".replace("KMAX", str(KMAX))

R_PREDICTOR = R_COMMON + r"""
for (d in seq_along(dirs)) {
  idx <- ds == d
  pa <- c(hi[d], lo[d]); pf <- foc[focus[d] + 1]; pc <- corr[d] == 1
  mc <- suppressWarnings(multiclass.roc(as.character(y[idx]), x[idx],
                                        levels = as.character(lv[lvds == d]),
                                        direction = c("auto", "<", ">")[dirs[d] + 1],
                                        quiet = TRUE, partial.auc = pa,
                                        partial.auc.focus = pf, partial.auc.correct = pc))
  res[d] <- as.numeric(mc$auc)
  pairs <- c(pairs, sapply(mc$rocs, function(r) suppressWarnings(
    auc(r, partial.auc = pa, partial.auc.focus = pf, partial.auc.correct = pc))))
}
out <- list(res = res, pairs = pairs)
"""


def _dataset(rng: np.random.Generator, matrix: bool) -> dict:
    k = int(rng.integers(2, KMAX + 1))
    n = int(rng.integers(3 * k, 150))
    y = np.concatenate([np.repeat(np.arange(k), 2), rng.integers(0, k, n - 2 * k)])
    rng.shuffle(y)
    if matrix:
        s = rng.dirichlet(np.ones(k), n) + rng.normal(0, 0.5) * np.eye(k)[y]
    else:
        s = rng.normal(size=n) + rng.normal(0, 1, k)[y]
    if rng.random() < 0.4:  # ties within and across classes
        s = np.round(s, int(rng.integers(0, 2)))
    m = int(rng.integers(2, k + 1))
    kind = int(rng.integers(0, 4))  # ranges at either corner, inside, or narrow
    if kind == 0:
        lo, hi = float(rng.uniform(0.5, 0.95)), 1.0
    elif kind == 1:
        lo, hi = 0.0, float(rng.uniform(0.1, 0.6))
    elif kind == 2:
        lo, hi = np.sort(rng.uniform(0, 1, 2)).tolist()
    else:
        lo = float(rng.uniform(0, 0.95))
        hi = lo + 0.03
    return {"k": k, "y": y, "s": s, "levels": rng.permutation(k)[:m].tolist(),
            "dir": int(rng.integers(0, 2 if matrix else 3)), "focus": int(rng.integers(0, 2)),
            "corr": int(rng.integers(0, 2)), "lo": lo, "hi": hi}


def _pack(sets: list[dict], matrix: bool) -> dict:
    data = {
        "ds": np.concatenate([np.full(len(d["y"]), i + 1) for i, d in enumerate(sets)]),
        "y": np.concatenate([d["y"] for d in sets]),
        "lv": np.concatenate([d["levels"] for d in sets]),
        "lvds": np.concatenate([np.full(len(d["levels"]), i + 1) for i, d in enumerate(sets)]),
        **{key: np.array([d[key] for d in sets]) for key in ("dir", "focus", "corr", "lo",
                                                             "hi")},
    }
    data["dirs"] = data.pop("dir")
    if matrix:
        padded = [np.pad(d["s"], ((0, 0), (0, KMAX - d["k"])), constant_values=np.nan)
                  for d in sets]
        data["X"] = np.concatenate(padded).ravel()
        data["kk"] = np.array([d["k"] for d in sets])
    else:
        data["x"] = np.concatenate([d["s"] for d in sets])
    return data


def _confmat(d: dict, matrix: bool):
    rng_kw = "partial_sensitivity" if d["focus"] else "partial_specificity"
    direction = "><"[d["dir"]] if matrix else ("auto", "<", ">")[d["dir"]]
    with warnings.catch_warnings():  # a corrected pair under the diagonal: nan, as pROC's NA
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return multiclass_roc(d["y"], d["s"], levels=d["levels"], direction=direction,
                              correct=bool(d["corr"]), **{rng_kw: (d["lo"], d["hi"])})


def _compare(sets: list[dict], want: dict, matrix: bool) -> None:
    got = [_confmat(d, matrix) for d in sets]
    np.testing.assert_allclose([g.auc for g in got], want["res"], rtol=1e-9, atol=1e-15)
    # pROC's pairs: in the order of the levels for a predictor, of the matrix's columns
    # (here the sorted levels) for a matrix
    order = [sorted(d["levels"]) if matrix else d["levels"] for d in sets]
    pairs = np.concatenate([[g.pair_aucs[(a, b)] if (a, b) in g.pair_aucs
                             else g.pair_aucs[(b, a)] for a, b in combinations(lv, 2)]
                            for g, lv in zip(got, order, strict=True)])
    np.testing.assert_allclose(pairs, want["pairs"], rtol=1e-9, atol=1e-15)
    # the draw must exercise both foci, both corrections, and pROC's NA
    undefined = np.isnan(want["res"])
    assert 0 < undefined.sum() < len(sets) // 2
    assert all(np.array([d["corr"] for d in sets])[undefined])
    assert {d["focus"] for d in sets} == {0, 1} and {d["corr"] for d in sets} == {0, 1}


@pytest.mark.parametrize("seed", [31, 32])
def test_matrix_form_partial_matches_proc(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    sets = [_dataset(rng, matrix=True) for _ in range(60)]
    _compare(sets, proc(R_MATRIX, **_pack(sets, matrix=True)), matrix=True)


@pytest.mark.parametrize("seed", [41, 42])
def test_predictor_form_partial_matches_proc(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    sets = [_dataset(rng, matrix=False) for _ in range(60)]
    _compare(sets, proc(R_PREDICTOR, **_pack(sets, matrix=False)), matrix=False)


@pytest.mark.parametrize("matrix", [True, False])
def test_whole_range_is_the_full_area(matrix):
    # over the whole specificity (or sensitivity) range, the uncorrected partial area of a
    # curve is its AUC, whichever class is taken as the cases
    rng = np.random.default_rng(2)
    y = np.concatenate([np.arange(4), rng.integers(0, 4, 76)])
    s = rng.dirichlet(np.ones(4), 80) if matrix else np.round(rng.normal(size=80) + y, 1)
    for direction in ("<", ">"):
        full = multiclass_roc(y, s, direction=direction)
        for kw in ({"partial_specificity": (0, 1)}, {"partial_sensitivity": (1, 0)}):
            part = multiclass_roc(y, s, direction=direction, **kw)
            assert part.auc == pytest.approx(full.auc, rel=1e-12)
            assert part.pair_aucs == pytest.approx(full.pair_aucs, rel=1e-12)
            assert full.partial is None and part.partial[1:] == (0.0, 1.0, False)


@pytest.mark.parametrize("matrix", [True, False])
def test_integer_weights_are_repeated_rows(matrix):
    rng = np.random.default_rng(3)
    y = np.concatenate([np.arange(3), rng.integers(0, 3, 57)])
    if matrix:
        s = np.round(rng.dirichlet(np.ones(3), 60) + 0.5 * np.eye(3)[y], 1)
    else:
        s = np.round(rng.normal(size=60) + 1.5 * y, 1)
    w = rng.integers(1, 4, 60)
    kw = {"direction": ">" if matrix else "<", "partial_sensitivity": (0.7, 1.0),
          "correct": True}
    got = multiclass_roc(y, s, sample_weight=w, **kw)
    want = multiclass_roc(np.repeat(y, w), np.repeat(s, w, axis=0), **kw)
    assert 0.5 < got.auc == pytest.approx(want.auc, rel=1e-12)


def test_a_corrected_pair_under_the_diagonal_warns():
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    x = np.array([1.0, 2, 3, 6, 5, 4, 9, 8, 7])
    with pytest.warns(UndefinedMetricWarning, match="below the diagonal"):
        r = multiclass_roc(y, x, direction=">", partial_specificity=(0.8, 1), correct=True)
    assert np.isnan(r.auc) and all(np.isnan(v) for v in r.pair_aucs.values())


@pytest.mark.parametrize(
    ("kw", "err", "msg"),
    [
        ({"partial_specificity": (0.8, 1), "partial_sensitivity": (0.8, 1)}, ValueError,
         "at most one"),
        ({"correct": True}, ValueError, "correct=True .*needs a partial range"),
        ({"correct": "yes", "partial_specificity": (0.8, 1)}, TypeError, "correct"),
        ({"partial_specificity": (0.8, 0.8)}, ValueError, "specificity .*positive width"),
        ({"partial_sensitivity": (0.5, 1.5)}, ValueError, "sensitivity must lie within"),
        ({"partial_specificity": 0.8}, TypeError, "specificity must be a pair"),
        ({"partial_specificity": ("a", "b")}, TypeError, "specificity must be a pair"),
    ],
)
def test_bad_partial_input(kw, err, msg):
    for s in ([0.1, 0.2, 0.3, 0.4], np.eye(4)[:, :3] + 0.1):
        with pytest.raises(err, match=msg):
            multiclass_roc([0, 1, 2, 2], s, **kw)
