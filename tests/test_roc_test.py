"""roc_test against pROC's roc.test: DeLong (paired z, unpaired Welch t) and the Venkatraman
statistics to 1e-9; bootstrap statistics and permutation p-values within Monte-Carlo error."""

from __future__ import annotations

import numpy as np
import pytest

from confmat.inference.roc_test import roc_test
from proc_oracle import proc  # noqa: F401  (the fixture)

ALTS = {"two-sided": "two.sided", "less": "less", "greater": "greater"}

R_DELONG = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
stat <- p <- df <- numeric(0)
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  alt <- c("two.sided", "less", "greater")[alt_code[i] + 1]
  r1 <- roc(y[k], a[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y[k], b[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  t1 <- roc.test(r1, r2, method = "delong", paired = TRUE, alternative = alt)
  k2 <- starts[i]:(starts[i] + half[i] - 1)
  k3 <- (starts[i] + half[i]):ends[i]
  u1 <- roc(y[k2], a[k2], levels = c(0, 1), direction = "<", quiet = TRUE)
  u2 <- roc(y[k3], b[k3], levels = c(0, 1), direction = "<", quiet = TRUE)
  t2 <- roc.test(u1, u2, method = "delong", paired = FALSE, alternative = alt)
  stat <- c(stat, t1$statistic, t2$statistic); p <- c(p, t1$p.value, t2$p.value)
  df <- c(df, t2$parameter)
}
out <- list(stat = stat, p = p, df = df)
"""


def _sets(seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int, int]]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        n = int(rng.integers(12, 200))
        y = rng.integers(0, 2, n)
        y[:4] = [0, 1, 0, 1]
        half = int(rng.integers(6, n - 5))
        y[half:half + 2] = [0, 1]
        a = rng.normal(size=n) + rng.normal(0.8, 0.3) * y
        b = 0.6 * a + rng.normal(size=n) + rng.normal(0.5, 0.5) * y
        if i % 3 == 0:
            a, b = np.round(a, 1), np.round(b, 0)
        out.append((y, a, b, half, i % 3))
    return out


def test_delong_paired_and_unpaired_match_proc(proc):  # noqa: F811
    sets = _sets(1, 40)
    r = proc(R_DELONG, y=np.concatenate([d[0] for d in sets]),
             a=np.concatenate([d[1] for d in sets]), b=np.concatenate([d[2] for d in sets]),
             lens=[len(d[0]) for d in sets], half=[d[3] for d in sets],
             alt_code=[d[4] for d in sets])
    alts = list(ALTS)
    stat, p, df = [], [], []
    for y, a, b, half, code in sets:
        t1 = roc_test(y, a, b, alternative=alts[code])
        t2 = roc_test(y[:half], a[:half], b[half:], y_true_b=y[half:], alternative=alts[code])
        assert t1.paired and not t2.paired
        stat += [t1.statistic, t2.statistic]
        p += [t1.pvalue, t2.pvalue]
        df.append(t2.df)
    np.testing.assert_allclose(stat, r["stat"], rtol=1e-9)
    np.testing.assert_allclose(p, r["p"], rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(df, r["df"], rtol=1e-9)


R_VENK = r"""
set.seed(3)
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
v <- roc.test(r1, r2, method = "venkatraman", boot.n = B)
h <- length(y) / 2
u1 <- roc(y[1:h], a[1:h], levels = c(0, 1), direction = "<", quiet = TRUE)
u2 <- roc(y[(h + 1):length(y)], b[(h + 1):length(y)], levels = c(0, 1), direction = "<",
          quiet = TRUE)
w <- roc.test(u1, u2, method = "venkatraman", boot.n = B)
out <- list(e = c(v$statistic, w$statistic), p = c(v$p.value, w$p.value))
"""


def test_venkatraman_matches_proc(proc):  # noqa: F811
    # the statistic is deterministic (1e-9); p-values from 1000 permutations each have a
    # Monte-Carlo sd of at most sqrt(0.25 / 1000) = 0.016, so two independent runs agree
    # within 0.08 (3.5 sd of the difference)
    rng = np.random.default_rng(8)
    n = 160  # even: pROC's unpaired mixing proportion equals ours for equal sample sizes
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + y, 1)
    b = a + rng.normal(0, 0.7, n) - 0.3 * y
    r = proc(R_VENK, y=y, a=a, b=b, B=[1000])
    h = n // 2
    v = roc_test(y, a, b, method="venkatraman", n_resamples=1000, random_state=1)
    w = roc_test(y[:h], a[:h], b[h:], y_true_b=y[h:], method="venkatraman", n_resamples=300,
                 random_state=1)
    np.testing.assert_allclose([v.statistic, w.statistic], r["e"], rtol=1e-9)
    assert abs(v.pvalue - r["p"][0]) < 0.08
    assert abs(w.pvalue - r["p"][1]) < 0.1  # 300 permutations here: sd <= 0.029


R_BOOT = r"""
set.seed(5)
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
h <- length(y) / 2
u1 <- roc(y[1:h], a[1:h], levels = c(0, 1), direction = "<", quiet = TRUE)
u2 <- roc(y[(h + 1):length(y)], b[(h + 1):length(y)], levels = c(0, 1), direction = "<",
          quiet = TRUE)
s <- c(
  roc.test(r1, r2, method = "bootstrap", boot.n = B)$statistic,
  roc.test(u1, u2, method = "bootstrap", boot.n = B, paired = FALSE)$statistic,
  roc.test(r1, r2, method = "specificity", specificity = 0.8, boot.n = B)$statistic,
  roc.test(r1, r2, method = "sensitivity", sensitivity = 0.65, boot.n = B,
           boot.stratified = FALSE)$statistic,
  roc.test(r1, r2, method = "bootstrap", boot.n = B, partial.auc = c(1, 0.8),
           partial.auc.correct = TRUE, reuse.auc = FALSE)$statistic)
out <- list(s = s)
"""


def test_bootstrap_statistics_match_proc(proc):  # noqa: F811
    # D = difference / sd(resampled differences): the sd from B resamples has a relative
    # Monte-Carlo sd of about 1 / sqrt(2 B) = 1.6% at B = 2000, so two independent runs
    # agree within 8% of D (3.5 sd of the difference of two such errors, 2.2%, plus
    # margin for the non-normal tails of rate differences)
    rng = np.random.default_rng(9)
    n = 400
    y = rng.integers(0, 2, n)
    a = rng.normal(size=n) + 1.3 * y
    b = 0.5 * a + rng.normal(size=n) + 0.4 * y
    r = proc(R_BOOT, y=y, a=a, b=b, B=[2000])["s"]
    h = n // 2
    kw = {"n_resamples": 2000, "random_state": 2}
    got = [
        roc_test(y, a, b, method="bootstrap", **kw).statistic,
        roc_test(y[:h], a[:h], b[h:], y_true_b=y[h:], method="bootstrap", **kw).statistic,
        roc_test(y, a, b, method="specificity", specificity=0.8, **kw).statistic,
        roc_test(y, a, b, method="sensitivity", sensitivity=0.65, stratified=False,
                 **kw).statistic,
        roc_test(y, a, b, method="bootstrap", partial_specificity=(0.8, 1), correct=True,
                 **kw).statistic,
    ]
    np.testing.assert_allclose(got, r, rtol=0.08)


def test_alternatives_and_estimates():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 120)
    a = rng.normal(size=120) + y
    b = rng.normal(size=120) + 0.3 * y
    two = roc_test(y, a, b)
    less = roc_test(y, a, b, alternative="less")
    greater = roc_test(y, a, b, alternative="greater")
    assert two.estimate_a == pytest.approx(roc_auc_score(y, a), rel=1e-12)
    assert less.pvalue + greater.pvalue == pytest.approx(1.0, abs=1e-12)
    assert two.pvalue == pytest.approx(2 * min(less.pvalue, greater.pvalue), rel=1e-12)
    boot = roc_test(y, a, b, method="bootstrap", n_resamples=300, random_state=0)
    assert boot.estimate_a == pytest.approx(roc_auc_score(y, a), rel=1e-12)
    lab = np.where(y == 1, "yes", "no")
    assert roc_test(lab, a, b, pos_label="yes").statistic == two.statistic


@pytest.mark.parametrize("kw, err, msg", [
    ({"method": "magic"}, ValueError, "method must be one of"),
    ({"alternative": "two.sided"}, ValueError, "alternative must be one of"),
    ({"method": "specificity"}, TypeError, "specificity must be a number"),
    ({"method": "sensitivity", "sensitivity": 2}, ValueError, "sensitivity must lie"),
    ({"specificity": 0.9}, ValueError, "method='specificity'"),
    ({"method": "venkatraman", "partial_specificity": (0.8, 1)}, ValueError,
     "method='bootstrap' or 'delong'"),
    ({"method": "specificity", "specificity": 0.9, "partial_sensitivity": (0.8, 1)},
     ValueError, "method='bootstrap' or 'delong'"),
    ({"method": "venkatraman", "alternative": "less"}, ValueError, "two-sided only"),
    ({"method": "bootstrap", "n_resamples": 5}, ValueError, "n_resamples"),
    ({"correct": True}, ValueError, "needs a partial range"),
])
def test_roc_test_errors(kw, err, msg):
    y = [0, 1, 0, 1, 1, 0]
    with pytest.raises(err, match=msg):
        roc_test(y, [0.1, 0.5, 0.3, 0.9, 0.2, 0.4], [0.2, 0.1, 0.3, 0.7, 0.8, 0.1], **kw)


def test_roc_test_input_errors():
    with pytest.raises(ValueError, match="score_b"):
        roc_test([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="both classes"):
        roc_test([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.1, 0.2], y_true_b=[1, 1])
