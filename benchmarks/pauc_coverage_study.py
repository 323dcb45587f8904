"""Coverage study of :func:`confmat.partial_auc_ci`: how often does the 95 % interval of a
partial AUC cover the true partial area, with the DeLong-type variance (``method='delong'``)
and, for comparison, the stratified percentile bootstrap (``method='bootstrap'``)?

Data are binormal: negatives score N(0, 1) and positives N(mu, sigma^2), ``n`` of each. The
true curve is ROC(u) = Phi(a + b Phi^-1(u)) with a = mu / sigma, b = 1 / sigma (u the false
positive rate), so the true partial area over the specificity range [s1, s2] is

    int_{1 - s2}^{1 - s1} Phi(a + b Phi^-1(u)) du,

and over the sensitivity range [t1, t2] the integral of the specificity along the sensitivity
axis, int_{t1}^{t2} (1 - Phi((Phi^-1(v) - a) / b)) dv; both are computed by numerical
integration (scipy.integrate.quad), independently of confmat's curves. A McClish-corrected
truth is McClish's (1989) map of the true area.

'above' is the share of intervals lying wholly above the truth, 'below' wholly below it;
'width' is the mean width. With R repetitions the Monte Carlo standard error of a coverage
near 0.95 is sqrt(0.95 * 0.05 / R); rows more than 3 of those below / above 0.95 are flagged
'LOW' / 'HIGH'.

Run: python benchmarks/pauc_coverage_study.py [--reps 2000] [--boot-reps 500]
     [--resamples 500] [--seed 0]
(--boot-reps 0 skips the bootstrap columns.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import integrate, stats

from confmat import partial_auc_ci

MODELS = {  # name -> (mu, sigma)
    "a=1.5 b=1": (1.5, 1.0),
    "a=1 b=0.5": (2.0, 2.0),
}
SIZES = (25, 50, 100, 500)  # negatives = positives = n
RANGES = (  # (focus, low, high, corrected)
    ("specificity", 0.8, 1.0, False),
    ("specificity", 0.9, 1.0, False),
    ("specificity", 0.6, 0.9, False),
    ("specificity", 0.8, 1.0, True),
    ("sensitivity", 0.8, 1.0, False),
    ("sensitivity", 0.9, 1.0, False),
)


def true_area(mu: float, sigma: float, focus: str, lo: float, hi: float, correct: bool
              ) -> float:
    """The binormal partial area by numerical integration (McClish-corrected on request)."""
    a, b = mu / sigma, 1.0 / sigma
    norm = stats.norm
    if focus == "specificity":
        area = integrate.quad(lambda u: norm.cdf(a + b * norm.ppf(u)), 1.0 - hi, 1.0 - lo,
                              epsabs=1e-13, epsrel=1e-12)[0]
    else:
        area = integrate.quad(lambda v: 1.0 - norm.cdf((norm.ppf(v) - a) / b), lo, hi,
                              epsabs=1e-13, epsrel=1e-12)[0]
    if not correct:
        return float(area)
    diag = (2.0 - lo - hi) * (hi - lo) / 2.0
    return float((1.0 + (area - diag) / ((hi - lo) - diag)) / 2.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--boot-reps", type=int, default=500)
    ap.add_argument("--resamples", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    se_d = np.sqrt(0.95 * 0.05 / args.reps)
    se_b = np.sqrt(0.95 * 0.05 / max(args.boot_reps, 1))
    start = time.perf_counter()
    print(f"95 % intervals of partial_auc_ci: DeLong-type normal interval, R = {args.reps} data "
          f"sets per row (Monte Carlo SE {se_d:.4f}); stratified percentile bootstrap, "
          f"R = {args.boot_reps}, B = {args.resamples} (SE {se_b:.4f})")
    header = (f"{'model':<10}{'n/class':>8}  {'range':<19}{'truth':>7}{'delong':>8}{'above':>7}"
              f"{'below':>7}{'width':>7}{'':>6}{'boot':>7}{'width':>7}")
    print(header)
    print("-" * len(header))
    for model, (mu, sigma) in MODELS.items():
        for focus, lo, hi, correct in RANGES:
            truth = true_area(mu, sigma, focus, lo, hi, correct)
            kw = {focus: (lo, hi), "correct": correct}
            for n in SIZES:
                y = np.r_[np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)]
                d_lo, d_hi, b_lo, b_hi = [], [], [], []
                for rep in range(args.reps):
                    s = np.r_[rng.normal(0.0, 1.0, n), rng.normal(mu, sigma, n)]
                    ci = partial_auc_ci(y, s, method="delong", **kw)
                    d_lo.append(ci.low)
                    d_hi.append(ci.high)
                    if rep < args.boot_reps:
                        cb = partial_auc_ci(y, s, n_resamples=args.resamples,
                                            random_state=int(rng.integers(2**63)), **kw)
                        b_lo.append(cb.low)
                        b_hi.append(cb.high)
                low, high = np.array(d_lo), np.array(d_hi)
                cover = float(((low <= truth) & (truth <= high)).mean())
                above = float((low > truth).mean())
                below = float((high < truth).mean())
                flag = ("LOW" if cover < 0.95 - 3 * se_d
                        else "HIGH" if cover > 0.95 + 3 * se_d else "")
                shown = f"{'sp' if focus == 'specificity' else 'se'} {lo:g}-{hi:g}" + (
                    " McClish" if correct else "")
                line = (f"{model:<10}{n:>8}  {shown:<19}{truth:>7.4f}{cover:>8.3f}{above:>7.3f}"
                        f"{below:>7.3f}{np.mean(high - low):>7.4f}{flag:>6}")
                if b_lo:
                    bl, bh = np.array(b_lo), np.array(b_hi)
                    bc = float(((bl <= truth) & (truth <= bh)).mean())
                    line += f"{bc:>7.3f}{np.mean(bh - bl):>7.4f}"
                print(line, flush=True)
    print(f"(took {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
