"""The jinja2 environment of the HTML report, and the only places where text is trusted.

Templates live in ``confmat/report/templates/*.html.j2`` and are loaded with
:class:`jinja2.PackageLoader`, so they work from an installed wheel as from a checkout.
Autoescaping is on for every template: a label, title, file name or note reaches the page as
text whatever it contains. Exactly these texts bypass escaping, each produced by one
function of this module:

* :func:`trusted_json` — data for the threshold slider, serialized here with ``<``, ``>`` and
  ``&`` written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (so no ``</script>`` can close its block);
* :func:`trusted_asset` — the package's own CSS and JavaScript files;
* :func:`page_style` / :func:`scoped_style` — that CSS plus rules generated from numbers only
  (:func:`heat_css`, the heatmap's shades);
* :func:`content_security_policy` — fixed words and base64 hashes.

Figures are base64 ``data:`` URIs (matplotlib SVG); base64 text needs no escaping and goes
through autoescape like any other string.

The Content-Security-Policy (:func:`content_security_policy`) allows only the page's own
inline ``<style>`` and ``<script>`` blocks, by the SHA-256 hash of their exact text, and
images from ``data:`` URIs: an injected script, event handler or style attribute would not run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from .marks import ZERO_DIVISION_MARK, marked
from .render_text import fmt, fmt_count

__all__ = ["content_security_policy", "environment", "heat_css", "heat_level", "heat_tip",
           "page_style", "scoped_style", "trusted_asset", "trusted_json"]

#: the heatmap's colour (the report's accent) as an RGB triple
HEAT_RGB = (31, 111, 178)


def trusted_json(obj: Any) -> Markup:
    """``obj`` as JSON safe inside a ``<script type="application/json">`` block.

    Strict JSON (no NaN or infinities); ``<``, ``>`` and ``&`` are written as unicode escapes,
    so the text cannot close the block nor open a comment, whatever strings ``obj`` holds.

    Parameters
    ----------
    obj : object
        JSON-serializable data.

    Returns
    -------
    markupsafe.Markup
        The JSON text, marked safe for the template.

    Raises
    ------
    ValueError
        ``obj`` holds NaN or an infinity.
    TypeError
        ``obj`` holds something JSON cannot represent.

    Examples
    --------
    >>> str(trusted_json({"label": "</script>"}))
    '{"label":"\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(obj, allow_nan=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


@cache
def trusted_asset(name: str) -> Markup:
    """The text of one of the package's own files in ``confmat/report/templates``.

    Parameters
    ----------
    name : {"report.css", "report.js"}
        The file.

    Returns
    -------
    markupsafe.Markup
        Its text, marked safe (it is part of confmat, not data).

    Raises
    ------
    ValueError
        ``name`` is not one of the report's assets.

    Examples
    --------
    >>> "use strict" in trusted_asset("report.js")
    True
    """
    if name not in ("report.css", "report.js"):
        raise ValueError(f"name must be 'report.css' or 'report.js', got {name!r}")
    text = resources.files("confmat.report").joinpath("templates", name).read_text("utf-8")
    return Markup(text)


def heat_level(percent: float) -> int:
    """The heatmap shade of a cell: its row percentage rounded to a whole percent (0-100).

    Parameters
    ----------
    percent : float
        Percent of the row; NaN (an empty row) is shade 0.

    Returns
    -------
    int

    Examples
    --------
    >>> heat_level(37.46), heat_level(float("nan")), heat_level(100.0)
    (37, 0, 100)
    """
    if not math.isfinite(percent):
        return 0
    return max(0, min(100, round(percent)))


def heat_css(levels: Iterable[int]) -> Markup:
    """CSS classes ``h0`` … ``h100`` for the heatmap shades used on a page.

    The shades are classes of one stylesheet, not ``style`` attributes, so that the page's
    Content-Security-Policy can forbid inline styles.

    Parameters
    ----------
    levels : iterable of int
        The shades used (from :func:`heat_level`).

    Returns
    -------
    markupsafe.Markup
        One rule per distinct shade; the text contains only digits and fixed CSS.

    Examples
    --------
    >>> str(heat_css([50, 0, 50]))
    'table.heat td.h0 { background: rgba(31,111,178,0.00); }\\ntable.heat td.h50 { background: rgba(31,111,178,0.50); }'
    """
    r, g, b = HEAT_RGB
    rules = [f"table.heat td.h{k:d} {{ background: rgba({r},{g},{b},{k / 100:.2f}); }}"
             for k in sorted({int(v) for v in levels})]
    return Markup("\n".join(rules))


def page_style(levels: Iterable[int]) -> Markup:
    """The text of the page's one ``<style>`` block: the report's CSS and the heatmap shades.

    Parameters
    ----------
    levels : iterable of int
        The heatmap shades used on the page (:func:`heat_level`).

    Returns
    -------
    markupsafe.Markup

    Examples
    --------
    >>> "table.heat td.h7 " in page_style([7])
    True
    """
    return Markup(trusted_asset("report.css") + "\n" + heat_css(levels) + "\n")


def scoped_style(scope: str, levels: Iterable[int]) -> Markup:
    """:func:`page_style` with every rule limited to the CSS selector ``scope``, for notebook
    fragments, which must not restyle the rest of the notebook (``@media`` blocks, the page's
    narrow-screen layout, are left out).

    Parameters
    ----------
    scope : str
        The fragment's root selector, e.g. ``".confmat-report"`` (chosen by confmat).
    levels : iterable of int
        The heatmap shades used.

    Returns
    -------
    markupsafe.Markup

    Raises
    ------
    ValueError
        ``scope`` is not a plain class selector.

    Examples
    --------
    >>> str(scoped_style(".x", [])).splitlines()[0].startswith(".x")
    True
    """
    if not re.fullmatch(r"\.[A-Za-z][A-Za-z0-9_-]*", scope):
        raise ValueError(f"scope must be a class selector such as '.confmat-report', got {scope!r}")
    out = []
    css = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*\s*\}", "", str(page_style(levels)))
    for block in css.split("}"):
        if "{" not in block:
            continue
        selectors, body = block.split("{", 1)
        scoped = []
        for sel in selectors.split(","):
            sel = sel.strip()
            if sel == "main":
                continue
            if sel in (":root", "body", "*"):
                scoped.append(scope if sel != "*" else f"{scope} *")
            else:
                scoped.append(f"{scope} {sel}")
        if scoped:
            out.append(f"{', '.join(scoped)} {{{body}}}")
    return Markup("\n".join(out))


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode(
        "ascii") + "'"


def content_security_policy(styles: Iterable[str], scripts: Iterable[str]) -> Markup:
    """The page's Content-Security-Policy: nothing from the network, and inline style and
    script blocks allowed only by the SHA-256 hash of their exact text.

    Parameters
    ----------
    styles : iterable of str
        The text of each ``<style>`` element, exactly as written between its tags.
    scripts : iterable of str
        The text of each executable ``<script>`` element, exactly as written.

    Returns
    -------
    markupsafe.Markup
        The policy, for the double-quoted ``content`` of a
        ``<meta http-equiv="Content-Security-Policy">`` element (fixed words and base64
        hashes: no ``"``, ``<`` or ``&``).

    Examples
    --------
    >>> csp = content_security_policy(["p{}"], [])
    >>> "script-src 'none'" in csp and "'unsafe-inline'" not in csp
    True
    """
    style_src = " ".join(_sha256(s) for s in styles) or "'none'"
    script_src = " ".join(_sha256(s) for s in scripts) or "'none'"
    return Markup(f"default-src 'none'; img-src data:; style-src {style_src}; "
                  f"script-src {script_src}; base-uri 'none'; form-action 'none'")


def _bar(value: float, range_: tuple[float, float],
         interval: tuple[float, float] | None) -> dict[str, float] | None:
    lo, hi = range_
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo or not math.isfinite(value):
        return None

    def pos(v: float) -> float:
        return max(0.0, min(100.0, 100.0 * (v - lo) / (hi - lo)))

    out = {"fill": round(pos(value), 1)}
    if interval is not None and all(v is not None and math.isfinite(v) for v in interval):
        a, b = pos(interval[0]), pos(interval[1])
        out.update(ci_x=round(a, 1), ci_w=round(max(b - a, 0.8), 1))
    return out


def _interval(iv: Any) -> tuple[str, str] | None:
    if iv is None or not all(v is not None and math.isfinite(float(v)) for v in iv):
        return None
    return fmt(iv[0], 3), fmt(iv[1], 3)


def heat_tip(true: Any, predicted: Any, count: str, pct: str) -> str:
    """The tooltip of one heatmap cell, from the numbers the cell prints.

    The page's script writes the same sentence on hover (``report.js``); a notebook view,
    which has no script, carries it as the cell's ``title`` for small matrices only.

    Parameters
    ----------
    true, predicted : label
        The cell's row (true class) and column (predicted class).
    count, pct : str
        The count and the percent of the row, as the cell prints them.

    Returns
    -------
    str

    Examples
    --------
    >>> heat_tip("cat", "dog", "3", "25.0%")
    'true cat, predicted dog: 3 (25.0% of true cat)'
    """
    return f"true {true}, predicted {predicted}: {count} ({pct} of true {true})"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The report's jinja2 environment (autoescaping on, templates from the package).

    Filters: ``fmt`` and ``count`` (the text renderer's number formats), ``interval`` (a pair
    formatted to 3 decimals, or None when a bound is missing or not finite), ``pct``; globals:
    ``bar`` (the "on its range" geometry of a metric), ``heat_level``, ``heat_tip`` (the
    tooltip of a heatmap cell), ``zd_mark`` (the mark
    of a value from the zero-division rule, :data:`confmat.report.marks.ZERO_DIVISION_MARK`)
    and ``marked`` (:func:`confmat.report.marks.marked`: a formatted value with that mark).

    Returns
    -------
    jinja2.Environment

    Examples
    --------
    >>> environment().from_string("{{ x }}").render(x="<b>")
    '&lt;b&gt;'
    """
    env = Environment(loader=PackageLoader("confmat.report", "templates"), autoescape=True,
                      undefined=StrictUndefined, keep_trailing_newline=True, trim_blocks=True,
                      lstrip_blocks=True)
    env.filters.update(fmt=fmt, count=fmt_count, interval=_interval,
                       pct=lambda v: f"{v:.1f}%")
    env.globals.update(bar=_bar, heat_level=heat_level, heat_tip=heat_tip,
                       zd_mark=ZERO_DIVISION_MARK, marked=marked)
    return env
