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

    A structural type for the type checker: :class:`~confmat.ConfusionMatrix` satisfies it, and
    the mixins annotate ``self`` with it. Each member is documented on
    :class:`~confmat.ConfusionMatrix`.

    Parameters
    ----------
    *args, **kwargs
        None accepted: like every ``typing.Protocol``, ``CountsTable()`` raises ``TypeError``.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> isinstance(ConfusionMatrix([[1, 0], [0, 1]]).full_table, np.ndarray)
    True
    """

    @property
    def counts(self) -> np.ndarray:
        """The K x K table, ``numpy.ndarray``; rows = true class, columns = predicted class."""
        ...

    @property
    def full_table(self) -> np.ndarray:
        """The stored table, ``numpy.ndarray``: ``counts`` plus any outside row and column."""
        ...

    @property
    def labels(self) -> list[Any]:
        """The classes, ``list``, in the order of the rows and columns."""
        ...

    @property
    def n_classes(self) -> int:
        """Number of classes K, ``int``."""
        ...

    @property
    def n(self) -> float:
        """Total count (or weight) in the K x K table, ``int`` or ``float``."""
        ...

    @property
    def has_outside_margin(self) -> bool:
        """``bool``: ``full_table`` has a last row and column for samples outside ``labels``."""
        ...

    @property
    def is_weighted(self) -> bool:
        """``bool``: the counts are float sums of sample weights."""
        ...

    def stats(self, zero_division: Any = "warn") -> Stats:
        """Sufficient statistics for the metric functions of the registry.

        Parameters
        ----------
        zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
            Value of a ratio whose denominator is 0.

        Returns
        -------
        Stats
            The statistics of the table.
        """
        ...

    def index_of(self, label: Any, name: str = "label") -> int:
        """Position of ``label`` in ``labels``.

        Parameters
        ----------
        label : label
            A class.
        name : str, default "label"
            The argument's name, for the message.

        Returns
        -------
        int
            The index.

        Raises
        ------
        ValueError
            If ``label`` is not one of the labels.
        """
        ...

    def metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
               zero_division: Any = "warn", **params: Any) -> Any:
        """Compute one registry metric by name or alias.

        Parameters
        ----------
        name : str
            A metric name or alias.
        average : {None, "micro", "macro", "weighted"}, optional
            How to average a per-class metric; None keeps one value per class.
        pos_label : label, optional
            Return that class's value of a per-class metric.
        zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
            Value of a ratio whose denominator is 0.
        **params
            Parameters of the metric (e.g. ``beta`` of ``fbeta``).

        Returns
        -------
        float or numpy.ndarray
            The value, as :meth:`ConfusionMatrix.metric <confmat.ConfusionMatrix.metric>`
            gives it.
        """
        ...

    @classmethod
    def from_table(cls, table: np.ndarray, labels: Sequence[Any], *,
                   has_outside_margin: bool = False) -> Any:
        """A matrix around a table that counting code has already counted and checked.

        Parameters
        ----------
        table : numpy.ndarray
            Shape (K, K), or (K + 1, K + 1) with an outside margin; rows = true class.
        labels : sequence
            The K classes, in the table's order.
        has_outside_margin : bool, default False
            The table has a last row and column for samples outside ``labels``.

        Returns
        -------
        CountsTable
            A matrix of the same class.
        """
        ...


TableT = TypeVar("TableT", bound=CountsTable)
