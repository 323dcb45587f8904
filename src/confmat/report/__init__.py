"""Reports: scikit-learn compatible text, and (later) the report model and renderers."""

from .classification_report import classification_report

__all__ = ["classification_report"]
