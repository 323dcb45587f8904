"""Which partial AUC a report or a comparison holds, in its machine-readable outputs (CSV and
JSON) and in the HTML notebook view, and the shaded range of the partial AUC in the ROC figure
(``RocCurveDisplay.plot(partial_auc=...)``, the report's ROC figure and its SVG in the page).

Oracles: pROC (Robin et al. 2011) through ``Rscript``, ``auc(roc, partial.auc=c(high, low),
partial.auc.focus=, partial.auc.correct=)``, for every partial area (deterministic, 1e-9);
the names, fields and coordinates expected are written here from the range the test gives
(a specificity range ``[a, b]`` is the strip of false positive rates ``[1 - b, 1 - a]`` over
sensitivities 0 to 1, a sensitivity range the strip of true positive rates ``[a, b]``); the
SVG's coordinates are mapped back to data units through its own tick marks; a partial area
worked out by hand with fractions (McClish 1989).
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from matplotlib.figure import Figure

import confmat
from confmat.curves import threshold_sweep
from confmat.curves.partial import PartialRange
from confmat.inference import roc_ci
from confmat.plots import RocCurveDisplay
from confmat.plots.roc_shading import draw_partial_range
from confmat.report import build_comparison, build_report, render_csv, render_html, render_json
from confmat.report.render_html import render_fragment
from proc_oracle import proc  # noqa: F401  (the fixture)

R_AREAS = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
v <- numeric(0)
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  r <- roc(y[k], s[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  foc <- c("specificity", "sensitivity")[focus[i] + 1]
  v <- c(v, as.numeric(auc(r, partial.auc = c(hi[i], lo[i]), partial.auc.focus = foc,
                           partial.auc.correct = corr[i] == 1)))
}
out <- list(v = v)
"""


def _proc_areas(run_r, curves: list[tuple[np.ndarray, np.ndarray, str, float, float, bool]]
                ) -> np.ndarray:
    """pROC's partial area of each (y, s, focus, low, high, correct), in one R session."""
    return run_r(R_AREAS, y=np.concatenate([c[0] for c in curves]),
                 s=np.concatenate([c[1] for c in curves]), lens=[len(c[0]) for c in curves],
                 focus=[c[2] == "sensitivity" for c in curves], lo=[c[3] for c in curves],
                 hi=[c[4] for c in curves], corr=[c[5] for c in curves])["v"]


def _two_models(seed: int, n: int = 160) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(rng.normal(size=n) + 1.4 * y, 1)  # ties on purpose
    b = 0.5 * a + rng.normal(size=n) + 0.6 * y
    return y, {"a": a, "b": b}


# (focus, range given, range sorted, the name a reader sees in the CSV)
CASES = [
    ("specificity", (1.0, 0.8), (0.8, 1.0), "partial_auc[specificity 0.8 to 1, McClish-corrected]"),
    ("sensitivity", (0.9, 1.0), (0.9, 1.0), "partial_auc[sensitivity 0.9 to 1, McClish-corrected]"),
    ("specificity", (0.25, 0.75), (0.25, 0.75),
     "partial_auc[specificity 0.25 to 0.75, McClish-corrected]"),
]


# ------------------------------------------------------------------------------ CSV and JSON
def test_comparison_csv_and_json_name_the_focus_range_and_correction(proc):  # noqa: F811
    y, sc = _two_models(1)
    cmps = [build_comparison(y, {k: (v >= 0.5).astype(int) for k, v in sc.items()}, scores=sc,
                             intervals=False, n_resamples=100, partial_auc=given,
                             partial_auc_focus=focus)
            for focus, given, _, _ in CASES]
    want = _proc_areas(proc, [(y, sc[m], focus, lo, hi, True)
                              for focus, _, (lo, hi), _ in CASES for m in ("a", "b")])
    want = want.reshape(len(CASES), 2)
    names = []
    for cmp, (focus, _, (lo, hi), name), w in zip(cmps, CASES, want, strict=True):
        rows = list(csv.DictReader(io.StringIO(render_csv(cmp))))
        curve = [r for r in rows if r["section"] == "curve" and "partial" in r["metric"]]
        assert [(r["model"], r["metric"], r["class"]) for r in curve] == [
            ("a", name, "1"), ("b", name, "1")]
        np.testing.assert_allclose([float(r["value"]) for r in curve], w, rtol=1e-9)
        tests = [r for r in rows if r["section"] == "test" and "partial" in r["class"]]
        assert [(r["model"], r["metric"], r["class"]) for r in tests] == [
            ("a vs b", "stratified bootstrap", name)]
        names.append({r["metric"] for r in rows} | {r["class"] for r in rows})
        # JSON: the same three facts as fields, at the top, in the result and in each report
        d = json.loads(render_json(cmp))
        label = name[len("partial_auc["):-1]
        for desc in (d["partial_auc"], d["comparison"]["partial_auc"],
                     *(r["partial_auc"] for r in d["reports"])):
            assert (desc["focus"], desc["range"], desc["corrected"], desc["label"]) == (
                focus, [lo, hi], True, label)
        np.testing.assert_allclose([r["partial_auc"] for r in d["table"]],
                                   [w[["a", "b"].index(r["model"])] for r in d["table"]],
                                   rtol=1e-9)
        np.testing.assert_allclose([r["partial_auc"]["value"] for r in d["reports"]], w,
                                   rtol=1e-9)
    # no bare 'partial_auc' left, and files of different ranges never look alike
    assert all("partial_auc" not in ns for ns in names)
    assert len({frozenset(n for n in ns if n.startswith("partial_auc[")) for ns in names}) == 3


def test_report_csv_names_its_partial_auc(proc):  # noqa: F811
    y, sc = _two_models(2)
    s = sc["a"]
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    rep = build_report(cm, y_true=y, y_score=s, n_resamples=100, partial_auc=(0.9, 1.0),
                       partial_auc_focus="sensitivity")
    (row,) = [r for r in csv.DictReader(io.StringIO(render_csv(rep)))
              if "partial" in r["metric"]]
    assert row["metric"] == "partial_auc[sensitivity 0.9 to 1, McClish-corrected]"
    (want,) = _proc_areas(proc, [(y, s, "sensitivity", 0.9, 1.0, True)])
    assert float(row["value"]) == pytest.approx(want, rel=1e-9)
    assert float(row["low"]) <= float(row["value"]) <= float(row["high"])


def test_notebook_view_of_a_comparison_says_what_partial_auc_is():
    y, sc = _two_models(3)
    preds = {k: (v >= 0.5).astype(int) for k, v in sc.items()}
    cmp = build_comparison(y, preds, scores=sc, intervals=False, n_resamples=100,
                           partial_auc=(0.9, 1), partial_auc_focus="sensitivity")
    frag = render_fragment(cmp)
    notes = re.findall(r'<p class="note partial-auc">([^<]*)</p>', frag)
    assert notes == ["partial_auc: the partial AUC on sensitivity 0.9 to 1, McClish-corrected "
                     "(McClish 1989); intervals: stratified percentile bootstrap (100 "
                     "resamples)."]
    assert "<script" not in frag
    plain = build_comparison(y, preds, scores=sc, intervals=False, n_resamples=100)
    assert "partial-auc" not in render_fragment(plain)


# ------------------------------------------------------------------------------ the figure
def test_display_shades_the_range_on_either_axis():
    # y = [0, 0, 1, 1], s = [.1, .4, .35, .8]: points (sp, se) (1, 0), (1, .5), (.5, .5),
    # (.5, 1), (0, 1); on sp in [0.5, 1] se = 1/2: area 1/4, diagonal m = 1/8, perfect M = 1/2,
    # McClish (1989): (1 + (1/4 - 1/8) / (1/2 - 1/8)) / 2 = 2/3
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    corrected = (1 + (Fraction(1, 4) - Fraction(1, 8)) / (Fraction(1, 2) - Fraction(1, 8))) / 2
    ci = roc_ci(y, s, specificities=[0, 0.5, 1], n_resamples=100, random_state=0)
    d = RocCurveDisplay.from_predictions(y, s, ax=Figure().add_subplot(), band=ci,
                                         partial_auc=(1, 0.5))
    v = d.partial_range_.get_paths()[0].vertices
    np.testing.assert_allclose([v[:, 0].min(), v[:, 0].max(), v[:, 1].min(), v[:, 1].max()],
                               [0.0, 0.5, 0.0, 1.0], rtol=0, atol=1e-15)
    legend = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    assert legend == ["class 1 (AUC = 0.750)", "95% CI",
                      f"partial AUC = {float(corrected):.3f} (specificity 0.5 to 1, "
                      "McClish-corrected)", "chance", "perfect"]
    line = d.ax_.get_lines()[0]
    assert d.partial_range_.get_zorder() < d.band_.get_zorder() < line.get_zorder()
    # the sensitivity focus: a horizontal strip; uncorrected: the bare area (1/4 on se 0.5-1:
    # the curve's specificity is 1/2 on the whole range)
    d = RocCurveDisplay.from_predictions(y, s, ax=Figure().add_subplot(), partial_auc=(0.5, 1),
                                         partial_auc_focus="sensitivity",
                                         partial_auc_correct=False)
    v = d.partial_range_.get_paths()[0].vertices
    np.testing.assert_allclose([v[:, 0].min(), v[:, 0].max(), v[:, 1].min(), v[:, 1].max()],
                               [0.0, 1.0, 0.5, 1.0], rtol=0, atol=1e-15)
    assert d.partial_range_.get_label() == ("partial AUC = 0.250 (sensitivity 0.5 to 1, "
                                            "uncorrected)")
    # a value given is shown as given; none: the range only; styling passes through
    d = RocCurveDisplay(threshold_sweep(y, s)).plot(
        ax=Figure().add_subplot(), partial_auc=(0.8, 1), partial_auc_value=float("nan"),
        partial_auc_kw={"color": "red", "gid": "x"})
    assert d.partial_range_.get_label() == ("partial AUC undefined (specificity 0.8 to 1, "
                                            "McClish-corrected)")
    assert d.partial_range_.get_gid() == "x"
    assert tuple(d.partial_range_.get_facecolor()[0][:3]) == (1.0, 0.0, 0.0)
    d = RocCurveDisplay(threshold_sweep(y, s)).plot(ax=Figure().add_subplot(), chance=False,
                                                    partial_auc=(0.2, 0.4))
    assert [t.get_text() for t in d.ax_.get_legend().get_texts()] == [
        "class 1", "partial AUC range: specificity 0.2 to 0.4"]
    assert not hasattr(RocCurveDisplay(threshold_sweep(y, s)).plot(ax=Figure().add_subplot()),
                       "partial_range_")


def test_display_value_is_procs_partial_auc(proc):  # noqa: F811
    y, sc = _two_models(4, 300)
    cases = [("specificity", 0.8, 1.0, True), ("sensitivity", 0.9, 1.0, True),
             ("specificity", 0.1, 0.6, False)]
    want = _proc_areas(proc, [(y, sc["b"], f, lo, hi, c) for f, lo, hi, c in cases])
    for (focus, lo, hi, correct), w in zip(cases, want, strict=True):
        d = RocCurveDisplay.from_predictions(y, sc["b"], ax=Figure().add_subplot(),
                                             partial_auc=(lo, hi), partial_auc_focus=focus,
                                             partial_auc_correct=correct)
        words = "McClish-corrected" if correct else "uncorrected"
        assert d.partial_range_.get_label() == (f"partial AUC = {w:.3f} ({focus} {lo:g} to "
                                                f"{hi:g}, {words})")


@pytest.mark.parametrize("kw, error, fragment", [
    ({"partial_auc": (0.8, 1.2)}, ValueError, "partial_auc must lie within [0, 1]"),
    ({"partial_auc": 0.8}, TypeError, "partial_auc must be a pair of numbers"),
    ({"partial_auc": (0.8, 1), "partial_auc_focus": "fpr"}, ValueError,
     "partial_auc_focus must be 'specificity' or 'sensitivity'"),
    ({"partial_auc": (0.8, 1), "partial_auc_correct": "yes"}, TypeError,
     "partial_auc_correct must be True or False"),
    ({"partial_auc_focus": "sensitivity"}, ValueError,
     "partial_auc_focus='sensitivity' applies to a partial AUC"),
    ({"partial_auc_value": 0.7}, ValueError, "partial_auc_value applies to a partial AUC"),
])
def test_display_rejects_a_bad_range(kw, error, fragment):
    ax = Figure().add_subplot()
    with pytest.raises(error, match=re.escape(fragment)):
        RocCurveDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4])).plot(ax=ax, **kw)
    assert ax.get_lines() == []  # refused before anything is drawn
    with pytest.raises(error, match=re.escape(fragment)):
        RocCurveDisplay.from_predictions([0, 1, 1], [0.2, 0.9, 0.4], ax=ax, **kw)


def test_draw_partial_range_takes_a_partial_range():
    with pytest.raises(TypeError, match=re.escape("prange must be a confmat.curves.partial.P")):
        draw_partial_range(Figure().add_subplot(), (0.8, 1.0))
    poly = draw_partial_range(Figure().add_subplot(), PartialRange.parse((0.3, 0.6),
                                                                         "sensitivity"))
    v = poly.get_paths()[0].vertices
    assert (v[:, 1].min(), v[:, 1].max()) == (0.3, 0.6) and poly.get_alpha() == 0.15


# ------------------------------------------------------------------------------ the HTML page
def _svg(page: str, alt: str) -> ET.Element:
    src = re.search(rf'<img alt="{alt}" src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert src is not None
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    return ET.fromstring(base64.b64decode(src[1]), parser=parser)


NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def _group(svg: ET.Element, gid: str) -> ET.Element | None:
    return next((g for g in svg.iter(f"{NS}g") if g.get("id") == gid), None)


def _axis_map(svg: ET.Element, axis: str) -> tuple[float, float]:
    """(slope, intercept) from SVG units to data units along ``axis``, from the tick marks:
    each tick group holds the mark (a ``use`` at its position) and its label's text as a
    comment."""
    pos, val = [], []
    for g in svg.iter(f"{NS}g"):
        if not (g.get("id") or "").startswith(f"{axis}tick_"):
            continue
        use = next(g.iter(f"{NS}use"))
        text = next(c.text.strip() for c in g.iter() if c.tag is ET.Comment)
        pos.append(float(use.get(axis)))
        val.append(float(text.replace("\N{MINUS SIGN}", "-")))
    assert len(pos) >= 3
    slope, icpt = np.polyfit(pos, val, 1)
    np.testing.assert_allclose(np.polyval([slope, icpt], pos), val, atol=1e-5)  # linear axis
    return float(slope), float(icpt)


def _strip_box(svg: ET.Element, gid: str) -> list[float]:
    """[x0, x1, y0, y1] in data units of the polygon drawn in the group ``gid`` (matplotlib
    writes a collection's path once in ``defs`` and places it with ``use x= y=``)."""
    g = _group(svg, gid)
    assert g is not None, gid
    path = next(g.iter(f"{NS}path"))
    use = next(u for u in g.iter(f"{NS}use") if u.get(XLINK) == f"#{path.get('id')}")
    pts = np.array([[float(a), float(b)] for a, b in
                    re.findall(r"(-?[\d.]+) (-?[\d.]+)", path.get("d"))])
    pts += [float(use.get("x")), float(use.get("y"))]
    (sx, ix), (sy, iy) = _axis_map(svg, "x"), _axis_map(svg, "y")
    x, y = sx * pts[:, 0] + ix, sy * pts[:, 1] + iy
    return [x.min(), x.max(), y.min(), y.max()]


@pytest.mark.parametrize("focus, rng_, box, strip", [
    ("specificity", (0.8, 1.0), [0.0, 0.2, 0.0, 1.0], "false positive rates 0 to 0.2"),
    ("sensitivity", (0.9, 1.0), [0.0, 1.0, 0.9, 1.0], "true positive rates 0.9 to 1"),
    ("specificity", (0.3, 0.65), [0.35, 0.7, 0.0, 1.0], "false positive rates 0.35 to 0.7"),
])
def test_html_roc_figure_shades_the_range_where_it_is(proc, focus, rng_, box,  # noqa: F811
                                                      strip):
    y, sc = _two_models(5, 240)
    s = sc["a"]
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    rep = build_report(cm, y_true=y, y_score=s, n_resamples=100, partial_auc=rng_,
                       partial_auc_focus=focus)
    page = render_html(rep)
    svg = _svg(page, "ROC curve")
    np.testing.assert_allclose(_strip_box(svg, "roc-partial-auc"), box, rtol=0, atol=1e-4)
    (want,) = _proc_areas(proc, [(y, s, focus, *rng_, True)])
    legend = _group(svg, "roc-partial-auc-legend")
    assert legend is not None
    texts = [c.text.strip() for c in legend.iter() if c.tag is ET.Comment]
    label = f"{focus} {rng_[0]:g} to {rng_[1]:g}, McClish-corrected"
    assert texts == [f"partial AUC = {want:.3f} ({label})"]
    caption = re.search(r'<img alt="ROC curve"[^>]*><figcaption>([^<]*)</figcaption>', page)[1]
    assert f"grey strip: the range of the partial AUC, {label} ({strip})" in caption
    assert _group(svg, "roc-ci-band") is not None  # the band is still there


def test_html_roc_figure_without_partial_auc_has_no_strip():
    y, sc = _two_models(6)
    cm = confmat.ConfusionMatrix.from_predictions(y, (sc["a"] >= 0.5).astype(int))
    page = render_html(build_report(cm, y_true=y, y_score=sc["a"], n_resamples=100))
    svg = _svg(page, "ROC curve")
    assert _group(svg, "roc-partial-auc") is None and "grey strip" not in page


@pytest.mark.parametrize("focus, rng_, box, strip", [
    ("specificity", (0.8, 1.0), [0.0, 0.2, 0.0, 1.0], "false positive rates 0 to 0.2"),
    ("sensitivity", (0.9, 1.0), [0.0, 1.0, 0.9, 1.0], "true positive rates 0.9 to 1"),
])
def test_comparison_roc_overlay_shades_the_range(focus, rng_, box, strip):
    """The ROC overlay of a comparison shades the one range every model's partial AUC is on,
    where it is (read back through the SVG's tick marks), and says so in its caption."""
    y, sc = _two_models(7)
    preds = {k: (v >= 0.5).astype(int) for k, v in sc.items()}
    cmp = build_comparison(y, preds, scores=sc, intervals=False, partial_auc=rng_,
                           partial_auc_focus=focus)
    page = render_html(cmp)
    main_axes = _group(_svg(page, "ROC overlay"), "axes_1")
    for parent in list(main_axes.iter()):  # the inset (axes_2) is drawn inside it: its ticks out
        for child in list(parent):
            if (child.get("id") or "").startswith("axes_"):
                parent.remove(child)
    np.testing.assert_allclose(_strip_box(main_axes, "roc-partial-auc"), box, rtol=0, atol=1e-4)
    caption = re.search(r'<img alt="ROC overlay"[^>]*><figcaption>([^<]*)</figcaption>', page)[1]
    label = f"{focus} {rng_[0]:g} to {rng_[1]:g}, McClish-corrected"
    assert f"Grey strip: the range of the partial AUC, {label} ({strip})" in caption
    plain = render_html(build_comparison(y, preds, scores=sc, intervals=False))
    assert _group(_svg(plain, "ROC overlay"), "roc-partial-auc") is None
    assert "Grey strip" not in plain


# ------------------------------------------------------------------ partial_auc_correct=False
def test_uncorrected_partial_auc_in_report_comparison_and_cli(proc, tmp_path, capsys):  # noqa: F811
    """partial_auc_correct=False (CLI --partial-auc-uncorrected): the partial area itself, as
    pROC's auc(partial.auc.correct = FALSE), named "uncorrected" and without McClish's
    reference; the interval brackets it."""
    from confmat.cli import main

    y, sc = _two_models(4)
    cases = [("specificity", 0.8, 1.0), ("sensitivity", 0.9, 1.0)]
    want = _proc_areas(proc, [(y, sc[m], f, lo, hi, False) for f, lo, hi in cases
                              for m in ("a", "b")]).reshape(len(cases), 2)
    for (focus, lo, hi), w in zip(cases, want, strict=True):
        s = sc["a"]
        rep = build_report(confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int)),
                           y_true=y, y_score=s, n_resamples=200, partial_auc=(lo, hi),
                           partial_auc_focus=focus, partial_auc_correct=False)
        p = rep.partial_auc
        assert p.value == pytest.approx(w[0], rel=1e-9) and p.value == p.uncorrected
        assert p.interval.low <= p.value <= p.interval.high <= hi - lo
        d = json.loads(render_json(rep))["partial_auc"]
        assert (d["corrected"], d["label"]) == (False, f"{focus} {lo:g} to {hi:g}, uncorrected")
        assert not any("McClish" in r for r in d["references"])
        from confmat.report.render_html import roc_figure

        legend = roc_figure(rep, Figure().add_subplot()).partial_range_.get_label()
        assert legend == f"partial AUC = {p.value:.3f} ({focus} {lo:g} to {hi:g}, uncorrected)"
        cmp = build_comparison(y, {k: (v >= 0.5).astype(int) for k, v in sc.items()},
                               scores=sc, intervals=False, partial_auc=(lo, hi),
                               partial_auc_focus=focus, partial_auc_correct=False)
        rows = list(csv.DictReader(io.StringIO(render_csv(cmp))))
        name = f"partial_auc[{focus} {lo:g} to {hi:g}, uncorrected]"
        got = {r["model"]: float(r["value"]) for r in rows if r["metric"] == name}
        assert got == pytest.approx({"a": w[0], "b": w[1]}, rel=1e-9)
    # the command line
    path = tmp_path / "p.csv"
    s = sc["a"]
    path.write_text("y,yhat,score\n" + "".join(f"{a},{int(b >= 0.5)},{float(b)!r}\n"
                                                for a, b in zip(y, s, strict=True)))
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "score",
                 "--partial-auc", "0.8,1", "--partial-auc-uncorrected", "--no-intervals",
                 "-f", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["partial_auc"]
    assert d["corrected"] is False and d["value"] == pytest.approx(want[0][0], rel=1e-9)
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "score",
                 "--partial-auc-uncorrected"]) == 2
    assert "--partial-auc-uncorrected needs --partial-auc" in capsys.readouterr().err
