"""The inputs of a ROC comparison or variance: one curve's labels and scores through the input
door (:class:`RocCurveInput`) and the partial area asked for (:func:`resolve_partial`), shared
by :func:`confmat.inference.roc_test.roc_test` and :mod:`confmat.inference.roc_var`."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from ..curves.partial import resolve_focus
from ..inputs.targets import binary_target
from .roc_boot import ScoreGroups

__all__ = ["RocCurveInput", "resolve_partial"]


class RocCurveInput:
    """One ROC curve's labels and scores through the input door, both classes required: the
    curves of :func:`confmat.inference.roc_test.roc_test` and of :func:`confmat.inference.roc_var.roc_cov`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels.
    score : array-like of shape (n,)
        Scores (higher = more positive).
    pos_label : label or None
        The positive class (see :func:`confmat.inputs.targets.binary_target`).
    name : str
        The scores' argument name, for error messages.
    true_name : str, default='y_true'
        The labels' argument name, for error messages (``y_true_b`` for the second sample
        of unpaired curves).

    Raises
    ------
    ValueError
        A class missing, or what the input door refuses.

    Examples
    --------
    >>> c = RocCurveInput([0, 1, 1], [0.2, 0.9, 0.4], None, "score_a")
    >>> c.n_pos, c.n_neg, c.pos_label
    (2, 1, 1)
    """

    def __init__(self, y_true: Any, score: Any, pos_label: Any, name: str,
                 true_name: str = "y_true") -> None:
        b = binary_target(y_true, score, pos_label, None, name, true_name)
        self.pos, self.score, self.pos_label = b.pos, b.score, b.pos_label
        self.n_pos = int(np.count_nonzero(b.pos))
        self.n_neg = int(b.pos.shape[0] - self.n_pos)
        if self.n_pos == 0 or self.n_neg == 0:
            raise ValueError(f"the curve of {name} needs both classes in its labels")

    @cached_property
    def groups(self) -> ScoreGroups:
        """The scores grouped for the bootstrap (built on first use: DeLong's variance does
        not need them)."""
        return ScoreGroups.build(self.pos, self.score)


def resolve_partial(partial_specificity: Any, partial_sensitivity: Any, correct: Any
                    ) -> tuple[str, float, float, bool] | None:
    """The partial area of ``partial_specificity=`` / ``partial_sensitivity=`` and
    ``correct=``: ``(focus, low, high, correct)``, or None for the full area.

    Parameters
    ----------
    partial_specificity, partial_sensitivity : pair of float or None
        At most one range.
    correct : bool
        McClish's (1989) standardisation; needs a range.

    Returns
    -------
    tuple or None

    Raises
    ------
    ValueError
        Both ranges, a bad range, or ``correct=True`` without a range.

    Examples
    --------
    >>> resolve_partial((0.8, 1), None, True)
    ('specificity', 0.8, 1.0, True)
    >>> resolve_partial(None, None, False) is None
    True
    """
    if partial_specificity is not None or partial_sensitivity is not None:
        return (*resolve_focus(partial_specificity, partial_sensitivity), bool(correct))
    if correct:
        raise ValueError("correct=True (McClish's standardisation) needs a partial range: "
                         "partial_specificity=(low, high) or partial_sensitivity=(low, high)")
    return None
