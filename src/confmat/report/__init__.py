"""Reports: scikit-learn compatible text, the report model and its renderers (text, Markdown,
JSON, CSV, self-contained HTML).

Modules, from the bottom up: ``model`` (the plain data a renderer reads), ``scores`` (score
curves as :class:`~confmat.curves.ThresholdSweep` objects and the slider's precomputed
values), ``build`` (:func:`build_report`), ``comparison`` (:func:`build_comparison`, over
:func:`confmat.inference.compare`), and the renderers ``render_text``, ``render_data``,
``render_html`` (with ``html_env``: the jinja2 environment, the Content-Security-Policy and
the only text marked safe). The model never imports a renderer: this package fills
:data:`confmat.report.model.RENDERERS`, through which ``str(report)`` and the notebook view
find theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lazy import lazy_package
from . import model as _model

if TYPE_CHECKING:  # what the names below are, for type checkers
    from .build import build_report
    from .classification_report import classification_report
    from .comparison import Comparison, build_comparison
    from .groups_section import GroupsSection, build_groups_section
    from .model import Report
    from .render_data import render_csv, render_json
    from .render_html import render_fragment, render_html
    from .render_text import render_markdown, render_text
    from .scores import ScoreCurve, curves_from_histogram, score_curves

#: public name -> the module that defines it; imported on first use (PEP 562), so that a
#: terminal summary never loads the HTML renderer (jinja2) or the comparison machinery
_EXPORTS = {
    "Comparison": ".comparison",
    "GroupsSection": ".groups_section",
    "build_groups_section": ".groups_section",
    "Report": ".model",
    "ScoreCurve": ".scores",
    "build_comparison": ".comparison",
    "build_report": ".build",
    "classification_report": ".classification_report",
    "curves_from_histogram": ".scores",
    "render_csv": ".render_data",
    "render_fragment": ".render_html",
    "render_html": ".render_html",
    "render_json": ".render_data",
    "render_markdown": ".render_text",
    "render_text": ".render_text",
    "score_curves": ".scores",
}


__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)


def _text(rep: Any) -> str:
    from .render_text import render_text as text

    return text(rep)


def _fragment(rep: Any) -> str:
    from .render_html import render_fragment as fragment

    return fragment(rep)


_model.RENDERERS.update({"text": _text, "html_fragment": _fragment})

__all__ = [
    "Comparison",
    "GroupsSection",
    "Report",
    "ScoreCurve",
    "build_comparison",
    "build_groups_section",
    "build_report",
    "classification_report",
    "curves_from_histogram",
    "render_csv",
    "render_fragment",
    "render_html",
    "render_json",
    "render_markdown",
    "render_text",
    "score_curves",
]
