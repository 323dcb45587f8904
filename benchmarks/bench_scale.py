"""Scale benchmark: a 10^8-row Parquet file end to end in bounded memory, and 10^9 labels on Dask.

Prints, in one run:

1. End-to-end streaming evaluation of a Parquet file of (true, pred, score) with
   :func:`confmat.io.evaluate_file` (confusion matrix + 10,000-bin score histogram), run in a
   child process whose peak resident memory is measured (``ru_maxrss``); target < 500 MB.
2. The in-memory path on the same data: the columns loaded whole (not timed), then
   ``ConfusionMatrix.from_predictions`` + ``ScoreHistogram.update`` timed, and one
   ``Accumulator.update`` over the whole columns; the streaming throughput must be at least half
   of the faster of the two. All results must be identical.
3. Dask on a ``LocalCluster`` (2 worker processes, 1 thread each) over 10^9 synthetic labels
   generated lazily (``da.random``), with the wall time and the workers' peak memory.

The Parquet file is written once to ``$CONFMAT_BENCH_DIR`` (default ``/tmp/confmat_bench``) in
row groups of 10^6 rows and reused. ``--rows`` and ``--dask-rows`` shrink the run for a smoke
test. Each path is timed ``--runs`` times (default 5; the streaming path once more, its first
run being reported apart) and the best time is kept. Timings on a shared machine are noisy:
compare the ratios of the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import textwrap
import time

import numpy as np

ROW_GROUP = 1_000_000
N_CLASSES = 10


#: File layouts: the wide one (int64 labels, float64 scores, what pandas writes by default) and a
#: compact one (int8 labels, float32 scores, what a model server typically logs).
LAYOUTS = {
    "wide": ("int64", "float64"),
    "compact": ("int8", "float32"),
}


def write_parquet(path: str, n: int, layout: str) -> None:
    """Write n rows of (true, pred, score) in row groups, in bounded memory."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    label_t, score_t = LAYOUTS[layout]
    rng = np.random.default_rng(20261121)
    schema = pa.schema([("true", label_t), ("pred", label_t), ("score", score_t)])
    tmp = path + ".part"
    with pq.ParquetWriter(tmp, schema) as writer:
        for start in range(0, n, ROW_GROUP):
            m = min(ROW_GROUP, n - start)
            t = (rng.random(m) < 0.3).astype(label_t)
            score = np.clip(0.35 * t + 0.65 * rng.random(m), 0.0, 1.0).astype(score_t)  # P(1)
            pred = (score >= 0.5).astype(label_t)
            writer.write_table(
                pa.table({"true": t, "pred": pred, "score": score}, schema=schema),
                row_group_size=ROW_GROUP,
            )
    os.replace(tmp, path)


def ensure_file(directory: str, n: int, layout: str) -> tuple[str, float]:
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"predictions_{layout}_{n}.parquet")
    if os.path.exists(path):
        try:
            if pq.ParquetFile(path).metadata.num_rows == n:
                return path, 0.0
        except Exception:
            pass
    t0 = time.perf_counter()
    write_parquet(path, n, layout)
    return path, time.perf_counter() - t0


# The two measured paths run in child processes so that each one's peak RSS is its own.
STREAM = textwrap.dedent(
    """
    import json, resource, sys, time
    import numpy as np
    from confmat import io
    import confmat
    path, RUNS = sys.argv[1], int(sys.argv[2])
    # load (or compile) the JIT kernels on a few samples first, as the in-memory child does
    acc = confmat.Accumulator()
    acc.update(np.arange(1 << 17) % 2, np.arange(1 << 17) % 2, scores=np.linspace(0, 1, 1 << 17))
    runs, cpu = [], []
    for _ in range(RUNS + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        cm, report = io.evaluate_file(path, "true", "pred", score_cols="score")
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    h = report.curves
    print(json.dumps({
        "seconds": min(runs[1:]), "first_seconds": runs[0], "rows": report.rows_read,
        "cpu_seconds": min(cpu[1:]),
        "skipped": report.rows_skipped, "batches": report.batches,
        "workers": io._check_workers(None),
        "counts": cm.counts.tolist(), "labels": cm.labels,
        "hist": h.counts.tolist(), "auc": h.roc_auc(),
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }))
    """
)

IN_MEMORY = textwrap.dedent(
    """
    import json, resource, sys, time
    import numpy as np
    import pyarrow.parquet as pq
    import confmat
    from confmat.binned import ScoreHistogram
    path, RUNS = sys.argv[1], int(sys.argv[2])
    t0 = time.perf_counter()
    table = pq.read_table(path, columns=["true", "pred", "score"])
    t, p, s = (table[c].to_numpy() for c in ("true", "pred", "score"))
    del table
    load = time.perf_counter() - t0
    # warm the JIT kernels on a small slice so that compilation is not timed
    confmat.ConfusionMatrix.from_predictions(t[: 1 << 21], p[: 1 << 21])
    ScoreHistogram([0, 1], bins=10_000).update(t[: 1 << 21], s[: 1 << 21])
    runs, cpu = [], []
    for _ in range(RUNS):
        t0, c0 = time.perf_counter(), time.process_time()
        cm = confmat.ConfusionMatrix.from_predictions(t, p)
        h = ScoreHistogram(cm.labels, bins=10_000).update(t, s)
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    # the other in-memory route: one Accumulator.update over the whole columns
    acc_runs = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        acc = confmat.Accumulator()
        acc.update(t, p, scores=s)
        acc_runs.append(time.perf_counter() - t0)
    assert acc.result() == cm and (acc.curves().counts == h.counts).all()
    print(json.dumps({
        "seconds": min(runs), "acc_seconds": min(acc_runs), "load_seconds": load,
        "rows": int(t.shape[0]), "cpu_seconds": min(cpu),
        "counts": cm.counts.tolist(), "labels": cm.labels, "hist": h.counts.tolist(),
        "auc": h.roc_auc(),
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }))
    """
)


def run_child(code: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def dask_part(n: int, chunk: int) -> dict:
    import logging

    import dask.array as da
    from distributed import Client, LocalCluster

    import confmat

    def peak_kb() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=logging.CRITICAL,
    ) as cluster, Client(cluster) as client:
        client.run(lambda: confmat.ConfusionMatrix.from_predictions(
            np.zeros(1 << 21, np.int8), np.zeros(1 << 21, np.int8)))  # JIT warm-up
        base = client.run(peak_kb)
        rng = da.random.default_rng(7)
        t = rng.integers(0, N_CLASSES, size=n, chunks=chunk, dtype=np.int8)
        right = rng.random(size=n, chunks=chunk) < 0.8
        other = rng.integers(0, N_CLASSES, size=n, chunks=chunk, dtype=np.int8)
        p = da.where(right, t, other)
        t0 = time.perf_counter()
        cm = confmat.ConfusionMatrix.from_predictions(t, p)
        sec = time.perf_counter() - t0
        peaks = client.run(peak_kb)
    return {
        "seconds": sec, "n": cm.n, "accuracy": cm.metric("accuracy"),
        "labels": cm.labels, "chunks": -(-n // chunk),
        "worker_peak_mb": [v / 1024 for v in peaks.values()],
        "worker_base_mb": [v / 1024 for v in base.values()],
    }


def file_part(directory: str, n: int, layout: str, number: int, runs: int) -> None:
    path, gen_sec = ensure_file(directory, n, layout)
    size_mb = os.path.getsize(path) / 2**20
    label_t, score_t = LAYOUTS[layout]
    print(f"\n[{number}] Parquet file, {layout} layout: {path}")
    print(f"    {n:,} rows (binary true {label_t}, pred {label_t}, score {score_t}), row groups of "
          f"{ROW_GROUP:,}, {size_mb:,.0f} MB on disk; "
          + (f"written in {gen_sec:.1f} s" if gen_sec else "reused"))
    before_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    stream = run_child(STREAM, path, str(runs))
    children_peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    mem = run_child(IN_MEMORY, path, str(runs))

    same = stream["counts"] == mem["counts"] and stream["labels"] == mem["labels"]
    same_hist = stream["hist"] == mem["hist"]
    s_tp = stream["rows"] / stream["seconds"]
    best_mem = min(mem["seconds"], mem["acc_seconds"])  # the faster in-memory route
    m_tp = mem["rows"] / best_mem
    m_tp_load = mem["rows"] / (best_mem + mem["load_seconds"])
    peak = stream["maxrss_kb"] / 1024
    children = (
        f"RUSAGE_CHILDREN {children_peak_mb:,.0f} MB" if children_peak_mb > before_mb
        else "RUSAGE_CHILDREN: an earlier child was larger"
    )
    print("    end to end, streaming (confmat.io.evaluate_file: matrix + score histogram)")
    print(f"      rows evaluated {stream['rows']:,}, skipped {stream['skipped']}, "
          f"batches {stream['batches']}, row groups read on {stream['workers']} threads")
    print(f"      time {stream['seconds']:.2f} s (best of runs 2 to {runs + 1}; run 1 took "
          f"{stream['first_seconds']:.2f} s)  ->  {s_tp / 1e6:,.1f} M rows/s")
    print(f"      peak RSS of the evaluating process {peak:,.0f} MB ({children})   "
          f"target < 500 MB: {'PASS' if peak < 500 else 'FAIL'}")
    print("    in-memory path on the same data once loaded")
    print(f"      load whole columns {mem['load_seconds']:.2f} s (not timed below), "
          f"peak RSS {mem['maxrss_kb'] / 1024:,.0f} MB")
    print(f"      from_predictions + ScoreHistogram.update {mem['seconds']:.2f} s (best of {runs})  ->  "
          f"{mem['rows'] / mem['seconds'] / 1e6:,.1f} M rows/s")
    print(f"      Accumulator.update over the whole columns {mem['acc_seconds']:.2f} s (best of "
          f"{runs})  ->  {mem['rows'] / mem['acc_seconds'] / 1e6:,.1f} M rows/s; the faster "
          "route is the reference below")
    print(f"      identical confusion matrix: {same}; identical score histogram: {same_hist} "
          f"(binned ROC AUC {stream['auc']:.6f} vs {mem['auc']:.6f})")
    ratio = s_tp / m_tp
    print(f"    throughput ratio streaming / in-memory (loaded) = {ratio:.2f}   target >= 0.5: "
          f"{'PASS' if ratio >= 0.5 else 'FAIL'}   (with run 1: "
          f"{stream['rows'] / stream['first_seconds'] / m_tp:.2f})")
    print(f"    throughput ratio streaming / in-memory (load + compute) = {s_tp / m_tp_load:.2f}")
    print(f"    CPU time (all threads): streaming {stream['cpu_seconds']:.2f} s, in-memory "
          f"{mem['cpu_seconds']:.2f} s; ratio of rows per CPU-second = "
          f"{mem['cpu_seconds'] / stream['cpu_seconds']:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e8)
    ap.add_argument("--dask-rows", type=float, default=1e9)
    ap.add_argument("--dask-chunk", type=float, default=2e7)
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each path (best is kept)")
    ap.add_argument("--dir", default=os.environ.get("CONFMAT_BENCH_DIR", "/tmp/confmat_bench"))
    args = ap.parse_args()
    n = int(args.rows)
    print(f"confmat scale benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")

    for i, layout in enumerate(LAYOUTS):
        file_part(args.dir, n, layout, i + 1, args.runs)

    dn = int(args.dask_rows)
    print(f"\n[3] Dask LocalCluster (2 worker processes x 1 thread): {dn:,} labels generated "
          f"lazily in chunks of {int(args.dask_chunk):,}")
    d = dask_part(dn, int(args.dask_chunk))
    print(f"    {d['chunks']} partitions, time {d['seconds']:.1f} s  ->  "
          f"{dn / d['seconds'] / 1e6:,.1f} M labels/s (generation included)")
    print(f"    counted n = {d['n']:,} (== {dn:,}: {d['n'] == dn}), labels {d['labels']}, "
          f"accuracy {d['accuracy']:.5f} (expected about 0.82)")
    print("    workers' peak RSS: "
          + ", ".join(f"{v:,.0f} MB" for v in d["worker_peak_mb"])
          + "  (after start-up: " + ", ".join(f"{v:,.0f} MB" for v in d["worker_base_mb"]) + ")")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
