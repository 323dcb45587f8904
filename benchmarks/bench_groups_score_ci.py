"""Intervals of ROC AUC disparities by group (issue #16): the stratified bootstrap of every
group at once, at ``--n`` rows, ``--groups`` groups and ``--resamples`` replicates.

Before any time is printed, the first replicates of a few groups and of the pooled samples are
checked against scikit-learn's ``roc_auc_score`` on the explicit resamples (rebuilt from the
documented draws of ``confmat.groups.score_bootstrap``). Times are the best of ``--rounds``
runs of ``ev.difference("roc_auc", ci=True)`` (``between_groups``) and of ``method=
"to_overall"`` (every replicate also pools all groups' samples); the draws alone
(``rng.random`` of the same numbers) are timed too, as the floor.

Usage: python benchmarks/bench_groups_score_ci.py [--n 1e6] [--groups 1000]
                                                  [--resamples 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from confmat.groups import by_group


def check(ev, y, s, g, n_check: int = 2) -> None:
    """The first replicates of three groups and of all samples against scikit-learn."""
    keys = ev.groups
    strata = [(np.flatnonzero((g == k) & (y == 1)), np.flatnonzero((g == k) & (y == 0)))
              for k in keys]
    u = np.random.default_rng(7).random((n_check, y.shape[0]))
    vals, pooled = ev.scores.replicates("roc_auc", n_check, np.random.default_rng(7), True)
    for r in range(n_check):
        col, picks = 0, []
        for pos, neg in strata:
            for members in (pos, neg):
                k = np.minimum((u[r, col:col + members.size] * members.size).astype(np.int64),
                               members.size - 1)
                picks.append(members[k])
                col += members.size
        for i in (0, len(keys) // 2, len(keys) - 1):
            idx = np.concatenate(picks[2 * i:2 * i + 2])
            assert abs(vals[r, i] - roc_auc_score(y[idx], s[idx])) < 1e-12
        idx = np.concatenate(picks)
        assert abs(pooled[r] - roc_auc_score(y[idx], s[idx])) < 1e-12


def draws(n: int, n_resamples: int) -> None:
    """The uniform numbers alone, one replicate's row at a time."""
    rng, row = np.random.default_rng(1), np.empty(n)
    for _ in range(n_resamples):
        rng.random(out=row)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--groups", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    n = int(args.n)
    rng = np.random.default_rng(0)
    g = rng.integers(0, args.groups, n)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(size=n) + (1.0 + 0.5 * (g % 3)) * y
    ev = by_group(y, y, g, scores=s)
    check(ev, y, s, g)
    ev.difference("roc_auc", ci=True, n_resamples=100, random_state=0)  # compile the kernel
    runs = {
        "between_groups": lambda: ev.difference("roc_auc", ci=True, random_state=1,
                                                n_resamples=args.resamples),
        "to_overall": lambda: ev.difference("roc_auc", method="to_overall", ci=True,
                                            random_state=1, n_resamples=args.resamples),
        "draws only": lambda: draws(n, args.resamples),
    }
    best = {k: float("inf") for k in runs}
    for _ in range(args.rounds):
        for k, fn in runs.items():
            t = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - t)
    print(f"{n:.0e} rows, {args.groups} groups, {args.resamples} resamples "
          f"(best of {args.rounds}):")
    for k, v in best.items():
        print(f"  {k:15s} {v:7.2f} s  ({v / (n * args.resamples) * 1e9:.1f} ns per draw)")


if __name__ == "__main__":
    main()
