"""Coverage study: how often does each 95 % interval of confmat cover the true value?

Test sets of N samples are simulated from a known cell-probability matrix P (rows = true class);
the true value of a metric is the metric of P itself (the population). For every simulated
table and every (metric, method) the interval is computed and we count how often it covers the
truth. With R repetitions the Monte Carlo standard error of a coverage near 0.95 is
sqrt(0.95 * 0.05 / R) (0.011 at R = 400); rows more than 3 of those from 0.95 are flagged
'LOW' or 'HIGH'. An interval that is undefined (NaN, e.g. recall with no positives drawn) counts
as a miss and is reported in the 'undef' column.

Run: python benchmarks/coverage_study.py [--reps 400] [--resamples 1000] [--seed 0]
                                       [--proportion-only]
(``--proportion-only``: the proportion intervals alone, no bootstrap or other method; the
simulated tables are the same as in the whole study, the bootstrap draws come from their
own generator.)
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from confmat import ConfusionMatrix
from confmat.metrics import Stats, evaluate

# binary, 10 % prevalence, sensitivity 0.8, specificity 0.95 (class 0 = positive)
P_BINARY = np.array([[0.10 * 0.8, 0.10 * 0.2], [0.90 * 0.05, 0.90 * 0.95]])
# binary, balanced: prevalence 0.5, sensitivity 0.85, specificity 0.75 (phi = 0.605)
P_BALANCED = np.array([[0.5 * 0.85, 0.5 * 0.15], [0.5 * 0.25, 0.5 * 0.75]])
# three classes, moderately confused
P_THREE = np.array([[0.30, 0.05, 0.02], [0.04, 0.25, 0.06], [0.02, 0.06, 0.20]])
P_THREE = P_THREE / P_THREE.sum()

BOOT = ("percentile", "bca")
PROP = ("wilson", "agresti_coull", "clopper_pearson", "jeffreys", "wald")
PLAN = {
    "binary": [
        ("accuracy", None, (*PROP, *BOOT)),
        ("recall", 0, (*PROP, *BOOT)),
        ("precision", 0, (*PROP, *BOOT)),
        ("f1", 0, BOOT),
        ("mcc", None, ("fisher_z", *BOOT)),
        ("kappa", None, ("kappa_asymptotic", *BOOT)),
        ("lr_plus", 0, BOOT),
    ],
    "balanced": [
        ("accuracy", None, ("wilson", "jeffreys", "wald", *BOOT)),
        ("mcc", None, ("fisher_z", *BOOT)),
        ("kappa", None, ("kappa_asymptotic", *BOOT)),
    ],
    "three-class": [
        ("accuracy", None, ("wilson", "clopper_pearson", "jeffreys", "wald", *BOOT)),
        ("recall", 2, ("wilson", "jeffreys", *BOOT)),
        ("f1_macro", None, BOOT),
        ("mcc", None, BOOT),
        ("kappa", None, ("kappa_asymptotic", *BOOT)),
        ("balanced_accuracy", None, BOOT),
    ],
}


def true_value(p: np.ndarray, metric: str, pos: int | None) -> float:
    name, avg = ("f1", "macro") if metric == "f1_macro" else (metric, None)
    v = evaluate(name, Stats(p), avg)
    return float(v if pos is None else v[pos])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--proportion-only", action="store_true",
                    help="only the proportion intervals (Wilson, Agresti-Coull, Clopper-Pearson, "
                         "Jeffreys, Wald)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    boot_rng = np.random.default_rng([args.seed, 1])  # resampling: the tables stay the same
    se = np.sqrt(0.95 * 0.05 / args.reps)
    start = time.perf_counter()
    print(f"95 % intervals, R = {args.reps} simulated test sets per row, "
          f"B = {args.resamples} resamples; Monte Carlo SE of coverage ~ {se:.3f}")
    header = (f"{'matrix':<12}{'N':>6}  {'metric':<18}{'method':<17}{'coverage':>9}"
              f"{'undef':>7}{'mean width':>12}  flag")
    print(header)
    print("-" * len(header))
    for label, p in (("binary", P_BINARY), ("balanced", P_BALANCED), ("three-class", P_THREE)):
        for n in args.sizes:
            tables = rng.multinomial(n, p.ravel(), size=args.reps).reshape(-1, *p.shape)
            for metric, pos, methods in PLAN[label]:
                truth = true_value(p, metric, pos)
                name, avg = ("f1", "macro") if metric == "f1_macro" else (metric, None)
                for method in methods:
                    if args.proportion_only and method not in PROP:
                        continue
                    hit = undef = 0
                    widths = []
                    for t in tables:
                        cm = ConfusionMatrix(t)
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            lo, hi = cm.ci(name, method=method, average=avg,
                                           pos_label=pos, n_resamples=args.resamples,
                                           random_state=boot_rng)
                        if not (np.isfinite(lo) and np.isfinite(hi)):
                            undef += 1
                            continue
                        widths.append(hi - lo)
                        hit += lo - 1e-12 <= truth <= hi + 1e-12
                    cov = hit / args.reps
                    flag = "LOW" if cov < 0.95 - 3 * se else ("HIGH" if cov > 0.95 + 3 * se
                                                                else "")
                    shown = metric if pos is None else f"{metric}[{pos}]"
                    print(f"{label:<12}{n:>6}  {shown:<18}{method:<17}{cov:>9.3f}{undef:>7}"
                          f"{np.mean(widths) if widths else np.nan:>12.4f}  {flag}")
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
