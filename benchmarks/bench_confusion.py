"""Counting-kernel benchmark: confmat against seed 001's np.bincount (v5) and scikit-learn.

Prints each figure and its ratio, measured in this one run. Targets (issue #2):
  * 1e8 int64 labels, K = 10: >= 3x faster than v5 and >= 100x faster than
    sklearn.metrics.confusion_matrix, identical counts;
  * 1e6 string labels, 4 classes: >= 5x faster than scikit-learn;
  * all registry metrics for a K = 10 matrix < 5 ms, for K = 1000 < 0.5 s.

Usage: python benchmarks/bench_confusion.py [--n 100000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

import confmat
from confmat._kernels import confusion_counts


def v5_bincount(y_true: np.ndarray, y_pred: np.ndarray, num_classes: int) -> np.ndarray:
    """Seed 001's recommended implementation (v5), as printed there.

    Every timing is the best of ``--repeat`` runs, so first-touch page faults of the large
    temporaries do not count against any contestant (sklearn runs once: it takes seconds)."""
    cm = np.bincount(num_classes * y_true + y_pred, minlength=num_classes**2)
    return cm.reshape(num_classes, num_classes)


def best_of(fn, repeat: int) -> tuple[float, object]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def line(name: str, seconds: float, ref: float | None = None, ref_name: str = "") -> None:
    ratio = f"   {ref / seconds:8.2f}x faster than {ref_name}" if ref else ""
    print(f"  {name:<44} {seconds * 1e3:10.2f} ms{ratio}")


def bench_int(n: int, repeat: int) -> None:
    k = 10
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, k, n, dtype=np.int64)
    y_pred = np.where(rng.random(n) < 0.8, y_true, rng.integers(0, k, n, dtype=np.int64))
    print(f"\n[1] {n:.0e} int64 labels, K = {k}")
    confusion_counts(y_true[:2_000_000], y_pred[:2_000_000])  # JIT warm-up (cached to disk)
    t_cm, (ours, _, _) = best_of(lambda: confusion_counts(y_true, y_pred), repeat)
    t_np, (ours_np, _, _) = best_of(lambda: confusion_counts(y_true, y_pred, use_numba=False), repeat)
    t_v5, v5 = best_of(lambda: v5_bincount(y_true, y_pred, k), repeat)
    t_cm_full, cm = best_of(lambda: confmat.ConfusionMatrix.from_predictions(y_true, y_pred), repeat)
    t_sk, sk = best_of(lambda: sk_confusion_matrix(y_true, y_pred), 1)
    assert np.array_equal(ours, v5) and np.array_equal(ours, sk) and np.array_equal(ours_np, sk)
    assert np.array_equal(cm.counts, sk)
    line("seed 001 v5 np.bincount", t_v5)
    line("sklearn.metrics.confusion_matrix", t_sk)
    line("confmat pure-numpy path", t_np, t_v5, "v5")
    line("confmat kernel (numba)", t_cm, t_v5, "v5")
    line("confmat kernel (numba)", t_cm, t_sk, "sklearn")
    line("ConfusionMatrix.from_predictions", t_cm_full, t_sk, "sklearn")
    print("  counts identical across confmat (numba, numpy), v5 and sklearn: True")


def bench_strings(n: int, repeat: int) -> None:
    rng = np.random.default_rng(1)
    classes = np.array(["bus", "opel", "saab", "van"], dtype=object)
    y_true = classes[rng.integers(0, 4, n)]
    y_pred = np.where(rng.random(n) < 0.7, y_true, classes[rng.integers(0, 4, n)])
    print(f"\n[2] {n:.0e} string labels (object dtype), 4 classes")
    t_cm, cm = best_of(lambda: confmat.ConfusionMatrix.from_predictions(y_true, y_pred), repeat)
    t_sk, sk = best_of(lambda: sk_confusion_matrix(y_true, y_pred), repeat)
    assert np.array_equal(cm.counts, sk)
    line("sklearn.metrics.confusion_matrix", t_sk)
    line("ConfusionMatrix.from_predictions", t_cm, t_sk, "sklearn")
    y_true_u = y_true.astype(str)
    y_pred_u = y_pred.astype(str)
    t_cm_u, cm_u = best_of(lambda: confmat.ConfusionMatrix.from_predictions(y_true_u, y_pred_u), repeat)
    t_sk_u, sk_u = best_of(lambda: sk_confusion_matrix(y_true_u, y_pred_u), repeat)
    assert np.array_equal(cm_u.counts, sk_u)
    line("sklearn (numpy unicode '<U4')", t_sk_u)
    line("confmat (numpy unicode '<U4')", t_cm_u, t_sk_u, "sklearn")


def bench_metrics(k: int, repeat: int) -> None:
    rng = np.random.default_rng(2)
    counts = rng.integers(0, 1000, (k, k)) + np.diag(rng.integers(1000, 5000, k))
    cm = confmat.ConfusionMatrix(counts)
    specs = confmat.list_metrics()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cm.metrics()
        t, _ = best_of(lambda: cm.metrics(), repeat)
        t_avg, _ = best_of(lambda: [cm.metrics(average=a) for a in ("micro", "macro", "weighted")], repeat)
    print(f"\n[3] all {len(specs)} registry metrics, K = {k}")
    line("cm.metrics() (per-class + overall)", t)
    line("cm.metrics(average=...) x3 averages", t_avg)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=float, default=1e8, help="int labels for [1] (default 1e8)")
    ap.add_argument("--n-str", type=float, default=1e6, help="string labels for [2] (default 1e6)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from confmat._kernels import _numba_kernels

    kern = _numba_kernels()
    threads = kern[0].get_num_threads() if kern else 0
    print(f"confmat {confmat.__version__}, numpy {np.__version__}, numba threads: {threads}")
    bench_int(int(args.n), args.repeat)
    bench_strings(int(args.n_str), args.repeat)
    bench_metrics(10, 20)
    bench_metrics(1000, 3)


if __name__ == "__main__":
    main()
