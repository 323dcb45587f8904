"""The names a metric by group goes by: the registry's names and aliases, fairlearn's
``selection_rate`` (the registry's ``predicted_rate``) and, with scores, ROC AUC and average
precision. :func:`group_metric_name` is the one check of such a name (the evaluation by group,
the report's section and the command line's ``--group-metrics`` use it), and
:func:`default_group_metrics` the one list of the metrics shown when none are asked for."""

from __future__ import annotations

import difflib
from typing import Any

from ..inference.scores import SCORE_METRICS, score_metric_name
from ..metrics import get_metric, list_metrics
from ..words import arg

__all__ = ["METRIC_ALIASES", "default_group_metrics", "group_metric_name", "registry_spec"]

#: Names of fairlearn's base metrics that the registry spells otherwise.
METRIC_ALIASES = {"selection_rate": "predicted_rate"}


def default_group_metrics(*, positive: bool, scores: bool) -> list[str]:
    """The metrics by group shown when none are asked for (``GroupedEvaluation.to_frame``,
    the report's by-group section, ``confmat report --by``).

    Accuracy and balanced accuracy always; with a positive class also the rates a fairness
    review reads (recall, precision, F1, false positive rate, selection rate); with scores
    also ROC AUC and average precision.

    Parameters
    ----------
    positive : bool
        Whether a positive class (or an average of the per-class metrics) is known.
    scores : bool
        Whether the evaluation holds scores.

    Returns
    -------
    list of str

    Examples
    --------
    >>> default_group_metrics(positive=False, scores=True)
    ['accuracy', 'balanced_accuracy', 'roc_auc', 'average_precision']
    """
    out = ["accuracy", "balanced_accuracy"]
    if positive:
        out += ["recall", "precision", "f1", "fpr", "selection_rate"]
    if scores:
        out += ["roc_auc", "average_precision"]
    return out


def group_metric_name(name: Any, *, scores: bool = True) -> str:
    """The canonical name of a metric by group, or an error that suggests close names.

    Parameters
    ----------
    name : str
        A registry metric or alias (:func:`confmat.list_metrics`), ``'selection_rate'``, or a
        score metric (``'roc_auc'``, ``'average_precision'`` and their aliases ``'auc'``,
        ``'ap'``, ...).
    scores : bool, default True
        Whether scores are available (a score metric needs them).

    Returns
    -------
    str
        The registry's canonical name, ``'selection_rate'``, ``'roc_auc'`` or
        ``'average_precision'``.

    Raises
    ------
    ValueError
        An unknown name (the message lists close names), or a score metric without scores.
    TypeError
        A name that is not a string.

    Examples
    --------
    >>> group_metric_name("TPR"), group_metric_name("AUROC"), group_metric_name("selection_rate")
    ('recall', 'roc_auc', 'selection_rate')
    >>> group_metric_name("roc_acu")
    Traceback (most recent call last):
    ...
    ValueError: unknown metric 'roc_acu'; did you mean 'roc_auc'?
    """
    score = score_metric_name(name)
    if score is not None:
        if not scores:
            raise ValueError(f"{score} needs scores")
        return score
    if name in METRIC_ALIASES:
        return str(name)
    try:
        return get_metric(name).name
    except ValueError:
        pass
    known = [*METRIC_ALIASES, *SCORE_METRICS]
    known += [n for spec in list_metrics() for n in (spec.name, *spec.aliases)]
    close = difflib.get_close_matches(str(name), list(dict.fromkeys(known)), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else \
        f" ({arg('confmat.list_metrics()')} lists the registry)"
    raise ValueError(f"unknown metric {name!r}{hint}")


def registry_spec(name: Any) -> Any:
    """The registry's entry of a metric by group that is not a score metric (the one lookup
    of :meth:`~confmat.groups.GroupedEvaluation.metric`, ``overall_metric``, ``ci`` and the
    report's section, so all word an unknown name alike).

    Parameters
    ----------
    name : str
        As in :func:`group_metric_name`, but not a score metric.

    Returns
    -------
    confmat.metrics.MetricSpec

    Raises
    ------
    ValueError
        An unknown name, or a score metric (ROC AUC and average precision are not counts of
        a confusion table).

    Examples
    --------
    >>> registry_spec("selection_rate").name, registry_spec("TPR").kind
    ('predicted_rate', 'per_class')
    >>> registry_spec("roc_acu")
    Traceback (most recent call last):
    ...
    ValueError: unknown metric 'roc_acu'; did you mean 'roc_auc'?
    """
    canon = group_metric_name(name)
    if canon in SCORE_METRICS:
        raise ValueError(f"{canon} is computed from scores, not from a confusion table")
    return get_metric(METRIC_ALIASES.get(canon, canon))
