"""The compiled per-table Aickin iteration (used for large batches such as threshold sweeps)
agrees with PyCM's iteration on every table it converges on, and flags the same tables."""

import numpy as np
import pycm
import pytest

from confmat.metrics import Stats, evaluate


def _pycm_alpha(table: np.ndarray) -> float:
    k = table.shape[0]
    m = pycm.ConfusionMatrix(
        matrix={i: {j: int(table[i, j]) for j in range(k)} for i in range(k)}
    )
    value = m.aickin_alpha()
    return float("nan") if isinstance(value, str) else float(value)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_compiled_batch_matches_pycm(k):
    rng = np.random.default_rng(k)
    tables = rng.integers(0, 40, (5000, k, k)) + np.eye(k, dtype=np.int64) * rng.integers(
        0, 60, (5000, 1, 1)
    )
    ours = evaluate("aickin_alpha", Stats(tables, zero_division="nan"))  # batch >= 4096
    checked = 0
    for i in rng.choice(len(tables), 150, replace=False):
        expected = _pycm_alpha(tables[i])
        if np.isnan(ours[i]):
            continue  # documented: confmat leaves non-converged iterations undefined
        assert ours[i] == pytest.approx(expected, rel=1e-9, abs=1e-12)
        checked += 1
    assert checked > 100


def test_compiled_batch_flags_the_same_tables_as_the_array_loop():
    rng = np.random.default_rng(7)
    tables = rng.integers(0, 30, (4500, 3, 3)) + np.eye(3, dtype=np.int64) * 20
    compiled = evaluate("aickin_alpha", Stats(tables, zero_division="nan"))  # >= 4096 tables
    # batches below 4096 tables take the numpy fixed-point loop
    reference = np.concatenate([
        evaluate("aickin_alpha", Stats(tables[i:i + 1500], zero_division="nan"))
        for i in range(0, len(tables), 1500)
    ])
    np.testing.assert_array_equal(np.isnan(compiled), np.isnan(reference))
    np.testing.assert_allclose(compiled, reference, rtol=1e-9, atol=1e-12, equal_nan=True)
