"""confmat.sklearn against scikit-learn, side by side in one run (issue #13).

Each figure is the best of ``--repeat`` runs of the same call on the same data, after one
warm-up call of confmat's function (the numba kernels compile or load from the disk cache
once per process). Targets:
  [1] confusion_matrix on 1e7 labels:           >= 50x scikit-learn
  [2] f1_score(average="macro") on 1e7 labels:  >= 50x
  [3] roc_auc_score on 1e7 scores:              >= 8x
  [4] classification_report on 1e6 labels:     >= 20x
The values are checked to agree before the times are printed.

Usage: python benchmarks/bench_sklearn.py [--n 1e7] [--n-report 1e6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn import metrics as skm

import confmat.sklearn as cms


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def compare(label: str, target: float, theirs: Callable[[], Any], ours: Callable[[], Any],
            repeat: int) -> bool:
    ours()  # warm-up: kernels compiled or loaded from the cache
    t_ours, v_ours = best_of(ours, repeat)
    t_sk, v_sk = best_of(theirs, repeat)
    if isinstance(v_sk, str):
        assert v_ours == v_sk, f"{label}: reports differ"
    else:
        np.testing.assert_allclose(np.asarray(v_ours, float), np.asarray(v_sk, float), rtol=1e-9)
    ratio = t_sk / t_ours
    ok = ratio >= target
    print(f"  {label:<44} sklearn {t_sk * 1e3:9.1f} ms   confmat {t_ours * 1e3:8.1f} ms"
          f"   {ratio:7.1f}x  (target >= {target:g}x: {'met' if ok else 'MISSED'})")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7)
    parser.add_argument("--n-report", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, n_rep, repeat = int(args.n), int(args.n_report), args.repeat
    rng = np.random.default_rng(0)
    k = 5
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    y01 = rng.integers(0, 2, n)
    score = rng.random(n) + 0.3 * y01
    t_rep, p_rep = y_true[:n_rep], y_pred[:n_rep]
    import sklearn

    print(f"confmat.sklearn vs scikit-learn {sklearn.__version__}, best of {repeat}")
    warnings.simplefilter("ignore")
    results = [
        compare(f"[1] confusion_matrix, {n:.0e} labels", 50,
                lambda: skm.confusion_matrix(y_true, y_pred),
                lambda: cms.confusion_matrix(y_true, y_pred), repeat),
        compare(f"[2] f1_score macro, {n:.0e} labels", 50,
                lambda: skm.f1_score(y_true, y_pred, average="macro"),
                lambda: cms.f1_score(y_true, y_pred, average="macro"), repeat),
        compare(f"[3] roc_auc_score, {n:.0e} scores", 8,
                lambda: skm.roc_auc_score(y01, score),
                lambda: cms.roc_auc_score(y01, score), repeat),
        compare(f"[4] classification_report, {n_rep:.0e} labels", 20,
                lambda: skm.classification_report(t_rep, p_rep, digits=6),
                lambda: cms.classification_report(t_rep, p_rep, digits=6), repeat),
    ]
    print(f"targets met: {sum(results)} of {len(results)}")


if __name__ == "__main__":
    main()
