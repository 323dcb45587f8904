"""Coverage study of :func:`confmat.roc_ci`: how often does the 95 % stratified percentile
bootstrap interval of a point of the ROC curve cover the true curve?

Data are binormal: negatives score N(0, 1) and positives N(mu, sigma^2), ``n`` of each (the
class counts are fixed, as the stratified bootstrap assumes). A sample is positive when
``score >= t``, so at threshold t

    specificity = P(X0 < t) = Phi(t)                     ->  t = Phi^-1(sp)
    sensitivity = P(X1 >= t) = Phi((mu - t) / sigma)

and the true curve is, with a = mu / sigma and b = 1 / sigma,

    se(sp) = Phi(a - b * Phi^-1(sp))     (equivalently Phi(a + b * Phi^-1(1 - sp)), the
                                          binormal form TPR = Phi(a + b Phi^-1(FPR)))
    sp(se) = Phi(mu - sigma * Phi^-1(se))   (the same curve read the other way).

For every simulated data set ``roc_ci`` is called once with ``specificities=`` (pROC's
``ci.se``) and once with ``sensitivities=`` (``ci.sp``) and we count how often each interval
covers the truth, and on which side it misses: 'above' is the share of intervals lying wholly
above the true value, 'below' wholly below it; 'width' is the mean width. With R repetitions
the Monte Carlo standard error of a coverage near 0.95 is sqrt(0.95 * 0.05 / R) (0.0126 at
R = 300); rows more than 3 of those below / above 0.95 are flagged 'LOW' / 'HIGH'.

Run: python benchmarks/roc_coverage_study.py [--reps 300] [--resamples 500] [--seed 0]
"""

from __future__ import annotations

import argparse
import time
from statistics import NormalDist

import numpy as np

from confmat import roc_ci

PHI = NormalDist()
MODELS = {  # name -> (mu, sigma)
    "a=1.5 b=1": (1.5, 1.0),
    "a=1 b=0.5": (2.0, 2.0),
}
SIZES = (25, 100, 500)  # negatives = positives = n
SPECIFICITIES = np.array([0.5, 0.8, 0.9, 0.95])
SENSITIVITIES = np.array([0.8, 0.95])


def true_se(sp: np.ndarray, mu: float, sigma: float) -> np.ndarray:
    """Sensitivity of the binormal curve at specificity ``sp``."""
    return np.array([PHI.cdf((mu - PHI.inv_cdf(float(p))) / sigma) for p in sp])


def true_sp(se: np.ndarray, mu: float, sigma: float) -> np.ndarray:
    """Specificity of the binormal curve at sensitivity ``se``."""
    return np.array([PHI.cdf(mu - sigma * PHI.inv_cdf(float(p))) for p in se])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--resamples", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    mc_se = np.sqrt(0.95 * 0.05 / args.reps)
    start = time.perf_counter()
    print(f"95 % stratified percentile bootstrap intervals of roc_ci, R = {args.reps} data sets "
          f"per row, B = {args.resamples} resamples; Monte Carlo SE of a 0.95 coverage = "
          f"{mc_se:.4f}")
    header = (f"{'model':<11}{'n/class':>8}  {'interval':<16}{'truth':>7}{'coverage':>10}"
              f"{'above':>8}{'below':>8}{'width':>8}")
    print(header)
    print("-" * len(header))
    for model, (mu, sigma) in MODELS.items():
        se_truth = true_se(SPECIFICITIES, mu, sigma)
        sp_truth = true_sp(SENSITIVITIES, mu, sigma)
        for n in SIZES:
            y = np.r_[np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)]
            lo: dict[str, list[np.ndarray]] = {"se": [], "sp": []}
            hi: dict[str, list[np.ndarray]] = {"se": [], "sp": []}
            for _ in range(args.reps):
                s = np.r_[rng.normal(0.0, 1.0, n), rng.normal(mu, sigma, n)]
                seed = int(rng.integers(2**63))
                a = roc_ci(y, s, specificities=SPECIFICITIES, n_resamples=args.resamples,
                           random_state=seed).sensitivity
                b = roc_ci(y, s, sensitivities=SENSITIVITIES, n_resamples=args.resamples,
                           random_state=seed + 1).specificity
                assert a is not None and b is not None
                lo["se"].append(a.low)
                hi["se"].append(a.high)
                lo["sp"].append(b.low)
                hi["sp"].append(b.high)
            for kind, at, truth in (("se", SPECIFICITIES, se_truth),
                                    ("sp", SENSITIVITIES, sp_truth)):
                low, high = np.array(lo[kind]), np.array(hi[kind])
                too_high = (truth < low).mean(axis=0)  # the interval lies wholly above the truth
                too_low = (truth > high).mean(axis=0)
                cover = ((low <= truth) & (truth <= high)).mean(axis=0)
                width = np.nanmean(high - low, axis=0)
                other = "sp" if kind == "se" else "se"
                for j, v in enumerate(at):
                    flag = ("LOW" if cover[j] < 0.95 - 3 * mc_se
                            else "HIGH" if cover[j] > 0.95 + 3 * mc_se else "")
                    shown = f"{kind} @ {other}={v:.2f}"
                    print(f"{model:<11}{n:>8}  {shown:<16}{truth[j]:>7.3f}{cover[j]:>10.3f}"
                          f"{too_high[j]:>8.3f}{too_low[j]:>8.3f}{width[j]:>8.3f}  {flag}")
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
