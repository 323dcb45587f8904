"""The state of an :class:`~confmat.Accumulator` as versioned JSON (never pickle), read back
as untrusted input (:mod:`confmat.inputs.state`). Mixed into the Accumulator; reaches it only
through its public interface (properties, ``restore``)."""

from __future__ import annotations

import json
import math
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
    read_float_range,
    read_int,
    read_label,
    read_labels,
    require,
)
from .scores import same_class

__all__ = ["SCHEMA", "SCHEMA_VERSION", "AccumulatorState"]

SCHEMA = "confmat.accumulator"
#: Version 2 adds ``pos_label`` (the class one score column scores); a state without one is
#: still written as version 1, without the field, which older readers read the same.
SCHEMA_VERSION = 2
#: The fields of a state besides ``schema`` and ``version`` (all written, all required;
#: ``pos_label`` from version 2).
ACCUMULATOR_FIELDS = ("labels", "labels_fixed", "counts", "dtype", "n_samples", "n_updates",
                      "bins", "score_range", "track_scores", "scores", "pos_label")


class AccumulatorState:
    """JSON state of an accumulator (mixed into :class:`~confmat.Accumulator`).

    Examples
    --------
    >>> from confmat import Accumulator
    >>> isinstance(Accumulator(), AccumulatorState)
    True
    """

    def to_dict(self: Any) -> dict[str, Any]:
        """Versioned, JSON-ready state (never pickle).

        Returns
        -------
        dict
            ``schema``, ``version``, ``labels``, ``labels_fixed``, ``counts``, ``dtype``,
            ``n_samples``, ``n_updates``, ``bins``, ``score_range``, ``track_scores``,
            ``scores``, and ``pos_label`` when one was given (then version 2).

        Examples
        --------
        >>> from confmat import Accumulator
        >>> acc = Accumulator()
        >>> acc.update([0, 1], [0, 0])
        >>> d = acc.to_dict()
        >>> d["schema"], d["counts"], d["n_samples"]
        ('confmat.accumulator', [[1, 0], [1, 0]], 2)
        """
        pos = {} if self.pos_label is None else {"pos_label": json_labels(
            [self.pos_label], "Accumulator.to_dict", "pos_label")[0]}
        return {
            "schema": SCHEMA,
            "version": 1 if self.pos_label is None else SCHEMA_VERSION,
            "labels": json_labels(self.labels, "Accumulator.to_dict"),
            "labels_fixed": self.labels_fixed,
            "counts": self.counts.tolist(),
            "dtype": "float64" if self.is_weighted else "int64",
            "n_samples": int(self.n_samples),
            "n_updates": int(self.n_updates),
            "bins": self.bins,
            "score_range": list(self.score_range),
            "track_scores": self.track_scores,
            "scores": None if self.histogram is None else self.histogram.to_dict(),
            **pos,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild an accumulator from :meth:`to_dict` output, validated as untrusted input
        (:mod:`confmat.inputs.state`): exact non-negative counts of the declared ``dtype``
        over the labels (sorted unless fixed), ``n_samples`` equal to the total of an
        unweighted table, a score histogram whose classes with samples are among the labels
        and whose class totals equal the rows of ``counts`` (sums of weights to a relative
        ``1e-9``: the same weights added in other orders).

        Parameters
        ----------
        data : mapping
            The state.

        Returns
        -------
        Accumulator

        Raises
        ------
        ValueError, TypeError
            Naming the field that is wrong.

        Examples
        --------
        >>> from confmat import Accumulator
        >>> acc = Accumulator()
        >>> acc.update([0, 1], [0, 0])
        >>> Accumulator.from_dict(acc.to_dict()).result() == acc.result()
        True
        """
        return _from_state(cls, data, "Accumulator.from_dict")

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
        >>> from confmat import Accumulator
        >>> Accumulator().to_json()[:34]
        '{"schema": "confmat.accumulator", '
        """
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Any:
        """Rebuild an accumulator from :meth:`to_json` text (validated like :meth:`from_dict`).

        Parameters
        ----------
        text : str
            JSON text.

        Returns
        -------
        Accumulator

        Raises
        ------
        ValueError, TypeError
            Text that is not JSON, or a field that is wrong.

        Examples
        --------
        >>> from confmat import Accumulator
        >>> acc = Accumulator()
        >>> acc.update([0, 1], [0, 0])
        >>> Accumulator.from_json(acc.to_json()).n_samples
        2
        """
        name = "Accumulator.from_json"
        return _from_state(cls, parse_json(text, name), name)


def _from_state(cls: Any, data: Any, name: str) -> Any:
    version = check_envelope(data, SCHEMA, SCHEMA_VERSION, name,
                             what="confmat accumulator state", fields=ACCUMULATOR_FIELDS)
    # every field to_dict writes is required: a default would read a state that lost one as
    # another state (other bins, labels no longer fixed, scores no longer tracked)
    fixed = read_choice(data, "labels_fixed", name, (True, False))
    labels = read_labels(data, "labels", name, minimum=1 if fixed else 0)
    if not fixed and labels != sorted(labels):
        raise ValueError(
            f"{name}: field 'labels' must be sorted when 'labels_fixed' is false (the "
            f"classes seen are kept in sorted order), got {labels[:10]}"
        )
    k = len(labels)
    dtype = read_choice(data, "dtype", name, ("int64", "float64"))
    table = read_counts(data, "counts", name, shape=(k, k), integer=dtype == "int64",
                        why=f" (K x K for the {k} labels)")
    n_samples = read_int(data, "n_samples", name, minimum=0)
    if table.dtype.kind == "i" and n_samples != exact_total(table):
        raise ValueError(
            f"{name}: field 'n_samples' is {n_samples} but the unweighted 'counts' add up "
            f"to {exact_total(table)}"
        )
    if table.dtype.kind == "f" and n_samples == 0 and table.any():
        raise ValueError(f"{name}: field 'n_samples' is 0 but 'counts' holds weights")
    if k == 0 and n_samples:
        raise ValueError(f"{name}: field 'n_samples' is {n_samples} but there are no labels")
    track = read_choice(data, "track_scores", name, (None, True, False))
    bins = read_int(data, "bins", name, minimum=1)
    score_range = read_float_range(data, "score_range", name)
    if version >= 2:  # version 2 states always write it: one lost would read another class
        require(data, "pos_label", name)
    elif "pos_label" in data:
        raise ValueError(f"{name}: field 'pos_label' is written from version 2; this state "
                         "says version 1")
    pos_label = read_label(data, "pos_label", name)
    try:
        out = cls(labels if fixed else None, scores=track, bins=bins, score_range=score_range,
                  pos_label=pos_label)
    except (ValueError, TypeError) as exc:  # labels numpy cannot hold as one kind
        raise type(exc)(f"{name}: field 'labels': {exc}") from exc
    n_updates = read_int(data, "n_updates", name, minimum=0)
    hist = None
    if require(data, "scores", name) is None and track and n_samples:
        raise ValueError(
            f"{name}: field 'scores' is null but 'track_scores' is true and {n_samples} "
            "samples were counted: their scores are missing"
        )
    if data["scores"] is not None:
        if track is False:
            raise ValueError(
                f"{name}: field 'scores' holds a histogram but 'track_scores' is false"
            )
        from ..binned import read_histogram

        hist = read_histogram(data["scores"], name, at=("scores",))
        known = set(labels)
        seen = np.any(hist.counts.reshape(len(hist.labels), -1), axis=1).tolist()
        unknown = [v for v, s in zip(hist.labels, list(seen), strict=True)
                   if s and v not in known]
        if unknown:
            raise ValueError(
                f"{name}: field 'scores' has samples of the classes {unknown[:5]}, which "
                f"are not in 'labels'"
            )
        if (hist.bins, hist.score_range) != (bins, score_range):
            raise ValueError(
                f"{name}: field 'scores' has bins, score_range {(hist.bins, hist.score_range)} "
                f"but the state has {(bins, score_range)} (fields 'bins', 'score_range')"
            )
        if hist.is_weighted != (table.dtype.kind == "f"):  # one weighted chunk makes both
            raise ValueError(
                f"{name}: field 'scores' has dtype {hist.counts.dtype} but 'counts' has "
                f"{table.dtype}: a weighted chunk weighs both"
            )
        if not hist.labels_given:  # its chunks would be read by another positive-class rule
            raise ValueError(
                f"{name}: field 'scores' is a histogram made without labels ({hist.positive_rule}); "
                "an Accumulator's histogram has its classes given"
            )
        _check_score_totals(table, labels, hist, name)
        if pos_label is not None and not (hist.is_binary
                                          and same_class(hist.labels[1], pos_label)):
            raise ValueError(
                f"{name}: field 'pos_label' is {pos_label!r} but field 'scores' is a histogram "
                f"of the classes {hist.labels} (positive class: the second)"
            )
    out.restore(labels, table, n_samples=n_samples, n_updates=n_updates, histogram=hist)
    return out


#: how far a weighted histogram's class total may be from its row of the table: both add the
#: same weights, chunk by chunk, in other orders (float64 rounding, far below this)
WEIGHT_TOTAL_RTOL = 1e-9


def _check_score_totals(table: np.ndarray, labels: list[Any], hist: Any, name: str) -> None:
    """Every sample of a scored state has its score in the histogram: the histogram's total
    of each true class equals that class's row of ``counts`` (exactly for counts, to
    :data:`WEIGHT_TOTAL_RTOL` for sums of weights)."""
    weighted = table.dtype.kind == "f"
    total: Any = math.fsum if weighted else (lambda values: sum(int(x) for x in values))
    rows = dict(zip(labels, (total(r) for r in table.tolist()), strict=True))
    scored = dict(zip(hist.labels, (total(c) for c in hist.counts[:, 0, :].tolist()),
                      strict=True))
    what = "a weight" if weighted else "samples"
    for v in list(labels) + [c for c in hist.labels if c not in rows]:
        a, b = rows.get(v, 0), scored.get(v, 0)
        if a != b and not (weighted and math.isclose(a, b, rel_tol=WEIGHT_TOTAL_RTOL)):
            raise ValueError(
                f"{name}: field 'scores' holds {b} {what} of the true class {v!r} but "
                f"'counts' holds {a}"
            )
