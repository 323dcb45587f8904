"""Hand and Till's (2001) multi-class AUC (:func:`confmat.curves.multiclass_roc.multiclass_roc`)
against pROC's ``multiclass.roc`` (both forms, ``levels``, ``direction``), scikit-learn's
``roc_auc_score(multi_class="ovo")``, a pairwise count by hand, and repeated rows for weights."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from confmat.curves.multiclass_roc import multiclass_roc
from proc_oracle import proc  # noqa: F401  (the fixture)

KMAX = 5

R_MATRIX = r"""
res <- numeric(length(kk))
X <- matrix(X, ncol = KMAX, byrow = TRUE)
for (d in seq_along(kk)) {
  idx <- ds == d
  M <- X[idx, 1:kk[d], drop = FALSE]
  colnames(M) <- as.character(0:(kk[d] - 1))
  resp <- as.character(y[idx])
  levs <- as.character(lv[lvds == d])
  dr <- if (dirs[d] == 0) ">" else "<"
  res[d] <- as.numeric(suppressWarnings(multiclass.roc(resp, M, levels = levs,
                                                       direction = dr, quiet = TRUE)$auc))
}
out <- list(res = res)
""".replace("KMAX", str(KMAX))

R_PREDICTOR = r"""
res <- numeric(length(dirs))
for (d in seq_along(dirs)) {
  idx <- ds == d
  resp <- as.character(y[idx])
  levs <- as.character(lv[lvds == d])
  dr <- c("auto", "<", ">")[dirs[d] + 1]
  res[d] <- as.numeric(suppressWarnings(multiclass.roc(resp, x[idx], levels = levs,
                                                       direction = dr, quiet = TRUE)$auc))
}
out <- list(res = res)
"""


def _dataset(rng: np.random.Generator, matrix: bool) -> dict:
    k = int(rng.integers(2, KMAX + 1))
    n = int(rng.integers(2 * k, 120))
    y = np.concatenate([np.repeat(np.arange(k), 2), rng.integers(0, k, n - 2 * k)])
    rng.shuffle(y)
    if matrix:
        s = rng.dirichlet(np.ones(k), n) + rng.normal(0, 0.5) * np.eye(k)[y]
    else:
        s = rng.normal(size=n) + rng.normal(0, 1, k)[y]
    if rng.random() < 0.4:  # ties within and across classes
        s = np.round(s, int(rng.integers(0, 2)))
    m = int(rng.integers(2, k + 1))
    levels = rng.permutation(k)[:m]
    return {"k": k, "y": y, "s": s, "levels": levels.tolist(),
            "dir": int(rng.integers(0, 2 if matrix else 3))}


def _pack(sets: list[dict], matrix: bool) -> dict:
    data = {
        "ds": np.concatenate([np.full(len(d["y"]), i + 1) for i, d in enumerate(sets)]),
        "y": np.concatenate([d["y"] for d in sets]),
        "lv": np.concatenate([d["levels"] for d in sets]),
        "lvds": np.concatenate([np.full(len(d["levels"]), i + 1) for i, d in enumerate(sets)]),
        "dirs": np.array([d["dir"] for d in sets]),
    }
    if matrix:
        padded = [np.pad(d["s"], ((0, 0), (0, KMAX - d["k"])), constant_values=np.nan)
                  for d in sets]
        data["X"] = np.concatenate(padded).ravel()
        data["kk"] = np.array([d["k"] for d in sets])
    else:
        data["x"] = np.concatenate([d["s"] for d in sets])
    return data


@pytest.mark.parametrize("seed", [11, 12])
def test_matrix_form_matches_proc(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    sets = [_dataset(rng, matrix=True) for _ in range(60)]
    want = proc(R_MATRIX, **_pack(sets, matrix=True))["res"]
    got = [multiclass_roc(d["y"], d["s"], levels=d["levels"], direction="><"[d["dir"]]).auc
           for d in sets]
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)


@pytest.mark.parametrize("seed", [21, 22])
def test_predictor_form_matches_proc(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    sets = [_dataset(rng, matrix=False) for _ in range(60)]
    want = proc(R_PREDICTOR, **_pack(sets, matrix=False))["res"]
    got = [multiclass_roc(d["y"], d["s"], levels=d["levels"],
                          direction=("auto", "<", ">")[d["dir"]]).auc for d in sets]
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 5), st.booleans())
def test_matrix_form_is_sklearn_ovo_macro(seed, k, ties):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2 * k, 200))
    y = np.concatenate([np.arange(k), np.arange(k), rng.integers(0, k, n - 2 * k)])
    p = rng.dirichlet(np.ones(k), n)
    if ties:
        p = np.round(p, 1)
        p = p / p.sum(axis=1, keepdims=True)
    want = roc_auc_score(y, p, multi_class="ovo", average="macro")
    assert multiclass_roc(y, p).auc == pytest.approx(want, rel=1e-12, abs=1e-12)


def _a_given(own: np.ndarray, other: np.ndarray) -> float:
    """P(own > other) + P(tie) / 2 over all pairs, counted directly."""
    diff = own[:, None] - other[None, :]
    return float(((diff > 0).sum() + 0.5 * (diff == 0).sum()) / diff.size)


def test_matrix_form_by_pair_counts_with_string_labels():
    rng = np.random.default_rng(5)
    names = np.array(["cat", "dog", "eel"])
    y = names[rng.integers(0, 3, 40)]
    s = np.round(rng.random((40, 3)), 1)  # rows not normalised: pROC does not require it
    r = multiclass_roc(y, s)
    total = []
    for i, j in combinations(range(3), 2):
        a_ij = _a_given(s[y == names[i], i], s[y == names[j], i])
        a_ji = _a_given(s[y == names[j], j], s[y == names[i], j])
        assert r.pair_aucs[(names[i], names[j])] == pytest.approx((a_ij + a_ji) / 2, rel=1e-12)
        total.append((a_ij + a_ji) / 2)
    assert r.auc == pytest.approx(np.mean(total), rel=1e-12)
    assert r.levels == ["cat", "dog", "eel"] and r.form == "matrix"


def test_predictor_form_by_pair_counts_and_auto_direction():
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    x = np.array([5.0, 6, 7, 1, 2, 3, 8, 9, 1])
    r = multiclass_roc(y, x)
    # (0, 1): controls 0 have the larger median, so '>' and AUC = P(x0 > x1) = 1
    assert r.directions == {(0, 1): ">", (0, 2): "<", (1, 2): "<"}
    assert r.pair_aucs[(0, 1)] == 1.0
    assert r.pair_aucs[(0, 2)] == pytest.approx(_a_given(x[6:], x[:3]))
    assert r.pair_aucs[(1, 2)] == pytest.approx(_a_given(x[6:], x[3:6]))
    forced = multiclass_roc(y, x, direction="<")
    assert forced.pair_aucs[(0, 1)] == 0.0


def test_labels_map_columns_and_levels_drop_classes():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 4, 80)
    p = rng.dirichlet(np.ones(4), 80)
    order = [2, 0, 3, 1]
    shuffled = p[:, order]  # column c now holds the class order[c]
    assert multiclass_roc(y, shuffled, labels=order).auc == pytest.approx(
        multiclass_roc(y, p).auc, rel=1e-12)
    keep = np.isin(y, [1, 3])
    sub = multiclass_roc(y, p, levels=[3, 1])
    a_3_1 = roc_auc_score(y[keep] == 3, p[keep, 3])
    a_1_3 = roc_auc_score(y[keep] == 1, p[keep, 1])
    assert sub.auc == pytest.approx((a_3_1 + a_1_3) / 2, rel=1e-12)
    assert sub.levels == [3, 1] and list(sub.pair_aucs) == [(3, 1)]


@pytest.mark.parametrize("matrix", [True, False])
def test_integer_weights_are_repeated_rows(matrix):
    rng = np.random.default_rng(3)
    y = np.concatenate([np.arange(3), rng.integers(0, 3, 57)])
    s = rng.dirichlet(np.ones(3), 60) if matrix else np.round(rng.normal(size=60), 1)
    w = rng.integers(1, 4, 60)
    direction = ">" if matrix else "<"
    got = multiclass_roc(y, s, sample_weight=w, direction=direction)
    want = multiclass_roc(np.repeat(y, w), np.repeat(s, w, axis=0), direction=direction)
    assert got.auc == pytest.approx(want.auc, rel=1e-12)


@pytest.mark.parametrize(
    ("y", "s", "kw", "err", "msg"),
    [
        ([1, 1, 1], [0.1, 0.2, 0.3], {}, ValueError, "single class"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"levels": [0]}, ValueError, "at least two"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"levels": [0, 0]}, ValueError, "unique"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"levels": [0, 5]}, ValueError, r"\[5\] do not occur"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"direction": "up"}, ValueError, "direction must be"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"labels": [0, 1, 2]}, ValueError, "labels must be None"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {"sample_weight": [1, 1, 1]}, ValueError, "medians"),
        ([0, 1, 2], [[0.1], [0.2], [0.3]], {}, ValueError, "single column"),
        ([0, 1, 2], np.eye(3), {"direction": "auto"}, ValueError, "not available"),
        ([0, 1, 2], np.eye(3)[:, :2], {}, ValueError, "3 classes"),
        ([0, 1, 2], [0.1, np.nan, 0.3], {}, ValueError, "y_score"),
        ([0, 1, 2], ["a", "b", "c"], {}, TypeError, "y_score"),
        ([0, 1], [0.1, 0.2, 0.3], {}, ValueError, "y_score"),
    ],
)
def test_bad_input(y, s, kw, err, msg):
    with pytest.raises(err, match=msg):
        multiclass_roc(y, s, **kw)
