"""Reshaped views of a confusion matrix: normalised tables, one class against the rest,
renamed and pooled classes. Mixed into :class:`~confmat.ConfusionMatrix`; reaches the matrix
only through its public interface (:class:`.protocol.CountsTable`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from .protocol import CountsTable, TableT
from .tables import check_table_labels

__all__ = ["TableViews"]


class TableViews:
    """Views of the counts (mixed into :class:`~confmat.ConfusionMatrix`).

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> isinstance(ConfusionMatrix([[1, 0], [0, 1]]), TableViews)
    True
    """

    __slots__ = ()

    def normalize(self: CountsTable, normalize: Literal["true", "pred", "all"] = "true") -> np.ndarray:
        """Normalised table as in scikit-learn: rows ('true'), columns ('pred') or the whole
        table ('all') sum to 1; an all-zero row or column stays 0.

        Parameters
        ----------
        normalize : {'true', 'pred', 'all'}, default 'true'
            What sums to 1.

        Returns
        -------
        ndarray of shape (K, K)

        Raises
        ------
        ValueError
            For another ``normalize``.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[3, 1], [0, 2]]).normalize("true").tolist()
        [[0.75, 0.25], [0.0, 1.0]]
        """
        if normalize not in ("true", "pred", "all"):
            raise ValueError(f"normalize must be 'true', 'pred' or 'all', got {normalize!r}")
        c = self.counts.astype(np.float64)
        if normalize == "true":
            den = c.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            den = c.sum(axis=0, keepdims=True)
        else:
            den = np.array(c.sum())
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den == 0, 0.0, c / np.where(den == 0, 1.0, den))

    def accuracy_matrix(self: CountsTable) -> np.ndarray:
        """The per-class 'accuracy matrix' of Kneusel (2021, ch. 11): each row in percent of its row
        total, so the diagonal is the per-class accuracy (recall).

        Returns
        -------
        ndarray of shape (K, K)

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[3, 1], [0, 2]]).accuracy_matrix().tolist()
        [[75.0, 25.0], [0.0, 100.0]]
        """
        return 100.0 * TableViews.normalize(self, "true")

    def binary(self: TableT, pos_label: Any, *, rest_label: Any = "rest") -> TableT:
        """The 2 x 2 table of ``pos_label`` against all other classes.

        Laid out as in Yao, Yang & Li (2022) and Kneusel (2021), positive first:
        ``[[TP, FN], [FP, TN]]`` with labels ``[pos_label, rest_label]``.

        Parameters
        ----------
        pos_label : label
            The positive class.
        rest_label : label, default 'rest'
            Name of the pooled other classes.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            If ``pos_label`` is not a label or ``rest_label`` equals it.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> cm = ConfusionMatrix([[5, 1, 0], [2, 6, 1], [0, 1, 4]], labels=["a", "b", "c"])
        >>> cm.binary("b").counts.tolist()
        [[6, 3], [2, 9]]
        """
        i = self.index_of(pos_label, "pos_label")
        s = self.stats()
        tp, fn, fp, tn = (x[i] for x in (s.tp, s.fn, s.fp, s.tn))
        if rest_label == pos_label:
            raise ValueError("rest_label must differ from pos_label")
        return type(self).from_table(np.array([[tp, fn], [fp, tn]]), [pos_label, rest_label])

    def one_vs_rest(self: CountsTable) -> np.ndarray:
        """K stacked 2 x 2 tables ``[[TN, FP], [FN, TP]]``, the layout of scikit-learn's
        ``multilabel_confusion_matrix``.

        Returns
        -------
        ndarray of shape (K, 2, 2)

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[3, 1], [0, 2]]).one_vs_rest()[0].tolist()
        [[2, 0], [1, 3]]
        """
        s = self.stats()
        out = np.stack([s.tn, s.fp, s.fn, s.tp], axis=-1).reshape(-1, 2, 2)
        return out

    def relabel(self: TableT, mapping: Mapping[Any, Any] | Sequence[Any]) -> TableT:
        """Rename classes: a mapping old -> new (unmapped names are kept) or a full new list.

        Parameters
        ----------
        mapping : mapping or sequence
            ``{old: new}``, or the K new names in order.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            A mapping that names unknown labels, a list of the wrong length, duplicate names.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[3, 1], [0, 2]]).relabel({1: "pos"}).labels
        [0, 'pos']
        """
        if isinstance(mapping, Mapping):
            unknown = [k for k in mapping if k not in self.labels]
            if unknown:
                raise ValueError(f"mapping names labels not in the matrix: {unknown}")
            new = [mapping.get(v, v) for v in self.labels]
        else:
            new = list(mapping)
        new = check_table_labels(new, self.n_classes)
        return type(self).from_table(self.full_table, new,
                                     has_outside_margin=self.has_outside_margin)

    def merge_classes(self: TableT, groups: Mapping[Any, Iterable[Any]]) -> TableT:
        """Pool classes: ``{"car": ["opel", "saab"]}`` sums their rows and columns into one class
        placed where the first member stood; other classes keep their order.

        Parameters
        ----------
        groups : mapping of new label -> iterable of labels
            The classes to pool under each new name.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            An empty group, an unknown label, a label in two groups, or a new name that clashes.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> cm = ConfusionMatrix([[5, 1, 0], [2, 6, 1], [0, 1, 4]], labels=["opel", "saab", "bus"])
        >>> car = cm.merge_classes({"car": ["opel", "saab"]})
        >>> car.labels, car.counts.tolist()
        (['car', 'bus'], [[14, 1], [1, 4]])
        """
        target: dict[Any, Any] = {}
        for new, members in groups.items():
            members = list(members)
            if not members:
                raise ValueError(f"group {new!r} has no members")
            for m in members:
                self.index_of(m, "groups")
                if m in target:
                    raise ValueError(f"label {m!r} appears in more than one group")
                target[m] = new
        order: list[Any] = []
        for v in self.labels:
            name = target.get(v, v)
            if name not in order:
                order.append(name)
        check_table_labels(order, len(order))
        k = self.n_classes
        full = self.full_table
        m = full.shape[0]
        proj = np.zeros((m, len(order) + (m - k)), dtype=full.dtype)
        for i, v in enumerate(self.labels):
            proj[i, order.index(target.get(v, v))] = 1
        if m > k:
            proj[k, len(order)] = 1
        table = proj.T @ full @ proj
        return type(self).from_table(table, order, has_outside_margin=self.has_outside_margin)
