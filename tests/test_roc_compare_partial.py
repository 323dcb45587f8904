"""The partial AUC in the comparison of models (``confmat.compare(partial_auc=)``,
``build_comparison(partial_auc=)``) and the sensitivity focus of the report's partial AUC
(``build_report(partial_auc_focus='sensitivity')``).

Oracles: pROC (Robin et al. 2011) through ``Rscript`` - ``auc(roc, partial.auc=,
partial.auc.focus=, partial.auc.correct=)`` for the values (deterministic, 1e-9),
``roc.test(method="bootstrap", partial.auc=...)`` for the paired test and ``ci.auc`` for the
interval (both within a Monte-Carlo error derived in the test); statsmodels' ``multipletests``
for Holm's adjustment; partial areas worked out by hand with fractions (McClish 1989); and,
for the random differential test, the area integrated from scikit-learn's ``roc_curve`` with
the mirror identity below.

Mirror identity: swapping the classes and negating the scores swaps the two axes of the
empirical ROC curve (a sample of the new positive class is called positive when ``-s >= t``,
so the new sensitivities are the old specificities and the reverse, point for point, ties
included). The partial area of specificity over a sensitivity range is therefore the
specificity-focus area of the mirrored problem, which the scikit-learn oracle integrates.
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_curve
from statsmodels.stats.multitest import multipletests

import confmat
from confmat.report import build_comparison, build_report, render_html, render_json
from confmat.report.render_data import render_csv
from confmat.report.render_text import render_markdown, render_text
from proc_oracle import proc  # noqa: F401  (the fixture)


def _spec_area(y: np.ndarray, s: np.ndarray, a: float, b: float) -> float:
    """Uncorrected area of sensitivity over specificity [a, b], from scikit-learn's curve."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    lo, hi = 1 - b, 1 - a  # the same strip on the false-positive axis
    inside = (fpr > lo) & (fpr < hi)
    x = np.r_[lo, fpr[inside], hi]
    # at a vertical segment on an edge the polyline leaves the strip along its top
    y_lo = tpr[np.flatnonzero(fpr <= lo)[-1]] if np.any(fpr == lo) else np.interp(lo, fpr, tpr)
    k = np.flatnonzero(fpr <= hi)[-1]
    y_hi = tpr[np.flatnonzero(fpr == hi)[0]] if fpr[k] == hi else np.interp(hi, fpr, tpr)
    return float(np.trapezoid(np.r_[y_lo, tpr[inside], y_hi], x))


def _oracle(y: np.ndarray, s: np.ndarray, a: float, b: float, focus: str,
            correct: bool = True) -> float:
    """pAUC by scikit-learn's curve; the sensitivity focus through the mirror identity."""
    area = _spec_area(y, s, a, b) if focus == "specificity" else _spec_area(1 - y, -s, a, b)
    if not correct:
        return area
    m, big = (2 - a - b) * (b - a) / 2, b - a
    return (1 + (area - m) / (big - m)) / 2 if area >= m else math.nan


def _models(seed: int, n: int, ties: bool = False) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    a = rng.normal(size=n) + 1.3 * y
    b = 0.5 * a + rng.normal(size=n) + 0.5 * y
    c = -a + rng.normal(size=n)  # under the diagonal: McClish's value is undefined
    out = {"a": a, "b": b, "c": c}
    if ties:
        out = {k: np.round(v, 1) for k, v in out.items()}
    return y, out


def _preds(scores: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: (v >= 0.5).astype(int) for k, v in scores.items()}


# ------------------------------------------------------------------------------ values: pROC
R_VALUES = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
v <- numeric(0)
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  r <- roc(y[k], s[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  foc <- c("specificity", "sensitivity")[focus[i] + 1]
  v <- c(v, suppressWarnings(as.numeric(auc(r, partial.auc = c(hi[i], lo[i]),
                                              partial.auc.focus = foc,
                                              partial.auc.correct = corr[i] == 1))))
}
out <- list(v = v)
"""

RANGES = [(0.8, 1.0), (0.9, 0.95), (0.0, 0.3), (0.5, 1.0), (0.62, 0.87)]


def test_comparison_partial_auc_values_match_proc(proc):  # noqa: F811
    cases = []  # (y, scores, range, focus, correct)
    for i in range(20):
        y, sc = _models(100 + i, 40 + 23 * i, ties=i % 2 == 0)
        cases.append((y, sc, RANGES[i % len(RANGES)], ("specificity", "sensitivity")[i % 3 % 2],
                      i % 4 != 3))
    curves = [(y, s, r, f, c) for y, sc, r, f, c in cases for s in sc.values()]
    got_r = proc(R_VALUES, y=np.concatenate([c[0] for c in curves]),
                 s=np.concatenate([c[1] for c in curves]), lens=[len(c[0]) for c in curves],
                 lo=[c[2][0] for c in curves], hi=[c[2][1] for c in curves],
                 focus=[c[3] == "sensitivity" for c in curves], corr=[c[4] for c in curves])["v"]
    got = []
    for y, sc, rng_, focus, correct in cases:
        cmp = confmat.compare(sc, y, ["roc_auc"], partial_auc=rng_, partial_auc_focus=focus,
                              partial_auc_correct=correct, n_resamples=200, random_state=0)
        got += [cmp.intervals[m]["partial_auc"].estimate for m in sc]
        assert cmp.partial_auc["focus"] == focus and cmp.partial_auc["corrected"] is correct
        assert cmp.partial_auc["range"] == [float(rng_[0]), float(rng_[1])]
    assert np.isnan(got_r).any()  # pROC's NA under the diagonal is among the cases ...
    np.testing.assert_array_equal(np.isnan(got), np.isnan(got_r))  # ... and confmat's nan
    ok = ~np.isnan(got_r)
    np.testing.assert_allclose(np.array(got)[ok], got_r[ok], rtol=1e-9, atol=1e-15)


R_REPORT = r"""
r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
p <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.8),
         partial.auc.focus = "sensitivity", partial.auc.correct = TRUE)
set.seed(11)
ci <- ci.auc(p, method = "bootstrap", boot.n = B)
out <- list(value = as.numeric(p$auc), ci = as.numeric(ci),
            raw = as.numeric(auc(r, partial.auc = c(1, 0.8), partial.auc.focus = "sensitivity")))
"""


def test_report_sensitivity_focus_matches_proc(proc):  # noqa: F811
    y, sc = _models(5, 500)
    s = sc["a"]
    b = 2000
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int)),
                       y_true=y, y_score=s, partial_auc=(0.8, 1.0),
                       partial_auc_focus="sensitivity", n_resamples=b,
                       interval_metrics=["partial_auc"])
    r = proc(R_REPORT, y=y, s=s, B=[b])
    p = rep.partial_auc
    assert p.focus == "sensitivity" and p.bounds == (0.8, 1.0)
    assert p.value == pytest.approx(r["value"][0], rel=1e-9)
    assert p.uncorrected == pytest.approx(r["raw"][0], rel=1e-9)
    # Independent resamples in the two tools. A percentile bound q of B resamples has a
    # Monte-Carlo sd of sqrt(q (1 - q) / B) / f(x_q); for a near-normal bootstrap
    # distribution of sd sigma, f(x_q) = phi(z_q) / sigma, so 0.060 sigma at q = 0.025 and
    # B = 2000, 0.085 sigma for the difference of two runs; 4 such sd, with sigma read from
    # pROC's own interval (width / 3.92):
    low, _, high = r["ci"]
    sigma = (high - low) / 3.92
    tol = 4 * math.sqrt(2) * math.sqrt(0.025 * 0.975 / b) / 0.05845 * sigma
    assert tol < 0.02  # a meaningful check, not a vacuous one
    assert p.interval.low == pytest.approx(low, abs=tol)
    assert p.interval.high == pytest.approx(high, abs=tol)


# ------------------------------------------------------------------------------ the test: pROC
R_TEST = r"""
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(13)
d <- p <- e <- numeric(0)
for (foc in c("specificity", "sensitivity")) {
  t <- roc.test(r1, r2, method = "bootstrap", boot.n = B, partial.auc = c(1, 0.8),
                partial.auc.focus = foc, partial.auc.correct = TRUE, reuse.auc = FALSE)
  d <- c(d, t$statistic); p <- c(p, t$p.value); e <- c(e, t$estimate)
}
out <- list(d = d, p = p, e = e)
"""


def test_comparison_partial_auc_test_matches_proc(proc):  # noqa: F811
    # data chosen so that D is near 2 for both foci: p near 0.05, where it moves with D
    y, sc = _models(1, 400)
    b = 2000
    r = proc(R_TEST, y=y, a=sc["a"], b=sc["b"], B=[b])
    for k, focus in enumerate(("specificity", "sensitivity")):
        cmp = confmat.compare({"a": sc["a"], "b": sc["b"]}, y, ["roc_auc"],
                              partial_auc=(0.8, 1.0), partial_auc_focus=focus, n_resamples=b,
                              random_state=3)
        (t,) = [t for t in cmp.pairwise if t["metric"] == "partial_auc"]
        assert t["method"] == "stratified bootstrap"
        assert (t["model_a"], t["model_b"]) == ("a", "b")
        est = r["e"][2 * k:2 * k + 2]  # deterministic: the two McClish-corrected areas
        assert t["difference"] == pytest.approx(est[0] - est[1], rel=1e-9)
        # D = difference / sd of B resampled differences. The sd of B draws has a relative
        # Monte-Carlo sd of sqrt((kappa - 1) / (4 B)) (kappa: kurtosis of the differences,
        # 3 if normal; 5 allowed here for heavier tails), so the D of two independent runs
        # differ by a relative sd of sqrt((kappa - 1) / (2 B)) = 0.032, and the two-sided
        # p = 2 Phi(-|D|) by 2 phi(D) |D| times that (delta method). Four such sd:
        d = r["d"][k]
        rel = math.sqrt((5 - 1) / (2 * b))
        phi = math.exp(-d * d / 2) / math.sqrt(2 * math.pi)
        assert 1.5 < abs(d) < 3  # the regime the data were chosen for
        assert t["statistic"] == pytest.approx(d, rel=4 * rel)
        assert t["pvalue"] == pytest.approx(r["p"][k], abs=4 * 2 * phi * abs(d) * rel)
        assert t["pvalue_adjusted"] == t["pvalue"]  # one pair: Holm changes nothing


# ------------------------------------------------------------------------------ by hand
def test_sensitivity_focus_by_hand():
    # y = [0, 0, 0, 1, 1], s = [.1, .3, .6, .5, .9]: points (se, sp) (0, 1), (1/2, 1),
    # (1/2, 2/3), (1, 2/3), (1, 1/3), (1, 0). On sensitivity [3/4, 1] the specificity is 2/3:
    # area 1/6; McClish: diagonal m = (2 - a - b)(b - a) / 2 = 1/32, perfect M = 1/4,
    # (1 + (A - m) / (M - m)) / 2 = 17/21. On specificity [3/4, 1] the sensitivity is 1/2:
    # area 1/8, (1 + (1/8 - 1/32) / (7/32)) / 2 = 5/7: the focus matters.
    y, s = [0, 0, 0, 1, 1], [0.1, 0.3, 0.6, 0.5, 0.9]
    cm = confmat.ConfusionMatrix.from_predictions(y, [0, 0, 1, 1, 1])
    rep = build_report(cm, y_true=y, y_score=s, partial_auc=(1, 0.75),
                       partial_auc_focus="sensitivity", intervals=False)
    assert rep.partial_auc.uncorrected == pytest.approx(float(Fraction(1, 6)), abs=1e-15)
    assert rep.partial_auc.value == pytest.approx(float(Fraction(17, 21)), abs=1e-15)
    spec = build_report(cm, y_true=y, y_score=s, partial_auc=(0.75, 1), intervals=False)
    assert spec.partial_auc.value == pytest.approx(float(Fraction(5, 7)), abs=1e-15)
    d = json.loads(render_json(rep))["partial_auc"]
    assert d["focus"] == "sensitivity" and d["range"] == [0.75, 1.0] and d["corrected"]
    assert json.loads(render_json(spec))["partial_auc"]["focus"] == "specificity"
    # every text names the focus
    words = "sensitivity 0.75 to 1, McClish-corrected"
    assert rep.partial_auc.label == f"partial AUC, {words}"
    row = next(m for m in rep.roc_summary if m.name == "partial_auc")
    assert row.full_name == f"{words} (McClish 1989)"
    for text in (render_text(rep), render_markdown(rep), render_html(rep)):
        assert words in text
    assert "specificity 0.75 to 1" in render_text(spec)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(6, 150), st.booleans(),
       st.sampled_from(RANGES), st.sampled_from(["specificity", "sensitivity"]))
def test_report_partial_auc_both_foci_against_sklearn_curve(seed, n, ties, rng_, focus):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + rng.normal(0.8, 0.5) * y
    if ties:
        s = np.round(s, 0)
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    rep = build_report(cm, y_true=y, y_score=s, partial_auc=rng_, partial_auc_focus=focus,
                       intervals=False)
    want_raw = _oracle(y, s, *rng_, focus, correct=False)
    assert rep.partial_auc.uncorrected == pytest.approx(want_raw, rel=1e-12, abs=1e-14)
    want = _oracle(y, s, *rng_, focus)
    if math.isnan(want):
        assert math.isnan(rep.partial_auc.value) and rep.partial_auc.notes
    else:
        assert rep.partial_auc.value == pytest.approx(want, rel=1e-12, abs=1e-14)


# ------------------------------------------------------------------------------ comparison
def test_build_comparison_shows_the_partial_auc_everywhere():
    y, sc = _models(7, 250)
    sc = {"a": sc["a"], "b": sc["b"]}
    cmp = build_comparison(y, _preds(sc), scores=sc, partial_auc=(0.9, 0.8),
                           partial_auc_focus="sensitivity", n_resamples=200)
    # the table: each model's value (the mirror-identity oracle) and interval ...
    by = {r["model"]: r for r in cmp.table}
    for m, s in sc.items():
        assert by[m]["partial_auc"] == pytest.approx(_oracle(y, s, 0.8, 0.9, "sensitivity"),
                                                     rel=1e-12)
        lo, hi = by[m]["partial_auc_interval"]
        assert lo <= by[m]["partial_auc"] <= hi
    # ... the same as the model's own report (one computation, one seed)
    for name, rep in zip(cmp.names, cmp.reports, strict=True):
        assert rep.partial_auc.focus == "sensitivity"
        assert by[name]["partial_auc"] == rep.partial_auc.value
        assert by[name]["partial_auc_interval"] == [rep.partial_auc.interval.low,
                                                    rep.partial_auc.interval.high]
    # the paired test is the one compare() gives with the same arguments
    tests = [t for t in cmp.tests if t["metric"] == "partial_auc"]
    assert len(tests) == 1 and tests[0]["method"] == "stratified bootstrap"
    direct = confmat.compare({k: {"pred": _preds(sc)[k], "score": v} for k, v in sc.items()}, y,
                             cmp.result.metrics, n_resamples=200, random_state=0,
                             test_metric="accuracy", partial_auc=(0.8, 0.9),
                             partial_auc_focus="sensitivity", labels=[0, 1], pos_label=1)
    assert [t for t in direct.pairwise if t["metric"] == "partial_auc"] == tests
    desc = cmp.partial_auc
    assert desc["label"] == "sensitivity 0.8 to 0.9, McClish-corrected"
    assert desc["interval_method"] == "stratified percentile bootstrap (200 resamples)"
    # JSON: the table, the description, the tests and each report
    d = json.loads(render_json(cmp))
    assert d["partial_auc"] == json.loads(json.dumps(desc))
    assert d["comparison"]["partial_auc"]["focus"] == "sensitivity"
    assert d["table"][0]["partial_auc"] == by[d["table"][0]["model"]]["partial_auc"]
    assert [t["metric"] for t in d["comparison"]["pairwise"]] == ["accuracy", "partial_auc"]
    assert all(r["partial_auc"]["focus"] == "sensitivity" for r in d["reports"])
    # text and Markdown: the column, what it is, the test
    for text in (render_text(cmp), render_markdown(cmp)):
        assert "partial_auc: sensitivity 0.8 to 0.9, McClish-corrected; intervals: " \
               "stratified percentile bootstrap (200 resamples)" in text
        assert "stratified bootstrap" in text and "per metric" in text
    lines = render_text(cmp).splitlines()
    header = lines[lines.index(next(ln for ln in lines if ln.startswith("Models side"))) + 1]
    assert header.split()[-1] == "partial_auc"
    page = render_html(cmp)
    assert "<th>partial_auc</th>" in page
    assert '<p class="note partial-auc">partial_auc: the partial AUC on sensitivity 0.8 to ' \
           "0.9, McClish-corrected (McClish 1989); intervals: stratified percentile " \
           "bootstrap (200 resamples); pairwise tests: stratified bootstrap" in page
    assert "<th>p (Holm, per metric)</th>" in page
    # without the range: none of it
    plain = build_comparison(y, _preds(sc), scores=sc, n_resamples=200, intervals=False)
    assert plain.partial_auc is None and json.loads(render_json(plain))["partial_auc"] is None
    assert all("partial_auc" not in r for r in plain.table)
    assert "partial-auc" not in render_html(plain)


def test_holm_adjusts_the_partial_auc_tests_among_themselves():
    y, sc = _models(9, 300)
    cmp = confmat.compare(sc, y, ["accuracy"], partial_auc=(0.8, 1), n_resamples=200,
                          random_state=0, threshold=0.5, pos_label=1)
    for metric in ("accuracy", "partial_auc"):
        rows = [t for t in cmp.pairwise if t["metric"] == metric]
        assert len(rows) == 3
        raw = [t["pvalue"] for t in rows]
        ok = ~np.isnan(raw)
        want = np.full(len(raw), np.nan)
        want[ok] = multipletests(np.array(raw)[ok], method="holm")[1]
        np.testing.assert_allclose([t["pvalue_adjusted"] for t in rows], want, rtol=1e-12)
    # model c lies under the diagonal: its McClish value, and so its tests, are undefined
    assert math.isnan(cmp.intervals["c"]["partial_auc"].estimate)
    assert any("partial_auc of 'c' is undefined" in n for n in cmp.notes)
    assert any("separately for each tested metric" in n for n in cmp.notes)
    assert ("pairwise tests on accuracy, partial_auc[specificity 0.8 to 1, McClish-corrected] "
            "(holm adjusted, per metric):") in str(cmp)


@pytest.mark.parametrize(("bounds", "focus", "correct", "name"), [
    ((0.8, 1), "specificity", True, "partial_auc[specificity 0.8 to 1, McClish-corrected]"),
    ((1, 0.9), "sensitivity", True, "partial_auc[sensitivity 0.9 to 1, McClish-corrected]"),
    ((0.25, 0.75), "specificity", False, "partial_auc[specificity 0.25 to 0.75, uncorrected]"),
])
def test_frame_names_the_partial_auc_column_with_its_range(bounds, focus, correct, name):
    # the frame's column carries the range, focus and correction (the name of the report's
    # CSV rows); the key of intervals / pairwise rows stays 'partial_auc'
    y, sc = _models(11, 200)
    cmp = confmat.compare(sc, y, ["roc_auc"], partial_auc=bounds, partial_auc_focus=focus,
                          partial_auc_correct=correct, n_resamples=200, random_state=0,
                          pos_label=1)
    frame = cmp.to_frame()
    assert list(dict.fromkeys(frame.columns.get_level_values(0))) == ["roc_auc", name]
    assert "partial_auc" not in frame.columns.get_level_values(0)
    est = [cmp.intervals[m]["partial_auc"].estimate for m in cmp.models]
    np.testing.assert_array_equal(frame[(name, "estimate")].to_numpy(), est)
    assert f"{name} [95% CI]" in str(cmp)
    assert cmp.metrics[-1] == "partial_auc"
    assert {r["metric"] for r in cmp.pairwise} == {"roc_auc", "partial_auc"}
    # the report's CSV names the tests on it the same way
    rep = build_comparison(y, _preds(sc), scores=sc, n_resamples=200, intervals=False,
                           partial_auc=bounds, partial_auc_focus=focus,
                           partial_auc_correct=correct, pos_label=1)
    rows = list(csv.reader(io.StringIO(render_csv(rep))))
    assert name in {r[3] for r in rows if r[1] == "test"}


def test_partial_auc_as_the_test_metric_ranks_and_tests_only_it():
    y, sc = _models(10, 200)
    cmp = confmat.compare({"b": sc["b"], "a": sc["a"]}, y, ["roc_auc", "partial_auc"],
                          partial_auc=(0.8, 1), test_metric="partial_auc", n_resamples=200,
                          random_state=0)
    want = {m: _oracle(y, sc[m], 0.8, 1, "specificity") for m in ("a", "b")}
    assert cmp.models == sorted(want, key=lambda m: -want[m])
    assert [t["metric"] for t in cmp.pairwise] == ["partial_auc"]
    assert cmp.metrics == ["roc_auc", "partial_auc"]
    uncorrected = confmat.compare({"a": sc["a"]}, y, ["partial_auc"], partial_auc=(0.8, 1),
                                  partial_auc_correct=False, n_resamples=200, random_state=0)
    assert uncorrected.intervals["a"]["partial_auc"].estimate == pytest.approx(
        _oracle(y, sc["a"], 0.8, 1, "specificity", correct=False), rel=1e-12)
    assert uncorrected.partial_auc["label"] == "specificity 0.8 to 1, uncorrected"
    # the report's comparison: the column where metrics= places it, tested alone
    two = {"a": sc["a"], "b": sc["b"]}
    rep = build_comparison(y, _preds(two), scores=two, metrics=["partial_auc", "mcc"],
                           partial_auc=(0.8, 1), test_metric="partial_auc", intervals=False,
                           n_resamples=200)
    assert rep.result.metrics == ["partial_auc", "mcc", "roc_auc"]
    assert [t["metric"] for t in rep.tests] == ["partial_auc"]
    assert rep.result.models == cmp.models
    with pytest.raises(ValueError, match="metric 'partial_auc' needs its range"):
        build_comparison(y, _preds(two), scores=two, metrics=["partial_auc"], intervals=False)


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    ({"metrics": ["partial_auc"]}, ValueError, r"needs its range: give partial_auc=\(low"),
    ({"partial_auc_focus": "sensitivity"}, ValueError, "partial_auc_focus='sensitivity' "
     "applies to a partial AUC"),
    ({"partial_auc": (0.8, 1), "partial_auc_focus": "fpr"}, ValueError,
     "partial_auc_focus must be 'specificity' or 'sensitivity', got 'fpr'"),
    ({"partial_auc": (0.8, 1.5)}, ValueError, r"partial_auc must lie within \[0, 1\]"),
    ({"partial_auc": (0.8, 0.8)}, ValueError, "partial_auc must be a range of positive width"),
    ({"partial_auc": 0.8}, TypeError, "partial_auc must be a pair of numbers"),
    ({"partial_auc": (0.8, 1), "partial_auc_correct": "yes"}, TypeError,
     "partial_auc_correct must be True or False"),
    ({"partial_auc_correct": False}, ValueError, "partial_auc_correct=False applies"),
])
def test_compare_partial_auc_argument_errors(kwargs, exc, match):
    y, sc = _models(11, 60)
    kwargs = {"metrics": ["roc_auc"], "n_resamples": 200, **kwargs}
    with pytest.raises(exc, match=match):
        confmat.compare(sc, y, **kwargs)


def test_partial_auc_needs_scores_for_every_model():
    y, sc = _models(12, 80)
    preds = _preds(sc)
    with pytest.raises(ValueError, match="metric 'partial_auc' needs binary scores, which "
                                         "model 'a' does not give"):
        confmat.compare(preds, y, ["accuracy"], partial_auc=(0.8, 1), n_resamples=200)
    with pytest.raises(ValueError, match="partial_auc needs a binary problem and a score "
                                         "vector"):
        build_comparison(y, preds, scores={"a": sc["a"]}, partial_auc=(0.8, 1))
    with pytest.raises(ValueError, match="partial_auc_focus='sensitivity' applies"):
        build_comparison(y, preds, scores=sc, partial_auc_focus="sensitivity")
    cm = confmat.ConfusionMatrix.from_predictions(y, preds["a"])
    with pytest.raises(ValueError, match="partial_auc_focus must be 'specificity' or "
                                         "'sensitivity'"):
        build_report(cm, y_true=y, y_score=sc["a"], partial_auc=(0.8, 1),
                     partial_auc_focus="Sensitivity")
    with pytest.raises(ValueError, match="partial_auc_focus='sensitivity' applies"):
        build_report(cm, y_true=y, y_score=sc["a"], partial_auc_focus="sensitivity")
