"""The confusion matrix (:class:`ConfusionMatrix`), split by responsibility: ``core``
(construction, properties, algebra, metrics), ``views``, ``state`` (JSON), ``conveniences``
(served by higher layers through :mod:`confmat.hooks`) and ``tables`` (validation of tables
given by users)."""

from .core import ConfusionMatrix, Orientation
from .state import SCHEMA, SCHEMA_VERSION

__all__ = ["SCHEMA", "SCHEMA_VERSION", "ConfusionMatrix", "Orientation"]
