"""The versioned JSON form of a :class:`~confmat.binned.ScoreHistogram` (never pickle), read
back as untrusted input (:mod:`confmat.inputs.state`). Mixed into the histogram as
:class:`HistogramState`; reaches it only through its public interface (``labels``,
``labels_given``, ``pos_label``, ``bins``, ``score_range``, ``counts``)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

import numpy as np

from ..inputs.scores import check_score_range
from ..inputs.state import (
    check_envelope,
    field_name,
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

__all__ = ["MAX_CELLS", "SCHEMA", "SCHEMA_VERSION", "HistogramState", "read_state"]

SCHEMA = "confmat.score_histogram"
#: Version 2 adds ``labels_given`` and ``pos_label`` (the positive-class rule of a histogram
#: made without ``labels``); a histogram with given labels and no ``pos_label`` is still
#: written as version 1, which older readers read the same.
SCHEMA_VERSION = 2
#: The fields of a histogram besides ``schema`` and ``version`` (version 1 may lack
#: ``labels_given`` and ``pos_label``).
HISTOGRAM_FIELDS = ("labels", "labels_given", "pos_label", "bins", "score_range", "dtype",
                    "shape", "index", "values")
#: ``from_dict`` refuses histograms of more cells (labels x columns x bins; 16 GiB of
#: int64): the sparse JSON form is small whatever the size, so a few bytes of untrusted
#: input could otherwise make it allocate without bound.
MAX_CELLS = 2**31

H = TypeVar("H", bound="HistogramState")


class HistogramState:
    """JSON form of a score histogram (mixed into :class:`~confmat.binned.ScoreHistogram`).

    Examples
    --------
    >>> from confmat.binned import ScoreHistogram
    >>> isinstance(ScoreHistogram(), HistogramState)
    True
    """

    def to_dict(self: Any) -> dict[str, Any]:
        """Versioned plain-JSON form: only non-empty bins are stored (flat index, value).

        Returns
        -------
        dict
            Keys ``schema``, ``version``, ``labels``, ``labels_given``, ``pos_label``
            (the positive-class rule, so that a histogram made without ``labels`` reads
            later chunks the same way after a round trip), ``bins``, ``score_range``,
            ``dtype``, ``shape``, ``index``, ``values``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> d = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7]).to_dict()
        >>> d["index"], d["values"]
        ([0, 3], [1, 1])
        """
        flat = self.counts.ravel()
        nz = np.flatnonzero(flat)
        plain = self.labels_given and self.pos_label is None
        return {
            "schema": SCHEMA,
            "version": 1 if plain else SCHEMA_VERSION,
            "labels": json_labels(self.labels, "ScoreHistogram.to_dict"),
            "labels_given": self.labels_given,
            "pos_label": None if self.pos_label is None else json_labels(
                [self.pos_label], "ScoreHistogram.to_dict", "pos_label")[0],
            "bins": self.bins,
            "score_range": list(self.score_range),
            "dtype": "float64" if self.is_weighted else "int64",
            "shape": list(self.counts.shape),
            "index": nz.tolist(),
            "values": flat[nz].tolist(),
        }

    @classmethod
    def from_dict(cls: type[H], data: dict[str, Any]) -> H:
        """Rebuild a histogram written by :meth:`to_dict`, validated as untrusted input
        (:mod:`confmat.inputs.state`; no code is executed): the ``shape`` of the labels and
        bins, distinct in-range ``index`` entries and exact ``values`` of the ``dtype``.

        Parameters
        ----------
        data : dict
            The output of :meth:`to_dict`.

        Returns
        -------
        ScoreHistogram

        Raises
        ------
        ValueError, TypeError
            A field missing, of the wrong type or inconsistent (the message names it).

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7])
        >>> ScoreHistogram.from_dict(h.to_dict()) == h
        True
        """
        return read_state(cls, data, "ScoreHistogram.from_dict")

    def to_json(self: Any) -> str:
        """:meth:`to_dict` as JSON text.

        Returns
        -------
        str

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> ScoreHistogram(bins=2).to_json()[:35]
        '{"schema": "confmat.score_histogram'
        """
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls: type[H], text: str) -> H:
        """Rebuild a histogram from :meth:`to_json` text (validated like :meth:`from_dict`).

        Parameters
        ----------
        text : str
            JSON text.

        Returns
        -------
        ScoreHistogram

        Raises
        ------
        ValueError, TypeError
            Text that is not JSON, or an invalid histogram.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7])
        >>> ScoreHistogram.from_json(h.to_json()) == h
        True
        """
        name = "ScoreHistogram.from_json"
        return read_state(cls, parse_json(text, name), name)


def read_state(histogram_type: Any, data: Any, name: str, at: tuple[str, ...] = ()) -> Any:
    """Validate :meth:`HistogramState.to_dict` output and rebuild it as a ``histogram_type``
    (public within the package: :func:`confmat.binned.read_histogram` and the ``from_dict`` /
    ``from_json`` of :class:`HistogramState` call it).

    Parameters
    ----------
    histogram_type : type
        The histogram class to build, called as ``histogram_type(labels, bins=,
        score_range=, pos_label=)`` (:class:`~confmat.binned.ScoreHistogram`).
    data : any
        Untrusted decoded JSON.
    name : str
        Caller named in error messages.
    at : tuple of str, default=()
        Path of the histogram inside ``data``.

    Returns
    -------
    ScoreHistogram
        An instance of ``histogram_type``.

    Raises
    ------
    ValueError, TypeError
        A field missing, of the wrong type or inconsistent (the message names it).

    Examples
    --------
    >>> from confmat.binned import ScoreHistogram
    >>> h = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7])
    >>> read_state(ScoreHistogram, h.to_dict(), "example").counts.tolist()
    [[[1, 0]], [[0, 1]]]
    >>> bad = dict(h.to_dict(), bins=0)
    >>> read_state(ScoreHistogram, bad, "example", at=("scores",))
    Traceback (most recent call last):
    ...
    ValueError: example: field 'scores'['bins'] must be an integer >= 1, got 0
    """
    version = check_envelope(data, SCHEMA, SCHEMA_VERSION, name, what="confmat score histogram",
                             fields=HISTOGRAM_FIELDS, at=at)
    labels = read_labels(data, (*at, "labels"), name, minimum=2)
    bins = read_int(data, (*at, "bins"), name, minimum=1)
    score_range = read_float_range(data, (*at, "score_range"), name)
    k = len(labels)
    shape = (k, 1 if k == 2 else k, bins)
    if shape[0] * shape[1] * bins > MAX_CELLS:
        raise ValueError(
            f"{name}: field {field_name((*at, 'bins'))} gives a histogram of {k} x {shape[1]} x "
            f"{bins} cells, more than the {MAX_CELLS} this confmat reads"
        )
    try:  # after the size check: the edges are formed here
        check_score_range(score_range, bins)
    except ValueError as exc:  # finite, lo < hi, but bins float64 cannot form
        raise ValueError(f"{name}: field {field_name((*at, 'score_range'))}: {exc}") from exc
    declared = read_counts(data, (*at, "shape"), name, shape=(3,), check_total=False)
    if tuple(declared.tolist()) != shape:
        raise ValueError(
            f"{name}: field {field_name((*at, 'shape'))} is {declared.tolist()} but the "
            f"{k} labels and {bins} bins make {list(shape)}"
        )
    dtype = read_choice(data, (*at, "dtype"), name, ("int64", "float64"))
    index = read_counts(data, (*at, "index"), name, shape=(None,), check_total=False)
    values = read_counts(data, (*at, "values"), name, shape=(index.shape[0],),
                         integer=dtype == "int64",
                         why=" (one value per entry of 'index')")
    size = k * shape[1] * bins
    if index.size and index.max() >= size:
        i = int(np.argmax(index >= size))
        raise ValueError(
            f"{name}: field {field_name((*at, 'index', i))} is {int(index[i])}, beyond the "
            f"{size} cells of a histogram of shape {list(shape)}"
        )
    ordered = index if bool((index[1:] > index[:-1]).all()) else np.sort(index)
    if (ordered[1:] == ordered[:-1]).any():
        raise ValueError(f"{name}: field {field_name((*at, 'index'))} repeats a cell")
    # version 1 predates the positive-class rule (labels given, no pos_label); version 2
    # states always write both fields, and one lost would read another rule
    if version >= 2:
        require(data, (*at, "labels_given"), name)
        require(data, (*at, "pos_label"), name)
    given = read_choice(data, (*at, "labels_given"), name, (True, False), default=True)
    pos_label = read_label(data, (*at, "pos_label"), name)
    try:
        out = histogram_type(labels if given else None, bins=bins, score_range=score_range,
                             pos_label=pos_label)
    except (ValueError, TypeError) as exc:  # labels numpy cannot hold as one kind
        raise type(exc)(f"{name}: field {field_name((*at, 'labels'))}: {exc}") from exc
    if out.labels != labels:
        raise ValueError(
            f"{name}: field {field_name((*at, 'labels'))} is {labels} but 'labels_given' "
            f"{str(given).lower()} and 'pos_label' {pos_label!r} make {out.labels}"
        )
    flat = np.zeros(size, dtype=values.dtype)
    flat[index] = values
    out.counts = flat.reshape(shape)
    return out
