"""Small shared pieces of the catalogue families: declaring a spec, undefined values, logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .exact import CANCEL, exact_difference, exact_ratios, largest
from .one_vs_rest import one_vs_rest
from .registry import Kind, MetricSpec, get_metric, metric
from .stats import Division

INF = float("inf")
Z_95 = 1.96  # PyCM's critical value for its 95 % intervals (not 1.959964...)


def declare(name: str, kind: Kind, full: str, family: str, formula: str, meaning: str, *,
            refs: tuple[str, ...], prefer: str, avoid: str, rng: tuple[float, float] = (0.0, 1.0),
            hib: bool | None = True, pycm: str | None = None, sklearn: str | None = None,
            aliases: tuple[str, ...] = (), notes: str = "", params: dict | None = None,
            check: Any = None, is_count: bool = False, uses_table: bool = False,
            scale_degree: float | str | Callable[..., float | None] | None = "auto"):
    """Register a catalogue metric; every explanatory field is required here on purpose.

    Parameters
    ----------
    name, kind, full, family, formula, meaning : str
        The :class:`~confmat.metrics.registry.MetricSpec` fields ``name``, ``kind``,
        ``full_name``, ``family``, ``formula`` and ``meaning``.
    refs : tuple of str
        References (``confmat.metrics.references``).
    prefer, avoid : str
        When to prefer and when to avoid the metric.
    rng : tuple of float, default (0.0, 1.0)
        The range.
    hib : bool or None, default True
        Higher is better.
    pycm, sklearn : str, optional
        The equal PyCM key and scikit-learn function.
    aliases : tuple of str
        Other names.
    notes : str
        Caveats.
    params : dict, optional
        Keyword parameters and defaults.
    check : callable, optional
        Validates the bound parameters.
    is_count, uses_table : bool
        See :class:`~confmat.metrics.registry.MetricSpec`.
    scale_degree : float, None, callable or "auto", default "auto"
        See :class:`~confmat.metrics.registry.MetricSpec`; ``"auto"``: 1 for a count, else 0.
        ``tests/test_scale.py`` checks every declaration against the metric's values.

    Returns
    -------
    callable
        A decorator that registers the function and returns it unchanged.

    Examples
    --------
    >>> from confmat.metrics.common import declare
    >>> deco = declare("my_metric", "overall", "my metric", "rates", "M = 1", "An example.",
    ...                refs=(), prefer="never", avoid="always")
    >>> callable(deco)
    True
    """
    register = metric(
        name, kind, full_name=full, family=family, formula=formula, meaning=meaning, range=rng,
        higher_is_better=hib, aliases=aliases, references=refs, sklearn=sklearn, pycm=pycm,
        params=params or {}, check=check, prefer_when=prefer, avoid_when=avoid, notes=notes,
        is_count=is_count, uses_table=uses_table,
        scale_degree=(1.0 if is_count else 0.0) if scale_degree == "auto" else scale_degree,
    )

    def deco(func: Any) -> Any:
        func = register(func)
        if func.__doc__ is None:
            func.__doc__ = catalogue_docstring(get_metric(name))
        return func

    return deco


def catalogue_docstring(spec: MetricSpec) -> str:
    """The numpydoc docstring of a catalogue metric that takes only its counts, from its spec.

    :func:`declare` gives it to a registered function that has no docstring of its own, so that
    the summary, formula, meaning and references are written once, in the declaration. A metric
    with keyword parameters (``beta``, ``z``, ...) carries a hand-written docstring instead.

    Parameters
    ----------
    spec : MetricSpec
        The declaration: ``kind``, ``uses_table`` and ``is_count`` choose the argument and the
        description of the result.

    Returns
    -------
    str
        Summary, formula and meaning, then the sections Parameters, Returns and References.

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> from confmat.metrics.common import catalogue_docstring
    >>> print(catalogue_docstring(get_metric("recall")).splitlines()[0])
    Recall (true positive rate, sensitivity): one value per class.
    """
    per_class = spec.kind == "per_class"
    title = spec.full_name[:1].upper() + spec.full_name[1:]
    lines = [f"{title}: one value per {'class' if per_class else 'table'}.", "",
             f"``{spec.formula}``", "", spec.meaning, "",
             f'Registered as ``"{spec.name}"``; ``confmat.explain("{spec.name}")`` says when to '
             "prefer or avoid it.", "", "Parameters", "----------"]
    if per_class and not spec.uses_table:
        lines += ["c : ClassCounts", "    One-vs-rest counts ``tp, fp, fn, tn`` with the class on "
                  "the last axis (``Stats.per_class``)."]
    else:
        lines += ["s : Stats", "    Statistics of one confusion table or of a batch of tables."]
    shape = ("one per class on the last axis, after the batch axes of the counts" if per_class
             else "one per table: the batch shape of the tables (0-d for one table)")
    lines += ["", "Returns", "-------", "numpy.ndarray"]
    if spec.is_count:
        lines += [f"    The counts, {shape}; integers for an integer table, floats for a "
                  "weighted one."]
    else:
        lines += [f"    Float64 values, {shape}. Where the value is undefined it follows the "
                  "``zero_division`` policy of the counts (:class:`Division`)."]
    if spec.references:
        lines += ["", "References", "----------"] + [f"- {ref}" for ref in spec.references]
    return "\n".join("    " + line if line else "" for line in lines).lstrip() + "\n    "


def undefined(div: Division, value: Any, mask: Any, what: str) -> np.ndarray:
    """Replace ``value`` where ``mask`` holds by the zero-division fill, and record ``what``.

    Parameters
    ----------
    div : Division
        The policy.
    value : array_like
        Computed values.
    mask : array_like of bool
        Where the value is undefined.
    what : str
        Recorded for the warning.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics import Division
    >>> from confmat.metrics.common import undefined
    >>> div = Division()
    >>> undefined(div, [1.0, 2.0], [False, True], "ratio").tolist(), div.undefined
    ([1.0, 0.0], ['ratio'])
    """
    value = np.asarray(value, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    if mask.any():
        div.undefined.append(what)
        return np.where(mask, div.fill, value)
    return value


def xlog2x(p: Any) -> np.ndarray:
    """``p * log2(p)`` with the limit 0 at ``p = 0``.

    Parameters
    ----------
    p : array_like
        Probabilities.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> from confmat.metrics.common import xlog2x
    >>> xlog2x([0.0, 0.5, 1.0]).tolist()
    [0.0, -0.5, 0.0]
    """
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)


def check_z(z: Any = Z_95, **_: Any) -> None:
    """Validate the critical value ``z`` of an interval metric.

    Parameters
    ----------
    z : float, default 1.96
        A positive finite number (PyCM's 1.96 for 95 %).
    **_
        Other parameters of the metric, ignored.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``z`` is not a positive finite number.

    Examples
    --------
    >>> from confmat.metrics.common import check_z
    >>> check_z(2.58)
    >>> check_z(-1)
    Traceback (most recent call last):
    ...
    ValueError: z must be a positive finite number (1.96 for 95 %), got -1
    """
    if isinstance(z, bool) or not isinstance(z, int | float) or not np.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a positive finite number (1.96 for 95 %), got {z!r}")


def memo(stats: Any, key: Any, compute: Any) -> Any:
    """Compute an intermediate once per statistics object (``cm.metrics()`` shares one), and
    replay the zero-division notes it produced so each metric still warns for itself.

    Parameters
    ----------
    stats : Stats or ClassCounts
        The object the value is cached on.
    key : hashable
        The intermediate's name.
    compute : callable
        Computes it (called once).

    Returns
    -------
    numpy.ndarray
        The cached value.

    Examples
    --------
    >>> from confmat.metrics import Stats
    >>> from confmat.metrics.common import memo
    >>> s = Stats([[1, 0], [0, 1]])
    >>> memo(s, "two", lambda: 2), memo(s, "two", lambda: 3)
    (2, 2)
    """
    cache = stats.__dict__.setdefault("_catalogue_memo", {})
    if key in cache:
        value, notes = cache[key]
        stats.div.undefined.extend(notes)
        return value
    before = len(stats.div.undefined)
    value = compute()
    if isinstance(value, np.ndarray):
        value.flags.writeable = False  # shared by every metric that asks: never changed in place
    cache[key] = (value, list(stats.div.undefined[before:]))
    return value


def chance_terms(stats: Any) -> tuple[np.ndarray, ...]:
    """The chance terms shared by kappa and MCC, formed without cancellation.

    ``(N c - sum_k t_k p_k, sum_k t_k (N - p_k), sum_k p_k (N - p_k), sum_k t_k (N - t_k))``
    in float64, ``c`` the trace, ``t`` and ``p`` the row and column sums: N^2 times the
    covariance of truth and prediction, the chance disagreement ``N^2 (1 - p_e)`` and the two
    variances. The covariance cancels near chance level, so it is formed exactly
    (:func:`~confmat.metrics.exact.exact_difference`).

    Parameters
    ----------
    stats : Stats
        Statistics of one confusion table or of a batch of tables.

    Returns
    -------
    tuple of numpy.ndarray
        Four arrays with the batch shape.

    Examples
    --------
    >>> from confmat.metrics import Stats
    >>> from confmat.metrics.common import chance_terms
    >>> [float(x) for x in chance_terms(Stats([[5, 1], [2, 4]]))]  # 12*9 - (6*7 + 6*5) = 36
    [36.0, 72.0, 70.0, 72.0]
    """

    def build(n, c, t, p):
        m = n[..., None]
        return n * c, (t * p).sum(-1), (t * (m - p)).sum(-1), (p * (m - p)).sum(-1), \
            (t * (m - t)).sum(-1)

    def compute():
        n = np.asarray(stats.n)
        counts = np.asarray(stats.counts)
        if counts.dtype.kind == "f":
            weighted = _weighted_chance_terms(counts, n, stats.correct, stats.rows, stats.cols)
            if weighted is not None:
                return weighted
        return exact_difference(build, (n, stats.correct, stats.rows, stats.cols),
                                largest(n) ** 2)

    return memo(stats, "chance_terms", compute)


def _weighted_chance_terms(counts: np.ndarray, n: np.ndarray, c: Any, t: Any, p: Any
                           ) -> tuple[np.ndarray, ...] | None:
    """:func:`chance_terms` of weighted tables (None for negative or non-finite weights).

    ``N - p_k`` and ``N - t_k`` are the weights outside column / row ``k``, summed exactly
    (:func:`confmat.metrics.one_vs_rest.one_vs_rest`: FN + TN and FP + TN of the block): as
    differences of rounded sums they lost a class lighter than 1e-16 of N, and MCC could leave
    [-1, 1] (``[[0, 1], [1e-65, 0]]`` gave -2). The covariance ``N c - sum_k t_k p_k`` is a
    true difference: where it cancels (below :data:`~confmat.metrics.exact.CANCEL` of its
    terms) it is formed again from the cells in exact rationals."""
    k = counts.shape[-1]
    try:
        fn, fp, tn = one_vs_rest(counts, k)
    except ValueError:
        return None
    t = np.asarray(t, np.float64)
    p = np.asarray(p, np.float64)
    not_p, not_t = fn + tn, fp + tn
    pos = n * np.asarray(c, np.float64)
    neg = (t * p).sum(-1)
    cov = np.array(pos - neg, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        shaky = np.abs(cov) < CANCEL * (np.abs(pos) + np.abs(neg))
    if shaky.any():
        def terms(cells: np.ndarray, one: int) -> tuple[Any, Any, Any]:
            # N c - sum t p, of degree 2 in the cells: over one**2 it is in weight units
            trace = sum((cells[i, i] for i in range(k)), 0)
            return (cells.sum() * trace, (cells.sum(axis=1) * cells.sum(axis=0)).sum(),
                    one * one)

        idx = np.flatnonzero(shaky)
        cov.reshape(-1)[idx] = exact_ratios(counts.reshape(-1, k, k)[idx], terms)[0]
    return (cov, (t * not_p).sum(-1), (p * not_p).sum(-1), (t * not_t).sum(-1))


def ovr_covariance(c: Any) -> np.ndarray:
    """``TP TN - FP FN`` per class in float64, formed exactly (it cancels near chance level): the
    numerator of one-vs-rest MCC, informedness, markedness and Yule's Q.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts, class on the last axis.

    Returns
    -------
    numpy.ndarray
        Float64, one value per class.

    Examples
    --------
    >>> from confmat.metrics import Stats
    >>> from confmat.metrics.common import ovr_covariance
    >>> ovr_covariance(Stats([[5, 1], [2, 4]]).per_class).tolist()  # 5*4 - 2*1
    [18.0, 18.0]
    """

    def compute():
        tp, fp, fn, tn = np.broadcast_arrays(c.tp, c.fp, c.fn, c.tn)
        bound = largest(tp + fp + fn + tn) ** 2 if tp.dtype.kind in "iu" else 0
        return exact_difference(lambda tp, fp, fn, tn: (tp * tn, fp * fn),
                                (tp, fp, fn, tn), bound)[0]

    return memo(c, "ovr_covariance", compute)


def where_defined(num: Any, den: Any, composed: Any) -> np.ndarray:
    """``num / den`` where ``den != 0``; elsewhere ``composed()``, the metric composed of its parts.

    ``composed`` is called only when some ``den`` is 0, so that undefined values and their
    warnings follow the zero-division policy exactly as the composed formula does.

    Parameters
    ----------
    num, den : array_like
        Numerator and denominator.
    composed : callable
        Returns the metric computed from its parts.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.common import where_defined
    >>> where_defined([1.0, 1.0], [2.0, 0.0], lambda: np.array([9.0, 9.0])).tolist()
    [0.5, 9.0]
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    ok = den != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        value = num / np.where(ok, den, 1.0)
    if ok.all():
        return value
    return np.where(ok, value, composed())
