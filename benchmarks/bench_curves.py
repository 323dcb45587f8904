"""Scores-and-thresholds benchmark: confmat.curves / confmat.binned against the anchors.

Prints each figure and its ratio, all measured in this one run. Targets (issue #4):
  [1] exact binary AUC on 1e7 scores: >= 4x faster than sklearn.metrics.roc_auc_score and
      within 1.5x of one np.sort of the scores (same value to 1e-12);
  [2] a full threshold_sweep of every registry metric on 1e6 scores: < 2 s;
  [3] binned accumulation of 1e8 scores in chunks of 1e7 (time and throughput);
  [4] binned AUC on 1e7 scores: >= 50x faster than torchmetrics' binned
      binary_auroc(thresholds=1000) on CPU.

Usage: python benchmarks/bench_curves.py [--n-auc 1e7] [--n-sweep 1e6] [--n-binned 1e8]
       [--n-torch 1e7] [--repeat 3] [--no-torch]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np

import confmat
from confmat.binned import ScoreHistogram


def best_of(fn, repeat: int) -> tuple[float, object]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def line(name: str, seconds: float, note: str = "") -> None:
    print(f"  {name:<52} {seconds * 1e3:11.1f} ms   {note}")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def scores(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n, dtype=np.int64)
    s = 1.0 / (1.0 + np.exp(-rng.normal(1.0 * y - 0.5, 1.0)))
    return y, s


def bench_exact_auc(n: int, repeat: int) -> None:
    from sklearn.metrics import roc_auc_score

    print(f"\n[1] exact binary ROC AUC, {n:.0e} float64 scores")
    y, s = scores(n, 0)
    confmat.roc_auc(y[:10_000], s[:10_000])  # JIT warm-up (cached on disk)
    t_ours, ours = best_of(lambda: confmat.roc_auc(y, s), repeat)
    t_sort, _ = best_of(lambda: np.sort(s), repeat)
    t_sk, sk = best_of(lambda: roc_auc_score(y, s), 1)
    assert abs(ours - sk) <= 1e-12, (ours, sk)
    line("numpy np.sort(scores) (reference)", t_sort)
    line("sklearn roc_auc_score", t_sk)
    line("confmat.roc_auc", t_ours, f"AUC {ours:.12f} (sklearn {sk:.12f})")
    r_sk = t_sk / t_ours
    r_sort = t_ours / t_sort
    print(f"  -> {r_sk:.1f}x faster than sklearn (target >= 4x): {verdict(r_sk >= 4)}")
    print(f"  -> {r_sort:.2f}x the time of one np.sort (target <= 1.5x): {verdict(r_sort <= 1.5)}")


def bench_sweep(n: int) -> None:
    print(f"\n[2] threshold_sweep + every registry metric, {n:.0e} scores")
    y, s = scores(n, 1)
    names = [m.name for m in confmat.list_metrics()]
    per: dict[str, float] = {}

    def run() -> int:
        sweep = confmat.threshold_sweep(y, s)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in names:
                t0 = time.perf_counter()
                sweep.metric(name)
                per[name] = time.perf_counter() - t0
        return len(sweep)

    t0 = time.perf_counter()
    sweep = confmat.threshold_sweep(y, s)
    t_build = time.perf_counter() - t0
    t_all, n_thr = best_of(run, 2)
    line("threshold_sweep (one sort, cumulative counts)", t_build, f"{len(sweep):,} thresholds")
    line(f"sweep + all {len(names)} registry metrics", t_all, f"{n_thr:,} thresholds each")
    ranked = sorted(per.items(), key=lambda kv: -kv[1])
    print("  slowest metrics: " + ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in ranked[:8]))
    t_sort, _ = best_of(lambda: np.sort(s), 3)
    line("numpy np.sort(scores) (load reference)", t_sort)
    print(f"  -> {t_all:.2f} s (target < 2 s): {verdict(t_all < 2)}")
    core = [m.name for m in confmat.list_metrics()
            if m.func.__module__ in ("confmat.metrics.per_class", "confmat.metrics.overall")]
    t_core = t_build + sum(per[n] for n in core)
    print(f"     sweep + the {len(core)} core metrics (metrics/per_class.py, overall.py): "
          f"{t_core:.2f} s: {verdict(t_core < 2)}")
    for drop in (1, 2, 5):
        rest = sum(v for _, v in ranked[drop:])
        names_out = ", ".join(k for k, _ in ranked[:drop])
        print(f"     without the {drop} slowest ({names_out}): {rest:.2f} s")


def bench_binned_stream(n: int, chunk: int) -> None:
    print(f"\n[3] ScoreHistogram (10,000 bins) accumulation of {n:.0e} scores in chunks of {chunk:.0e}")
    h = ScoreHistogram()
    # warm-up: a chunk long enough for the compiled kernel (binning.NUMBA_MIN_SIZE is 2**16),
    # loaded from numba's disk cache before the clock starts; a shorter chunk is binned by
    # numpy and left the load (about 0.5 s) to the first timed chunk
    h.update(*scores(1 << 17, 2))
    h = ScoreHistogram()
    t_update = 0.0
    for i in range(0, n, chunk):
        y, s = scores(min(chunk, n - i), 100 + i // chunk)  # data generation is not timed
        t0 = time.perf_counter()
        h.update(y, s)
        t_update += time.perf_counter() - t0
    t_auc, auc = best_of(h.roc_auc, 3)
    line(f"update() over {n // chunk} chunks", t_update, f"{n / t_update / 1e6:,.0f} M scores/s")
    line("roc_auc() from the histogram", t_auc,
         f"AUC {auc:.6f} +- {h.auc_error_bound():.1e} (stated bound)")
    assert h.n == n


def bench_binned_vs_torch(n: int, repeat: int, run_torch: bool) -> None:
    print(f"\n[4] binned AUC on {n:.0e} scores: confmat.ScoreHistogram vs torchmetrics")
    y, s = scores(n, 3)
    from sklearn.metrics import roc_auc_score

    exact = roc_auc_score(y, s)

    def ours(bins: int) -> float:
        return ScoreHistogram(bins=bins).update(y, s).roc_auc()

    ours(1000)
    t_1000, a_1000 = best_of(lambda: ours(1000), repeat)
    t_10k, a_10k = best_of(lambda: ours(10_000), repeat)
    line("confmat ScoreHistogram(bins=1000) update+roc_auc", t_1000, f"AUC {a_1000:.6f}")
    line("confmat ScoreHistogram(bins=10000) update+roc_auc", t_10k, f"AUC {a_10k:.6f}")
    print(f"  exact AUC {exact:.6f}")
    if not run_torch:
        print("  torchmetrics skipped (--no-torch)")
        return
    try:
        import torch
        from torchmetrics.functional.classification import binary_auroc
    except ImportError:
        print("  torchmetrics not installed: pip install torch==2.13.0 torchmetrics")
        return
    preds = torch.from_numpy(s.astype(np.float32))
    target = torch.from_numpy(y)
    binary_auroc(preds[:1000], target[:1000], thresholds=1000)
    t_tm, tm = best_of(lambda: float(binary_auroc(preds, target, thresholds=1000)), 1)
    line(f"torchmetrics binary_auroc(thresholds=1000), torch {torch.__version__}", t_tm,
         f"AUC {tm:.6f} ({torch.get_num_threads()} threads)")
    r = t_tm / t_1000
    print(f"  -> bins=1000: {r:.0f}x faster than torchmetrics (target >= 50x): {verdict(r >= 50)}")
    print(f"  -> bins=10000: {t_tm / t_10k:.0f}x faster than torchmetrics")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-auc", type=float, default=1e7)
    ap.add_argument("--n-sweep", type=float, default=1e6)
    ap.add_argument("--n-binned", type=float, default=1e8)
    ap.add_argument("--chunk", type=float, default=1e7)
    ap.add_argument("--n-torch", type=float, default=1e7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-torch", action="store_true")
    a = ap.parse_args()
    print(f"confmat {confmat.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at start")
    bench_exact_auc(int(a.n_auc), a.repeat)
    bench_sweep(int(a.n_sweep))
    bench_binned_stream(int(a.n_binned), int(a.chunk))
    bench_binned_vs_torch(int(a.n_torch), a.repeat, not a.no_torch)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
