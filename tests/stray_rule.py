"""The classes a prediction beside one score column may hold, written from the rule as
docs/cli.md states it (not from confmat): the classes of ``y_true``, the positive class, and,
where every sample is positive (``y_true`` names no negative class), the first other
predicted label in sorted order, which names the rest of the score column."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def scored_classes(y_true: Iterable[Any], y_pred: Iterable[Any], pos_label: Any) -> set[Any]:
    truth = set(y_true)
    scored = truth | {pos_label}
    if truth <= {pos_label}:
        others = sorted(v for v in set(y_pred) if v != pos_label)
        scored |= set(others[:1])
    return scored


def positive_class(truth: set[Any], pos: Any) -> tuple[bool, Any]:
    """(resolved, class) of one score column by the documented rule: a given positive class
    must be in the truth; without one, integer truths within {0, 1} imply 1."""
    if pos is not None:
        return pos in truth, pos
    if all(isinstance(v, int) for v in truth) and truth <= {0, 1}:
        return True, 1
    return False, None
