"""ROC analysis: confmat against pROC (Robin et al. 2011) through Rscript, side by side.

R's time is measured inside R with ``system.time`` around the calls (building the ``roc``
objects included, R's start-up and the data loading excluded); confmat's is the wall time of
the Python call on the same data. Each figure is the best of ``--rounds`` runs for confmat
(pROC runs once: it is the slow side). Issue #15 targets:

  [1] stratified bootstrap ``ci.se`` at 100 specificities, 2000 resamples, n = 1e5: >= 50x;
  [2] ``roc.test(method = "bootstrap")``, 2000 resamples, n = 1e5: >= 50x;
  [3] paired DeLong test, n = 1e6: >= 10x.

At the full sizes pROC needs several minutes per bootstrap; ``--resamples`` scales the number
of resamples down for both tools equally (the cost of both is linear in it).

Usage: python benchmarks/bench_roc.py [--n 1e5] [--n-delong 1e6] [--resamples 2000]
                                      [--rounds 3]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from confmat.inference.roc_ci import roc_ci
from confmat.inference.roc_test import roc_test

R_CODE = r"""
suppressMessages(library(pROC))
rd <- function(f, n) readBin(file.path(dir, f), "double", n = n, size = 8, endian = "little")
y <- rd("y.bin", n); a <- rd("a.bin", n); b <- rd("b.bin", n)
yd <- rd("yd.bin", nd); ad <- rd("ad.bin", nd); bd <- rd("bd.bin", nd)
sp <- seq(0, 1, length.out = 100)
set.seed(1)
t1 <- system.time({
  r <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
  ci.se(r, specificities = sp, boot.n = B, boot.stratified = TRUE)
})[["elapsed"]]
t2 <- system.time({
  r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
  roc.test(r1, r2, method = "bootstrap", boot.n = B)
})[["elapsed"]]
t3 <- system.time({
  d1 <- roc(yd, ad, levels = c(0, 1), direction = "<", quiet = TRUE)
  d2 <- roc(yd, bd, levels = c(0, 1), direction = "<", quiet = TRUE)
  z <- roc.test(d1, d2, method = "delong")
})[["elapsed"]]
cat(sprintf("%.17g %.17g %.17g %.17g\n", t1, t2, t3, z$statistic))
"""


def best(func, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        func()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--n-delong", type=float, default=1e6)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    n, nd, b = int(args.n), int(args.n_delong), args.resamples
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    a = rng.normal(size=n) + y
    bb = 0.5 * a + rng.normal(size=n) + 0.5 * y
    yd = rng.integers(0, 2, nd)
    ad = rng.normal(size=nd) + yd
    bd = 0.5 * ad + rng.normal(size=nd) + 0.5 * yd
    with tempfile.TemporaryDirectory() as tmp:
        for name, arr in {"y": y, "a": a, "b": bb, "yd": yd, "ad": ad, "bd": bd}.items():
            np.ascontiguousarray(arr, dtype="<f8").tofile(Path(tmp) / f"{name}.bin")
        code = f'dir <- "{tmp}"; n <- {n}; nd <- {nd}; B <- {b}\n' + R_CODE
        res = subprocess.run(["Rscript", "-e", code], capture_output=True, text=True,
                             check=True)
    r_ci, r_test, r_delong, r_z = (float(v) for v in res.stdout.split())
    sp = np.linspace(0, 1, 100)
    # warm the compiled kernels once (numba compiles on first use, then caches on disk)
    roc_ci(y[:5000], a[:5000], specificities=sp, n_resamples=100, random_state=0)
    c_ci = best(lambda: roc_ci(y, a, specificities=sp, n_resamples=b, random_state=1),
                args.rounds)
    c_test = best(lambda: roc_test(y, a, bb, method="bootstrap", n_resamples=b,
                                   random_state=1), args.rounds)
    z = roc_test(yd, ad, bd).statistic
    c_delong = best(lambda: roc_test(yd, ad, bd), args.rounds)
    assert abs(z - r_z) <= 1e-9 * abs(r_z), (z, r_z)
    print(f"n = {n:.0e}, resamples = {b}, DeLong n = {nd:.0e}; pROC "
          "time inside R (roc() included), confmat best of "
          f"{args.rounds}; DeLong z equal to 1e-9 ({z:.6f})")
    print(f"{'task':<44}{'pROC s':>10}{'confmat s':>11}{'speed-up':>10}  target")
    for task, r_t, c_t, target in [
        ("[1] ci.se, 100 specificities, stratified", r_ci, c_ci, 50),
        ("[2] roc.test bootstrap (paired, stratified)", r_test, c_test, 50),
        ("[3] roc.test DeLong (paired)", r_delong, c_delong, 10),
    ]:
        print(f"{task:<44}{r_t:>10.3f}{c_t:>11.3f}{r_t / c_t:>9.1f}x  >= {target}x")


if __name__ == "__main__":
    main()
