"""Evaluation by group: confmat against fairlearn's MetricFrame, and the grouped count against
the plain count (issue #16), in one run.

Targets of issue #16:
  [1] 1000 groups, the eight metrics (recall, precision, accuracy, selection rate, false
      positive rate, balanced accuracy, F1, ROC AUC): >= 100x fairlearn ``MetricFrame``.
      MetricFrame calls scikit-learn once per group and metric (about a minute at 1e6 rows), so
      it runs at ``--n-fair`` rows (1e6 by default) and confmat at that size and at ``--n``;
  [2] K = 10, 1000 groups, ``--n`` rows: the G x K x K count within 1.5x of counting the plain
      K x K matrix.
  [3] ROC AUC and average precision by group from score histograms (a file counted with
      ``group_cols`` and ``bins``): the stacked computation against the former loop over the
      groups' histograms, G = 10, 1000, 10000.
Values are checked against fairlearn (to 1e-12) and the stack's sum against the plain count
before any figure is printed. The best of ``--rounds`` interleaved rounds counts for confmat;
fairlearn runs once.

Usage: python benchmarks/bench_groups.py [--n 1e7] [--n-fair 1e6] [--groups 1000]
                                         [--rounds 3] [--bins 256]
                                         [--only metrics|count|binned]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from functools import partial

import numpy as np

from confmat.counting.grouped import grouped_counts
from confmat.counting.kernels import confusion_counts
from confmat.groups import by_group
from confmat.inputs.grouping import encode_groups

LABEL_METRICS = ("recall", "precision", "accuracy", "selection_rate", "fpr",
                 "balanced_accuracy", "f1")


def best_of(fns: dict[str, Callable[[], object]], n_rounds: int) -> dict[str, float]:
    """Best wall time of each function over interleaved rounds (after a warm-up call)."""
    for fn in fns.values():
        fn()
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(n_rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def data(n: int, groups: int, k: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    s = rng.random(n) + 0.3 * (y == 1)
    return y, p, g, s


def confmat_eight(y: np.ndarray, p: np.ndarray, g: np.ndarray, s: np.ndarray) -> dict:
    ev = by_group(y, p, g, scores=s, pos_label=1)
    out = {m: ev.metric(m, zero_division=0) for m in LABEL_METRICS}
    out["roc_auc"] = ev.metric("roc_auc")
    return out


def fairlearn_eight(y: np.ndarray, p: np.ndarray, g: np.ndarray, s: np.ndarray) -> dict:
    import sklearn.metrics as skm
    from fairlearn.metrics import MetricFrame, false_positive_rate, selection_rate

    funcs = {
        "recall": partial(skm.recall_score, zero_division=0),
        "precision": partial(skm.precision_score, zero_division=0),
        "accuracy": skm.accuracy_score,
        "selection_rate": selection_rate,
        "fpr": false_positive_rate,
        "balanced_accuracy": skm.balanced_accuracy_score,
        "f1": partial(skm.f1_score, zero_division=0),
    }
    labels = MetricFrame(metrics=funcs, y_true=y, y_pred=p, sensitive_features=g).by_group
    auc = MetricFrame(metrics={"roc_auc": skm.roc_auc_score}, y_true=y, y_pred=s,
                      sensitive_features=g).by_group
    out = {m: labels[m].to_numpy(dtype=float) for m in funcs}
    out["roc_auc"] = auc["roc_auc"].to_numpy(dtype=float)
    return out


def section_metrics(n: int, n_fair: int, groups: int, n_rounds: int) -> None:
    print(f"[1] eight metrics by group, {groups} groups, binary labels")
    y, p, g, s = data(n_fair, groups, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        ref = fairlearn_eight(y, p, g, s)
        t_fair = time.perf_counter() - t0
        got = confmat_eight(y, p, g, s)
        worst = max(float(np.max(np.abs(got[m] - ref[m]))) for m in ref)
        assert worst <= 1e-12, f"confmat and fairlearn differ by {worst}"
        t_small = best_of({"c": lambda: confmat_eight(y, p, g, s)}, n_rounds)["c"]
        y, p, g, s = data(n, groups, 2, seed=1)
        t_big = best_of({"c": lambda: confmat_eight(y, p, g, s)}, n_rounds)["c"]
    print(f"    values equal to fairlearn: max |difference| = {worst:.1e}")
    print(f"    fairlearn MetricFrame, {n_fair:.0e} rows: {t_fair:9.2f} s")
    print(f"    confmat by_group,      {n_fair:.0e} rows: {t_small:9.3f} s   "
          f"speed-up {t_fair / t_small:7.0f}x")
    print(f"    confmat by_group,      {n:.0e} rows: {t_big:9.3f} s   "
          f"speed-up {t_fair * n / n_fair / t_big:7.0f}x against MetricFrame scaled "
          f"linearly to {n:.0e} rows (not run: about {t_fair * n / n_fair / 60:.0f} min)")


def section_count(n: int, groups: int, n_rounds: int) -> None:
    print(f"[2] the count: K = 10, {groups} groups, {n:.0e} integer rows")
    y, p, g, _ = data(n, groups, 10, seed=2)
    codes = encode_groups(g, n)
    stack = grouped_counts(codes.codes, codes.n_groups, y, p).stack
    plain = confusion_counts(y, p)[0]
    assert np.array_equal(stack.sum(axis=0), plain), "grouped and plain counts differ"
    times = best_of({
        "plain": lambda: confusion_counts(y, p),
        "grouped": lambda: grouped_counts(codes.codes, codes.n_groups, y, p),
        "grouped+codes": lambda: grouped_counts(encode_groups(g, n).codes, groups, y, p),
    }, n_rounds)
    print(f"    plain K x K count (confusion_counts):   {times['plain'] * 1e3:8.1f} ms")
    print(f"    G x K x K count (grouped_counts):       {times['grouped'] * 1e3:8.1f} ms   "
          f"{times['grouped'] / times['plain']:.2f}x the plain count")
    print(f"    G x K x K count, groups coded too:      {times['grouped+codes'] * 1e3:8.1f} ms   "
          f"{times['grouped+codes'] / times['plain']:.2f}x")


def section_binned(bins: int, n_rounds: int) -> None:
    from confmat.binned import ScoreHistogram
    from confmat.groups.binned_scores import BinnedGroupedScores

    print(f"[3] ROC AUC and average precision by group from score histograms, {bins} bins")
    rng = np.random.default_rng(3)
    for groups in (10, 1000, 10_000):
        template = ScoreHistogram([0, 1], bins=bins)
        hists = []
        for _ in range(groups):
            h = ScoreHistogram([0, 1], bins=bins)
            h.counts = rng.integers(0, 50, template.counts.shape)  # counts of a file's GROUP BY
            hists.append(h)
        scores = BinnedGroupedScores(hists)

        def loop(hists: list = hists) -> tuple[np.ndarray, np.ndarray]:  # one by one, as before
            return (np.array([h.roc_auc() for h in hists]),
                    np.array([h.average_precision() for h in hists]))

        def stacked(scores: BinnedGroupedScores = scores) -> tuple[np.ndarray, np.ndarray]:
            scores._stack = None  # the stack is built in each round, as on first use
            return scores.values("roc_auc"), scores.values("average_precision")

        a, b = loop(), stacked()
        worst = max(float(np.max(np.abs(x - y))) for x, y in zip(a, b, strict=True))
        assert worst <= 1e-12, f"stacked and per-histogram values differ by {worst}"
        times = best_of({"loop": loop, "stacked": stacked}, n_rounds)
        print(f"    G = {groups:6d}: loop {times['loop'] * 1e3:9.2f} ms, stacked "
              f"{times['stacked'] * 1e3:8.2f} ms, ratio loop / stacked "
              f"{times['loop'] / times['stacked']:6.1f}x (max |difference| {worst:.1e})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--n-fair", type=float, default=1e6)
    ap.add_argument("--groups", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bins", type=int, default=256)
    ap.add_argument("--only", choices=["metrics", "count", "binned"], default=None,
                    help="run one section only")
    args = ap.parse_args()
    if args.only in (None, "metrics"):
        section_metrics(int(args.n), int(args.n_fair), args.groups, args.rounds)
    if args.only in (None, "count"):
        section_count(int(args.n), args.groups, max(args.rounds, 5))
    if args.only in (None, "binned"):
        section_binned(args.bins, args.rounds)


if __name__ == "__main__":
    main()
