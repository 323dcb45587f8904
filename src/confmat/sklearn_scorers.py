"""scikit-learn scorers for every registry metric, including those scikit-learn lacks.

``make_scorer("mcc_yao2022")``, ``make_scorer("informedness", pos_label=1)``,
``get_scorer("markedness_macro")`` return ordinary scikit-learn scorers for
``cross_validate``, ``GridSearchCV`` and friends. The direction comes from the registry:
metrics where lower is better (error rates, FPR, ...) are negated, like scikit-learn's
``neg_*`` scorers, so that greater is always better for the search.

A per-class metric named without an average scores the positive class, as scikit-learn's
scorers of the same names (``"f1"``, ``"precision"``, ``"recall"``, ``"jaccard"``: its
``average='binary'``): labels within {0, 1}, {-1, 1} or {False, True} score 1 (True), other
labels need ``pos_label=``, and more than two classes are an error naming the averages
(``"f1_macro"``, ``make_scorer("f1", average="macro")``).

Examples
--------
>>> from sklearn.linear_model import LogisticRegression
>>> from sklearn.model_selection import cross_validate
>>> X, y = [[0], [1], [2], [3], [4], [5], [6], [7]], [0, 0, 0, 0, 1, 1, 1, 1]
>>> scores = cross_validate(LogisticRegression(), X, y, cv=2,
...                         scoring={"gmean": get_scorer("gmean"),
...                                  "J": make_scorer("informedness", pos_label=1)})
>>> sorted(k for k in scores if k.startswith("test_"))
['test_J', 'test_gmean']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .inputs.encode import normalize_labels
from .inputs.targets import one_class_book, resolve_pos_label
from .matrix import ConfusionMatrix
from .metrics import get_metric
from .metrics.evaluation import bind_params
from .metrics.registry import AVERAGES
from .metrics.zero_division import check_zero_division

#: scikit-learn's scorer options about what the scorer reads from the estimator
_RESPONSE_OPTIONS = ("response_method", "needs_proba", "needs_threshold")


def _scores_hint() -> str:
    return ("confmat scorers score predicted labels (the estimator's predict, "
            "response_method='predict'); metrics of scores or probabilities (roc_auc, "
            "average_precision, neg_log_loss, ...) are scikit-learn's own scorers: "
            "sklearn.metrics.get_scorer(name)")


def _check_response(params: dict[str, Any]) -> None:
    """``response_method='predict'`` is what every confmat scorer does; any other way of
    reading the estimator (probabilities, decision values) is refused with a pointer."""
    for opt in _RESPONSE_OPTIONS:
        if opt not in params:
            continue
        v = params.pop(opt)
        if opt == "response_method" and v == "predict":
            continue
        if opt != "response_method" and v is False:
            continue
        raise ValueError(f"{opt}={v!r} does not apply: {_scores_hint()}")


def _unknown_scorer(name: str, error: ValueError) -> ValueError:
    """The registry's error for an unknown name, with a pointer to scikit-learn's scorers of
    scores when ``name`` is one of them."""
    try:
        from sklearn.metrics import get_scorer_names
    except ImportError:  # pragma: no cover - scikit-learn is in the all extra
        return error
    if name in get_scorer_names() and name.endswith("_samples"):
        return ValueError(f"{error} -- {name!r} is scikit-learn's 'samples' average of "
                          "multilabel targets, which a confusion matrix does not hold: "
                          "sklearn.metrics.get_scorer(name)")
    if name in get_scorer_names():
        return ValueError(f"{error} -- {name!r} is a scikit-learn scorer, not a metric of a "
                          f"confusion matrix: {_scores_hint()}")
    return error

__all__ = ["get_scorer", "make_scorer"]


def _confmat_score(
    y_true: Any,
    y_pred: Any,
    *,
    metric: str,
    average: str | None = None,
    pos_label: Any = None,
    labels: Sequence[Any] | None = None,
    zero_division: Any = "warn",
    sample_weight: Any = None,
    params: dict[str, Any] | None = None,
) -> float:
    """The metric of the confusion matrix of ``y_true`` and ``y_pred`` (module level, so that
    scorers pickle for ``n_jobs > 1``). ``average="binary"`` scores the positive class of a
    binary problem, as scikit-learn's ``average='binary'``."""
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                          sample_weight=sample_weight, strict_labels=False)
    if average == "binary":
        if len(cm.labels) > 2:
            raise ValueError(
                f"the {metric!r} scorer scores the positive class of a binary problem, but the "
                f"labels are {cm.labels}; pass average= ('macro', 'micro' or 'weighted') or "
                f"pos_label= to make_scorer, or use the '{metric}_macro' scorer")
        average, pos_label = None, resolve_pos_label(cm.labels, None, "y_true and y_pred")
    if pos_label is not None:
        # a fold of one class where the positive class does not occur: it gets an empty row
        # and column, so that its value follows zero_division, as in scikit-learn
        book = None if labels is not None else one_class_book(cm.labels, pos_label)
        if book is not None:
            cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=book,
                                                  sample_weight=sample_weight)
        resolve_pos_label(cm.labels, pos_label, "y_true and y_pred")
    value = cm.metric(metric, average, pos_label=pos_label, zero_division=zero_division,
                      **(params or {}))
    return float(value)


def make_scorer(
    name: str,
    *,
    average: str | None = None,
    pos_label: Any = None,
    labels: Sequence[Any] | None = None,
    zero_division: Any = "warn",
    greater_is_better: bool | None = None,
    **params: Any,
) -> Any:
    """A scikit-learn scorer for the registry metric ``name``.

    Parameters
    ----------
    name : str
        Registry name or alias (``"informedness"``, ``"youden_j"``, ``"mcc_yao2022"``...).
    average : {'micro', 'macro', 'weighted'}, optional
        For per-class metrics. Without it (and without ``pos_label``) the scorer scores the
        positive class of a binary problem, as scikit-learn's scorers of the same names
        (``average='binary'``): 1 (True) for labels within {0, 1}, {-1, 1} or {False, True};
        other binary labels, or more than two classes, are an error when the scorer runs.
    pos_label : label, optional
        For per-class metrics: score that class only (one against the rest when there are
        more than two classes).
    labels : sequence, optional
        Fix the classes (useful when a fold may miss a class).
    zero_division : {'warn', 0, 1, np.nan}
        As in scikit-learn.
    greater_is_better : bool, optional
        Overrides the registry's direction; required for metrics without one.
    **params
        Metric parameters (e.g. ``beta`` for ``fbeta``, ``weights`` for ``kappa``).
        scikit-learn's ``response_method`` is accepted as ``"predict"`` only (every confmat
        scorer scores the estimator's predicted labels); ``needs_proba`` /
        ``needs_threshold`` only as False.

    Returns
    -------
    scorer
        ``scorer(estimator, X, y)``, as made by :func:`sklearn.metrics.make_scorer`.

    Raises
    ------
    ValueError
        An unknown metric, ``average`` and ``pos_label`` together or on an overall metric, a
        metric without a better direction and no ``greater_is_better``, bad parameters, a
        ``zero_division`` other than ``"warn"``, 0, 1 or NaN, bad ``labels``, or a
        ``response_method`` other than ``"predict"``.
    TypeError
        ``labels`` given as a single string, or a parameter the metric does not take.
    ImportError
        Without scikit-learn.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = [[0], [1], [2], [3]], [0, 1, 1, 1]
    >>> scorer = make_scorer("informedness")
    >>> scorer(DummyClassifier(strategy="most_frequent").fit(X, y), X, y)
    0.0
    """
    try:
        from sklearn.metrics import make_scorer as _sk_make_scorer
    except ImportError as exc:  # pragma: no cover - scikit-learn is in the all extra
        raise ImportError("scorers need scikit-learn: pip install scikit-learn") from exc
    try:
        spec = get_metric(name)
    except ValueError as exc:
        raise _unknown_scorer(name, exc) from None
    _check_response(params)
    if spec.kind == "per_class":
        if pos_label is not None and average is not None:
            raise ValueError("give either pos_label or average, not both")
        if pos_label is None and average is None:
            average = "binary"  # resolved on each fold's labels (_confmat_score)
        elif average is not None and average not in AVERAGES:
            raise ValueError(f"average must be one of {AVERAGES}, got {average!r}")
    elif average is not None or pos_label is not None:
        raise ValueError(f"{spec.name!r} is an overall metric; average and pos_label do not apply")
    if greater_is_better is None:
        if spec.higher_is_better is None:
            raise ValueError(
                f"{spec.name!r} has no better direction (higher_is_better is None in the "
                "registry); pass greater_is_better= to use it as a scorer"
            )
        greater_is_better = bool(spec.higher_is_better)
    # bad parameters fail now, not inside a cross-validation loop
    bind_params(spec, params)
    check_zero_division(zero_division)
    if labels is not None:
        labels = normalize_labels(labels, "labels")
    return _sk_make_scorer(
        _confmat_score,
        greater_is_better=greater_is_better,
        metric=spec.name,
        average=average,
        pos_label=pos_label,
        labels=labels,
        zero_division=zero_division,
        params=dict(params),
    )


def _strip_average(name: str) -> tuple[str, str | None]:
    """``("recall", "macro")`` for ``"recall_macro"``; ``(name, None)`` without a suffix."""
    for avg in AVERAGES:
        if name.endswith("_" + avg):
            return name[: -len(avg) - 1], avg
    return name, None


def get_scorer(name: str) -> Any:
    """A scorer by name: a registry metric, optionally suffixed with an average
    (``"informedness_macro"``, ``"markedness_weighted"``, ``"recall_micro"``).

    Per-class metrics without a suffix score the positive class of a binary problem, as
    scikit-learn's scorers of the same names (see :func:`make_scorer`).

    Parameters
    ----------
    name : str
        The metric, with an optional ``_micro`` / ``_macro`` / ``_weighted`` suffix; a
        lower-is-better metric may carry scikit-learn's ``neg_`` prefix
        (``"neg_hamming_loss"``), which names the same (negated) scorer.

    Returns
    -------
    scorer

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        An unknown metric (a scikit-learn scorer of scores, such as ``"roc_auc"``, is named
        as such), or ``neg_`` before a metric where higher is better.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = [[0], [1], [2], [3]], [0, 1, 1, 1]
    >>> get_scorer("recall_macro")(DummyClassifier(strategy="most_frequent").fit(X, y), X, y)
    0.5
    >>> get_scorer("neg_hamming_loss")(DummyClassifier(strategy="most_frequent").fit(X, y), X, y)
    -0.25
    """
    if not isinstance(name, str):
        raise TypeError(f"scorer name must be a string, got {type(name).__name__}")
    if name.startswith("neg_"):
        # scikit-learn's spelling of a negated lower-is-better scorer ("neg_hamming_loss")
        base = name[len("neg_"):]
        try:
            spec = get_metric(_strip_average(base)[0])
        except ValueError:
            spec = None
        if spec is not None:
            if spec.higher_is_better is not False:
                raise ValueError(
                    f"{name!r}: {spec.name!r} is not a lower-is-better metric, so it has no "
                    f"negated scorer; use get_scorer({base!r})")
            return get_scorer(base)
    base, avg = _strip_average(name)
    if avg is not None:
        try:
            spec = get_metric(base)
        except ValueError:
            spec = None
        if spec is not None and spec.kind == "per_class":
            return make_scorer(spec.name, average=avg)
    return make_scorer(name)
