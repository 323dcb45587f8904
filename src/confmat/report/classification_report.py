"""``classification_report`` with scikit-learn's exact text and dict output."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..inputs.encode import check_sample_weight, encode_pair
from ..matrix import ConfusionMatrix
from ..metrics import ClassCounts, Division, Stats, evaluate, get_metric
from ..metrics.evaluation import average_values
from ..multilabel import check_indicators, indicator_counts, is_indicator

HEADERS = ("precision", "recall", "f1-score", "support")
_METRICS = ("precision", "recall", "f1")


def _samples_average(
    y_true: Any, y_pred: Any, sample_weight: Any, zero_division: Any, columns: Any = None
) -> list[float]:
    """Precision, recall and F1 per sample, then averaged over samples (multilabel only).
    Only the selected label ``columns`` count, as in scikit-learn."""
    t, p = check_indicators(y_true, y_pred)
    if columns is not None:
        t, p = t[:, columns], p[:, columns]
    w = check_sample_weight(sample_weight, t.shape[0])
    shim = Stats(np.zeros((1, 1)), zero_division=zero_division)
    inter = (t & p).sum(axis=1)
    pred, true = p.sum(axis=1), t.sum(axis=1)
    if w is not None:  # a sample's counts carry its weight: a zero-weight sample is undefined
        inter, pred, true = inter * w, pred * w, true * w
    c = ClassCounts(inter, pred - inter, true - inter, 0 * inter, shim.div)
    return [float(average_values(_per(m, c), w, shim)) for m in _METRICS]


def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict[str, Any]:
    """Per-class precision, recall, F1 and support with their averages.

    The text (and the dict with ``output_dict=True``) is character-for-character what
    ``sklearn.metrics.classification_report`` prints for the same arguments, including the
    "micro avg" row that replaces "accuracy" when ``labels`` selects a subset of the classes
    present, and the "samples avg" row for multilabel indicator input.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,) or indicator matrices (n, L)
    labels : array-like, optional
        Classes to report, in order.
    target_names : sequence of str, optional
        Display names of ``labels``.
    sample_weight : array-like of shape (n,), optional
    digits : int
        Decimals of the text output.
    output_dict : bool
        Return a dict instead of text.
    zero_division : "warn", 0, 1 or nan

    Returns
    -------
    str or dict

    Raises
    ------
    ValueError
        Bad ``digits``; ``target_names`` of another length than the classes.

    Examples
    --------
    >>> d = classification_report([0, 1, 1], [0, 1, 0], output_dict=True)
    >>> d["1"]["recall"], d["accuracy"]
    (0.5, 0.6666666666666666)
    """
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
        raise ValueError(f"digits must be a non-negative integer, got {digits!r}")
    multilabel = is_indicator(y_true) or is_indicator(y_pred)
    if multilabel:
        tp, fp, fn, tn = indicator_counts(y_true, y_pred, sample_weight)
        all_labels = list(range(tp.shape[0]))
        if labels is None:
            labels_ = all_labels
            labels_given = False
        else:
            labels_ = [int(v) for v in np.asarray(labels).tolist()]
            labels_given = True
        idx = np.asarray(labels_, dtype=np.int64)
        if (idx < 0).any() or (idx >= tp.shape[0]).any():
            raise ValueError(f"labels must be column indices in [0, {tp.shape[0]})")
        div = Division(zero_division)
        per = ClassCounts(tp[idx], fp[idx], fn[idx], tn[idx], div)
        mtp, mfp, mfn, mtn = (np.atleast_1d(x[idx].sum()) for x in (tp, fp, fn, tn))
        micro = ClassCounts(mtp, mfp, mfn, mtn, div)
        stats = None
        micro_is_accuracy = False
        support = per.support
    else:
        cm = ConfusionMatrix.from_predictions(  # scikit-learn's report accepts any labels
            y_true, y_pred, labels=labels, sample_weight=sample_weight, strict_labels=False
        )
        labels_ = cm.labels
        labels_given = labels is not None
        stats = cm.stats(zero_division)
        support = stats.support
        if sample_weight is not None:
            # sum weights per class in sample order, as scikit-learn does, so the printed
            # float supports agree to the last digit
            tc, pc, book, _ = encode_pair(y_true, y_pred, labels)
            w = check_sample_weight(sample_weight, tc.shape[0])
            assert w is not None  # sample_weight was given
            m = len(book) + 1
            hit = tc == pc
            tp_sum = np.bincount(tc[hit], weights=w[hit], minlength=m)[: m - 1]
            true_sum = np.bincount(tc, weights=w, minlength=m)[: m - 1]
            support = tp_sum + (true_sum - tp_sum)
        elif not _any_correct(y_true, y_pred):
            # scikit-learn's counts turn float when no prediction at all is correct
            support = support.astype(np.float64)
        seen = ConfusionMatrix.from_predictions(y_true, y_pred).labels if labels_given else labels_
        micro_is_accuracy = (not labels_given) or set(labels_) >= set(seen)

    if target_names is not None:
        target_names = [str(v) for v in target_names]
        if len(target_names) != len(labels_):
            if labels_given:
                warnings.warn(
                    f"labels size, {len(labels_)}, does not match size of target_names, "
                    f"{len(target_names)}",
                    stacklevel=2,
                )
            else:
                raise ValueError(
                    f"Number of classes, {len(labels_)}, does not match size of target_names, "
                    f"{len(target_names)}. Try specifying the labels parameter"
                )
    else:
        target_names = [str(v) for v in labels_]

    def values(average: str | None) -> list[Any]:
        if stats is not None:
            return [evaluate(m, stats, average) for m in _METRICS]
        if average is None:
            return [_per(m, per) for m in _METRICS]
        if average == "micro":
            return [_per(m, micro)[0] for m in _METRICS]
        if average == "samples":
            return _samples_average(y_true, y_pred, sample_weight, zero_division, idx)
        shim = Stats(np.zeros((1, 1)), zero_division=zero_division)
        w = support if average == "weighted" else None
        return [average_values(_per(m, per), w, shim) for m in _METRICS]

    p, r, f = values(None)
    supports = support.tolist()
    rows = list(zip(target_names, p.tolist(), r.tolist(), f.tolist(), supports, strict=False))
    total = np.sum(support)
    total = total.item()
    options = ("micro", "macro", "weighted") + (("samples",) if multilabel else ())

    if output_dict:
        report: dict[str, Any] = {}
        for name, *vals in rows:
            report[name] = {h: float(v) for h, v in zip(HEADERS, vals, strict=True)}
        for average in options:
            heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
            avg = [*(float(v) for v in values(average)), float(total)]
            report[heading] = avg[0] if heading == "accuracy" else dict(zip(HEADERS, avg, strict=True))
        return report

    width = max(max(len(n) for n in target_names), len("weighted avg"), digits)
    head_fmt = "{:>{width}s} " + " {:>9}" * len(HEADERS)
    text = head_fmt.format("", *HEADERS, width=width) + "\n\n"
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for row in rows:
        text += row_fmt.format(*row, width=width, digits=digits)
    text += "\n"
    for average in options:
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        avg = [*(float(v) for v in values(average)), total]
        if heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            text += fmt.format(heading, "", "", *avg[2:], width=width, digits=digits)
        else:
            text += row_fmt.format(heading, *avg, width=width, digits=digits)
    return text


def _per(name: str, c: ClassCounts) -> np.ndarray:
    out = get_metric(name).func(c)
    c.div.warn(name)
    return out


def _any_correct(y_true: Any, y_pred: Any) -> bool:
    from ..inputs.encode import check_pair

    t, p = check_pair(y_true, y_pred)
    return bool(np.any(t == p))
