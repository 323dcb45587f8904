"""The one model-comparison result, :class:`Comparison`, and the comparison of several binary
scorers by their ROC and precision-recall curves (:func:`compare_curves`; Kneusel 2021,
Figure 11-3). Intervals and pairwise tests are added by :func:`confmat.inference.compare`."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves import PRCurve, ROCCurve, roc_pr_curves
from ..curves.partial import partial_auc_name
from ..deps import require
from ..inputs.encode import as_1d, encode_pair
from ..inputs.kinds import py_scalar
from ..inputs.targets import EncodedTruth, encoded_truth, resolve_pos_label
from .intervals import ConfidenceInterval


@dataclass
class Comparison:
    """The one model-comparison result: models (rows, ranked) x metrics (columns) with
    intervals, pairwise tests, and, for models given binary scores, their ROC and
    precision-recall curves (as in Kneusel 2021, Figure 11-3).

    Built by :func:`confmat.inference.compare` (or :func:`compare_curves`).

    Parameters
    ----------
    models : list of str
        Model names, best first by ``test_metric``.
    metrics : list of str
        Canonical metric names of the table.
    intervals : dict
        ``intervals[model][metric]``: a :class:`ConfidenceInterval`.
    pairwise : list of dict
        Pairwise tests, most significant first (``model_a``, ``model_b``, ``difference``,
        ``pvalue``, ``pvalue_adjusted``, ``method``, ...).
    test_metric : str
        Metric of the pairwise tests and of the ranking.
    level : float
        Confidence level of the intervals.
    correction : str, default 'holm'
        The adjustment of the pairwise p-values.
    notes : list of str, optional
        What the comparison did that a reader should know (averaging, thresholds, ...).
    roc, pr : dict
        ``model -> ROCCurve`` / ``PRCurve`` for models with binary scores (empty otherwise).
    pos_label : label or None
        The positive class of those curves.
    partial_auc : dict, optional
        When the comparison has a 'partial_auc' column (``compare(partial_auc=...)``), what
        it is: ``focus``, ``range``, ``corrected``, ``label``, ``interval_method``,
        ``test_method``, ``references``
        (:func:`confmat.inference.compare.partial_auc_description`).

    Examples
    --------
    >>> from confmat.inference import compare
    >>> cmp = compare({"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]}, [0, 0, 1, 1],
    ...               ["roc_auc"], n_resamples=200, random_state=0)
    >>> cmp.models, cmp.auc, cmp.ranking()
    (['b', 'a'], {'b': 1.0, 'a': 0.75}, ['b', 'a'])
    """

    models: list[str]
    metrics: list[str]
    intervals: dict[str, dict[str, ConfidenceInterval]]
    pairwise: list[dict[str, Any]]
    test_metric: str
    level: float
    correction: str = "holm"
    notes: list[str] = field(default_factory=list)
    roc: dict[str, ROCCurve] = field(default_factory=dict)
    pr: dict[str, PRCurve] = field(default_factory=dict)
    pos_label: Any = None
    partial_auc: dict[str, Any] | None = None

    @property
    def auc(self) -> dict[str, float]:
        """ROC AUC of every model with curves, in ranked order.

        Returns
        -------
        dict of str to float

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).auc
        {'a': 0.75}
        """
        return {n: self.roc[n].auc for n in self.models if n in self.roc}

    @property
    def average_precision(self) -> dict[str, float]:
        """Average precision of every model with curves, in ranked order.

        Returns
        -------
        dict of str to float

        Examples
        --------
        >>> round(compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).average_precision["a"], 4)
        0.8333
        """
        return {n: self.pr[n].average_precision for n in self.models if n in self.pr}

    def ranking(self, by: str = "auc") -> list[str]:
        """Model names from best to worst by ROC AUC or average precision of their curves.

        Parameters
        ----------
        by : {'auc', 'average_precision'}, default='auc'

        Returns
        -------
        list of str

        Raises
        ------
        ValueError
            ``by`` is another value.

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]}
        ...                ).ranking("average_precision")
        ['b', 'a']
        """
        if by not in ("auc", "average_precision"):
            raise ValueError(f"by must be 'auc' or 'average_precision', got {by!r}")
        values = self.auc if by == "auc" else self.average_precision
        return sorted(values, key=lambda n: -values[n])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (the report's input).

        Returns
        -------
        dict
            Schema ``confmat.comparison`` version 1; ``curves`` (per model ``name``, ``roc``,
            ``pr``) is present when models gave binary scores; ``partial_auc`` describes the
            'partial_auc' column (None without one).

        Examples
        --------
        >>> compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8]}).to_dict()["curves"][0]["name"]
        'a'
        """
        out = self._table_dict()
        if self.roc:
            out["pos_label"] = py_scalar(self.pos_label)
            out["curves"] = [{"name": n, "roc": self.roc[n].to_dict(), "pr": self.pr[n].to_dict()}
                             for n in self.models if n in self.roc]
        return out

    def _table_dict(self) -> dict[str, Any]:
        return {
            "schema": "confmat.comparison",
            "version": 1,
            "level": self.level,
            "test_metric": self.test_metric,
            "correction": self.correction,
            "models": list(self.models),
            "metrics": list(self.metrics),
            "table": [
                {"model": m, **{k: self.intervals[m][k].to_dict() for k in self.metrics}}
                for m in self.models
            ],
            "pairwise": [dict(r) for r in self.pairwise],
            "partial_auc": None if self.partial_auc is None else dict(self.partial_auc),
            "notes": list(self.notes),
        }

    def column_name(self, metric: str) -> str:
        """The name of a metric's column in :meth:`to_frame` and ``str()``: the metric's
        name, except the partial AUC, named with its range, focus and correction
        (:func:`confmat.curves.partial.partial_auc_name`, the name the report's CSV uses),
        e.g. ``'partial_auc[specificity 0.8 to 1, McClish-corrected]'``.

        Parameters
        ----------
        metric : str
            One of :attr:`metrics`.

        Returns
        -------
        str

        Examples
        --------
        >>> from confmat.inference import compare
        >>> cmp = compare({"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]}, [0, 0, 1, 1],
        ...               ["roc_auc"], partial_auc=(0.5, 1), n_resamples=200, random_state=0)
        >>> [cmp.column_name(m) for m in cmp.metrics]
        ['roc_auc', 'partial_auc[specificity 0.5 to 1, McClish-corrected]']
        """
        if metric == "partial_auc" and self.partial_auc is not None:
            return partial_auc_name(self.partial_auc["label"])
        return metric

    def to_frame(self) -> Any:
        """pandas DataFrame: one row per model (ranked), columns ``(metric, estimate|low|high)``.

        A partial AUC's column is named with its range (:meth:`column_name`), e.g.
        ``partial_auc[specificity 0.8 to 1, McClish-corrected]``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from confmat.inference import compare
        >>> cmp = compare({"a": [0, 1, 1, 1], "b": [0, 0, 1, 1]}, [0, 0, 1, 1], ["accuracy"],
        ...               n_resamples=200, random_state=0)
        >>> cmp.to_frame()[("accuracy", "estimate")].tolist()
        [1.0, 0.75]
        """
        pd = require("pandas", "Comparison.to_frame")
        data = {
            (self.column_name(k), part): [float(getattr(self.intervals[m][k], part))
                                          for m in self.models]
            for k in self.metrics for part in ("estimate", "low", "high")
        }
        frame = pd.DataFrame(data, index=pd.Index(self.models, name="model"))
        frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["metric", ""])
        return frame

    def pairwise_frame(self) -> Any:
        """pandas DataFrame of the pairwise tests, most significant first.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from confmat.inference import compare
        >>> cmp = compare({"a": [0, 1, 1, 1], "b": [0, 0, 1, 1]}, [0, 0, 1, 1], ["accuracy"],
        ...               n_resamples=200, random_state=0)
        >>> cmp.pairwise_frame()["method"].tolist()
        ['mcnemar (exact binomial)']
        """
        pd = require("pandas", "Comparison.pairwise_frame")
        return pd.DataFrame(self.pairwise)

    def __str__(self) -> str:
        head = ["model", *(f"{self.column_name(k)} [{self.level:.0%} CI]" for k in self.metrics)]
        rows = [head]
        for m in self.models:
            cells = [m]
            for k in self.metrics:
                ci = self.intervals[m][k]
                cells.append(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
            rows.append(cells)
        widths = [max(len(r[j]) for r in rows) for j in range(len(head))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
        if self.pairwise:
            tested = list(dict.fromkeys(r["metric"] for r in self.pairwise))
            lines.append("")
            lines.append(f"pairwise tests on {', '.join(map(self.column_name, tested))} "
                         f"({self.correction} adjusted"
                         + (", per metric):" if len(tested) > 1 else "):"))
            for r in self.pairwise:
                lines.append(
                    f"  {r['model_a']} vs {r['model_b']}: diff {r['difference']:+.4f}, "
                    f"p = {r['pvalue']:.4g}, adjusted p = {r['pvalue_adjusted']:.4g} "
                    f"({r['method']})"
                )
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)



def encode_many(y_true: Any, preds: list[Any], names: list[str], labels: Any = None
                ) -> tuple[np.ndarray, list[np.ndarray], list[Any], bool]:
    """Encode y_true and several prediction vectors with one code book.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, encoded once whatever the number of models (an
        :class:`~confmat.inputs.truth.EncodedTruth`, from
        :func:`confmat.inputs.targets.encoded_truth`, is read as it is).
    preds : list of array-like of shape (n,)
        Predicted labels of each model.
    names : list of str
        The argument name of each prediction vector, for error messages.
    labels : array-like, optional
        Fixed classes (default: the sorted union of every vector's labels).

    Returns
    -------
    (ndarray, list of ndarray, list, bool)
        The codes of ``y_true``, the codes of each prediction vector, the code book, and
        whether a label lies outside ``labels`` (coded ``len(book)``).

    Raises
    ------
    ValueError, TypeError
        A prediction vector of another length than ``y_true``, invalid labels (naming the
        vector at fault, e.g. labels of a kind that cannot meet those of ``y_true``), or
        vectors that cannot be combined into one array.
    """
    t: Any = y_true if isinstance(y_true, EncodedTruth) else as_1d(y_true, "y_true")
    n = t.n_samples if isinstance(t, EncodedTruth) else t.shape[0]
    arrs = []
    for name, p in zip(names, preds, strict=True):
        a = as_1d(p, name)
        if a.shape[0] != n:
            raise ValueError(f"{name} has {a.shape[0]} predictions but y_true has {n} samples")
        arrs.append(a)
    m = len(arrs)
    try:
        truth = encoded_truth(t)  # once: its codes stand for every model's copy of it
        big_t = EncodedTruth(truth.classes, np.tile(truth.codes, m))
        big_p = np.concatenate(arrs)
        tc, pc, book, has_other = encode_pair(big_t, big_p, labels)
    except (TypeError, ValueError) as exc:
        # the stacked vectors lost their names: find the one at fault and name it
        for name, a in zip(names, arrs, strict=True):
            try:
                encode_pair(t, a, labels)
            except (TypeError, ValueError) as own:
                raise type(own)(f"{name} against y_true: {own}") from exc
        raise TypeError(f"{', '.join(names)} could not be combined: {exc}") from exc
    return tc[:n], [pc[i * n:(i + 1) * n] for i in range(m)], book, has_other


# ---------------------------------------------------------------------------------------------
def model_names(keys: Any) -> list[str]:
    """The names of models given by the keys of a mapping: each key as text, which must be
    unique (``1`` and ``"1"`` would name one model in every table, and one would be lost).

    Parameters
    ----------
    keys : iterable
        The keys of a mapping ``name -> model``.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        Two keys written the same, naming them.

    Examples
    --------
    >>> model_names({"a": 0, 2: 1})
    ['a', '2']
    """
    keys = list(keys)
    shown = [str(k) for k in keys]
    twins = [k for k in keys if shown.count(str(k)) > 1]
    if twins:
        raise ValueError(f"model names must be unique as text: {twins!r} are all written "
                         f"{sorted({str(k) for k in twins})!r}")
    return shown


def _score_items(scores: Any, names: Sequence[str] | None) -> list[tuple[str, Any]]:
    if isinstance(scores, Mapping):
        if names is not None:
            raise ValueError("give names only when scores is a sequence, not a mapping")
        items = list(zip(model_names(scores), scores.values(), strict=True))
    elif isinstance(scores, Sequence) and not isinstance(scores, str):
        names = [f"model {i}" for i in range(len(scores))] if names is None else list(names)
        if len(names) != len(scores):
            raise ValueError(f"names has {len(names)} entries but scores has {len(scores)}")
        items = list(zip(model_names(names), scores, strict=True))
    else:
        raise TypeError("scores must be a mapping name -> scores or a sequence of score vectors")
    if not items:
        raise ValueError("scores is empty; give at least one model")
    return items


def compare_curves(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    names: Sequence[str] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> Comparison:
    """ROC and precision-recall curves of several binary scorers on one ``y_true``, as a
    :class:`Comparison` without intervals or tests (for those use :func:`compare`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The shared truth (the positive class follows confmat's one ``pos_label`` rule).
    scores : mapping name -> scores, or a sequence of score vectors
        One 1-D score vector per model, all of length ``len(y_true)``.
    names : sequence of str, optional
        Model names when ``scores`` is a sequence (default ``model 0``, ``model 1``, ...).
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    drop_intermediate : bool, default=True
        Drop collinear ROC points.

    Returns
    -------
    Comparison
        ``models`` ranked by ROC AUC; ``roc``, ``pr``, ``auc``, ``average_precision``,
        ``ranking()``.

    Raises
    ------
    ValueError, TypeError
        Bad ``scores`` or ``names``; invalid labels, scores or ``pos_label`` (the message is
        prefixed by the model's name).

    Examples
    --------
    >>> cmp = compare_curves([0, 0, 1, 1], {"a": [.1, .4, .35, .8], "b": [.1, .2, .3, .4]})
    >>> cmp.auc, cmp.ranking()
    ({'b': 1.0, 'a': 0.75}, ['b', 'a'])
    """
    items = _score_items(scores, names)
    roc: dict[str, ROCCurve] = {}
    pr: dict[str, PRCurve] = {}
    pos = None
    truth: Any = None  # y_true read once, by the first model's curves (its errors name it)
    for name, sc in items:
        try:
            truth = encoded_truth(y_true) if truth is None else truth
            roc[name], pr[name] = roc_pr_curves(truth, sc, pos_label=pos_label,
                                                sample_weight=sample_weight,
                                                drop_intermediate=drop_intermediate, label=name)
            pos = resolve_pos_label(list(truth.classes), pos_label)
        except ValueError as exc:
            raise ValueError(f"scores[{name!r}]: {exc}") from exc
    order = sorted((n for n, _ in items), key=lambda n: -nan_low(roc[n].auc))
    return Comparison(order, [], {n: {} for n in order}, [], "roc_auc", 0.95, "holm", [],
                      roc, pr, pos)


@dataclass
class _LegacyModelComparison(Comparison):
    """What the deprecated ``compare_models`` returns: a :class:`Comparison` that keeps the
    old ``names`` (input order) and ``to_dict`` layout for one release."""

    names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pos_label": py_scalar(self.pos_label),
            "models": [{"name": n, "roc": self.roc[n].to_dict(), "pr": self.pr[n].to_dict()}
                       for n in self.names],
        }


def compare_models(
    y_true: Any,
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    names: Sequence[str] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> Comparison:
    """Deprecated alias of :func:`compare_curves` (removed in the next release).

    Parameters
    ----------
    y_true, scores, names, pos_label, sample_weight, drop_intermediate
        As in :func:`compare_curves`.

    Returns
    -------
    Comparison
        With the old ``names`` attribute and ``to_dict`` layout.

    Raises
    ------
    ValueError, TypeError
        As :func:`compare_curves`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     compare_models([0, 0, 1, 1], [[.1, .4, .35, .8]]).names
    ['model 0']
    """
    warnings.warn(
        "confmat.compare_models is deprecated and will be removed in the next release; use "
        "confmat.inference.compare_curves(y_true, scores) for curves, or confmat.compare("
        "models, y_true, ['roc_auc', 'average_precision']) for intervals and tests: both "
        "return a confmat.inference.Comparison",
        DeprecationWarning,
        stacklevel=2,
    )
    cmp = compare_curves(y_true, scores, names=names, pos_label=pos_label,
                         sample_weight=sample_weight, drop_intermediate=drop_intermediate)
    order = [n for n, _ in _score_items(scores, names)]
    return _LegacyModelComparison(cmp.models, cmp.metrics, cmp.intervals, cmp.pairwise,
                                  cmp.test_metric, cmp.level, cmp.correction, cmp.notes,
                                  cmp.roc, cmp.pr, cmp.pos_label, names=order)



def nan_low(v: Any) -> float:
    """``float(v)``, with NaN turned into ``-inf`` so that undefined values rank last.

    Parameters
    ----------
    v : float
        A metric value.

    Returns
    -------
    float

    Examples
    --------
    >>> nan_low(0.5), nan_low(float("nan"))
    (0.5, -inf)
    """
    v = float(v)
    return -np.inf if np.isnan(v) else v
