"""The state of a :class:`~confmat.accumulator.by_group.GroupedAccumulator` as versioned JSON
(never pickle), read back as untrusted input (:mod:`confmat.inputs.state`). Mixed into the
class; reaches it only through its public properties and ``restore``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..inputs.state import (
    check_envelope,
    exact_total,
    json_labels,
    parse_json,
    read_choice,
    read_counts,
    read_int,
    read_labels,
    require,
)

__all__ = ["GROUPED_SCHEMA", "GROUPED_SCHEMA_VERSION", "GroupedAccumulatorState"]

GROUPED_SCHEMA = "confmat.grouped_accumulator"
GROUPED_SCHEMA_VERSION = 1
#: The fields of a state besides ``schema`` and ``version`` (all written, all required).
GROUPED_FIELDS = ("labels", "labels_fixed", "groups", "names", "counts", "sizes", "dtype",
                  "n_samples", "n_updates", "min_support", "pos_label")


class GroupedAccumulatorState:
    """JSON state of a grouped accumulator (mixed into
    :class:`~confmat.accumulator.by_group.GroupedAccumulator`).

    Examples
    --------
    >>> from confmat.accumulator import GroupedAccumulator
    >>> isinstance(GroupedAccumulator(), GroupedAccumulatorState)
    True
    """

    def to_dict(self: Any) -> dict[str, Any]:
        """Versioned, JSON-ready state.

        Returns
        -------
        dict
            ``schema``, ``version``, ``labels``, ``labels_fixed``, ``groups``, ``names``,
            ``counts`` (G x K x K), ``sizes``, ``dtype``, ``n_samples``, ``n_updates``,
            ``min_support``, ``pos_label``.

        Examples
        --------
        >>> from confmat.accumulator import GroupedAccumulator
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 0], ["a", "b"])
        >>> d = acc.to_dict()
        >>> d["groups"], d["counts"], d["sizes"]
        (['a', 'b'], [[[1, 0], [0, 0]], [[0, 0], [1, 0]]], [1, 1])
        """
        pos = None if self.pos_label is None else json_labels([self.pos_label],
                                                              "GroupedAccumulator.to_dict",
                                                              "pos_label")[0]
        return {
            "schema": GROUPED_SCHEMA,
            "version": GROUPED_SCHEMA_VERSION,
            "labels": json_labels(self.labels, "GroupedAccumulator.to_dict"),
            "labels_fixed": self.labels_fixed,
            "groups": json_labels(self.groups, "GroupedAccumulator.to_dict", "groups"),
            "names": self.names,
            "counts": self.stack.tolist(),
            "sizes": self.sizes.tolist(),
            "dtype": "float64" if self.is_weighted else "int64",
            "n_samples": int(self.n_samples),
            "n_updates": int(self.n_updates),
            "min_support": self.min_support,
            "pos_label": pos,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild a grouped accumulator from :meth:`to_dict` output, validated as untrusted
        input: sorted groups and labels (unless fixed), exact counts of the declared ``dtype``,
        group sizes adding up to ``n_samples`` (and equal to the tables' totals when
        unweighted).

        Parameters
        ----------
        data : mapping
            The state.

        Returns
        -------
        GroupedAccumulator

        Raises
        ------
        ValueError, TypeError
            Naming the field that is wrong.

        Examples
        --------
        >>> from confmat.accumulator import GroupedAccumulator
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 0], ["a", "b"])
        >>> GroupedAccumulator.from_dict(acc.to_dict()).stack.tolist() == acc.stack.tolist()
        True
        """
        return _from_state(cls, data, "GroupedAccumulator.from_dict")

    def to_json(self: Any, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON text.

        Parameters
        ----------
        **kwargs
            Options of ``json.dumps``.

        Returns
        -------
        str

        Examples
        --------
        >>> from confmat.accumulator import GroupedAccumulator
        >>> GroupedAccumulator().to_json()[:42]
        '{"schema": "confmat.grouped_accumulator", '
        """
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Any:
        """Rebuild a grouped accumulator from :meth:`to_json` text.

        Parameters
        ----------
        text : str
            JSON text.

        Returns
        -------
        GroupedAccumulator

        Raises
        ------
        ValueError, TypeError
            Text that is not JSON, or a field that is wrong.

        Examples
        --------
        >>> from confmat.accumulator import GroupedAccumulator
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 0], {"site": ["a", "a"], "n": [1, 2]})
        >>> GroupedAccumulator.from_json(acc.to_json()).n_samples
        2
        """
        name = "GroupedAccumulator.from_json"
        return _from_state(cls, parse_json(text, name), name)


def _from_state(cls: Any, data: Any, name: str) -> Any:
    check_envelope(data, GROUPED_SCHEMA, GROUPED_SCHEMA_VERSION, name,
                   what="confmat grouped accumulator state",
                   fields=GROUPED_FIELDS)
    # every field to_dict writes is required (a default would read another state)
    fixed = read_choice(data, "labels_fixed", name, (True, False))
    labels = read_labels(data, "labels", name, minimum=1 if fixed else 0)
    keys = read_labels(data, "groups", name, minimum=0, tuples=True)
    for field, values in (("labels", labels if not fixed else None), ("groups", keys)):
        if values is not None and values != sorted(values):
            raise ValueError(f"{name}: field {field!r} must be sorted, got {values[:10]}")
    names = require(data, "names", name)
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(v, str) for v in names)):
        raise TypeError(f"{name}: field 'names' must be a list of strings or null, got "
                        f"{names!r}")
    k, g = len(labels), len(keys)
    dtype = read_choice(data, "dtype", name, ("int64", "float64"))
    stack = read_counts(data, "counts", name, shape=(g, k, k), integer=dtype == "int64",
                        why=f" (G x K x K for the {g} groups and {k} labels)")
    sizes = read_counts(data, "sizes", name, shape=(g,), why=f" (one per group, {g})")
    n_samples = read_int(data, "n_samples", name, minimum=0)
    if exact_total(sizes) != n_samples:
        raise ValueError(f"{name}: field 'sizes' adds up to {exact_total(sizes)} but "
                         f"'n_samples' is {n_samples}")
    if g and not sizes.all():
        raise ValueError(f"{name}: field 'sizes' holds a group without samples")
    if stack.dtype.kind == "i" and not np.array_equal(stack.sum(axis=(1, 2)), sizes):
        raise ValueError(f"{name}: field 'sizes' differs from the totals of the unweighted "
                         "'counts'")
    n_updates = read_int(data, "n_updates", name, minimum=0)
    min_support = read_int(data, "min_support", name, minimum=0)
    pos = require(data, "pos_label", name)
    pos_label = None if pos is None else read_labels({"pos_label": [pos]}, "pos_label", name)[0]
    try:
        out = cls(labels if fixed else None, min_support=min_support, pos_label=pos_label)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{name}: field 'labels': {exc}") from exc
    out.restore(labels, keys, names, stack, sizes, n_samples=n_samples, n_updates=n_updates)
    return out
