"""Streaming accumulation (:class:`Accumulator`): ``core`` (update, merge, result) and
``state`` (versioned JSON)."""

from .core import Accumulator
from .state import SCHEMA, SCHEMA_VERSION

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Accumulator"]
