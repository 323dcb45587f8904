"""scikit-learn's ``classification_report``: the text table or the dict, from one count."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..inputs.encode import as_1d
from ._params import check_flag, check_sequence
from ._targets import check_targets
from .confusion import label_counts
from .fscores import check_zero_division_arg, prf_from_counts

__all__ = ["classification_report"]

HEADERS = ("precision", "recall", "f1-score", "support")


def classification_report(
    y_true: Any, y_pred: Any, *, labels: Any = None, target_names: Any = None,
    sample_weight: Any = None, digits: int = 2, output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict[str, Any]:
    """Precision, recall, F1 and support per class, with the micro (or accuracy), macro,
    weighted and (multilabel) samples averages.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Labels or indicator matrices.
    labels : array-like, optional
        Labels to report, in order.
    target_names : list of str, optional
        Display names of ``labels``.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    digits : int, default=2
        Digits of the text report.
    output_dict : bool, default=False
        Return a dict instead of text.
    zero_division : {'warn', 0.0, 1.0, np.nan}, default='warn'
        The value of an undefined ratio.

    Returns
    -------
    str or dict

    Raises
    ------
    ValueError
        Bad targets, ``target_names`` not matching the classes found, an empty ``labels``
        for the text report, a bad ``digits``, ``output_dict`` or ``zero_division``.

    Examples
    --------
    >>> from confmat.sklearn import classification_report
    >>> rep = classification_report([0, 1, 1], [0, 1, 0], output_dict=True)
    >>> rep["accuracy"], rep["1"]["recall"]
    (0.6666666666666666, 0.5)
    """
    check_zero_division_arg(zero_division, "classification_report")
    check_flag(output_dict, "output_dict", "classification_report")
    if target_names is not None:
        check_sequence(target_names, "target_names", "classification_report",
                       "an array-like or None")
    if isinstance(digits, bool) or not isinstance(digits, int | np.integer) or digits < 0:
        raise ValueError(
            "The 'digits' parameter of classification_report must be an int in the range "
            f"[0, inf). Got {digits!r} instead."
        )
    tg = check_targets(y_true, y_pred, sample_weight)
    multilabel = tg.kind == "multilabel-indicator"
    counts = label_counts(tg, labels)
    present = counts.present
    if labels is None:
        labels_list = list(present)
        if not multilabel:
            labels_list = _named_as_first_seen(labels_list, tg, y_true, y_pred)
        given = False
    else:
        labels_list = as_1d(labels, "labels").tolist()  # exact: not np.asarray's floats
        given = True
    micro_is_accuracy = not multilabel and (not given or set(labels_list) >= set(present))
    if target_names is not None and len(labels_list) != len(target_names):
        if given:
            warnings.warn(
                f"labels size, {len(labels_list)}, does not match size of target_names, "
                f"{len(target_names)}",
                UserWarning,
                stacklevel=2,
            )
        else:
            raise ValueError(
                f"Number of classes, {len(labels_list)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
    names = [str(v) for v in labels_list] if target_names is None else list(target_names)
    if not names and not output_dict:  # scikit-learn fails on the width of no row name
        raise ValueError("labels is empty: the text report needs at least one class to show")
    p, r, f, s = prf_from_counts(counts, None, 1.0, ("precision", "recall", "f-score"),
                                 sample_weight, zero_division)
    total = np.sum(s)
    rows: list[tuple[str, list[Any]]] = [
        (str(name), [p[i], r[i], f[i], s[i]]) for i, name in zip(range(len(p)), names, strict=False)
    ]
    averages = ("micro", "macro", "weighted", "samples") if multilabel else (
        "micro", "macro", "weighted")
    avg_rows: list[tuple[str, list[Any]]] = []
    warn_for = ("precision", "recall", "f-score")
    for average in averages:
        c = label_counts(tg, labels, samplewise=True) if average == "samples" else counts
        ap, ar, af, _ = prf_from_counts(c, average, 1.0, warn_for, sample_weight, zero_division)
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        avg_rows.append((heading, [ap, ar, af, total]))
    if output_dict:
        out: dict[str, Any] = {}
        for name, vals in rows + avg_rows:
            out[name] = dict(zip(HEADERS, (float(v) for v in vals), strict=True))
        if "accuracy" in out:
            out["accuracy"] = out["accuracy"]["precision"]
        return out
    return _text(rows, avg_rows, names, digits)


def _text(
    rows: list[tuple[str, list[Any]]], avg_rows: list[tuple[str, list[Any]]],
    names: list[Any], digits: int,
) -> str:
    width = max(max((len(str(n)) for n in names), default=0), len("weighted avg"), digits)
    lines = [f"{'':>{width}s} " + "".join(f" {h:>9}" for h in HEADERS), ""]

    def row(name: str, vals: list[Any]) -> str:
        nums = "".join(f" {float(v):>9.{digits}f}" for v in vals[:3])
        return f"{name:>{width}s} {nums} {_support(vals[3]):>9}"

    lines += [row(name, vals) for name, vals in rows]
    lines.append("")
    for name, vals in avg_rows:
        if name == "accuracy":
            lines.append(
                f"{name:>{width}s}  {'':>9} {'':>9} {float(vals[2]):>9.{digits}f} "
                f"{_support(vals[3]):>9}"
            )
        else:
            lines.append(row(name, vals))
    return "\n".join(lines) + "\n"


def _support(v: Any) -> str:
    return str(v.item() if hasattr(v, "item") else v)


def _named_as_first_seen(classes: list[Any], tg: Any, y_true: Any, y_pred: Any) -> list[Any]:
    """The classes as scikit-learn names them when targets of two kinds of numbers meet
    (booleans, integers, floats): its class list is a set of the labels of ``y_true`` then
    ``y_pred`` (a class keeps the type of its first occurrence) made an array, so the names
    are floats (``1.0``) when one class came first as a float, else integers when one came
    first as an integer, else booleans (``True``). Integers that no float represents keep
    their own names (scikit-learn's array would round them, merging classes)."""
    kinds = [np.asarray(y).dtype.kind for y in (y_true, y_pred)]
    kinds = ["i" if k == "u" else k for k in kinds]
    if kinds[0] == kinds[1] or not set(kinds) <= set("bif"):
        return classes
    in_true = set(np.unique(tg.y_true).tolist())
    first = {kinds[0] if v in in_true else kinds[1] for v in classes}
    if "f" in first:  # unless a float would not be the class (2**53 + 1): then as given
        floats = [float(v) for v in classes]
        return floats if floats == classes else classes
    if "i" in first:
        return [int(v) for v in classes]
    return [bool(v) for v in classes]
