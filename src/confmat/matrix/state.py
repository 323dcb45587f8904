"""A confusion matrix as versioned JSON (never pickle), read back as untrusted input.
Mixed into :class:`~confmat.ConfusionMatrix`; reaches the matrix only through its public
interface (:class:`.protocol.CountsTable`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from ..inputs.state import (
    check_envelope,
    json_labels,
    parse_json,
    read_choice,
    read_counts,
    read_labels,
)
from .protocol import CountsTable, TableT

__all__ = ["SCHEMA", "SCHEMA_VERSION", "MatrixState"]

SCHEMA = "confmat.confusion_matrix"
SCHEMA_VERSION = 1


class MatrixState:
    """JSON state of a confusion matrix (mixed into :class:`~confmat.ConfusionMatrix`).

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> isinstance(ConfusionMatrix([[1, 0], [0, 1]]), MatrixState)
    True
    """

    __slots__ = ()

    def to_dict(self: CountsTable) -> dict[str, Any]:
        """Versioned, JSON-ready description (never pickle).

        Returns
        -------
        dict
            ``schema``, ``version``, ``orientation``, ``labels``, ``counts``, ``dtype`` and, with an
            outside margin, ``outside``.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> d = ConfusionMatrix([[3, 1], [0, 2]], labels=["a", "b"]).to_dict()
        >>> d["schema"], d["labels"], d["counts"]
        ('confmat.confusion_matrix', ['a', 'b'], [[3, 1], [0, 2]])
        """
        d: dict[str, Any] = {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "orientation": "true_rows",
            "labels": json_labels(self.labels, "ConfusionMatrix.to_dict"),
            "counts": self.counts.tolist(),
            "dtype": "float64" if self.is_weighted else "int64",
        }
        if self.has_outside_margin:
            d["outside"] = self.full_table.tolist()
        return d

    @classmethod
    def from_dict(cls: type[TableT], data: Mapping[str, Any]) -> TableT:
        """Rebuild a matrix from :meth:`to_dict` output, validated as untrusted input
        (:mod:`confmat.inputs.state`): exact non-negative counts of the declared ``dtype``, a
        K x K table for K distinct labels, an ``outside`` table that extends ``counts``.

        Parameters
        ----------
        data : mapping
            The description.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError, TypeError
            Naming the field that is wrong.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> cm = ConfusionMatrix([[3, 1], [0, 2]])
        >>> ConfusionMatrix.from_dict(cm.to_dict()) == cm
        True
        """
        return _from_state(cls, data, "ConfusionMatrix.from_dict")

    def to_json(self: CountsTable, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON text.

        Parameters
        ----------
        **kwargs
            Options of ``json.dumps`` (e.g. ``indent``).

        Returns
        -------
        str

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[3, 1], [0, 2]]).to_json()[:40]
        '{"schema": "confmat.confusion_matrix", "'
        """
        return json.dumps(MatrixState.to_dict(self), **kwargs)

    @classmethod
    def from_json(cls: type[TableT], text: str) -> TableT:
        """Rebuild a matrix from :meth:`to_json` text (validated like :meth:`from_dict`).

        Parameters
        ----------
        text : str
            JSON text.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError, TypeError
            Text that is not JSON, or a field that is wrong.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> cm = ConfusionMatrix([[3, 1], [0, 2]])
        >>> ConfusionMatrix.from_json(cm.to_json()) == cm
        True
        """
        name = "ConfusionMatrix.from_json"
        return _from_state(cls, parse_json(text, name), name)


def _from_state(cls: type[TableT], data: Any, name: str) -> TableT:
    check_envelope(data, SCHEMA, SCHEMA_VERSION, name, what="confmat confusion matrix",
                   fields=("orientation", "labels", "counts", "dtype", "outside"))
    orientation = read_choice(data, "orientation", name, ("true_rows", "pred_rows"),
                              default="true_rows")
    labels = read_labels(data, "labels", name, tuples=True)
    k = len(labels)
    dtype = read_choice(data, "dtype", name, ("int64", "float64"), default=None)
    integer: bool | Literal["auto"] = "auto" if dtype is None else dtype == "int64"
    counts = read_counts(data, "counts", name, shape=(k, k), integer=integer,
                         why=f" (K x K for the {k} labels)")
    if orientation == "pred_rows":
        counts = counts.T.copy()
    if "outside" not in data:
        return cls.from_table(counts, labels)
    table = read_counts(data, "outside", name, shape=(k + 1, k + 1),
                        integer=counts.dtype.kind == "i",
                        why=f" (K + 1 rows and columns for the {k} labels)")
    if orientation == "pred_rows":
        table = table.T.copy()
    if not np.array_equal(table[:k, :k], counts):
        raise ValueError(
            f"{name}: the 'outside' table does not match 'counts' (its first {k} rows and "
            "columns must equal 'counts')"
        )
    return cls.from_table(table, labels, has_outside_margin=True)
