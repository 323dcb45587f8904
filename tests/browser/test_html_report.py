"""The HTML report in real headless Chromium (Debian's ``chromium``, driven by Playwright).

One browser session for the module. Oracles: counts at a threshold are computed here with
``score >= t`` in numpy, metrics with scikit-learn.
"""

from __future__ import annotations

import json
import math
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
    roc_curve,
)

import confmat
from confmat.report import build_comparison, build_report, render_html

# CI installs both (see .ci/run): there a missing browser is a failure, not a skip
if os.environ.get("CI"):
    import playwright.sync_api as _sync_api

    playwright = _sync_api
    assert os.path.exists("/usr/bin/chromium"), "CI needs Debian chromium at /usr/bin/chromium"
else:
    playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
EVIL = "<script>alert(1)</script>"
OTHER = "neg & <b>bold</b>"
EVIL_FILE = "<img src=x onerror=alert(2)>.csv"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian chromium")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def binary_case(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(11)
    n = 600
    yb = rng.integers(0, 2, n)
    score = np.clip(0.3 * yb + 0.7 * rng.random(n), 0, 1).round(3)  # ties on purpose
    y = np.where(yb == 1, EVIL, OTHER)
    pred = np.where(score >= 0.5, EVIL, OTHER)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    rep = build_report(cm, y_true=y, y_score=score, pos_label=EVIL, intervals=False,
                       title=f"report of {EVIL}", source={"file": EVIL_FILE})
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render_html(rep), encoding="utf-8")
    return {"path": path, "y": yb, "score": score, "pred": (score >= 0.5).astype(int)}


class Page:
    """A page with every console message, page error, dialog and network request recorded."""

    def __init__(self, browser, path: Path, width: int = 1200, height: int = 900):
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.console: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append((m.type, m.text)))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_load_state("load")

    def assert_clean(self) -> None:
        assert self.errors == [], self.errors
        assert [c for c in self.console if c[0] in ("error", "warning")] == [], self.console
        assert self.dialogs == [], self.dialogs
        external = [u for u in self.requests if u != self.url and not u.startswith("data:")]
        assert external == [], external


#: the θ box at the slider's stop above every score (threshold +inf, null in the page's JSON)
ABOVE = "above every score"


def theta_of(text: str) -> float:
    """The θ the box shows: its number, or inf at the stop above every score."""
    return math.inf if text == ABOVE else float(text)


def read_2x2(widget) -> tuple[float, float, float, float, float]:
    t = theta_of(widget.locator("[data-out='threshold']").input_value())
    cells = [float(widget.locator(f"[data-out='{k}']").text_content())
             for k in ("tp", "fn", "fp", "tn")]
    return (t, *cells)


def test_report_opens_clean_and_label_is_text(browser, binary_case) -> None:
    pg = Page(browser, binary_case["path"])
    page = pg.page
    # the injected label is shown as text in the matrix, the title and the slider
    assert page.locator("table.heat th", has_text=EVIL).count() >= 2
    assert EVIL in page.locator("h1").text_content()
    assert EVIL_FILE in page.locator("p.meta").text_content()
    assert OTHER in page.locator("table.heat").text_content()
    # no element was created from the label: only the page's own two scripts, no <img onerror>,
    # no <b> from the label
    assert page.locator("script").count() == 2
    assert page.locator("img[onerror]").count() == 0
    assert page.locator("table.heat b").count() == 0
    for img in page.locator("figure img").all():  # figures are inline data: images
        assert img.get_attribute("src").startswith("data:image/svg+xml;base64,")
    # ROC, PR, metrics against θ, and (the scores are probabilities) the reliability diagram
    alts = [img.get_attribute("alt") for img in page.locator("figure img").all()]
    assert alts == ["ROC curve", "PR curve", "metrics against threshold", "reliability diagram"]
    pg.assert_clean()
    page.close()


def test_slider_updates_the_2x2_table_and_metrics(browser, binary_case) -> None:
    y, score = binary_case["y"], binary_case["score"]
    pg = Page(browser, binary_case["path"])
    widget = pg.page.locator(".cm-slider").first
    slider = widget.locator("input[type=range]")
    n_thresholds = len(np.unique(score))
    # a stop at each distinct score and one above every score
    assert int(slider.get_attribute("max")) == n_thresholds
    seen = set()

    def check() -> None:
        t, tp, fn, fp, tn = read_2x2(widget)
        pred = (score >= t).astype(int)
        assert tp == np.sum((pred == 1) & (y == 1))
        assert fn == np.sum((pred == 0) & (y == 1))
        assert fp == np.sum((pred == 1) & (y == 0))
        assert tn == np.sum((pred == 0) & (y == 0))
        expected = {
            "recall": recall_score(y, pred, zero_division=0),
            "specificity": recall_score(y, pred, pos_label=0, zero_division=0),
            "precision": precision_score(y, pred, zero_division=0),
            "npv": precision_score(y, pred, pos_label=0, zero_division=0),
            "f1": f1_score(y, pred, zero_division=0),
            "accuracy": accuracy_score(y, pred),
            "balanced_accuracy": balanced_accuracy_score(y, pred),
            "mcc": matthews_corrcoef(y, pred),
        }
        for name, value in expected.items():
            shown = widget.locator(f"[data-metric='{name}']").text_content()
            if shown.endswith("\u2020"):  # marked only where the ratio's denominator is zero
                assert name in ("precision", "npv") and not (pred == (name == "precision")).any()
                shown = shown[:-1]  # and then the value of zero_division=0, as sklearn's
            assert float(shown) == pytest.approx(value, abs=6e-5), (name, t)
        seen.add(t)

    # the slider opens on the matrix printed above it (predictions score >= 0.5)
    t0, tp, fn, fp, tn = read_2x2(widget)
    printed = confusion_matrix(y, binary_case["pred"])
    assert [[tn, fp], [fn, tp]] == printed.tolist()
    assert confusion_matrix(y, (score >= t0).astype(int)).tolist() == printed.tolist()
    check()
    slider.focus()
    for key, times in (("ArrowRight", 40), ("ArrowLeft", 170), ("Home", 1), ("End", 1)):
        for _ in range(times):
            slider.press(key)
        check()
    # click on the track and drag with the mouse
    box = slider.bounding_box()
    y_mid = box["y"] + box["height"] / 2
    pg.page.mouse.click(box["x"] + 0.25 * box["width"], y_mid)
    check()
    pg.page.mouse.down()
    pg.page.mouse.move(box["x"] + 0.8 * box["width"], y_mid, steps=8)
    pg.page.mouse.up()
    check()
    # set the value as an input event would
    for v in (0, n_thresholds // 3, n_thresholds - 2):
        slider.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", v)
        check()
    assert len(seen) >= 7
    pg.assert_clean()
    pg.page.close()


def test_comparison_and_multiclass_select(browser, tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    n = 300
    labels = ["a", EVIL, "c"]
    y = rng.choice(labels, n)
    proba = rng.dirichlet([1, 1, 1], n)
    proba[np.arange(n), [labels.index(v) for v in y]] += 0.5
    proba /= proba.sum(1, keepdims=True)
    pred = np.array(labels)[proba.argmax(1)]
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=labels)
    rep = build_report(cm, y_true=y, y_score=proba, intervals=False, title="three classes")
    path = tmp_path / "multi.html"
    path.write_text(render_html(rep), encoding="utf-8")
    pg = Page(browser, path)
    widget = pg.page.locator(".cm-slider").first
    widget.locator("select").select_option("1")  # the class named by the injected label
    assert EVIL in widget.locator("select").text_content()
    widget.locator("input[type=range]").evaluate(
        "el => { el.value = Math.floor(el.max / 2); el.dispatchEvent(new Event('input')); }")
    t, tp, fn, fp, tn = read_2x2(widget)
    pos = y == EVIL
    hit = proba[:, 1] >= t
    assert (tp, fn, fp, tn) == (np.sum(hit & pos), np.sum(~hit & pos), np.sum(hit & ~pos),
                                np.sum(~hit & ~pos))
    pg.assert_clean()
    pg.page.close()

    yb = (rng.random(n) < 0.4).astype(int)
    s1 = np.clip(0.4 * yb + 0.6 * rng.random(n), 0, 1)
    s2 = np.clip(0.2 * yb + 0.8 * rng.random(n), 0, 1)
    cmp = build_comparison(yb, {EVIL: (s1 >= 0.5).astype(int), "m2": (s2 >= 0.5).astype(int)},
                           scores={EVIL: s1, "m2": s2}, intervals=False)
    cpath = tmp_path / "cmp.html"
    cpath.write_text(render_html(cmp), encoding="utf-8")
    pg = Page(browser, cpath)
    assert pg.page.locator("table.compare td", has_text=EVIL).count() == 1
    assert pg.page.locator("script").count() == 2
    assert pg.page.locator(".cm-slider").count() == 2
    pg.assert_clean()
    pg.page.close()


def test_screenshot_is_a_nonempty_image_of_the_expected_size(browser, binary_case,
                                                             tmp_path: Path) -> None:
    from PIL import Image

    pg = Page(browser, binary_case["path"], width=1200, height=900)
    out = tmp_path / "report.png"
    pg.page.screenshot(path=str(out), full_page=True)
    height = pg.page.evaluate("document.documentElement.scrollHeight")
    pg.page.close()
    with Image.open(out) as im:
        assert im.size == (1200, height) and height > 2000
        arr = np.asarray(im.convert("L"))
    # not blank: dark text and coloured heatmap cells, more than a handful of grey levels
    assert arr.min() < 60 and arr.max() > 240 and len(np.unique(arr)) > 50


INJECTED = ("<script>document.title='pwned'</script>"
            "<img src=\"data:,\" onerror=\"document.title='pwned by onerror'\">"
            "<button id='evil-button' onclick=\"document.title='pwned by click'\">x</button>"
            "<p id='evil-style' style='color: rgb(255, 0, 0)'>styled</p>")


def _inject(html: str, csp: bool) -> str:
    """The page with markup an attacker might smuggle in added before ``</main>`` (and, for
    the control, the Content-Security-Policy removed)."""
    assert html.count("</main>") == 1
    out = html.replace("</main>", INJECTED + "</main>")
    if not csp:
        head = out[:out.index("<title>")]
        meta = head[head.index('<meta http-equiv="Content-Security-Policy"'):]
        out = out.replace(meta[:meta.index(">") + 1], "")
        assert "Content-Security-Policy" not in out
    return out


def test_csp_blocks_injected_script_handler_and_style_but_runs_the_reports_own(
        browser, binary_case, tmp_path: Path) -> None:
    html = binary_case["path"].read_text(encoding="utf-8")
    head = html[:html.index("</head>")]
    assert "'unsafe-inline'" not in head and "'unsafe-hashes'" not in head
    assert "script-src 'sha256-" in head and "style-src 'sha256-" in head
    # no inline event handler nor style attribute in any tag of the page
    assert re.findall(r"<[^<>]*\s(?:on[a-z]+|style)\s*=", html) == []
    results = {}
    for csp in (True, False):
        path = tmp_path / f"injected_{csp}.html"
        path.write_text(_inject(html, csp), encoding="utf-8")
        pg = Page(browser, path)
        page = pg.page
        page.locator("#evil-button").click()
        widget = page.locator(".cm-slider").first
        slider = widget.locator("input[type=range]")
        before = read_2x2(widget)
        slider.focus()
        slider.press("End")  # the highest threshold: fewest predicted positive
        after = read_2x2(widget)
        results[csp] = {
            "title": page.title(),
            "color": page.locator("#evil-style").evaluate("e => getComputedStyle(e).color"),
            "moved": before != after and after[1] + after[3] < before[1] + before[3],
            "heat_styled": page.locator("table.heat td.dark").first.evaluate(
                "e => getComputedStyle(e).color") == "rgb(255, 255, 255)",
            "refused": [t for kind, t in pg.console if "Content Security Policy" in t],
        }
        page.close()
    protected, control = results[True], results[False]
    # control: without the policy the injected script, handlers and style all act
    assert control["title"].startswith("pwned"), control
    assert control["color"] == "rgb(255, 0, 0)"
    # with the policy none of them does, while the report's own script and style work
    assert protected["title"] == f"report of {EVIL}", protected
    assert protected["color"] != "rgb(255, 0, 0)"
    assert protected["moved"] and control["moved"]
    assert protected["heat_styled"]
    assert len(protected["refused"]) >= 3, protected["refused"]  # script, handlers, style


def test_report_page_raises_no_policy_violation(browser, binary_case) -> None:
    pg = Page(browser, binary_case["path"])
    pg.page.locator(".cm-slider input[type=range]").first.press("ArrowLeft")
    assert not [t for _, t in pg.console if "Content Security Policy" in t]
    pg.assert_clean()
    pg.page.close()


def test_keyboard_moves_theta_and_2x2_as_the_embedded_registry_data(browser,
                                                                     binary_case) -> None:
    y, score = binary_case["y"], binary_case["score"]
    pg = Page(browser, binary_case["path"])
    page = pg.page
    data = json.loads(page.locator("#confmat-data").text_content())
    (curve,) = data["widgets"]["r0"]
    thresholds = curve["thresholds"]
    n_stops = len(thresholds)
    # the embedded thresholds are scikit-learn's roc_curve thresholds: +inf (JSON null, above
    # every score), then the distinct scores, highest first
    _, _, sk_thresholds = roc_curve(y, score, drop_intermediate=False)
    assert [math.inf if t is None else t for t in thresholds] == sk_thresholds.tolist()
    widget = page.locator(".cm-slider").first
    slider = widget.locator("input[type=range]")

    def shown() -> tuple[int, tuple[float, ...]]:
        i = n_stops - 1 - int(slider.input_value())
        return i, read_2x2(widget)

    def check(i: int, values: tuple[float, ...]) -> None:
        theta_box = widget.locator("[data-out='threshold']").input_value()
        assert theta_box == curve["theta_text"][i]
        t = math.inf if thresholds[i] is None else thresholds[i]
        assert values[1:] == tuple(float(curve[k][i]) for k in ("tp", "fn", "fp", "tn"))
        pred = score >= t  # the counts the registry embedded, against numpy
        assert values[1:] == (np.sum(pred & (y == 1)), np.sum(~pred & (y == 1)),
                              np.sum(pred & (y == 0)), np.sum(~pred & (y == 0)))
        assert np.array_equal(score >= theta_of(theta_box), pred)  # θ as shown gives them
        mcc = widget.locator("[data-metric='mcc']").text_content()
        assert float(mcc) == pytest.approx(matthews_corrcoef(y, pred.astype(int)), abs=6e-5)

    slider.focus()
    i0, v0 = shown()
    assert i0 == curve["start"]
    check(i0, v0)
    slider.press("ArrowRight")
    i1, v1 = shown()
    assert i1 == i0 - 1  # one stop to a higher threshold
    assert v1[1] + v1[3] <= v0[1] + v0[3]  # fewer (or as many) predicted positive
    check(i1, v1)
    slider.press("End")
    i_end, v_end = shown()
    assert i_end == 0 and v_end[0] == math.inf  # above every score: nothing positive
    assert v_end[1] == v_end[3] == 0
    check(i_end, v_end)
    slider.press("ArrowRight")  # the end: the slider stays there
    assert shown() == (i_end, v_end)
    slider.press("ArrowLeft")  # one stop down: the highest score
    i_top, v_top = shown()
    assert i_top == 1 and v_top[0] == pytest.approx(max(score))
    check(i_top, v_top)
    slider.press("Home")
    i_home, v_home = shown()
    assert i_home == n_stops - 1
    assert v_home[2] == v_home[4] == 0  # the lowest score: every sample predicted positive
    check(i_home, v_home)
    for _ in range(5):
        slider.press("ArrowRight")
    i5, v5 = shown()
    assert i5 == n_stops - 6
    check(i5, v5)
    pg.assert_clean()
    page.close()


def test_cost_optimal_threshold_on_the_slider(browser, tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    score = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1).round(3)
    costs = np.array([[0.0, 1.0], [5.0, 0.0]])  # [[C_TN, C_FP], [C_FN, C_TP]]
    cm = confmat.ConfusionMatrix.from_predictions(y, (score >= 0.5).astype(int))
    rep = build_report(cm, y_true=y, y_score=score, intervals=False, cost_matrix=costs)
    path = tmp_path / "cost.html"
    path.write_text(render_html(rep), encoding="utf-8")
    # oracle: expected cost per sample at every distinct score, counted by scikit-learn
    best_t, best_cost = None, np.inf
    for t in np.unique(score):
        tab = confusion_matrix(y, (score >= t).astype(int), labels=[0, 1])
        cost = float((tab * costs).sum()) / n
        if cost < best_cost - 1e-12:
            best_t, best_cost = float(t), cost
    pg = Page(browser, path)
    widget = pg.page.locator(".cm-slider").first
    row = widget.locator("[data-out='cost-row']")
    assert row.is_visible()
    widget.locator("[data-out='cost-go']").click()
    t, _tp, fn, fp, _tn = read_2x2(widget)
    assert score[score >= t].min() == pytest.approx(best_t)  # the stop is that threshold
    assert (fp * costs[0, 1] + fn * costs[1, 0]) / n == pytest.approx(best_cost)
    shown_cost = widget.locator("[data-out='cost']").text_content()
    assert float(shown_cost.split()[0]) == pytest.approx(best_cost, abs=6e-5)
    assert "cost-optimal" in shown_cost
    pg.assert_clean()
    pg.page.close()


def test_no_cost_row_without_costs(browser, binary_case) -> None:
    pg = Page(browser, binary_case["path"])
    assert not pg.page.locator(".cm-slider [data-out='cost-row']").first.is_visible()
    pg.page.close()


def _svg_tree(src: str):
    """The SVG of a ``data:`` image, comments kept (matplotlib writes each text as a comment
    before its glyphs)."""
    import base64

    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    return ET.fromstring(base64.b64decode(src.split(",", 1)[1]), parser=parser)


@pytest.mark.parametrize("width", [1200, 390])
def test_roc_band_is_drawn_with_its_legend_and_the_page_fits(browser, tmp_path: Path,
                                                             width: int) -> None:
    """The ROC figure of a binary report shades the confidence band (its path in the SVG
    image, and its colour on screen) with the legend entry naming level, method and
    resamples; the page still fits a phone's width and raises no policy violation."""
    from PIL import Image

    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 400)
    score = np.clip(0.25 * y + 0.75 * rng.random(400), 0, 1)
    cm = confmat.ConfusionMatrix.from_predictions(y, (score >= 0.5).astype(int))
    rep = build_report(cm, y_true=y, y_score=score, n_resamples=500, partial_auc=(0.8, 1.0))
    path = tmp_path / "band.html"
    path.write_text(render_html(rep), encoding="utf-8")
    pg = Page(browser, path, width=width)
    page = pg.page
    img = page.locator('figure img[alt="ROC curve"]')
    assert img.evaluate("e => e.complete && e.naturalWidth > 0")
    svg = _svg_tree(img.get_attribute("src"))
    ns = "{http://www.w3.org/2000/svg}"
    band = next(g for g in svg.iter(f"{ns}g") if g.get("id") == "roc-ci-band")
    assert len(list(band.iter(f"{ns}path"))) >= 1 and len(list(band.iter(f"{ns}use"))) >= 1
    legend = next(g for g in svg.iter(f"{ns}g") if g.get("id") == "roc-ci-band-legend")
    texts = [c.text.strip() for c in legend.iter() if c.tag is ET.Comment]
    assert texts == ["95% CI, stratified bootstrap (500 resamples)"]
    caption = page.locator('figure:has(img[alt="ROC curve"]) figcaption').text_content()
    assert "shaded: 95% CI, stratified bootstrap (500 resamples)" in caption
    # the range of the partial AUC (its coordinates and value against pROC:
    # tests/test_report_partial_auc.py)
    strip = next(g for g in svg.iter(f"{ns}g") if g.get("id") == "roc-partial-auc")
    assert len(list(strip.iter(f"{ns}path"))) >= 1
    legend = next(g for g in svg.iter(f"{ns}g") if g.get("id") == "roc-partial-auc-legend")
    (text,) = [c.text.strip() for c in legend.iter() if c.tag is ET.Comment]
    assert re.fullmatch(r"partial AUC = 0\.\d{3} \(specificity 0\.8 to 1, McClish-corrected\)",
                        text), text
    assert "grey strip: the range of the partial AUC, specificity 0.8 to 1" in caption
    layout = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert layout[0] <= layout[1] == width
    names = page.locator("table.roc-summary tbody td.name:first-child").all_text_contents()
    assert names == ["sensitivity at specificity 0.9", "partial_auc"]
    shot = tmp_path / f"roc_band_{width}px.png"
    page.locator('figure:has(img[alt="ROC curve"])').screenshot(path=str(shot))
    pg.assert_clean()
    page.close()
    # on screen: the band's colour (matplotlib's first colour at 25 % over white)
    with Image.open(shot) as im:
        rgb = np.asarray(im.convert("RGB")).astype(int)
    light = np.abs(rgb - np.array([199, 221, 236])).max(axis=2) <= 12
    assert light.mean() > 0.01, light.mean()


@pytest.mark.parametrize("width", [1280, 390])
def test_comparison_partial_auc_column_note_and_tests(browser, tmp_path: Path,
                                                      width: int) -> None:
    """A comparison with a partial AUC (sensitivity focus): the table's partial_auc column,
    the note under it naming the focus, range and interval method, the tests on it, and a page
    that still fits the window without a policy violation."""
    rng = np.random.default_rng(14)
    y = rng.integers(0, 2, 300)
    s1 = np.clip(0.4 * y + 0.6 * rng.random(300), 0, 1)
    s2 = np.clip(0.2 * y + 0.8 * rng.random(300), 0, 1)
    cmp = build_comparison(y, {"m1": (s1 >= 0.5).astype(int), "m2": (s2 >= 0.5).astype(int)},
                           scores={"m1": s1, "m2": s2}, n_resamples=200,
                           partial_auc=(0.8, 1.0), partial_auc_focus="sensitivity")
    path = tmp_path / "cmp_pauc.html"
    path.write_text(render_html(cmp), encoding="utf-8")
    pg = Page(browser, path, width=width)
    page = pg.page
    heads = page.locator("table.compare").first.locator("th").all_text_contents()
    assert heads[-1] == "partial_auc"
    note = page.locator("p.partial-auc")
    assert note.is_visible()
    assert note.text_content().startswith("partial_auc: the partial AUC on sensitivity 0.8 to 1,"
                                          " McClish-corrected (McClish 1989); intervals: "
                                          "stratified percentile bootstrap (200 resamples)")
    tests = page.locator("table.tests tbody tr").all_text_contents()
    assert any("partial_auc" in t and "stratified bootstrap" in t for t in tests)
    layout = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert layout[0] <= layout[1] == width
    pg.assert_clean()
    page.close()


def test_slider_opens_with_the_printed_digits_at_a_halfway_value(browser, tmp_path) -> None:
    """Precision 1/32 = 0.03125 (1 true positive among 32 predicted positives, by hand) is
    printed 0.0312 (Python rounds the exact halfway to even); the slider's opening state shows
    the same digits and the printed weighted counts (2.5 per sample: 2.5, 50, 77.5, 50)."""
    y = np.r_[1, np.zeros(31, int), np.ones(20, int), np.zeros(20, int)]
    s = np.r_[0.9, np.linspace(0.55, 0.85, 31), np.linspace(0.05, 0.45, 40)]
    pred = (s >= 0.5).astype(int)
    assert precision_score(y, pred) == 1 / 32
    w = np.full(len(y), 2.5)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, sample_weight=w)
    rep = build_report(cm, y_true=y, y_score=s, sample_weight=w, intervals=False)
    path = tmp_path / "halfway.html"
    path.write_text(render_html(rep), encoding="utf-8")
    pg = Page(browser, path)
    widget = pg.page.locator(".cm-slider").first
    assert widget.locator("[data-metric='precision']").text_content() == "0.0312"
    assert [widget.locator(f"[data-out='{k}']").text_content()
            for k in ("tp", "fn", "fp", "tn")] == ["2.5", "50", "77.5", "50"]
    pg.assert_clean()
    pg.page.close()


def _sklearn_at(y, pred) -> dict[str, tuple[float, bool]]:
    """The slider's metrics of ``pred`` by scikit-learn: (value with zero_division=0, whether
    zero_division=np.nan leaves it undefined); informedness / markedness by hand from those."""
    import warnings

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn, pos in (("recall", recall_score, 1), ("specificity", recall_score, 0),
                              ("precision", precision_score, 1), ("npv", precision_score, 0),
                              ("f1", f1_score, 1)):
            out[name] = (fn(y, pred, labels=[0, 1], pos_label=pos, zero_division=0),
                         bool(np.isnan(fn(y, pred, labels=[0, 1], pos_label=pos,
                                          zero_division=np.nan))))
        out["accuracy"] = (accuracy_score(y, pred), False)
        out["mcc"] = (matthews_corrcoef(y, pred), False)
    out["informedness"] = (out["recall"][0] + out["specificity"][0] - 1,
                           out["recall"][1] or out["specificity"][1])
    out["markedness"] = (out["precision"][0] + out["npv"][0] - 1,
                         out["precision"][1] or out["npv"][1])
    return out


def test_slider_shows_the_tables_zero_division_values_and_mark(browser, tmp_path) -> None:
    """An all-positive model: NPV is 0 / 0 at the opening θ. The slider shows what the printed
    per-class table shows for the positive class (0.0000 and the mark †, markedness PPV - 1 †),
    the note under it names them, and every stop agrees with scikit-learn's zero_division=0
    (marked where zero_division=np.nan is undefined)."""
    rng = np.random.default_rng(21)
    n = 120
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1).round(2)
    pred = np.ones(n, int)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    rep = build_report(cm, y_true=y, y_score=score, y_pred=pred, intervals=False)
    path = tmp_path / "all_positive.html"
    path.write_text(render_html(rep), encoding="utf-8")
    pg = Page(browser, path)
    page = pg.page
    widget = page.locator(".cm-slider").first
    slider = widget.locator("input[type=range]")
    note = widget.locator("[data-out='zd-note']")

    def shown() -> dict[str, str]:
        return {m.get_attribute("data-metric"): m.text_content()
                for m in widget.locator("[data-metric]").all()}

    # the printed per-class table (metrics as rows, classes as columns: class 1 is column 2)
    printed = {}
    for row in page.locator("table.per-class tbody tr").all():
        cells = row.locator("td").all_text_contents()
        printed[cells[0]] = cells[2]
    overall = {r.locator("td").nth(0).text_content(): r.locator("td").nth(1).text_content()
               for r in page.locator("table.overall tbody tr").all()}
    opening = shown()
    assert opening["npv"] == "0.0000\u2020" and opening["markedness"].endswith("\u2020")
    for name, text in opening.items():
        assert text == (printed[name] if name in printed else overall[name]), name
    assert note.is_visible()
    assert note.text_content().endswith("negative predictive value, markedness")
    seen_unmarked = False
    for key, times in (("ArrowLeft", 0), ("End", 1), ("Home", 1), ("ArrowRight", 3)):
        for _ in range(times):
            slider.press(key)
        t = theta_of(widget.locator("[data-out='threshold']").input_value())
        at = (score >= t).astype(int)
        texts = shown()
        for name, (value, undefined) in _sklearn_at(y, at).items():
            assert texts[name].endswith("\u2020") == undefined, (name, t)
            assert float(texts[name].rstrip("\u2020")) == pytest.approx(value, abs=6e-5)
        marked = any(v.endswith("\u2020") for v in texts.values())
        assert note.is_visible() == marked
        seen_unmarked |= not marked
    assert seen_unmarked  # the mark and its note go away where every ratio is defined
    pg.assert_clean()
    page.close()


def test_heatmap_tooltip_of_a_large_matrix_is_written_on_hover(browser, tmp_path) -> None:
    """30 classes: no cell carries a title in the file; hovering one writes the sentence of the
    small matrices with its count and row percentage, checked against scikit-learn's
    confusion_matrix (labels with markup stay text)."""
    rng = np.random.default_rng(22)
    k = 30
    labels = [EVIL, OTHER] + [f"k{i}" for i in range(k - 2)]
    yi = rng.integers(0, k, 3000)
    pi = np.where(rng.random(yi.size) < 0.5, yi, rng.integers(0, k, yi.size))
    y, pred = np.array(labels, dtype=object)[yi], np.array(labels, dtype=object)[pi]
    counts = confusion_matrix(y, pred, labels=labels)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=labels)
    path = tmp_path / "heat30.html"
    path.write_text(render_html(build_report(cm, intervals=False)), encoding="utf-8")
    pg = Page(browser, path)
    table = pg.page.locator("table.heat")
    assert table.locator("td[title]").count() == 0
    for i, j in ((0, 0), (0, 1), (1, 0), (5, 17), (29, 29), (12, 3)):
        cell = table.locator("tbody tr").nth(i).locator("td").nth(j)
        cell.hover()
        row = counts[i].sum()
        assert cell.get_attribute("title") == (
            f"true {labels[i]}, predicted {labels[j]}: {counts[i, j]} "
            f"({100 * counts[i, j] / row:.1f}% of true {labels[i]})")
    total = table.locator("tbody tr").nth(k).locator("td").first  # the totals row: no tooltip
    total.hover()
    assert total.get_attribute("title") is None
    pg.assert_clean()
    pg.page.close()


def test_no_positive_model_opens_above_every_score(browser, tmp_path) -> None:
    """A model that predicts no sample positive: the slider opens on the printed matrix, at its
    stop above every score (labelled so, precision 0 / 0 shown with the tables' mark); its two
    ends are scikit-learn's matrices of the first and last ``roc_curve`` thresholds (nothing
    positive, everything positive), and the keys stop there."""
    rng = np.random.default_rng(31)
    n = 200
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 * y + 0.6 * rng.random(n), 0, 1).round(3)
    pred = (score >= 0.95).astype(int)  # no score reaches 0.95
    assert not pred.any()
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=[0, 1])
    rep = build_report(cm, y_true=y, y_score=score, y_pred=pred, intervals=False)
    path = tmp_path / "no_positive.html"
    path.write_text(render_html(rep), encoding="utf-8")
    _, _, thr = roc_curve(y, score, drop_intermediate=False)
    pg = Page(browser, path)
    widget = pg.page.locator(".cm-slider").first
    slider = widget.locator("input[type=range]")
    box = widget.locator("[data-out='threshold']")

    def matrix() -> list[list[float]]:
        _, tp, fn, fp, tn = read_2x2(widget)
        return [[tn, fp], [fn, tp]]

    def sklearn_at(t: float) -> list[list[int]]:
        return confusion_matrix(y, (score >= t).astype(int), labels=[0, 1]).tolist()

    # opening: the printed matrix, at the right end of the slider, labelled in words
    assert matrix() == confusion_matrix(y, pred, labels=[0, 1]).tolist() == sklearn_at(thr[0])
    assert box.input_value() == ABOVE and thr[0] == math.inf
    assert int(slider.get_attribute("max")) == len(thr) - 1
    assert slider.input_value() == slider.get_attribute("max")
    assert slider.get_attribute("aria-valuetext") == (
        "θ above every score: no sample predicted positive")
    note = widget.locator("[data-out='start-note']").text_content()
    assert "model's own predictions" in note and "no sample is predicted 1" in note
    # precision = 0 / 0 there: 0.0000 with the mark, as the printed per-class table
    assert widget.locator("[data-metric='precision']").text_content() == "0.0000\u2020"
    assert "precision" in widget.locator("[data-out='zd-names']").text_content()
    assert widget.locator("[data-out='zd-note']").is_visible()
    slider.focus()
    for key in ("End", "ArrowRight", "ArrowUp", "PageUp"):  # already at the end: stays
        slider.press(key)
        assert matrix() == sklearn_at(thr[0]) and box.input_value() == ABOVE, key
    slider.press("ArrowLeft")  # one stop down: the highest score
    assert float(box.input_value()) == pytest.approx(thr[1])
    assert matrix() == sklearn_at(thr[1])
    assert slider.get_attribute("aria-valuetext") == f"θ = {box.input_value()}"
    slider.press("Home")  # the other end: the lowest score, every sample positive
    assert float(box.input_value()) == thr[-1] == score.min()
    assert matrix() == sklearn_at(thr[-1]) == confusion_matrix(y, np.ones(n, int)).tolist()
    for key in ("Home", "ArrowLeft", "ArrowDown", "PageDown"):  # stays at that end
        slider.press(key)
        assert matrix() == sklearn_at(thr[-1]), key
    # typed: a θ above every score goes to that stop, and so does its label typed back
    box.fill("0.97")
    box.press("Enter")
    assert matrix() == sklearn_at(0.97) == sklearn_at(thr[0]) and box.input_value() == ABOVE
    assert widget.locator("[data-out='typed']").text_content() == (
        "no score reaches 0.97: no sample predicted positive")
    slider.press("Home")
    box.fill(ABOVE)
    box.press("Enter")
    assert matrix() == sklearn_at(thr[0])
    assert widget.locator("[data-out='typed']").text_content() == ""
    pg.assert_clean()
    pg.page.close()
