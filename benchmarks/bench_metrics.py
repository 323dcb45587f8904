"""Every registry metric against PyCM computing its catalogue, and the command line's start-up,
in one run (issue #14 item 9; issue #3's targets kept).

Targets:
  [1] all registry metrics of a K = 10 table at least as fast as PyCM computing its catalogue
      (``pycm.ConfusionMatrix(matrix=...)``, which computes every statistic when it is built);
      issue #3: K = 10 under 5 ms, K = 1000 under 0.5 s. Each timing builds a fresh
      ``ConfusionMatrix`` (a matrix caches its statistics, so a second ``cm.metrics()`` on the
      same object would time the cache) and calls ``cm.metrics()``; values are checked
      against PyCM's on the same table before any figure is printed.
  [2] ``confmat matrix "[[61,2],[8,58]]"`` (the terminal summary view, with intervals) in
      at most 0.3 s wall, with the anchors of the same run: ``python -c pass`` (the
      interpreter's own start-up), ``python -c "import numpy"``, and PyCM printing its whole
      catalogue for the same table. Byte-code caching is on for these processes (as after
      ``pip install``); a first run writes the caches. ``python -X importtime`` then shows
      where the start-up goes.

The best of ``--rounds`` interleaved rounds counts (40x as many single calls for K = 10, 4x for
K = 100: on a shared machine a short call needs many tries to run undisturbed). In-process timings are CPU time of the
thread (``time.thread_time``); the processes of [2] are timed both in wall time and in CPU
time (user + system, from ``getrusage``), which on an idle machine is the wall time and on a
loaded one leaves out the waiting for a core. The machine's load average is printed: on a
shared machine every wall figure, the anchors included, grows with it.

Usage: python benchmarks/bench_metrics.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

import confmat
from confmat.metrics import list_metrics

MATRIX = "[[61,2],[8,58]]"
PYCM_PRINT = ("import pycm; print(pycm.ConfusionMatrix(matrix={0: {0: 61, 1: 2}, "
              "1: {0: 8, 1: 58}}))")


def best_of(fns: dict[str, Callable[[], object]], n_rounds: int, inner: int = 1,
            clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Best time per call of each function over interleaved rounds (after a warm-up call)."""
    for fn in fns.values():
        fn()
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(n_rounds):
        for name, fn in fns.items():
            t0 = clock()
            for _ in range(inner):
                fn()
            best[name] = min(best[name], (clock() - t0) / inner)
    return best


def children_cpu() -> float:
    """User + system CPU seconds of the finished child processes so far."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def check_against_pycm(table: np.ndarray) -> int:
    """Compare every registry metric that names a PyCM key with PyCM on ``table``."""
    import pycm

    ref = pycm.ConfusionMatrix(matrix={i: {j: int(table[i, j]) for j in range(len(table))}
                                       for i in range(len(table))})
    values = confmat.ConfusionMatrix(table).metrics(zero_division=0)
    checked = 0
    for spec in list_metrics():
        key = spec.pycm
        if not key:
            continue
        if spec.kind == "overall" and key in ref.overall_stat:
            want = ref.overall_stat[key]
            if isinstance(want, int | float) and np.isfinite(want):
                assert abs(float(values[spec.name]) - want) <= 1e-6 * max(1.0, abs(want)), \
                    (spec.name, values[spec.name], want)
                checked += 1
        elif spec.kind == "per_class" and key in ref.class_stat:
            want = [ref.class_stat[key][i] for i in range(len(table))]
            if all(isinstance(w, int | float) and np.isfinite(w) for w in want):
                assert np.allclose(values[spec.name], want, rtol=1e-6, atol=1e-9), spec.name
                checked += 1
    return checked


def section_registry(n_rounds: int) -> None:
    import pycm

    n_metrics = len(list_metrics())
    print(f"[1] all {n_metrics} registry metrics of a fresh ConfusionMatrix, against PyCM "
          "building its catalogue (CPU time of this thread, best of the rounds)")
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        checked = check_against_pycm(rng.integers(0, 100, (10, 10)))
        print(f"    values equal to PyCM's on the K = 10 table: {checked} metrics checked")
        confmat.ConfusionMatrix([[61, 2], [8, 58]]).metrics()  # first use: imports, caches
        for k, limit, rounds in ((10, 5e-3, 40 * n_rounds), (100, None, 4 * n_rounds),
                                 (1000, 0.5, max(2, n_rounds // 3))):
            table = rng.integers(0, 100, (k, k))
            mat = table.tolist()
            fns: dict[str, Callable[[], object]] = {
                "all": lambda t=table: confmat.ConfusionMatrix(t).metrics(),
                "kappa": lambda t=table: confmat.ConfusionMatrix(t).metric("kappa"),
            }
            if k <= 100:
                fns["pycm"] = lambda m=mat: pycm.ConfusionMatrix(matrix=m)
            t = best_of(fns, rounds, clock=time.thread_time)
            line = (f"    K={k:5d}: confmat {t['all'] * 1e3:8.2f} ms | one metric (kappa) "
                    f"{t['kappa'] * 1e3:6.3f} ms")
            if "pycm" in t:
                line += (f" | PyCM catalogue {t['pycm'] * 1e3:8.2f} ms | confmat / PyCM "
                         f"{t['all'] / t['pycm']:5.2f}")
            print(line)
            if k == 10:
                print(f"      target: K = 10 at least as fast as PyCM (ratio <= 1): "
                      f"{verdict(t['all'] <= t['pycm'])}")
            if limit is not None:
                print(f"      target (issue #3): K = {k} under {limit * 1e3:g} ms: "
                      f"{verdict(t['all'] < limit)}")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(COLUMNS="80", PYTHONWARNINGS="ignore")
    return env


def _wall(args: list[str], env: dict[str, str]) -> Callable[[], None]:
    def run() -> None:
        subprocess.run([sys.executable, *args], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return run


def import_profile(env: dict[str, str]) -> dict[str, float]:
    """Self time of the imports of ``confmat matrix`` by top-level package (python -X importtime)."""
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "confmat", "matrix",
                          MATRIX], env=env, capture_output=True, text=True, check=True)
    total: dict[str, float] = {}
    for line in res.stderr.splitlines():
        parts = line.split("|")
        if not line.startswith("import time:") or len(parts) < 3 or "self [us]" in line:
            continue
        top = parts[2].strip().split(".")[0]
        total[top] = total.get(top, 0.0) + int(parts[0].split(":")[1]) / 1e6
    return total


def section_cli(n_rounds: int) -> None:
    env = _env()
    print(f"[2] confmat matrix \"{MATRIX}\" (terminal summary with intervals), wall time of "
          "a fresh process")
    fns = {
        "python -c pass": _wall(["-c", "pass"], env),
        "python -c 'import numpy'": _wall(["-c", "import numpy"], env),
        "PyCM printing its catalogue": _wall(["-c", PYCM_PRINT], env),
        "confmat matrix": _wall(["-m", "confmat", "matrix", MATRIX], env),
        "confmat matrix --no-intervals": _wall(["-m", "confmat", "matrix", MATRIX,
                                                "--no-intervals"], env),
        "confmat matrix --all": _wall(["-m", "confmat", "matrix", MATRIX, "--all"], env),
    }
    t = best_of(fns, n_rounds)
    cpu = best_of(fns, n_rounds, clock=children_cpu)
    base = t["python -c pass"]
    print(f"    {'':32s}   wall      CPU (user + system)")
    for name, v in t.items():
        extra = "" if name == "python -c pass" else (
            f"   wall {v / base:4.1f}x python -c pass, {v - base:6.3f} s above it")
        print(f"    {name:32s} {v:6.3f} s  {cpu[name]:6.3f} s{extra}")
    prof = import_profile(env)
    top = sorted(prof.items(), key=lambda kv: -kv[1])[:6]
    print("    imports (python -X importtime, self time by package): "
          + ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in top)
          + f"; scipy imported: {'yes' if 'scipy' in prof else 'no'}, "
            f"rich imported: {'yes' if 'rich' in prof else 'no'}")
    cm_t, cm_c = t["confmat matrix"], cpu["confmat matrix"]
    print(f"      target: confmat matrix <= 0.3 s wall: {verdict(cm_t <= 0.3)} ({cm_t:.3f} s; "
          f"{cm_t / t['PyCM printing its catalogue']:.2f}x PyCM printing its catalogue)")
    print(f"      the same on CPU time (what the wall is on an idle machine; a loaded one adds "
          f"waiting for a core): {verdict(cm_c <= 0.3)} ({cm_c:.3f} s; "
          f"{cm_c / cpu['PyCM printing its catalogue']:.2f}x PyCM printing its catalogue)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print(f"load average {', '.join(f'{v:.2f}' for v in os.getloadavg())} on "
          f"{os.cpu_count()} cores")
    section_registry(args.rounds)
    section_cli(args.rounds)


if __name__ == "__main__":
    main()
