"""What the mixins of :class:`~confmat.ConfusionMatrix` may use: its public interface.

The views, state and conveniences of the matrix live in their own modules as mixin classes;
they reach the matrix only through this protocol (public properties and ``from_table``), never
through its private attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from ..metrics import Stats

__all__ = ["CountsTable", "TableT"]


class CountsTable(Protocol):
    """The public interface of :class:`~confmat.ConfusionMatrix` that its mixins rely on.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> isinstance(ConfusionMatrix([[1, 0], [0, 1]]).full_table, np.ndarray)
    True
    """

    @property
    def counts(self) -> np.ndarray: ...

    @property
    def full_table(self) -> np.ndarray: ...

    @property
    def labels(self) -> list[Any]: ...

    @property
    def n_classes(self) -> int: ...

    @property
    def n(self) -> float: ...

    @property
    def has_outside_margin(self) -> bool: ...

    @property
    def is_weighted(self) -> bool: ...

    def stats(self, zero_division: Any = "warn") -> Stats: ...

    def index_of(self, label: Any, name: str = "label") -> int: ...

    def metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
               zero_division: Any = "warn", **params: Any) -> Any: ...

    @classmethod
    def from_table(cls, table: np.ndarray, labels: Sequence[Any], *,
                   has_outside_margin: bool = False) -> Any: ...


TableT = TypeVar("TableT", bound=CountsTable)
