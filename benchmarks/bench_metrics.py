"""Time of every registry metric on one confusion matrix, against PyCM computing its catalogue.

Targets (issue 3): all metrics for K = 10 under 5 ms, for K = 1000 under 0.5 s. Prints the
best of several runs, and the ratio to PyCM on the same table (PyCM computes every statistic
when the object is built). Run: ``python benchmarks/bench_metrics.py``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

import confmat
from confmat.metrics import list_metrics


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    n_metrics = len(list_metrics())
    for k, limit, repeat in ((10, 5e-3, 50), (100, None, 10), (1000, 0.5, 3)):
        table = rng.integers(0, 100, (k, k))
        cm = confmat.ConfusionMatrix(table)
        cm.metrics()  # warm-up (imports scipy.special for p_value)
        t_all = best(cm.metrics, repeat)
        t_one = best(lambda cm=cm: cm.metric("kappa"), repeat)
        line = (f"K={k:5d}: all {n_metrics} registry metrics {t_all * 1e3:8.2f} ms"
                f" | one metric (kappa) {t_one * 1e3:7.3f} ms")
        if limit is not None:
            line += f" | target < {limit * 1e3:g} ms: {'ok' if t_all < limit else 'MISSED'}"
        if k <= 100:
            try:
                import pycm

                mat = table.tolist()
                t_pycm = best(lambda mat=mat: pycm.ConfusionMatrix(matrix=mat), max(repeat // 5, 1))
                line += f" | PyCM full catalogue {t_pycm * 1e3:8.2f} ms (x{t_pycm / t_all:.1f})"
            except ImportError:
                pass
        print(line)


if __name__ == "__main__":
    main()
