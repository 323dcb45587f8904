"""What the check of ``.gz`` text files costs (confmat.inputs.gzip_check): ``io.evaluate_file``
of a ``.csv.gz`` with the check and with it patched out, each in a fresh process, best of
``--runs`` interleaved rounds, wall and CPU time (all threads of the process); and the
inflaters alone on the same file (ISA-L's when installed, zlib-ng's when installed, Python's
zlib). The check must cost little wall time where DuckDB leaves a core idle.

Usage: python benchmarks/bench_gzip_check.py [--rows 15e6] [--runs 3] [--dir DIR]
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

CHILD = r"""
import sys, time
import confmat.io as cio
import confmat.inputs.readers as readers
if sys.argv[1] == "off":
    readers.gzip_checks = lambda name, files: []
wall, cpu = time.perf_counter(), time.process_time()
cm, _ = cio.evaluate_file(sys.argv[2], "y", "yhat")
print(time.perf_counter() - wall, time.process_time() - cpu, int(cm.counts.sum()))
"""


def write_file(path: str, rows: int) -> None:
    """Two text labels (four names, 70 % agreement) and a score with nine decimals."""
    rng = np.random.default_rng(1)
    names = np.array(["ant", "bee", "cat", "dog"])
    t = rng.integers(0, 4, rows)
    p = np.where(rng.random(rows) < 0.7, t, rng.integers(0, 4, rows))
    s = rng.random(rows)
    with gzip.open(path, "wt", compresslevel=6) as fh:
        fh.write("y,yhat,s\n")
        for i in range(0, rows, 1_000_000):
            j = slice(i, i + 1_000_000)
            fh.write("\n".join(f"{a},{b},{c:.9f}" for a, b, c in
                               zip(names[t[j]], names[p[j]], s[j], strict=True)) + "\n")


def inflate_seconds(module: object, path: str) -> float:
    start = time.perf_counter()
    member = module.decompressobj(16 + 15)  # type: ignore[attr-defined]
    with open(path, "rb") as fh:
        while data := fh.read(1 << 18):
            while data:
                member.decompress(data, 1 << 18)
                data = member.unconsumed_tail
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=15e6)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "confmat_bench"))
    args = ap.parse_args()
    rows = int(args.rows)
    os.makedirs(args.dir, exist_ok=True)
    path = os.path.join(args.dir, f"labels_{rows}.csv.gz")
    if not os.path.exists(path):
        write_file(path, rows)
    from confmat.inputs.gzip_check import inflate_module

    print(f"confmat gzip check benchmark ({os.cpu_count()} CPUs; load average at start "
          f"{os.getloadavg()[0]:.2f}); {rows:,} rows, {os.path.getsize(path) / 1e6:.0f} MB; "
          f"the check's inflater: {inflate_module().__name__}")
    best = {"off": [np.inf, np.inf], "on": [np.inf, np.inf]}
    for _ in range(args.runs):
        for mode in ("off", "on"):
            out = subprocess.run([sys.executable, "-c", CHILD, mode, path], check=True,
                                 capture_output=True, text=True).stdout.split()
            assert int(out[2]) == rows
            best[mode] = [min(best[mode][0], float(out[0])), min(best[mode][1], float(out[1]))]
    for mode, what in (("off", "without the check"), ("on", "with the check")):
        print(f"    evaluate_file {what:<18} wall {best[mode][0]:6.2f} s   CPU {best[mode][1]:6.2f} s")
    print(f"    with / without: wall {best['on'][0] / best['off'][0]:.3f}x, "
          f"CPU {best['on'][1] / best['off'][1]:.3f}x")
    import zlib

    inflaters = [("zlib", zlib)]
    for name, module in (("isal", "isal.isal_zlib"), ("zlib-ng", "zlib_ng.zlib_ng")):
        try:
            inflaters.append((name, __import__(module, fromlist=["x"])))
        except ImportError:
            print(f"    ({name} not installed)")
    for name, module in inflaters:
        print(f"    inflating the file alone, {name:<8} {inflate_seconds(module, path):6.2f} s")


if __name__ == "__main__":
    main()
