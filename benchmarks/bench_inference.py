"""Speed of confmat.inference, printed as figures and ratios measured in the same run.

1. 10,000 multinomial resamples of a K = 10 matrix with a metric evaluated on all of them
   (target: under 1 s).
2. The same bootstrap against a sample-level bootstrap with scikit-learn at N = 10^6 (target:
   at least 100x). The scikit-learn loop is measured on a few resamples and extrapolated to
   10,000 linearly (each resample costs the same); the extrapolation is printed as such.
3. The vectorised sample-level AUC bootstrap against a scikit-learn roc_auc_score loop.
4. Fast DeLong (midranks) against the O(m n) placement-value kernel.
5. A comparison of 5 models on 10^6 string labels of 10 classes (``confmat.compare`` with
   accuracy, McNemar's test of every pair; ``build_comparison`` without intervals, which adds
   each model's report), against 5 x ``pandas.factorize`` of both columns + ``np.bincount``
   (what counting 5 tables from strings costs at the least) in the same rounds, interleaved,
   best of ``--rounds``; one scikit-learn ``confusion_matrix`` of the same columns is timed
   once for scale. The truth is encoded once for the whole comparison (an ``EncodedTruth``
   handed to the counting kernels, the intervals and the tests).

Run: python benchmarks/bench_inference.py [--only comparison] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.metrics import f1_score, matthews_corrcoef, roc_auc_score

from confmat import ConfusionMatrix
from confmat.inference import intervals as iv
from confmat.inference import scores as sc

B = 10_000
K = 10
N = 1_000_000


def best_of(fn, repeat=3):
    best = np.inf
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def comparison_section(rounds: int) -> None:
    """Section 5: a comparison of 5 models on 10^6 string labels against pandas counting."""
    import pandas as pd
    from sklearn.metrics import confusion_matrix

    import confmat
    from confmat.report import build_comparison

    n, k, m = 1_000_000, 10, 5
    rng = np.random.default_rng(5)
    names = np.array([f"class_{i:02d}" for i in range(k)], dtype=object)
    codes = rng.integers(0, k, n)
    y = names[codes]  # Python str objects, as a CSV read by pandas holds them
    models = {f"m{j}": names[np.where(rng.random(n) < 0.7 + 0.05 * j, codes,
                                      rng.integers(0, k, n))] for j in range(m)}

    def anchor() -> None:
        for p in models.values():
            ct, ut = pd.factorize(y)
            cp, up = pd.factorize(p)
            np.bincount(ct * len(up) + cp, minlength=len(ut) * len(up))

    fns = {
        "confmat.compare(accuracy)": lambda: confmat.compare(models, y, ["accuracy"]),
        "build_comparison(intervals=False)": lambda: build_comparison(
            y, models, intervals=False, metrics=["accuracy"]),
        f"anchor: {m} x pandas.factorize + bincount": anchor,
    }
    best = dict.fromkeys(fns, np.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):  # interleaved: a busy moment of the machine hits every entry
            for name, fn in fns.items():
                t = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - t)
    t_sk, _ = best_of(lambda: confusion_matrix(y, models["m0"]), repeat=1)
    base = best[f"anchor: {m} x pandas.factorize + bincount"]
    print(f"comparison of {m} models, N = {n:,} string labels, K = {k} (best of {rounds} "
          f"interleaved rounds; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} "
          "cores):")
    best["one sklearn.metrics.confusion_matrix (timed once)"] = t_sk
    for name, t in best.items():
        print(f"  {name:<50} {t:8.3f} s   {t / base:6.1f}x the anchor")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["comparison"], default=None,
                    help="run one section only")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds of the comparison section")
    args = ap.parse_args()
    if args.only == "comparison":
        comparison_section(args.rounds)
        return
    main_sections()
    comparison_section(args.rounds)


def main_sections() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, K, N)
    p = np.where(rng.random(N) < 0.8, y, rng.integers(0, K, N))

    t_count, cm = best_of(lambda: ConfusionMatrix.from_predictions(y, p), repeat=1)
    table = cm._table
    print(f"K = {K}, N = {N:,}, B = {B:,} resamples")
    print(f"counting the matrix once (N = {N:,}):                {t_count:8.3f} s")

    rows = []
    for name, avg in (("mcc", None), ("f1", "macro"), ("kappa", None)):
        t, vals = best_of(lambda name=name, avg=avg: iv.bootstrap_values(
            table, K, name, avg, B, np.random.default_rng(1)))
        assert vals.shape == (B,)
        rows.append((name, avg, t))
        print(f"multinomial bootstrap, {name:>5} {avg or '':>5}, {B:,} resamples:   {t:8.3f} s"
              f"   ({'OK' if t < 1 else 'SLOWER THAN'} 1 s target)")
    t_ci, ci = best_of(lambda: cm.ci("mcc", method="bca", n_resamples=B, random_state=1))
    print(f"cm.ci('mcc', method='bca', n_resamples={B:,}) end to end: {t_ci:8.3f} s"
          f"   -> [{ci.low:.4f}, {ci.high:.4f}]")

    # scikit-learn sample-level bootstrap on a measured subset, extrapolated
    measured = 5
    srng = np.random.default_rng(2)

    def sk_loop(metric):
        for _ in range(measured):
            idx = srng.integers(0, N, N)
            metric(y[idx], p[idx])

    t_mcc, _ = best_of(lambda: sk_loop(matthews_corrcoef), repeat=1)
    t_f1, _ = best_of(lambda: sk_loop(lambda a, b: f1_score(a, b, average="macro")), repeat=1)
    for (name, avg, t), t_sk in zip(rows[:2], (t_mcc, t_f1), strict=True):
        per = t_sk / measured
        extrapolated = per * B
        ours = t_count + t
        print(
            f"scikit-learn sample bootstrap, {name} {avg or ''}: measured {measured} resamples "
            f"in {t_sk:.2f} s ({per:.3f} s each); EXTRAPOLATED to {B:,}: {extrapolated:,.0f} s"
        )
        print(
            f"  ratio sklearn / confmat (count once + {B:,} multinomial resamples = "
            f"{ours:.3f} s): {extrapolated / ours:,.0f}x   "
            f"({'OK' if extrapolated / ours >= 100 else 'BELOW'} 100x target)"
        )

    # vectorised score bootstrap vs scikit-learn loop (measured, not extrapolated)
    n_s, b_s = 20_000, 200
    ys = rng.integers(0, 2, n_s)
    ss = ys + rng.normal(0, 1, n_s)
    t_ours, _ = best_of(lambda: sc.score_bootstrap(ys, [ss], "roc_auc", b_s,
                                                   np.random.default_rng(3)))

    def sk_auc():
        r = np.random.default_rng(3)
        for _ in range(b_s):
            idx = r.integers(0, n_s, n_s)
            roc_auc_score(ys[idx], ss[idx])

    t_sk_auc, _ = best_of(sk_auc, repeat=1)
    print(f"ROC AUC sample bootstrap, n = {n_s:,}, B = {b_s}: confmat (multiplicity weights) "
          f"{t_ours:.3f} s, scikit-learn loop {t_sk_auc:.3f} s, ratio {t_sk_auc / t_ours:.1f}x")

    # fast DeLong vs the O(m n) kernel
    n_d = 4000
    yd = rng.integers(0, 2, n_d)
    sd = np.vstack([yd + rng.normal(0, 1, n_d), yd + rng.normal(0, 1.3, n_d)])
    t_fast, _ = best_of(lambda: sc.delong_covariance(yd == 1, sd))

    def slow():
        pos, neg = sd[:, yd == 1], sd[:, yd == 0]
        psi = (pos[:, :, None] > neg[:, None, :]) + 0.5 * (pos[:, :, None] == neg[:, None, :])
        return psi.mean(axis=2), psi.mean(axis=1)

    t_slow, _ = best_of(slow, repeat=1)
    print(f"DeLong covariance, n = {n_d:,}: midranks {t_fast * 1e3:.1f} ms, O(mn) kernel "
          f"{t_slow * 1e3:.1f} ms, ratio {t_slow / t_fast:.0f}x")


if __name__ == "__main__":
    main()
