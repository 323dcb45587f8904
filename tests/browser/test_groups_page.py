"""The by-group section of the HTML report in real headless Chromium (Debian's ``chromium``,
driven by Playwright): the page loads clean under its Content-Security-Policy, clicking (or
pressing Enter / Space on) a column header sorts the groups, and the page fits 1280 and 390
px. Oracles: each group's metric from scikit-learn, its size from numpy, orders from
``numpy.sort``."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm

from confmat.groups import by_group
from confmat.report import build_report, render_html

if os.environ.get("CI"):
    import playwright.sync_api as _sync_api

    playwright = _sync_api
    assert os.path.exists("/usr/bin/chromium"), "CI needs Debian chromium at /usr/bin/chromium"
else:
    playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: every policy violation of the page, recorded by the browser's own event
CSP_HOOK = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
            "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian chromium")

METRICS = {"accuracy": skm.accuracy_score,
           "recall": lambda y, p: skm.recall_score(y, p, zero_division=np.nan)}


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(21)
    n = 800
    g = rng.choice(["north", "south", "east", "west", "<b>centre</b>"], n,
                   p=[0.4, 0.3, 0.15, 0.12, 0.03]).astype(object)
    y = rng.integers(0, 2, n)
    flip = rng.random(n) < np.where(g == "south", 0.35, 0.12)
    p = np.where(flip, 1 - y, y)
    y[-6:], p[-6:], g[-6:] = 0, [0, 0, 1, 0, 0, 0], "tiny"  # no positives: recall undefined
    score = np.clip(0.35 * p + 0.65 * rng.random(n), 0, 1)
    ev = by_group(y, p, {"region": g}, pos_label=1)
    out = tmp_path_factory.mktemp("groups_html")
    pages = {}
    for name, kw in (("groups_only", {}), ("with_scores", {"y_true": y, "y_score": score,
                                                          "y_pred": p})):
        from confmat.report.groups_section import build_groups_section

        sec = build_groups_section(ev, list(METRICS), intervals=True)
        path = out / f"{name}.html"
        path.write_text(render_html(build_report(ev.overall, groups=sec, **kw)),
                        encoding="utf-8")
        pages[name] = path
    keys = np.unique(g.astype(str))
    oracle = {"size": {k: float((g == k).sum()) for k in keys}}
    for m, fn in METRICS.items():
        oracle[m] = {k: float(fn(y[g == k], p[g == k])) for k in keys}
    return {"pages": pages, "oracle": oracle, "keys": keys}


def _open(browser, path: Path, width: int = 1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    page.on("console", lambda m: console.append((m.type, m.text)))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(CSP_HOOK)
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return page, console, errors


def _column(page, col: int) -> list[str]:
    return page.evaluate(
        "c => Array.from(document.querySelectorAll('table.groups tbody tr')).map("
        "r => r.cells[c].getAttribute('data-v'))", col)


def _expected(values: dict[str, float], descending: bool) -> list[str]:
    """Values sorted by numpy, undefined ones last, as the page writes them (repr)."""
    defined = np.array([v for v in values.values() if not np.isnan(v)])
    order = np.sort(defined)[::-1] if descending else np.sort(defined)
    return [repr(float(v)) for v in order] + [""] * sum(np.isnan(v) for v in values.values())


@pytest.mark.parametrize("name", ["groups_only", "with_scores"])
def test_page_loads_clean_without_policy_violations(browser, case, name) -> None:
    page, console, errors = _open(browser, case["pages"][name])
    page.locator("table.groups thead button", has_text="accuracy").click()
    assert errors == []
    assert [c for c in console if c[0] in ("error", "warning")] == []
    assert page.evaluate("window.__csp") == []
    assert page.locator("table.groups tbody tr").count() == len(case["keys"])
    # the label with markup is text, and the small groups are flagged
    assert page.locator("table.groups td", has_text="<b>centre</b>").count() == 1
    small = page.locator("table.groups tbody tr.small .small-tag").count()
    assert small == sum(v < 30 for v in case["oracle"]["size"].values()) > 0
    assert page.locator("figure img[alt^='forest plot']").count() == 1
    if name == "with_scores":  # the slider's script runs beside the sorting
        assert page.locator(".cm-slider [data-out='tp']").first.text_content() != ""
    page.close()


def test_clicking_a_header_sorts_the_rows(browser, case) -> None:
    page, _, errors = _open(browser, case["pages"]["groups_only"])
    for col, metric in ((2, "accuracy"), (3, "recall")):
        btn = page.locator("table.groups thead button", has_text=metric)
        btn.click()
        assert _column(page, col) == _expected(case["oracle"][metric], descending=False)
        assert btn.locator("xpath=..").get_attribute("aria-sort") == "ascending"
        btn.click()
        assert _column(page, col) == _expected(case["oracle"][metric], descending=True)
        assert btn.locator("xpath=..").get_attribute("aria-sort") == "descending"
        # rows move whole: each row's size still belongs to its group
        names, sizes = _column(page, 0), _column(page, 1)
        assert [float(s) for s in sizes] == [case["oracle"]["size"][k] for k in names]
    page.locator("table.groups thead button").first.click()
    assert _column(page, 0) == page.evaluate(
        "k => k.slice().sort((a, b) => a.localeCompare(b))", list(case["keys"]))
    assert errors == []
    page.close()


def test_headers_sort_from_the_keyboard(browser, case) -> None:
    page, _, errors = _open(browser, case["pages"]["groups_only"])
    size = page.locator("table.groups thead button", has_text="size")
    size.focus()
    page.keyboard.press("Enter")
    want = np.sort(np.array(list(case["oracle"]["size"].values())))
    assert [float(v) for v in _column(page, 1)] == want.tolist()
    page.keyboard.press("Space")
    assert [float(v) for v in _column(page, 1)] == want[::-1].tolist()
    assert errors == []
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_page_fits_the_window(browser, case, width) -> None:
    page, _, _ = _open(browser, case["pages"]["with_scores"], width)
    got = page.evaluate("""() => {
      document.querySelectorAll('details').forEach(d => { d.open = true; });
      const W = window.innerWidth, clipped = [];
      document.querySelectorAll('section.by-group *').forEach(el => {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > W + 0.5 && !el.closest('.scroll')) {
          clipped.push(el.tagName + '.' + el.className);
        }
      });
      return {scrollWidth: document.documentElement.scrollWidth, innerWidth: W,
              clipped: clipped};
    }""")
    assert got["scrollWidth"] <= got["innerWidth"] == width, got
    assert got["clipped"] == []
    page.close()
