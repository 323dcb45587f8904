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
that both of those modules can recognise the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

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
