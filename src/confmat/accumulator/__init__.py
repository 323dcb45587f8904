"""Streaming accumulation: :class:`Accumulator` (``core``: update, merge, result; ``state``:
versioned JSON) and, by group, :class:`GroupedAccumulator` (``by_group``, ``by_group_state``)."""

from .by_group import GroupedAccumulator
from .core import Accumulator
from .state import SCHEMA, SCHEMA_VERSION

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Accumulator", "GroupedAccumulator"]
