"""Reports: scikit-learn compatible text, the report model and its renderers (text, Markdown, JSON,
CSV, self-contained HTML)."""

from .classification_report import classification_report
from .model import Comparison, Report, ThresholdCurve, build_comparison, build_report
from .render_data import render_csv, render_json
from .render_html import render_html
from .render_text import render_markdown, render_text

__all__ = [
    "Comparison",
    "Report",
    "ThresholdCurve",
    "build_comparison",
    "build_report",
    "classification_report",
    "render_csv",
    "render_html",
    "render_json",
    "render_markdown",
    "render_text",
]
