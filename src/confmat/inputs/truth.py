"""``y_true`` read once: the value the door hands back for a caller that asks several questions
of one truth.

A report asks many: the score curves of each class, the classes present for the stray-label
check, calibration, the ROC averages, Hand and Till's AUC, the ROC band, the cost-optimal
threshold. Each would encode the labels again (for strings, a hash pass over the column and a
sort of its classes). :class:`EncodedTruth` holds the answer - the sorted classes and a code
per sample - and the door's encoders accept it in place of the labels and read it as it is:
:func:`confmat.inputs.targets.encode_truth` (and so every function of a score problem built on
it, :func:`~confmat.inputs.targets.binary_target` among them) and
:func:`confmat.inputs.encode.encode_pair`. It is built by
:func:`confmat.inputs.targets.encoded_truth`; this module imports nothing from the door, so
that both of those modules can recognise the value. The counting kernels read it too, as the
codes of a column already coded (:func:`confmat.inputs.columns.label_column`), so a caller
that counts one truth against several models' predictions encodes it once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..words import arg

__all__ = ["EncodedTruth"]


@dataclass(frozen=True, eq=False)
class EncodedTruth:
    """True labels encoded by the door: their sorted classes and a code per sample.

    Immutable, so that one truth can be shared by every helper of a report: ``classes`` is
    a tuple and ``codes`` a read-only view (the caller's array is left writable). Build it
    with :func:`confmat.inputs.targets.encoded_truth`, which validates the labels.

    Parameters
    ----------
    classes : tuple
        The distinct labels, sorted, as Python scalars.
    codes : ndarray of int64, shape (n_samples,)
        ``classes[codes[i]]`` is the label of sample ``i``.

    Examples
    --------
    >>> t = EncodedTruth(("healthy", "sick"), np.array([1, 0, 1]))
    >>> t.n_samples, t.present(["sick", "unknown"])
    (3, ['sick'])
    """

    classes: tuple[Any, ...]
    codes: np.ndarray

    def __post_init__(self) -> None:
        codes = np.asarray(self.codes).view()
        codes.setflags(write=False)
        object.__setattr__(self, "classes", tuple(self.classes))
        object.__setattr__(self, "codes", codes)

    @property
    def n_samples(self) -> int:
        """The number of samples."""
        return int(self.codes.shape[0])

    def present(self, labels: Any) -> list[Any]:
        """The labels among ``labels`` that occur in the truth, in the order of ``labels``.

        Parameters
        ----------
        labels : iterable
            Candidate classes (a report's classes, the columns of a score matrix).

        Returns
        -------
        list
        """
        seen = set(self.classes)
        return [c for c in labels if c in seen]

    def factors(self) -> tuple[np.ndarray, np.ndarray]:
        """The truth as a factorization: (distinct labels as an object array, codes).

        The form :func:`confmat.inputs.encode.factorize` returns, for
        :func:`confmat.inputs.encode.encode_pair`.

        Returns
        -------
        uniques : ndarray of object, shape (n_classes,)
        codes : ndarray of int64, shape (n_samples,)

        Examples
        --------
        >>> u, c = EncodedTruth((0, 1), np.array([1, 1, 0])).factors()
        >>> u.tolist(), c.tolist()
        ([0, 1], [1, 1, 0])
        """
        uniques = np.empty(len(self.classes), dtype=object)
        uniques[:] = self.classes
        return uniques, self.codes

    def take(self, rows: np.ndarray) -> EncodedTruth:
        """The truth of the samples ``rows`` selects, with the classes that remain: what
        encoding ``y_true[rows]`` would give, without reading the labels again.

        Parameters
        ----------
        rows : ndarray of bool, shape (n_samples,)
            Which samples to keep (at least one).

        Returns
        -------
        EncodedTruth

        Raises
        ------
        ValueError
            ``rows`` keeps no sample, the door's message for empty labels.

        Examples
        --------
        >>> t = EncodedTruth(("a", "b", "c"), np.array([2, 0, 2, 1]))
        >>> kept = t.take(np.array([True, False, True, True]))
        >>> kept.classes, kept.codes.tolist()
        (('b', 'c'), [1, 1, 0])
        """
        codes = self.codes[np.asarray(rows, dtype=bool)]
        if codes.shape[0] == 0:
            raise ValueError(f"{arg('y_true')} is empty; at least one sample is needed")
        used = np.flatnonzero(np.bincount(codes, minlength=len(self.classes)))
        if used.size == len(self.classes):
            return EncodedTruth(self.classes, codes)
        lut = np.zeros(len(self.classes), dtype=np.int64)
        lut[used] = np.arange(used.size)
        return EncodedTruth(tuple(self.classes[i] for i in used.tolist()), lut[codes])
