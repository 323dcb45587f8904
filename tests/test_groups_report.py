"""The by-group section of the report (``build_report(ev.overall, groups=ev)``) in HTML,
Markdown, JSON and the CLI's ``report --by -o x.html``. Oracles: fairlearn's ``MetricFrame``
and named measures, scikit-learn per group, statsmodels' Wilson interval; the page is read
back with the standard library's HTML parser."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.groups import by_group
from confmat.report import build_report, render_html, render_json
from confmat.report.groups_section import (
    build_groups_section,
    disparity_flag,
    is_large,
    render_groups_markdown,
    render_groups_text,
)

fm = pytest.importorskip("fairlearn.metrics")
proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint

#: metric of the section -> scikit-learn / fairlearn function of (y_true, y_pred) on binary 0/1
ORACLES = {
    "accuracy": skm.accuracy_score,
    "balanced_accuracy": skm.balanced_accuracy_score,
    "recall": lambda y, p: skm.recall_score(y, p, zero_division=np.nan),
    "precision": lambda y, p: skm.precision_score(y, p, zero_division=np.nan),
    "f1": lambda y, p: skm.f1_score(y, p, zero_division=np.nan),
    "fpr": fm.false_positive_rate,
    "selection_rate": fm.selection_rate,
}


class Tables(HTMLParser):
    """Rows of the page's ``table.groups`` and ``table.disparities``: per row its class and
    each cell's ``data-v`` and text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[dict]] = {"groups": [], "disparities": []}
        self.heads: list[str] = []
        self.where: str | None = None
        self.part = ""
        self.cell: dict | None = None
        self.in_button = False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            cls = (a.get("class") or "").split()
            self.where = next((c for c in cls if c in self.tables), None)
        elif self.where and tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        elif self.where and self.part == "tbody" and tag == "tr":
            self.tables[self.where].append({"class": a.get("class") or "", "cells": []})
        elif self.where and self.part == "tbody" and tag in ("td", "th"):
            self.cell = {"v": a.get("data-v"), "text": ""}
            self.tables[self.where][-1]["cells"].append(self.cell)
        elif self.where == "groups" and self.part == "thead" and tag == "button":
            self.in_button = True
            self.heads.append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.where = None
        elif tag in ("td", "th"):
            self.cell = None
        elif tag == "button":
            self.in_button = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        elif self.in_button:
            self.heads[-1] += data


def _data(seed: int, n: int = 700):
    rng = np.random.default_rng(seed)
    g = rng.choice(["north", "south", "east", "<b>west</b>"], n, p=[0.5, 0.3, 0.17, 0.03])
    y = rng.integers(0, 2, n)
    flip = rng.random(n) < np.where(g == "south", 0.35, 0.12)
    return y, np.where(flip, 1 - y, y), g


@pytest.fixture(scope="module")
def case():
    y, p, g = _data(3)
    ev = by_group(y, p, {"region": g}, pos_label=1)
    rep = build_report(ev.overall, groups=ev)
    return {"y": y, "p": p, "g": g, "ev": ev, "rep": rep, "page": render_html(rep)}


def test_html_table_matches_fairlearn_metricframe(case):
    y, p, g = case["y"], case["p"], case["g"]
    mf = fm.MetricFrame(metrics=ORACLES, y_true=y, y_pred=p, sensitive_features=g)
    t = Tables(case["page"])
    assert t.heads == ["region", "size", *ORACLES]
    rows = t.tables["groups"]
    assert sorted(r["cells"][0]["text"].replace(" small", "").strip() for r in rows) \
        == sorted(np.unique(g).tolist())
    for r in rows:
        key = r["cells"][0]["v"]
        assert int(r["cells"][1]["v"]) == int((g == key).sum())
        for name, c in zip(ORACLES, r["cells"][2:], strict=True):
            want = mf.by_group.loc[key, name]
            if np.isnan(want):
                assert c["v"] == ""
            else:
                assert float(c["v"]) == pytest.approx(want, abs=1e-12), (key, name)
                assert c["text"].startswith(f"{want:.4f}")


def test_small_groups_are_flagged_not_hidden(case):
    g = case["g"]
    rows = Tables(case["page"]).tables["groups"]
    sizes = {r["cells"][0]["v"]: int(r["cells"][1]["v"]) for r in rows}
    assert len(sizes) == len(np.unique(g))
    for r in rows:
        small = sizes[r["cells"][0]["v"]] < 30
        assert ("small" in r["class"].split()) is small
        assert ("small" in r["cells"][0]["text"]) is small
    assert min(sizes.values()) < 30  # the case has one: the check above can fail


def test_wilson_intervals_in_the_table(case):
    y, p, g = case["y"], case["p"], case["g"]
    rows = Tables(case["page"]).tables["groups"]
    for r in rows:
        m = g == r["cells"][0]["v"]
        lo, hi = proportion_confint(int((y[m] == p[m]).sum()), int(m.sum()), method="wilson")
        text = r["cells"][2]["text"]
        assert re.search(r"\[([0-9.]+), ([0-9.]+)\]", text).groups() == (f"{lo:.3f}",
                                                                          f"{hi:.3f}")
    sec = case["rep"].groups
    for r in sec.rows:
        m = g == r["group"]
        tp, pos = int(((y == 1) & (p == 1) & m).sum()), int(((y == 1) & m).sum())
        assert r["intervals"]["recall"] == pytest.approx(
            list(proportion_confint(tp, pos, method="wilson")), abs=1e-12)


def test_disparities_against_fairlearn_and_the_rule(case):
    y, p, g = case["y"], case["p"], case["g"]
    mf = fm.MetricFrame(metrics=ORACLES, y_true=y, y_pred=p, sensitive_features=g)
    want = {}
    for name in ORACLES:
        want[f"{name} difference"] = mf.difference(method="between_groups")[name]
        want[f"{name} ratio"] = mf.ratio(method="between_groups")[name]
        want[f"{name} difference to overall"] = mf.difference(method="to_overall")[name]
        want[f"{name} ratio to overall"] = mf.ratio(method="to_overall")[name]
    for name in ("demographic_parity_difference", "demographic_parity_ratio",
                 "equalized_odds_difference", "equalized_odds_ratio"):
        want[name] = getattr(fm, name)(y, p, sensitive_features=g)
    want["equal_opportunity_difference"] = fm.MetricFrame(
        metrics=skm.recall_score, y_true=y, y_pred=p, sensitive_features=g).difference()
    rows = Tables(case["page"]).tables["disparities"]
    got = {r["cells"][0]["text"]: r for r in rows}
    assert set(want) <= set(got)
    section = {d["name"]: d for d in case["rep"].groups.disparities}
    flags = []
    for name, v in want.items():
        r = got[name]
        assert float(r["cells"][2]["text"]) == pytest.approx(v, abs=5e-5), name
        d = section[name]
        lo, hi = d["low"], d["high"]
        assert r["cells"][3]["text"] == f"[{lo:.4f}, {hi:.4f}]", name
        # the rule: over the threshold, and an interval that excludes no disparity
        kind = "difference" if "difference" in name else "ratio"
        over = abs(v) >= 0.1 if kind == "difference" else v < 0.8
        excludes = lo > 0 if kind == "difference" else hi < 1
        flag = ("large" if excludes else "uncertain") if over else ""
        flags.append(flag)
        assert r["class"] == flag and r["cells"][4]["text"] == flag, name
        assert d["flag"] == (flag or None) and d["large"] is (flag == "large")
    assert {"large", "uncertain", ""} <= set(flags)  # the case shows every flag


def test_forest_figure_and_data(case):
    page = case["page"]
    assert "forest plot of balanced_accuracy by group" in page
    f = case["rep"].groups.forest
    y, p, g = case["y"], case["p"], case["g"]
    for key, e in zip(f["groups"], f["estimate"], strict=True):
        m = g == key
        assert e == pytest.approx(skm.balanced_accuracy_score(y[m], p[m]), abs=1e-12)
    assert f["overall"] == pytest.approx(skm.balanced_accuracy_score(y, p), abs=1e-12)
    assert all(lo <= e <= hi for e, lo, hi in zip(f["estimate"], f["low"], f["high"],
                                                   strict=True))


def test_page_keeps_its_csp_and_escapes_labels(case):
    page = case["page"]
    sec = page[page.index('<section class="by-group"'):page.index("</section>")]
    assert "<b>west</b>" not in sec and "&lt;b&gt;west&lt;/b&gt;" in sec
    assert not re.search(r"\sstyle=|\son[a-z]+=", sec)
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    assert len(scripts) == 1 and "table.sortable" in scripts[0]
    assert "'unsafe-inline'" not in page and "script-src 'sha256-" in page


def test_page_without_groups_unchanged_and_json_carries_the_section(case):
    ev = case["ev"]
    plain = render_html(build_report(ev.overall, intervals=False))
    assert "by-group" not in plain and "<script>" not in plain
    d = json.loads(render_json(case["rep"]))
    assert [r["size"] for r in d["groups"]["rows"]] == [int(v) for v in ev.sizes]
    assert build_report(ev.overall, intervals=False).to_dict()["groups"] is None


def test_reference_group_and_thresholds():
    y, p, g = _data(8, 400)
    ev = by_group(y, p, g, pos_label=1)
    sec = build_groups_section(ev, ["accuracy"], reference="north", intervals=False,
                               large_difference=0.05, large_ratio=0.95)
    mf = fm.MetricFrame(metrics=skm.accuracy_score, y_true=y, y_pred=p, sensitive_features=g)
    ref = mf.by_group["north"]
    d = {x["name"]: x for x in sec.disparities}
    assert d["accuracy difference to north"]["value"] == pytest.approx(
        (mf.by_group - ref).abs().max(), abs=1e-12)
    r = (mf.by_group / ref).map(lambda v: v if v <= 1 else 1 / v).min()
    assert d["accuracy ratio to north"]["value"] == pytest.approx(r, abs=1e-12)
    for x in sec.disparities:  # no intervals: over a threshold is uncertain, never large
        over = x["value"] >= 0.05 if x["kind"] == "difference" else x["value"] < 0.95
        assert x["flag"] == ("uncertain" if over else None) and x["large"] is False
        assert x["low"] is None and x["high"] is None
    assert any(x["flag"] for x in sec.disparities)
    assert any("marked uncertain" in n for n in sec.notes)
    page = render_html(build_report(ev.overall, groups=sec, intervals=False))
    assert "to group north" in page and "a difference of at least 0.05" in page
    assert "(no intervals were computed)" in page
    with pytest.raises(ValueError, match="reference"):
        build_groups_section(ev, ["accuracy"], reference="nowhere")


def test_build_report_rejects_bad_groups():
    y, p, g = _data(1, 100)
    ev = by_group(y, p, g)
    with pytest.raises(TypeError, match="groups must be a GroupedEvaluation"):
        build_report(ev.overall, groups={"a": 1})
    from confmat import ConfusionMatrix

    with pytest.raises(ValueError, match="classes"):
        build_report(ConfusionMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]]), groups=ev)


def test_text_and_markdown_mark_large_uncertain_and_small():
    y, p, g = _data(3, 300)
    sec = build_groups_section(by_group(y, p, g, pos_label=1), ["accuracy", "recall"])
    text = render_groups_text(sec)
    md = render_groups_markdown(sec)
    assert {d["flag"] for d in sec.disparities} == {"large", "uncertain", None}
    for d in sec.disparities:
        line = next(ln for ln in text.splitlines() if ln.strip().startswith(d["name"] + " "))
        assert line.endswith(f"({d['flag']})" if d["flag"] else "]"), line
        assert f"[{d['low']:.4f}, {d['high']:.4f}]" in line
        row = next(ln for ln in md.splitlines()
                   if ln.startswith(f"| {d['name']} |"))  # an underscore within a word is no emphasis
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1].startswith("**") is d["large"]
        assert cells[2] == f"[{d['low']:.4f}, {d['high']:.4f}]" and cells[3] == (d["flag"] or "")
    assert "(small)" in md and "*" in text
    md = render_groups_markdown(build_groups_section(by_group([0, 1], [0, 1], ["<b>|x", "y"]),
                                                     ["accuracy"], intervals=False))
    assert "| &lt;b&gt;\\|x | 1 (small) |" in md and "<b>" not in md


@pytest.mark.parametrize("kind, value, large", [("difference", 0.1, True),
                                                ("difference", -0.2, True),
                                                ("difference", 0.0999, False),
                                                ("ratio", 0.8, False), ("ratio", 0.79, True),
                                                ("ratio", float("nan"), False),
                                                ("difference", None, False)])
def test_is_large_rule(kind, value, large):
    assert is_large(kind, value) is large


@pytest.mark.parametrize("kind, value, low, high, flag", [
    ("difference", 0.2, 0.01, 0.3, "large"), ("difference", 0.2, -0.05, 0.4, "uncertain"),
    ("difference", 0.2, 0.0, 0.4, "uncertain"), ("difference", 0.05, 0.01, 0.1, None),
    ("difference", 0.2, None, None, "uncertain"), ("difference", 0.2, float("nan"), 0.3,
                                                   "uncertain"),
    ("ratio", 0.7, 0.5, 0.95, "large"), ("ratio", 0.7, 0.5, 1.0, "uncertain"),
    ("ratio", 0.85, 0.7, 0.9, None), ("ratio", None, 0.1, 0.2, None),
])
def test_disparity_flag_rule(kind, value, low, high, flag):
    assert disparity_flag(kind, value, low, high) == flag


def test_a_small_group_over_the_threshold_by_chance_is_uncertain():
    """Accuracy 12 / 15 = 0.8 in a group of 15 and 555 / 600 = 0.925 in one of 600: the gap
    0.125 is over 0.1, but 15 samples cannot tell 0.8 from 0.925 (Wilson's interval of 12 / 15
    is [0.55, 0.93]), so the comparison's interval includes 0 and the flag is uncertain."""
    y = np.r_[np.ones(15, int), np.ones(600, int)]
    y[::2] = 0
    p = y.copy()
    p[:3] = 1 - p[:3]
    p[15:60] = 1 - p[15:60]
    g = np.r_[np.full(15, "small"), np.full(600, "large")]
    sec = build_groups_section(by_group(y, p, g, pos_label=1), ["accuracy"])
    d = {x["name"]: x for x in sec.disparities}["accuracy difference"]
    assert d["value"] == pytest.approx(555 / 600 - 12 / 15, abs=1e-12)
    assert d["value"] >= 0.1 and d["low"] < 0 < d["high"] and d["flag"] == "uncertain"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(20, 200), k=st.integers(1, 4))
def test_random_sections_match_scikit_learn(seed, n, k):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, 2, n), rng.integers(0, 2, n)
    g = rng.integers(0, k, n).astype(str)
    sec = build_groups_section(by_group(y, p, g, pos_label=1), ["accuracy", "recall"],
                               intervals=False)
    rows = Tables(render_html(build_report(by_group(y, p, g, pos_label=1).overall,
                                           groups=sec, intervals=False))).tables["groups"]
    assert len(rows) == len(np.unique(g))
    for r in rows:
        m = g == r["cells"][0]["v"]
        assert float(r["cells"][2]["v"]) == pytest.approx(skm.accuracy_score(y[m], p[m]))
        rec = skm.recall_score(y[m], p[m], zero_division=np.nan)
        assert (r["cells"][3]["v"] == "") if np.isnan(rec) else \
            float(r["cells"][3]["v"]) == pytest.approx(rec)


# ----------------------------------------------------------------------------- the CLI
def _csv(tmp_path):
    y, p, g = _data(5, 500)
    path = tmp_path / "preds.csv"
    g = np.where(g == "<b>west</b>", "west", g)
    path.write_text("y,yhat,region\n" + "".join(f"{a},{b},{c}\n" for a, b, c in
                                               zip(y, p, g, strict=True)))
    return path, y, p, g


@pytest.mark.parametrize("suffix", ["html", "md"])
def test_cli_by_writes_html_and_markdown(tmp_path, suffix, capsys):
    pytest.importorskip("duckdb")
    from confmat.cli import main

    path, y, p, g = _csv(tmp_path)
    out = tmp_path / f"groups.{suffix}"
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "region",
                 "--pos-label", "1", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    mf = fm.MetricFrame(metrics=ORACLES, y_true=y, y_pred=p, sensitive_features=g)
    if suffix == "html":
        rows = Tables(text).tables["groups"]
        assert len(rows) == len(mf.by_group)
        for r in rows:
            key = r["cells"][0]["v"]
            assert float(r["cells"][4]["v"]) == pytest.approx(mf.by_group.loc[key, "recall"])
        assert "by: <b>region</b>" in text
    else:
        assert "## By group (region)" in text
        for key, row in mf.by_group.iterrows():
            assert re.search(rf"\| {re.escape(key)} \| \d+( \(small\))? \| "
                             rf"{row['accuracy']:.4f} ", text), key


def test_cli_by_csv_written_from_the_extension(tmp_path, capsys):
    """``--by`` with ``-o x.csv`` writes the long form (was refused): the groups of the file
    and their sizes, counted by pandas."""
    pytest.importorskip("duckdb")
    import pandas as pd

    from confmat.cli import main

    path, *_ = _csv(tmp_path)
    out = tmp_path / "x.csv"
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "region",
                 "--no-intervals", "-o", str(out)]) == 0
    df = pd.read_csv(out)
    src = pd.read_csv(path)
    sizes = df[(df.section == "group") & (df.metric == "accuracy")].set_index("group[region]")
    assert sizes["size"].astype(int).to_dict() == src.groupby("region").size().to_dict()


def test_str_and_markdown_of_a_report_carry_the_section_once(case):
    from confmat.report import render_markdown, render_text

    g = case["g"]
    for text in (render_text(case["rep"]), str(case["rep"])):
        assert text.count("By group") == 1
        for key in np.unique(g):  # every group with its size (numpy's count)
            assert re.search(rf"{re.escape(key)}\s+{np.sum(g == key)}\b", text), key
    md = render_markdown(case["rep"])
    assert md.count("## By group") == 1
    assert md.index("## By group") > md.index("Confusion matrix")


def test_notebook_fragment_carries_the_groups_and_disparities(case):
    """The notebook view (``_repr_html_``) of a report by group: the table by group (values
    as fairlearn's MetricFrame computes them, small groups marked) and the disparities with
    their flags, as on the page; no script and no sort buttons."""
    from confmat.report import render_fragment

    y, p, g = case["y"], case["p"], case["g"]
    frag = render_fragment(case["rep"])
    assert frag == case["rep"]._repr_html_()
    assert "<script" not in frag and "<button" not in frag
    mf = fm.MetricFrame(metrics=ORACLES, y_true=y, y_pred=p, sensitive_features=g)
    t = Tables(frag)
    rows = t.tables["groups"]
    assert len(rows) == len(np.unique(g))
    for r in rows:
        key = r["cells"][0]["v"]
        assert ("small" in r["class"]) == ((g == key).sum() < case["rep"].groups.min_support)
        for name, c in zip(ORACLES, r["cells"][2:], strict=True):
            want = mf.by_group.loc[key, name]
            if not np.isnan(want):
                assert float(c["v"]) == pytest.approx(want, abs=1e-12), (key, name)
    page = Tables(case["page"]).tables["disparities"]
    got = t.tables["disparities"]
    assert [(r["class"], [c["text"] for c in r["cells"]]) for r in got] \
        == [(r["class"], [c["text"] for c in r["cells"]]) for r in page]
    assert len(got) > 0
