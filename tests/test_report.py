"""The report model and its text / Markdown / JSON / CSV / HTML renderers.

Oracles: scikit-learn metrics and curves, numpy counts of ``score >= t`` written here.
"""

from __future__ import annotations

import csv
import io
import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

import confmat
from confmat.metrics import list_metrics
from confmat.plots import marked_points
from confmat.report import (
    build_comparison,
    build_report,
    render_csv,
    render_html,
    render_json,
    render_markdown,
    render_text,
)
from confmat.report.scores import score_curves
from confmat.report.shown import shown_metrics
from conftest import count_tables


@pytest.fixture(scope="module")
def three_class():
    rng = np.random.default_rng(2)
    y = rng.choice(["ant", "bee", "cat"], 500)
    p = np.where(rng.random(500) < 0.7, y, rng.choice(["ant", "bee", "cat"], 500))
    return y, p


def test_report_values_match_sklearn(three_class) -> None:
    y, p = three_class
    cm = confmat.ConfusionMatrix.from_predictions(y, p)
    rep = build_report(cm, intervals=False)
    assert rep.counts.tolist() == confusion_matrix(y, p).tolist()
    per = {r.name: r for r in rep.per_class}
    np.testing.assert_allclose(per["precision"].values, precision_score(y, p, average=None))
    np.testing.assert_allclose(per["recall"].values, recall_score(y, p, average=None))
    for avg in ("micro", "macro", "weighted"):
        assert per["f1"].averages[avg] == pytest.approx(f1_score(y, p, average=avg))
    assert rep.overall_value("mcc") == pytest.approx(matthews_corrcoef(y, p))
    assert rep.overall_value("cohen_kappa") == pytest.approx(cohen_kappa_score(y, p))
    assert rep.overall_value("bacc") == pytest.approx(balanced_accuracy_score(y, p))
    np.testing.assert_allclose(rep.row_percentages.sum(axis=1), 100.0)


def test_report_reads_the_registry() -> None:
    rep = build_report(confmat.ConfusionMatrix([[5, 1], [2, 7]]), intervals=False)
    per_names = [r.name for r in rep.per_class]
    overall_names = [m.name for m in rep.overall]
    for spec in list_metrics():
        shown = spec.name in per_names or spec.name in overall_names
        assert shown == (spec in shown_metrics(spec.kind)), spec.name
        if spec.is_count:
            assert not shown
    assert {"informedness", "markedness"} <= set(per_names)
    assert {"mcc_yao2022", "gmean", "kappa"} <= set(overall_names)
    full = {m.name: m.full_name for m in rep.overall}
    assert full["mcc"] == confmat.get_metric("mcc").full_name


def test_intervals_and_notes() -> None:
    cm = confmat.ConfusionMatrix([[40, 10, 0], [5, 45, 0], [3, 2, 0]])
    rep = build_report(cm)
    acc = next(m for m in rep.overall if m.name == "accuracy")
    assert acc.interval is not None and acc.interval[0] < acc.value < acc.interval[1]
    rec = next(r for r in rep.per_class if r.name == "recall")
    assert rec.intervals is not None and len(rec.intervals) == 3
    # class 2 is never predicted: precision is undefined there, and the report says so, once
    # for every such metric and without the Python argument a report reader cannot set
    said = [n for n in rep.notes if "undefined for some classes" in n]
    assert len(said) == 1 and "precision" in said[0].split(":")[1]
    assert not any("zero_division" in n for n in rep.notes)


def test_score_curve_counts_and_roc_match_oracles() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    s = (rng.random(300) * 0.7 + 0.3 * y).round(2)
    w = rng.random(300) + 0.5
    (c,) = score_curves(y, s, [0, 1], sample_weight=w)
    sw = c.sweep
    assert isinstance(sw, confmat.curves.ThresholdSweep)
    assert np.all(np.diff(c.thresholds) < 0)
    for i in range(0, len(c.thresholds), 7):
        t = c.thresholds[i]
        assert sw.tp[i] == pytest.approx(np.sum(w * ((s >= t) & (y == 1))))
        assert sw.fp[i] == pytest.approx(np.sum(w * ((s >= t) & (y == 0))))
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    from confmat.plots import RocCurveDisplay

    disp = RocCurveDisplay(sw)
    np.testing.assert_allclose(disp.fpr, fpr)
    np.testing.assert_allclose(disp.tpr, tpr)
    assert c.auc == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    for t in (0.05, 0.333, 0.5, 0.77, 2.0):  # also thresholds between and beyond scores
        (tn, fp), (fn, tp) = sw.at(t).counts.tolist()
        hit = s >= t
        assert (tp, fn, fp, tn) == pytest.approx((np.sum(w * (hit & (y == 1))),
                                                  np.sum(w * (~hit & (y == 1))),
                                                  np.sum(w * (hit & (y == 0))),
                                                  np.sum(w * (~hit & (y == 0)))))
    for p in marked_points(sw):
        hit = s >= p["threshold"]
        assert p["tpr"] == pytest.approx(np.sum(w * (hit & (y == 1))) / np.sum(w * (y == 1)))
        assert p["fpr"] == pytest.approx(np.sum(w * (hit & (y == 0))) / np.sum(w * (y == 0)))
    (u,) = score_curves(y, s, [0, 1])
    mcc = u.sweep.metric("mcc")
    for i in (3, 20, 50):
        assert mcc[i] == pytest.approx(matthews_corrcoef(y, s >= u.thresholds[i]), abs=1e-12)
    thin = u.slider(max_points=10)
    # ten evenly spaced thresholds, plus the opening one (score >= 0.5) when it is not among them
    assert len(thin["thresholds"]) in (10, 11) and thin["thinned"]
    assert thin["thresholds"][thin["start"]] == np.min(s[s >= 0.5])
    for k, (t, tp) in enumerate(zip(thin["thresholds"], thin["tp"], strict=True)):
        assert tp == np.sum((s >= t) & (y == 1))
        pred = (s >= t).astype(int)
        assert thin["metrics"]["mcc"][k] == pytest.approx(matthews_corrcoef(y, pred), abs=1e-12)
        assert thin["metrics"]["f1"][k] == pytest.approx(f1_score(y, pred), abs=1e-12)


def test_slider_values_come_from_the_registry_and_open_on_the_printed_matrix() -> None:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    s = (rng.random(200) * 0.6 + 0.4 * y).round(2)
    for cut in (0.5, 0.37, 0.81):  # predictions from a threshold that is not 0.5, too
        pred = (s >= cut).astype(int)
        rep = build_report(confmat.ConfusionMatrix.from_predictions(y, pred), y_true=y,
                           y_score=s, intervals=False)
        (d,) = rep.slider_data()
        i = d["start"]
        assert d["start_is_printed_matrix"]
        printed = confusion_matrix(y, pred)
        assert [d["tn"][i], d["fp"][i], d["fn"][i], d["tp"][i]] == printed.ravel().tolist()
        at = (s >= d["thresholds"][i]).astype(int)
        assert confusion_matrix(y, at).tolist() == printed.tolist()
        for k in (0, i, len(d["thresholds"]) // 2, len(d["thresholds"]) - 1):
            pk = (s >= d["thresholds"][k]).astype(int)
            assert d["metrics"]["precision"][k] == pytest.approx(
                precision_score(y, pk, zero_division=0), abs=1e-12)
            assert d["metrics"]["recall"][k] == pytest.approx(recall_score(y, pk), abs=1e-12)
            assert d["metrics"]["balanced_accuracy"][k] == pytest.approx(
                balanced_accuracy_score(y, pk), abs=1e-12)
    # argmax predictions of a multiclass model are no threshold of one column: the slider says so
    labels = ["a", "b", "c"]
    yy = rng.choice(labels, 150)
    proba = rng.dirichlet([1, 1, 1], 150)
    pred = np.array(labels)[proba.argmax(1)]
    rep = build_report(confmat.ConfusionMatrix.from_predictions(yy, pred, labels=labels),
                       y_true=yy, y_score=proba, intervals=False)
    assert [d["pos_label"] for d in rep.slider_data()] == labels


def test_pos_label_is_resolved_by_the_door() -> None:
    y = np.array(["healthy", "sick"] * 20)
    rng = np.random.default_rng(3)
    p_sick = np.clip(0.5 * (y == "sick") + 0.5 * rng.random(40), 0, 1)
    pred = np.where(p_sick >= 0.5, "sick", "healthy")
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    # string labels without pos_label: the door's error, not a silent guess
    with pytest.raises(ValueError, match="pos_label"):
        build_report(cm, y_true=y, y_score=p_sick, intervals=False)
    with pytest.raises(ValueError, match="pos_label"):
        build_report(cm, y_true=y, y_score=np.column_stack([1 - p_sick, p_sick]),
                     intervals=False)
    rep = build_report(cm, y_true=y, y_score=1 - p_sick, pos_label="healthy", intervals=False)
    assert rep.curves[0].pos_label == "healthy"
    assert rep.curves[0].auc == pytest.approx(roc_auc_score(y == "healthy", 1 - p_sick))
    two = build_report(cm, y_true=y, y_score=np.column_stack([1 - p_sick, p_sick]),
                       pos_label="sick", intervals=False)
    assert two.curves[0].auc == pytest.approx(roc_auc_score(y == "sick", p_sick))


def test_json_is_strict_and_csv_is_long_form() -> None:
    cm = confmat.ConfusionMatrix([[10, 0], [4, 6]], labels=["yes", "no"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cm, intervals=False)
    rep.overall[-1].value = float("nan")
    rep.per_class[-1].values[1] = float("inf")
    text = render_json(rep)
    d = json.loads(text)  # json.loads would accept NaN; check it never appears
    assert "NaN" not in text and "Infinity" not in text
    assert d["overall"][-1]["value"] is None and d["per_class"][-1]["values"][1] is None
    rows = list(csv.DictReader(io.StringIO(render_csv(rep))))
    cells = {(r["true"], r["predicted"]): float(r["value"]) for r in rows
             if r["section"] == "matrix"}
    assert cells == {("yes", "yes"): 10, ("yes", "no"): 0, ("no", "yes"): 4, ("no", "no"): 6}
    acc = next(r for r in rows if r["section"] == "overall" and r["metric"] == "accuracy")
    assert float(acc["value"]) == pytest.approx(16 / 20)


def test_text_and_markdown_render_every_section() -> None:
    cm = confmat.ConfusionMatrix([[5, 1], [2, 7]], labels=["a|b", "c"])
    rep = build_report(cm, intervals=False, title="T")
    text = render_text(rep)
    for part in ("Confusion matrix", "Accuracy matrix", "Headline metrics", "Per-class", "All overall",
                 "mcc_yao2022", "a|b"):
        assert part in text
    md = render_markdown(rep)
    assert "a\\|b" in md and "| metric |" in md
    assert str(rep) == text


def test_html_escapes_every_user_string() -> None:
    evil = "<script>alert(1)</script>"
    y = np.array([evil, "x", evil, "x", evil])
    s = np.array([0.9, 0.2, 0.6, 0.7, 0.4])
    cm = confmat.ConfusionMatrix.from_predictions(y, np.where(s >= 0.5, evil, "x"))
    rep = build_report(cm, y_true=y, y_score=s, pos_label=evil, intervals=False, title=evil,
                       source={"file": "<img src=x onerror=alert(2)>"})
    html = render_html(rep)
    assert evil not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\\u003cscript\\u003e" in html  # inside the JSON data block
    assert 'http-equiv="Content-Security-Policy"' in html and "default-src 'none'" in html
    urls = [u for u in ("http://", "https://") if u in html.replace("http://www.w3.org", "")]
    assert urls == []


def test_comparison_against_sklearn_and_holm() -> None:
    from scipy.stats import chi2

    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 400)
    s = {m: np.clip(q * y + (1 - q) * rng.random(400), 0, 1) for m, q in
         (("a", 0.1), ("b", 0.3), ("c", 0.35))}
    preds = {m: (v >= 0.5).astype(int) for m, v in s.items()}
    cmp = build_comparison(y, preds, scores=s, intervals=False, n_resamples=200)
    assert isinstance(cmp.result, confmat.inference.Comparison)
    for row in cmp.table:
        assert row["mcc"] == pytest.approx(matthews_corrcoef(y, preds[row["model"]]))
        assert row["roc_auc"] == pytest.approx(roc_auc_score(y, s[row["model"]]))
    ps = cmp.tests
    assert len(ps) == 3  # McNemar (the test metric: accuracy) for each of the 3 pairs
    for t in ps:
        # McNemar with continuity correction, worked here from the discordant pairs
        ra, rb = preds[t["model_a"]] == y, preds[t["model_b"]] == y
        n01, n10 = np.sum(ra & ~rb), np.sum(~ra & rb)
        stat = (abs(n01 - n10) - 1) ** 2 / (n01 + n10)
        assert t["pvalue"] == pytest.approx(chi2.sf(stat, 1))
    m = len(ps)
    order = sorted(ps, key=lambda t: t["pvalue"])
    expected, running = [], 0.0
    for k, t in enumerate(order):
        running = max(running, min(1.0, (m - k) * t["pvalue"]))
        expected.append(running)
    assert [t["pvalue_adjusted"] for t in order] == pytest.approx(expected)
    auc = build_comparison(y, preds, scores=s, intervals=False, test_metric="roc_auc",
                           n_resamples=200)
    assert {t["method"] for t in auc.tests} == {"delong"}
    json.loads(render_json(cmp))
    assert "Models side by side" in render_text(cmp)
    with pytest.raises(ValueError, match="predictions"):
        build_comparison(y, {"a": preds["a"], "short": preds["b"][:10]})
    with pytest.raises(ValueError, match="unknown models"):
        build_comparison(y, preds, scores={"zzz": s["a"]})
    with pytest.raises(ValueError, match="per-class"):
        build_comparison(y, preds, metrics=["recall"], intervals=False)


def test_bad_scores_are_named() -> None:
    cm = confmat.ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match=r"^y_true and y_score have different lengths: 3 and 2$"):
        build_report(cm, y_true=[0, 1, 1], y_score=[0.1, 0.2], intervals=False)
    with pytest.raises(ValueError, match="NaN"):
        build_report(cm, y_true=[0, 1, 1], y_score=[0.1, np.nan, 0.3], intervals=False)
    with pytest.raises(ValueError, match="pos_label"):
        build_report(cm, y_true=[0, 1, 1], y_score=[0.1, 0.2, 0.3], pos_label=5,
                     intervals=False)
    with pytest.raises(ValueError, match="without y_true"):
        build_report(cm, y_score=[0.1, 0.2, 0.3], intervals=False)
    with pytest.raises(TypeError, match="ConfusionMatrix"):
        build_report([[1, 2], [3, 4]])


@settings(max_examples=25, deadline=None)
@given(table=count_tables(k_min=1, k_max=6), weighted=st.booleans())
def test_any_table_renders_in_every_format(table, weighted) -> None:
    counts = table * 0.5 if weighted else table
    cm = confmat.ConfusionMatrix(counts, labels=[f"c{i}<&>" for i in range(len(table))])
    rep = build_report(cm, intervals=False)
    d = json.loads(render_json(rep))
    assert d["counts"] == counts.tolist()
    per = {r["name"]: r for r in d["per_class"]}
    support = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(support > 0, np.diagonal(counts) / np.where(support > 0, support, 1), 0)
    np.testing.assert_allclose(per["recall"]["values"], recall)
    html = render_html(rep)
    assert "<&>" not in html and "c0&lt;&amp;&gt;" in html
    rows = list(csv.DictReader(io.StringIO(render_csv(rep))))
    assert sum(float(r["value"]) for r in rows if r["section"] == "matrix") == counts.sum()
    assert render_text(rep) and render_markdown(rep)


def test_interval_metrics_restricts_the_intervals_and_checks_its_names():
    """build_report(interval_metrics=...): the named intervals are those of the full report,
    the others are not computed; aliases are accepted, unknown names are an error naming the
    argument."""
    from confmat import ConfusionMatrix

    cm = ConfusionMatrix([[30, 4, 1], [3, 25, 6], [2, 2, 40]])
    full = build_report(cm)
    part = build_report(cm, interval_metrics=["sensitivity", "kappa", "f1_macro"])
    rows = {r.name: r for r in part.per_class}
    assert rows["recall"].intervals == {r.name: r for r in full.per_class}["recall"].intervals
    assert all(r.intervals is None for n, r in rows.items() if n != "recall")
    got = {m.name: m.interval for m in part.overall}
    assert got["kappa"] == {m.name: m.interval for m in full.overall}["kappa"]
    assert got["kappa"] is not None
    assert all(v is None for n, v in got.items() if n != "kappa")
    assert part.extra_intervals["f1_macro"] == full.extra_intervals["f1_macro"]
    assert build_report(cm, intervals=False, interval_metrics=["kappa"]).overall[0].interval \
        is None
    with pytest.raises(ValueError, match="interval_metrics: unknown metric 'kapa'"):
        build_report(cm, interval_metrics=["kapa"])
    with pytest.raises(TypeError, match="interval_metrics"):
        build_report(cm, interval_metrics="kappa")
