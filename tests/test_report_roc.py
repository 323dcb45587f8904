"""ROC analysis in the report: the confidence band of the ROC figure, Hand and Till's
multi-class AUC and the partial AUC, in the report model, its JSON, text and HTML.

Oracles: the sensitivity at a specificity on the sample's curve by pROC's rule, computed here
from integer counts (exact match of ``(N - FP) / N`` with ``k / 100``, else the straight line
between the neighbouring points); pROC itself (``ci.se``, ``coords``, ``auc`` and ``ci.auc`` of
a partial area, through ``Rscript``) for the band and the partial AUC; scikit-learn's
``roc_auc_score(multi_class="ovo", average="macro")`` for Hand and Till's AUC; a partial area
worked out by hand (McClish 1989).
"""

from __future__ import annotations

import base64
import json
import re
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from sklearn.metrics import roc_auc_score

import confmat
from confmat.report import build_comparison, build_report, render_html, render_json
from confmat.report.render_html import roc_figure
from confmat.report.render_text import render_markdown, render_text
from proc_oracle import proc  # noqa: F401  (the fixture)


def _binary(rs: int, n: int = 300, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(rs)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + 1.2 * y
    return y, (np.round(s, 1) if ties else s)


def _report(y, s, **kw):
    cm = confmat.ConfusionMatrix.from_predictions(y, (np.asarray(s) >= 0.5).astype(int))
    return build_report(cm, y_true=y, y_score=s, **kw)


def _se_at_sp_by_proc_rule(y: np.ndarray, s: np.ndarray, k: int, q: int = 100) -> float:
    """Sensitivity at specificity k / q on the empirical curve, by pROC's rule, in integers."""
    pos = y == 1
    p, n = int(pos.sum()), int((~pos).sum())
    pts = [(0, 0)]  # (TP, FP) at the infinite threshold, then at each distinct score
    for t in sorted(set(s.tolist()), reverse=True):
        pts.append((int((pos & (s >= t)).sum()), int((~pos & (s >= t)).sum())))
    exact = [tp for tp, fp in pts if (n - fp) * q == k * n]
    if exact:
        return max(exact) / p
    for (tp0, fp0), (tp1, fp1) in pairwise(pts):
        sp0, sp1 = Fraction(n - fp0, n), Fraction(n - fp1, n)
        target = Fraction(k, q)
        if sp0 > target > sp1:
            se0, se1 = Fraction(tp0, p), Fraction(tp1, p)
            return float(se0 + (se1 - se0) * (sp0 - target) / (sp0 - sp1))
    raise AssertionError("no segment crosses the specificity")


# ------------------------------------------------------------------------------ the band
@pytest.mark.parametrize("rs, n, ties", [(0, 300, False), (1, 57, True), (2, 400, True)])
def test_band_estimate_is_the_sample_curve_at_101_specificities(rs, n, ties):
    y, s = _binary(rs, n, ties)
    d = json.loads(render_json(_report(y, s, n_resamples=200)))["roc_band"]
    assert d["given"] == "specificity" and d["at"] == [k / 100 for k in range(101)]
    want = [_se_at_sp_by_proc_rule(y, s, k) for k in range(101)]
    np.testing.assert_allclose(d["sensitivity"]["estimate"], want, rtol=1e-12, atol=1e-15)
    low, high = np.array(d["sensitivity"]["low"]), np.array(d["sensitivity"]["high"])
    assert np.all(low <= high) and np.all((0 <= low) & (high <= 1))
    assert d["pos_label"] == 1 and d["stratified"] and d["random_state"] == 0


R_BAND = r"""
r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(3)
a <- ci.se(r, specificities = (0:100) / 100, boot.n = B)
r2 <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.8),
          partial.auc.focus = "specificity", partial.auc.correct = TRUE)
f <- ci.auc(r2, method = "bootstrap", boot.n = B)
raw <- auc(r, partial.auc = c(1, 0.8), partial.auc.focus = "specificity")
out <- list(se = as.numeric(t(a)), pauc = as.numeric(f), raw = as.numeric(raw),
            est = coords(r, (0:100) / 100, input = "specificity", ret = "sensitivity")[, 1])
"""


def test_band_and_partial_auc_agree_with_proc(proc):  # noqa: F811
    # Independent random numbers in the two tools: a percentile bound has a Monte-Carlo sd
    # of about sqrt(q (1 - q) / B) / f(x_q) ~ 0.06 sd(sensitivity) at q = 0.025, B = 2000;
    # with ~300 positives sd(sensitivity) <= 0.029, so ~0.0025 for the difference of the two
    # tools; 0.02 covers the largest of 303 such differences (~3.5 sd) plus two steps 1/P of
    # the sensitivity grid.
    y, s = _binary(4, 600)
    b = 2000
    rep = _report(y, s, n_resamples=b, partial_auc=(0.8, 1.0))
    r = proc(R_BAND, y=y, s=s, B=[b])
    band = json.loads(render_json(rep))["roc_band"]["sensitivity"]
    np.testing.assert_allclose(band["estimate"], r["est"], rtol=1e-12)
    want = r["se"].reshape(-1, 3)
    for j, key in enumerate(("low", "median", "high")):
        np.testing.assert_allclose(band[key], want[:, j], atol=0.02)
    p = rep.partial_auc
    assert p.value == pytest.approx(r["pauc"][1], abs=0.004)  # pROC's middle is a median
    assert p.uncorrected == pytest.approx(r["raw"][0], rel=1e-9)
    np.testing.assert_allclose([p.interval.low, p.interval.high], r["pauc"][[0, 2]], atol=0.004)


def test_band_follows_the_report_settings_and_is_reproducible():
    y, s = _binary(5, 200)
    a = _report(y, s, level=0.9, n_resamples=400)
    b = _report(y, s, level=0.9, n_resamples=400)
    da, db = a.to_dict()["roc_band"], b.to_dict()["roc_band"]
    assert da == db  # random_state fixed: the same band every time
    assert da["level"] == 0.9 and da["n_resamples"] == 400 == da["n_used"]
    assert da["legend"] == "90% CI, stratified bootstrap (400 resamples)"
    assert da["method"] == "stratified percentile bootstrap"
    c = _report(y, s, level=0.9, n_resamples=401).to_dict()["roc_band"]
    assert c["sensitivity"]["low"] != da["sensitivity"]["low"]  # the setting is used
    # a wider level gives a band at least as wide at every specificity
    wide = _report(y, s, level=0.99, n_resamples=400).to_dict()["roc_band"]["sensitivity"]
    assert np.all(np.array(wide["low"]) <= np.array(da["sensitivity"]["low"]) + 1e-12)
    assert np.all(np.array(wide["high"]) >= np.array(da["sensitivity"]["high"]) - 1e-12)


def test_no_band_without_intervals_weights_or_a_second_class():
    y, s = _binary(6, 100)
    assert _report(y, s, intervals=False).roc_band is None
    assert json.loads(render_json(_report(y, s, intervals=False)))["roc_band"] is None
    w = np.full(len(y), 2.0)
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int), sample_weight=w)
    rep = build_report(cm, y_true=y, y_score=s, sample_weight=w, n_resamples=100)
    assert rep.roc_band is None
    assert any(n.startswith("no ROC confidence band: its bootstrap resamples") for n in rep.notes)
    one = np.ones(10, dtype=int)
    rep = build_report(confmat.ConfusionMatrix.from_predictions(one, one, labels=[0, 1]),
                       y_true=one, y_score=np.linspace(0, 1, 10), n_resamples=100)
    assert rep.roc_band is None  # no ROC curve at all
    # multi-class scores: no single curve, so no band
    rng = np.random.default_rng(0)
    y3 = rng.integers(0, 3, 60)
    p = rng.dirichlet(np.ones(3), 60)
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y3, p.argmax(1)), y_true=y3,
                       y_score=p, n_resamples=100)
    assert rep.roc_band is None
    # ... unless one class is chosen: its curve against the rest gets its band
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y3, p.argmax(1)), y_true=y3,
                       y_score=p, pos_label=2, n_resamples=100)
    assert rep.roc_band is not None and rep.roc_band.pos_label == 2
    assert rep.roc_band.ci.sensitivity.estimate[0] == 1.0  # specificity 0: every positive


def test_the_drawn_band_is_the_json_band():
    y, s = _binary(7, 250, ties=True)
    rep = _report(y, s, n_resamples=300)
    d = rep.to_dict()["roc_band"]
    disp = roc_figure(rep, Figure().add_subplot())
    (path,) = disp.band_.get_paths()
    v = path.vertices
    q = len(d["at"])
    lower, upper = v[1:q + 1], v[-q - 1:-1][::-1]  # fill_between: out along low, back on high
    x = 1.0 - np.array(d["at"])
    np.testing.assert_array_equal(lower, np.c_[x, d["sensitivity"]["low"]])
    np.testing.assert_array_equal(upper, np.c_[x, d["sensitivity"]["high"]])
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend[:2] == [f"class 1 (AUC = {rep.curves[0].auc:.3f})", d["legend"]]


def _figure_svgs(page: str) -> list[str]:
    return [base64.b64decode(m).decode() for m in
            re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)]


def test_html_draws_the_band_and_says_what_it_is():
    y, s = _binary(8, 200)
    rep = _report(y, s, n_resamples=300)
    page = render_html(rep)
    roc = _figure_svgs(page)[0]
    assert '<g id="roc-ci-band">' in roc
    assert re.search(r'<g id="roc-ci-band-legend">\s*<!-- 95% CI, stratified bootstrap '
                     r'\(300 resamples\) -->', roc)
    assert "shaded: 95% CI, stratified bootstrap (300 resamples) of the sensitivity at 101 " \
           "specificities" in page
    assert "'unsafe-inline'" not in page
    assert '<g id="roc-ci-band">' not in _figure_svgs(render_html(_report(y, s,
                                                                          intervals=False)))[0]


def test_text_states_the_band_in_one_row_and_the_terminal_summary_skips_it():
    from confmat.cli.summary import build_for_view

    y, s = _binary(9, 300)
    rep = _report(y, s, n_resamples=300)
    se, lo, hi = rep.roc_band.at(0.9)
    assert se == pytest.approx(_se_at_sp_by_proc_rule(y, s, 90), abs=1e-15)
    text = render_text(rep)
    rows = [ln for ln in text.splitlines() if "sensitivity at specificity 0.9" in ln]
    assert len(rows) == 1 and f"{se:.4f}" in rows[0] and f"[{lo:.3f}, {hi:.3f}]" in rows[0]
    assert "ROC summary (intervals: stratified percentile bootstrap (300 resamples))" in text
    assert "sensitivity at specificity 0.9" in render_markdown(rep)
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    view = build_for_view(cm, summary=True, intervals=True, y_true=y, y_score=s)
    assert view.roc_band is None and view.roc_summary == []


# ------------------------------------------------------------------------------ comparison
def test_comparison_overlay_shades_the_bands_of_two_models_by_default():
    y, s = _binary(10, 200)
    rng = np.random.default_rng(1)
    s2 = s + rng.normal(size=len(s))
    preds = {"a": (s >= 0.5).astype(int), "b": (s2 >= 0.5).astype(int)}
    cmp = build_comparison(y, preds, scores={"a": s, "b": s2}, n_resamples=200)
    assert all(r.roc_band is not None for r in cmp.reports)
    assert len(json.loads(render_json(cmp))["reports"][1]["roc_band"]["at"]) == 101
    assert "Shaded lightly in each model&#39;s colour: its 95% CI" in render_html(cmp)
    assert "Shaded lightly" not in render_html(cmp, overlay_bands=False)
    three = build_comparison(y, {**preds, "c": preds["a"]}, scores={"a": s, "b": s2, "c": -s},
                             n_resamples=200)
    assert "Shaded lightly" not in render_html(three)  # unreadable with more: an option
    assert "Shaded lightly" in render_html(three, overlay_bands=True)


def test_roc_comparison_display_draws_each_band_in_its_curves_colour():
    from confmat.curves import threshold_sweep
    from confmat.inference import roc_ci
    from confmat.plots import RocComparisonDisplay

    y, s = _binary(11, 150)
    s2 = s[::-1].copy()
    ci = roc_ci(y, s, specificities=[0.2, 0.9, 0.5], n_resamples=200, random_state=0)
    d = RocComparisonDisplay({"a": threshold_sweep(y, s), "b": threshold_sweep(y, s2)})
    d.plot(ax=Figure().add_subplot(), bands={"a": ci})
    assert list(d.bands_) == ["a"]
    v = d.bands_["a"].get_paths()[0].vertices
    np.testing.assert_allclose(v[1:4], np.c_[[0.8, 0.5, 0.1], ci.sensitivity.low[[0, 2, 1]]],
                               rtol=0, atol=1e-15)
    line = d.ax_.get_lines()[1]  # after the chance line
    assert tuple(d.bands_["a"].get_facecolor()[0][:3]) == pytest.approx(
        to_rgb(line.get_color()))
    assert d.bands_["a"].get_alpha() == 0.12 and d.bands_["a"].get_label() == "_nolegend_"
    with pytest.raises(ValueError, match="models without a curve"):
        d.plot(ax=Figure().add_subplot(), bands={"zz": ci})


# ------------------------------------------------------------------------------ Hand and Till
@st.composite
def _multiclass(draw):
    rs = draw(st.integers(0, 2**32 - 1))
    k = draw(st.integers(3, 6))
    n = draw(st.integers(k + 2, 120))
    rng = np.random.default_rng(rs)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present
    raw = rng.random((n, k)) + np.eye(k)[y] * rng.random() * 2
    if draw(st.booleans()):
        raw = np.round(raw, 1) + 0.01  # ties within columns
    return y, raw / raw.sum(axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(_multiclass())
def test_hand_till_auc_is_sklearns_ovo_macro(case):
    y, p = case
    k = p.shape[1]
    want = roc_auc_score(y, p, multi_class="ovo", average="macro")
    names = [f"c{i}" for i in range(k)]  # string labels, columns in label order
    yl = np.array(names)[y]
    pred = np.array(names)[p.argmax(axis=1)]
    cm = confmat.ConfusionMatrix.from_predictions(yl, pred, labels=names)
    rep = build_report(cm, y_true=yl, y_score=p, intervals=False)
    assert rep.multiclass_auc.auc == pytest.approx(want, abs=1e-12)
    d = json.loads(render_json(rep))["multiclass_auc"]
    assert d["auc"] == pytest.approx(want, abs=1e-12) and d["interval"] is None
    assert len(d["pairs"]) == k * (k - 1) // 2 and d["levels"] == names
    row = next(m for m in rep.roc_summary if m.name == "hand_till_auc")
    assert row.value == pytest.approx(want, abs=1e-12) and row.interval is None


def test_hand_till_auc_by_hand_over_the_classes_present():
    from confmat.report.roc_summaries import multiclass_auc

    # class "z" has a column but no sample: the pairs are those of a and b only.
    # A(a|b): column a ranks a's samples {.6, .5} over b's {.3, .5}: 1 + 1 + 1 + 1/2 of 4
    # A(b|a): column b ranks b's {.4, .2} over a's {.3, .1}: 1 + 1 + 0 + 1 of 4
    y = ["a", "a", "b", "b"]
    p = np.array([[.6, .3, .1], [.5, .1, .4], [.3, .4, .3], [.5, .2, .3]])
    m = multiclass_auc(y, p, ["a", "b", "z"], None)
    assert m.levels == ["a", "b"]
    assert m.auc == pytest.approx((3.5 / 4 + 3 / 4) / 2, abs=1e-15)
    assert multiclass_auc(["a", "a"], p[:2], ["a", "b", "z"], None) is None


def test_comparison_table_lists_hand_till_per_model():
    rng = np.random.default_rng(3)
    n, k = 150, 4
    y = rng.integers(0, k, n)
    scores = {}
    for name, strength in (("weak", 0.3), ("strong", 3.0)):
        raw = rng.random((n, k)) + np.eye(k)[y] * strength
        scores[name] = raw / raw.sum(axis=1, keepdims=True)
    preds = {m: v.argmax(axis=1) for m, v in scores.items()}
    cmp = build_comparison(y, preds, scores=scores, intervals=False, n_resamples=100)
    by = {r["model"]: r for r in cmp.table}
    for m, v in scores.items():
        assert by[m]["hand_till_auc"] == pytest.approx(
            roc_auc_score(y, v, multi_class="ovo", average="macro"), abs=1e-12)
        assert by[m]["hand_till_auc_interval"] is None
    d = json.loads(render_json(cmp))
    assert d["table"][0]["hand_till_auc"] == by[d["table"][0]["model"]]["hand_till_auc"]
    lines = render_text(cmp).splitlines()
    header = lines[lines.index("Models side by side") + 1]
    assert header.split()[0] == "model" and header.split()[-1] == "hand_till_auc"
    assert "<th>hand_till_auc</th>" in render_html(cmp)
    # a model without scores: no column (nothing to compare it with)
    part = build_comparison(y, preds, scores={"weak": scores["weak"]}, intervals=False,
                            n_resamples=100)
    assert all("hand_till_auc" not in r for r in part.table)


# ------------------------------------------------------------------------------ partial AUC
def test_partial_auc_by_hand():
    # y = [0, 0, 1, 1], s = [.1, .4, .35, .8]: on specificity [0.25, 0.75] the curve is
    # se = 1 below sp = .5 and se = .5 above: area 1/4 + 1/8; McClish (1989): diagonal
    # m = (2 - a - b)(b - a) / 2 = 1/4, perfect M = 1/2, corrected (1 + (A - m)/(M - m)) / 2
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    area = Fraction(1, 4) + Fraction(1, 8)
    m, big = Fraction(1, 4), Fraction(1, 2)
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y, [0, 1, 0, 1]), y_true=y,
                       y_score=s, partial_auc=(0.75, 0.25), n_resamples=100)
    d = json.loads(render_json(rep))["partial_auc"]
    assert d["range"] == [0.25, 0.75] and d["focus"] == "specificity" and d["corrected"]
    assert d["uncorrected"] == pytest.approx(float(area), abs=1e-15)
    assert d["value"] == pytest.approx(float((1 + (area - m) / (big - m)) / 2), abs=1e-15)
    assert d["interval_method"] == "stratified percentile bootstrap (100 resamples)"
    lo, hi = d["interval"]
    assert 0 <= lo <= hi <= 1
    row = next(r for r in rep.roc_summary if r.name == "partial_auc")
    assert row.interval == (lo, hi)
    assert "specificity 0.25 to 0.75, McClish-corrected" in render_text(rep)


def test_partial_auc_only_when_asked_and_its_errors():
    y, s = _binary(12, 120)
    assert _report(y, s, n_resamples=100).partial_auc is None
    assert json.loads(render_json(_report(y, s, n_resamples=100)))["partial_auc"] is None
    assert _report(y, s, intervals=False, partial_auc=(0.8, 1)).partial_auc.interval is None
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    with pytest.raises(ValueError, match="partial_auc needs y_score"):
        build_report(cm, partial_auc=(0.8, 1))
    with pytest.raises(ValueError, match="partial_auc must lie within"):
        _report(y, s, partial_auc=(0.8, 1.2))
    with pytest.raises(TypeError, match="pair of numbers"):
        _report(y, s, partial_auc=0.8)
    rng = np.random.default_rng(0)
    y3 = rng.integers(0, 3, 60)
    p = rng.dirichlet(np.ones(3), 60)
    with pytest.raises(ValueError, match="one positive class against the rest"):
        build_report(confmat.ConfusionMatrix.from_predictions(y3, p.argmax(1)), y_true=y3,
                     y_score=p, partial_auc=(0.8, 1))
    w = np.full(len(y), 3.0)
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int),
                                                                sample_weight=w),
                       y_true=y, y_score=s, sample_weight=w, partial_auc=(0.8, 1),
                       n_resamples=100)
    assert rep.partial_auc.interval is None  # equal weights: the unweighted area
    assert rep.partial_auc.value == pytest.approx(
        _report(y, s, intervals=False, partial_auc=(0.8, 1)).partial_auc.value, rel=1e-12)
    assert any(n.startswith("no interval for the partial AUC") for n in rep.notes)
    # a curve under the diagonal on the range: McClish's value is undefined, with a note
    bad = _report(y, -s, intervals=False, partial_auc=(0.8, 1))
    assert np.isnan(bad.partial_auc.value)
    assert json.loads(render_json(bad))["partial_auc"]["value"] is None
    assert bad.partial_auc.notes and bad.partial_auc.notes[0] in bad.notes


def test_csv_long_form_holds_the_band_hand_till_and_partial_auc():
    import csv
    import io

    from confmat.report import render_csv

    y, s = _binary(13, 150)
    rep = _report(y, s, n_resamples=200, partial_auc=(0.9, 1.0))
    rows = list(csv.DictReader(io.StringIO(render_csv(rep))))
    band = [r for r in rows if r["section"] == "roc_band"]
    d = rep.to_dict()["roc_band"]
    assert [r["metric"] for r in band] == [f"sensitivity@specificity={v:g}" for v in d["at"]]
    assert [float(r["low"]) for r in band] == d["sensitivity"]["low"]
    assert [float(r["high"]) for r in band] == d["sensitivity"]["high"]
    (pa,) = [r for r in rows if r["metric"].startswith("partial_auc")]
    assert pa["metric"] == "partial_auc[specificity 0.9 to 1, McClish-corrected]"
    assert float(pa["value"]) == rep.partial_auc.value and pa["class"] == "1"
    rng = np.random.default_rng(2)
    y3 = rng.integers(0, 3, 90)
    p = rng.dirichlet(np.ones(3), 90)
    rep3 = build_report(confmat.ConfusionMatrix.from_predictions(y3, p.argmax(1)), y_true=y3,
                        y_score=p, intervals=False)
    (ht,) = [r for r in csv.DictReader(io.StringIO(render_csv(rep3)))
             if r["metric"] == "hand_till_auc"]
    assert float(ht["value"]) == pytest.approx(
        roc_auc_score(y3, p, multi_class="ovo", average="macro"), abs=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([3, 4, 5]))
def test_a_class_absent_from_y_true_gets_a_note_and_the_others_their_curves(seed, k):
    """labels= naming a class y_true lacks: a report, not an error; each present class's
    one-vs-rest AUC is scikit-learn's, and the note names the absent class."""
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, k - 1, n)  # the last class never occurs in y_true
    y[: k - 1] = np.arange(k - 1)
    s = rng.dirichlet(np.ones(k), n)
    p = s.argmax(axis=1)
    cm = confmat.ConfusionMatrix.from_predictions(y, p, labels=list(range(k)))
    rep = build_report(cm, y_true=y, y_pred=p, y_score=s, intervals=False)
    got = {c.pos_label: c.auc for c in rep.curves}
    assert sorted(got) == list(range(k - 1))
    for c, auc in got.items():
        assert auc == pytest.approx(roc_auc_score(y == c, s[:, c]), abs=1e-12)
    assert any(note.startswith(f"no one-vs-rest curve of {k - 1}:") for note in rep.notes)
