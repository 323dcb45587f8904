"""The demo's HTML reports in real headless Chromium: the threshold slider opens on each model's
own confusion matrix, θ can be typed, and the pages fit the window.

Oracles: the demo's models are trained again here with scikit-learn (same data split, same
parameters, one BLAS thread as the demo uses) and their predictions counted by
``sklearn.metrics.confusion_matrix``; counts at a typed θ are ``score >= θ`` in numpy.
Screenshots of every page go to ``$CONFMAT_TEST_ARTIFACTS`` (or the test's temporary folder).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")
if os.environ.get("CI"):
    import playwright.sync_api as _sync_api

    playwright = _sync_api
else:
    playwright = pytest.importorskip("playwright.sync_api")
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from confmat.cli.demo import run_demo

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian chromium")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    run_demo(out, quick=True, log=lambda line: None)
    return out


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("CONFMAT_TEST_ARTIFACTS")
    out = Path(where) if where else tmp_path_factory.mktemp("screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _oracle_binary() -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    """Per demo model: (y_test, predictions, positive class), trained as the demo trains."""
    from threadpoolctl import threadpool_limits

    out = {}
    with threadpool_limits(1):
        bc = load_breast_cancer()
        y = np.where(bc.target == 0, "malignant", "benign")
        models = {"nearest centroid": NearestCentroid(), "3-NN": KNeighborsClassifier(3),
                  "decision tree": DecisionTreeClassifier(random_state=0),
                  "linear SVM": LinearSVC(random_state=0),
                  "logistic regression": LogisticRegression(max_iter=1000)}
        out.update(_fit("Breast cancer", bc.data, y, "malignant", models))
        digits = load_digits()
        y_eo = np.where(digits.target % 2 == 1, "odd", "even")
        nets = {f"MLP {h}": MLPClassifier((h,), max_iter=150, random_state=0)
                for h in (2, 10, 100)}
        out.update(_fit("Digits even/odd", digits.data / 16.0, y_eo, "odd", nets))
    return out


def _fit(title: str, X, y, pos: str, models: dict) -> dict:
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    sc = StandardScaler().fit(Xtr)
    Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    out = {}
    for name, m in models.items():
        m.fit(Xtr, ytr)
        k = list(m.classes_).index(pos)
        if hasattr(m, "predict_proba"):
            s = m.predict_proba(Xte)[:, k]
        elif hasattr(m, "decision_function"):
            s = m.decision_function(Xte) * (1 if k == 1 else -1)
        else:
            s = None
        out[f"{title}: {name}"] = (yte, m.predict(Xte), pos, s)
    return out


def _slider_2x2(widget) -> dict[str, float]:
    return {k: float(widget.locator(f"[data-out='{k}']").text_content())
            for k in ("tp", "fn", "fp", "tn")}


def _oracle_2x2(y, pred, pos) -> dict[str, float]:
    (tp, fn), (fp, tn) = confusion_matrix(y == pos, pred == pos, labels=[True, False]).tolist()
    return {"tp": tp, "fn": fn, "fp": fp, "tn": tn}


def test_slider_opens_on_each_models_own_matrix(browser, demo_dir: Path,
                                                artifacts: Path) -> None:
    oracle = _oracle_binary()
    checked = set()
    for name in ("breast_cancer", "digits_even_odd"):
        for kind in ("report", "comparison"):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto((demo_dir / f"{name}_{kind}.html").resolve().as_uri())
            title = page.locator("h1").text_content()
            if kind == "report":
                blocks = [(title, page.locator("main"))]
            else:
                prefix = title.split(":")[0]
                blocks = [(f"{prefix}: {d.locator(':scope > summary').text_content()}", d)
                          for d in page.locator("main > details").all()]
            for model, block in blocks:
                if block.locator(".cm-slider").count() == 0:
                    continue  # a model without scores
                y, pred, pos, score = oracle[model]
                widget = block.locator(".cm-slider").first
                note = widget.locator("[data-out='start-note']").text_content()
                theta = float(widget.locator("[data-out='threshold']").input_value())
                if score[pred == pos].min() > score[pred != pos].max():
                    # predictions are score >= θ for some θ: the slider opens on them, and the
                    # θ shown (4 significant digits) reproduces them
                    assert _slider_2x2(widget) == _oracle_2x2(y, pred, pos), model
                    assert "model's own predictions" in note, (model, note)
                    assert np.array_equal(score >= theta, pred == pos), model
                else:
                    # (nearest centroid: its probabilities disagree with its predictions)
                    assert "not score ≥ θ for any single θ" in note, (model, note)
                    assert "conventional θ = 0.5" in note, (model, note)
                    at_half = np.where(score >= 0.5, pos, "other")
                    assert _slider_2x2(widget) == _oracle_2x2(y, at_half, pos), model
                    assert np.array_equal(score >= theta, score >= 0.5), model
                checked.add(model)
            page.screenshot(path=str(artifacts / f"{name}_{kind}.png"), full_page=True)
            assert errors == []
            page.close()
    # every scored model of the demo, among them the decision function of the linear SVM
    assert {"Breast cancer: linear SVM", "Breast cancer: logistic regression",
            "Digits even/odd: MLP 100", "Digits even/odd: MLP 2"} <= checked
    assert len(checked) == 8
    assert oracle["Breast cancer: linear SVM"][3].min() < 0  # a decision function indeed


def test_ten_class_slider_says_where_it_opens(browser, demo_dir: Path, artifacts: Path) -> None:
    from threadpoolctl import threadpool_limits

    digits = load_digits()
    Xtr, Xte, ytr, yte = train_test_split(digits.data / 16.0, digits.target, test_size=0.3,
                                          random_state=0, stratify=digits.target)
    with threadpool_limits(1):
        m = MLPClassifier((100,), max_iter=300, random_state=0).fit(Xtr, ytr)
    pred, proba = m.predict(Xte), m.predict_proba(Xte)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((demo_dir / "digits_10class_report.html").resolve().as_uri())
    widget = page.locator(".cm-slider").first
    modes = set()
    for k in range(10):
        widget.locator("select").select_option(str(k))
        note = widget.locator("[data-out='start-note']").text_content()
        shown = _slider_2x2(widget)
        lo_hi = proba[pred == k, k].min(), proba[pred != k, k].max()
        if lo_hi[1] < lo_hi[0]:  # argmax of class k is a threshold of its column
            assert "model's own predictions" in note
            assert shown == _oracle_2x2(yte, pred, k)
            modes.add("predictions")
        else:
            assert "conventional θ = 0.5" in note
            hit = proba[:, k] >= 0.5
            assert shown == _oracle_2x2(yte == k, hit, True)
            modes.add("conventional")
        theta = float(widget.locator("[data-out='threshold']").input_value())
        assert shown == _oracle_2x2(yte == k, proba[:, k] >= theta, True)
    assert modes
    page.screenshot(path=str(artifacts / "digits_10class_report.png"), full_page=True)
    page.close()


def test_typed_threshold_moves_the_slider(browser, demo_dir: Path) -> None:
    y, _, pos, score = _oracle_binary()["Breast cancer: logistic regression"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((demo_dir / "breast_cancer_report.html").resolve().as_uri())
    widget = page.locator(".cm-slider").first
    box = widget.locator("[data-out='threshold']")
    for t in (0.05, 0.2, 0.5, 0.731, 0.99, float(np.sort(score)[40])):
        box.fill(str(t))
        box.press("Enter")
        # not thinned: the table shown is that of score >= θ exactly
        assert _slider_2x2(widget) == _oracle_2x2(y, np.where(score >= t, pos, "other"), pos)
        shown = float(box.input_value())  # the stop's θ, which gives the same table
        assert np.array_equal(score >= shown, score >= t)
        assert widget.locator("[data-out='typed']").text_content() == ""
    box.fill("abc")
    box.press("Enter")
    assert "not a number" in widget.locator("[data-out='typed']").text_content()
    box.fill("2")
    box.press("Enter")
    assert widget.locator("[data-out='typed']").text_content() == (
        "no score reaches 2: no sample predicted positive")
    # the stop above every score: score >= 2 predicts nothing positive
    assert _slider_2x2(widget) == _oracle_2x2(y, np.where(score >= 2, pos, "other"), pos)
    assert box.input_value() == "above every score"
    page.close()


DEMO_PAGES = ("breast_cancer_report", "breast_cancer_comparison", "digits_even_odd_report",
              "digits_even_odd_comparison", "digits_10class_report", "digits_10class_comparison")
LAYOUT_JS = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const W = window.innerWidth;
  const clipped = [];
  document.querySelectorAll('main *').forEach(el => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > W + 0.5 && !el.closest('.scroll')) {
      clipped.push(el.tagName + '.' + el.className + ' right=' + Math.round(r.right));
    }
  });
  const boxes = Array.from(document.querySelectorAll('.scroll')).map(
    b => [getComputedStyle(b).overflowX, b.getBoundingClientRect().right]);
  const rows = Array.from(document.querySelectorAll('table.summary tbody tr')).map(tr => {
    const a = tr.children[0].getBoundingClientRect(), b = tr.children[1].getBoundingClientRect();
    const line = parseFloat(getComputedStyle(tr.children[0]).lineHeight);
    return [tr.children[0].textContent, Math.abs(a.top - b.top), a.height, b.height, line];
  });
  const twoByTwo = Array.from(document.querySelectorAll('.cm-slider .scroll')).map(
    b => b.scrollWidth - b.clientWidth);
  const font = parseFloat(getComputedStyle(document.querySelector('main p')).fontSize);
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: W, clipped: clipped,
          boxes: boxes, rows: rows, font: font,
          twoByTwo: twoByTwo};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_every_demo_page_fits_the_window(browser, demo_dir: Path, artifacts: Path,
                                         width: int) -> None:
    """Nothing is clipped horizontally at a desktop and a phone width: the page never scrolls
    sideways (every section opened), wide tables scroll inside their own box, and a metric's
    name and value stay on one line side by side."""
    for name in DEMO_PAGES:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto((demo_dir / f"{name}.html").resolve().as_uri())
        got = page.evaluate(LAYOUT_JS)
        assert got["scrollWidth"] <= got["innerWidth"] == width, (name, got["clipped"])
        assert got["clipped"] == [], (name, width)
        for overflow, right in got["boxes"]:
            assert overflow == "auto" and right <= width + 0.5, (name, overflow, right)
        assert got["rows"], name
        for metric, dy, h_name, h_value, line in got["rows"]:
            # same row, one line each: name and value never wrap apart
            assert dy < 1 and h_name < 2 * line + 12 and h_value < 2 * line + 12, (name, metric)
        assert got["font"] >= 12  # readable at 390 px: no shrunk text
        # the slider's 2x2 table is whole in view, never behind a scroll bar
        assert max(got["twoByTwo"], default=0) <= 0, (name, got["twoByTwo"])
        assert got["twoByTwo"]  # every demo page has scores, so sliders
        page.screenshot(path=str(artifacts / f"{name}_{width}px.png"), full_page=True)
        page.close()


def test_ten_class_per_class_table_lists_classes_as_rows(browser, demo_dir: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 900})
    page.goto((demo_dir / "digits_10class_report.html").resolve().as_uri())
    table = page.locator("table.per-class").first
    heads = [t.strip() for t in table.locator("thead th").all_text_contents()]
    assert heads[:3] == ["class", "support", "recall"]
    rows = [t.strip() for t in table.locator("tbody th").all_text_contents()]
    assert rows == [str(k) for k in range(10)] + ["micro average", "macro average",
                                                  "weighted average"]
    page.close()


def test_demo_shows_the_roc_band_and_hand_and_till(browser, demo_dir: Path) -> None:
    """The binary demo report's ROC figure shades its confidence band; the ten-class
    comparison lists each model's Hand and Till (2001) AUC, equal to scikit-learn's one-vs-one
    macro AUC of the same network."""
    import base64

    from sklearn.metrics import roc_auc_score
    from threadpoolctl import threadpool_limits

    page = browser.new_page(viewport={"width": 390, "height": 900})
    page.goto((demo_dir / "breast_cancer_report.html").resolve().as_uri())
    src = page.locator('figure img[alt="ROC curve"]').get_attribute("src")
    svg = base64.b64decode(src.split(",", 1)[1]).decode()
    assert '<g id="roc-ci-band">' in svg
    assert "<!-- 95% CI, stratified bootstrap (1000 resamples) -->" in svg
    page.close()
    digits = load_digits()
    Xtr, Xte, ytr, yte = train_test_split(digits.data / 16.0, digits.target, test_size=0.3,
                                          random_state=0, stratify=digits.target)
    with threadpool_limits(1):
        m = MLPClassifier((100,), max_iter=300, random_state=0).fit(Xtr, ytr)
    want = roc_auc_score(yte, m.predict_proba(Xte), multi_class="ovo", average="macro")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((demo_dir / "digits_10class_comparison.html").resolve().as_uri())
    table = page.locator("table.compare").first
    heads = [t.strip() for t in table.locator("thead th").all_text_contents()]
    col = heads.index("hand_till_auc")
    row = table.locator("tbody tr", has_text="MLP 100").first
    assert float(row.locator("td").nth(col).text_content()) == pytest.approx(want, abs=5e-5)
    page.close()
