"""Counting benchmark: confmat against the anchors of issue #11 (and issue #2), in one run.

Every contestant of a section runs once per round, the rounds interleaved, and the best round
counts (first-touch page faults and a busy neighbour cost nobody a round). Counts are checked
to be identical before any figure is printed.

Issue #11 targets (in memory):
  [1] integer labels, K = 1000, 1e7 and 1e8 rows: >= 1.0x the fifth counting method (v5)
      ``np.bincount(K * t + p, minlength=K * K)``; K = 10 within 1.2x of the read-once floor
      (the fastest read of both arrays: a parallel numba sum, or numpy's sum, whichever wins);
  [2] polars String and pyarrow string columns, 1e7 rows: >= 1.0x polars
      ``df.group_by(["t", "p"]).len()`` on the built frame (eager or lazy, whichever wins);
  [3] numpy object strings, 1e7 rows: >= 1.0x ``pandas.factorize`` of each column, the
      uniques mapped onto one book, then ``np.bincount``.
Issue #2 figures (scikit-learn, registry metrics) with ``--legacy``.

Usage: python benchmarks/bench_confusion.py [--quick] [--rounds 5] [--sizes 1e7,1e8]
                                             [--n-str 1e7] [--legacy]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np

import confmat
from confmat import ConfusionMatrix
from confmat.counting.kernels import load_kernels


def v5_bincount(y_true: np.ndarray, y_pred: np.ndarray, num_classes: int) -> np.ndarray:
    """The fifth of the five ways to count a confusion matrix compared in the source notes on per-class metrics (v5: one bincount of K * t + p), their recommended one."""
    cm = np.bincount(num_classes * y_true + y_pred, minlength=num_classes**2)
    return cm.reshape(num_classes, num_classes)


def rounds(contestants: dict[str, Callable[[], object]], n_rounds: int) -> dict[str, float]:
    """Best wall time of each contestant over interleaved rounds (after one warm-up call)."""
    for fn in contestants.values():
        fn()
    best = dict.fromkeys(contestants, float("inf"))
    for _ in range(n_rounds):
        for name, fn in contestants.items():
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.1f} ms"


def _read_once() -> Callable[[np.ndarray, np.ndarray], object]:
    """The read-once floor: both arrays read once, as fast as this machine does it."""
    kern = load_kernels()
    if kern is None:
        return lambda t, p: (np.add.reduce(t), np.add.reduce(p))
    numba = kern.numba

    @numba.njit(parallel=True, cache=True)
    def read_both(t, p):  # pragma: no cover - compiled
        s = 0
        for i in numba.prange(t.shape[0]):
            s += t[i] + p[i]
        return s

    return read_both


def bench_int(sizes: list[int], n_rounds: int) -> None:
    read_both = _read_once()
    print("\n[1] integer labels (int64, 80% on the diagonal), in memory")
    print(f"  {'rows':>6} {'K':>5} {'read-once':>12} {'np.bincount v5':>15} {'confmat':>12}"
          f" {'v5/confmat':>11} {'confmat/floor':>14}")
    for n in sizes:
        for k in (10, 1000):
            _int_row(n, k, read_both, n_rounds)


def _int_row(n: int, k: int, read_both: Callable, n_rounds: int) -> None:
    rng = np.random.default_rng(k)
    t = rng.integers(0, k, n, dtype=np.int64)
    p = np.where(rng.random(n) < 0.8, t, rng.integers(0, k, n, dtype=np.int64))
    best = rounds({
        "numba read": lambda: read_both(t, p),
        "numpy read": lambda: (np.add.reduce(t), np.add.reduce(p)),
        "v5": lambda: v5_bincount(t, p, k),
        "confmat": lambda: ConfusionMatrix.from_predictions(t, p),
    }, n_rounds)
    cm = ConfusionMatrix.from_predictions(t, p)
    assert np.array_equal(cm.counts, v5_bincount(t, p, k)) and cm.labels == list(range(k))
    floor = min(best["numba read"], best["numpy read"])
    target = "(target <= 1.2x)" if k == 10 else "(target >= 1.0x)"
    print(f"  {n:6.0e} {k:5d} {ms(floor)} {ms(best['v5']):>15} {ms(best['confmat'])}"
          f" {best['v5'] / best['confmat']:10.2f}x {best['confmat'] / floor:13.2f}x  {target}")


def bench_strings(n: int, n_rounds: int) -> None:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    rng = np.random.default_rng(1)
    classes = np.array(["bus", "opel", "saab", "van", "car", "truck", "bike", "tram", "ship",
                        "plane"])
    ti = rng.integers(0, 10, n)
    pi = np.where(rng.random(n) < 0.8, ti, rng.integers(0, 10, n))
    df = pl.DataFrame({"t": classes[ti], "p": classes[pi]})
    at = pa.array(classes[ti].tolist(), type=pa.string())
    ap = pa.array(classes[pi].tolist(), type=pa.string())
    cats = df.with_columns(pl.all().cast(pl.Categorical))
    best = rounds({
        "group_by eager": lambda: df.group_by(["t", "p"]).len(),
        "group_by lazy": lambda: df.lazy().group_by(["t", "p"]).len().collect(),
        "polars String": lambda: ConfusionMatrix.from_predictions(df["t"], df["p"]),
        "pyarrow string": lambda: ConfusionMatrix.from_predictions(at, ap),
        "polars Categorical": lambda: ConfusionMatrix.from_predictions(cats["t"], cats["p"]),
    }, n_rounds)
    grouped = df.group_by(["t", "p"]).len()
    expected = np.zeros((10, 10), dtype=np.int64)
    book = sorted(classes.tolist())
    index = {v: i for i, v in enumerate(book)}
    for a, b, c in grouped.iter_rows():
        expected[index[a], index[b]] = c
    for x, y in ((df["t"], df["p"]), (at, ap), (cats["t"], cats["p"])):
        cm = ConfusionMatrix.from_predictions(x, y)
        assert cm.labels == book and np.array_equal(cm.counts, expected)
    ref = min(best["group_by eager"], best["group_by lazy"])
    print(f"\n[2] string labels, {n:.0e} rows, 10 classes (target >= 1.0x group_by)")
    print(f"  polars group_by(['t','p']).len(): eager {ms(best['group_by eager']).strip()}, "
          f"lazy {ms(best['group_by lazy']).strip()}")
    for name in ("polars String", "pyarrow string", "polars Categorical"):
        print(f"  confmat, {name + ' columns':<28} {ms(best[name])}   "
              f"{ref / best[name]:6.2f}x group_by")

    # [3] numpy object strings against pandas.factorize + np.bincount
    t_obj = classes.astype(object)[ti]
    p_obj = classes.astype(object)[pi]

    def factorize_bincount() -> np.ndarray:
        ct, ut = pd.factorize(t_obj)
        cp, up = pd.factorize(p_obj)
        labels = sorted(set(ut.tolist()) | set(up.tolist()))
        pos = {v: i for i, v in enumerate(labels)}
        lt = np.array([pos[v] for v in ut.tolist()])
        lp = np.array([pos[v] for v in up.tolist()])
        k = len(labels)
        return np.bincount(k * lt[ct] + lp[cp], minlength=k * k).reshape(k, k)

    best = rounds({
        "factorize": factorize_bincount,
        "confmat": lambda: ConfusionMatrix.from_predictions(t_obj, p_obj),
    }, n_rounds)
    assert np.array_equal(ConfusionMatrix.from_predictions(t_obj, p_obj).counts,
                          factorize_bincount())
    print(f"\n[3] numpy object strings, {n:.0e} rows (target >= 1.0x)")
    print(f"  pandas.factorize x2 + np.bincount      {ms(best['factorize'])}")
    print(f"  confmat                                {ms(best['confmat'])}   "
          f"{best['factorize'] / best['confmat']:6.2f}x")


def bench_legacy(n: int, n_str: int, n_rounds: int) -> None:
    """Issue #2: against scikit-learn, and the registry metrics."""
    from sklearn.metrics import confusion_matrix as sk_confusion_matrix

    rng = np.random.default_rng(0)
    t = rng.integers(0, 10, n, dtype=np.int64)
    p = np.where(rng.random(n) < 0.8, t, rng.integers(0, 10, n, dtype=np.int64))
    best = rounds({"confmat": lambda: ConfusionMatrix.from_predictions(t, p)}, n_rounds)
    t0 = time.perf_counter()
    sk = sk_confusion_matrix(t, p)
    t_sk = time.perf_counter() - t0
    assert np.array_equal(ConfusionMatrix.from_predictions(t, p).counts, sk)
    print(f"\n[4] issue #2: {n:.0e} int64 labels, K = 10: sklearn {ms(t_sk).strip()}, confmat "
          f"{ms(best['confmat']).strip()} ({t_sk / best['confmat']:.0f}x)")
    classes = np.array(["bus", "opel", "saab", "van"], dtype=object)
    ts = classes[rng.integers(0, 4, n_str)]
    ps = np.where(rng.random(n_str) < 0.7, ts, classes[rng.integers(0, 4, n_str)])
    best = rounds({"sk": lambda: sk_confusion_matrix(ts, ps),
                   "confmat": lambda: ConfusionMatrix.from_predictions(ts, ps)}, n_rounds)
    print(f"  {n_str:.0e} object strings, 4 classes: sklearn {ms(best['sk']).strip()}, "
          f"confmat {ms(best['confmat']).strip()} ({best['sk'] / best['confmat']:.0f}x)")
    for k, reps in ((10, 20), (1000, 3)):
        counts = rng.integers(0, 1000, (k, k)) + np.diag(rng.integers(1000, 5000, k))
        cm = ConfusionMatrix(counts)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            best = rounds({"metrics": lambda cm=cm: cm.metrics()}, reps)
        print(f"  all {len(confmat.list_metrics())} registry metrics, K = {k}: "
              f"{ms(best['metrics']).strip()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smoke run: 2e6 rows, 2 rounds")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", default="1e7,1e8", help="rows for [1] (default 1e7,1e8)")
    ap.add_argument("--n-str", type=float, default=1e7, help="rows for [2] and [3]")
    ap.add_argument("--legacy", action="store_true", help="also the issue #2 figures")
    args = ap.parse_args()
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    n_str = int(args.n_str)
    n_rounds = args.rounds
    if args.quick:
        sizes, n_str, n_rounds = [2_000_000], 2_000_000, 2
    kern = load_kernels()
    threads = kern.numba.get_num_threads() if kern else 0
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    print(f"confmat {confmat.__version__}, numpy {np.__version__}, numba threads: {threads}, "
          f"polars {pl.__version__}, pyarrow {pa.__version__}, pandas {pd.__version__}; "
          f"best of {n_rounds} rounds")
    bench_int(sizes, n_rounds)
    bench_strings(n_str, n_rounds)
    if args.legacy:
        bench_legacy(max(sizes), 1_000_000 if not args.quick else 100_000, n_rounds)


if __name__ == "__main__":
    main()
