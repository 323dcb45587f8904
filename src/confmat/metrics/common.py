"""Small shared pieces of the catalogue families: declaring a spec, undefined values, logs."""

from __future__ import annotations

from typing import Any

import numpy as np

from .exact import exact_difference, largest
from .registry import metric
from .stats import Division

INF = float("inf")
Z_95 = 1.96  # PyCM's critical value for its 95 % intervals (not 1.959964...)


def declare(name: str, kind: str, full: str, family: str, formula: str, meaning: str, *,
            refs: tuple[str, ...], prefer: str, avoid: str, rng: tuple[float, float] = (0.0, 1.0),
            hib: bool | None = True, pycm: str | None = None, sklearn: str | None = None,
            aliases: tuple[str, ...] = (), notes: str = "", params: dict | None = None,
            check: Any = None, is_count: bool = False, uses_table: bool = False):
    """Register a catalogue metric; every explanatory field is required here on purpose."""
    return metric(
        name, kind, full_name=full, family=family, formula=formula, meaning=meaning, range=rng,
        higher_is_better=hib, aliases=aliases, references=refs, sklearn=sklearn, pycm=pycm,
        params=params or {}, check=check, prefer_when=prefer, avoid_when=avoid, notes=notes,
        is_count=is_count, uses_table=uses_table,
    )


def undefined(div: Division, value: Any, mask: Any, what: str) -> np.ndarray:
    """Replace ``value`` where ``mask`` holds by the zero-division fill, and record it."""
    value = np.asarray(value, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    if mask.any():
        div.undefined.append(what)
        return np.where(mask, div.fill, value)
    return value


def xlog2x(p: Any) -> np.ndarray:
    """``p * log2(p)`` with the limit 0 at ``p = 0``."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)


def check_z(z: Any = Z_95, **_: Any) -> None:
    if isinstance(z, bool) or not isinstance(z, int | float) or not np.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a positive finite number (1.96 for 95 %), got {z!r}")


def memo(stats: Any, key: Any, compute: Any) -> np.ndarray:
    """Compute an intermediate once per statistics object (``cm.metrics()`` shares one), and
    replay the zero-division notes it produced so each metric still warns for itself."""
    cache = stats.__dict__.setdefault("_catalogue_memo", {})
    if key in cache:
        value, notes = cache[key]
        stats.div.undefined.extend(notes)
        return value
    before = len(stats.div.undefined)
    value = compute()
    cache[key] = (value, list(stats.div.undefined[before:]))
    return value


def chance_terms(stats: Any) -> tuple[np.ndarray, ...]:
    """``(N c - sum_k t_k p_k, sum_k t_k (N - p_k), sum_k p_k (N - p_k), sum_k t_k (N - t_k))``
    in float64, ``c`` the trace, ``t`` and ``p`` the row and column sums, shared by kappa and
    MCC: N^2 times the covariance of truth and prediction, the chance disagreement
    ``N^2 (1 - p_e)`` and the two variances (the last three written without cancellation).
    The covariance cancels near chance level, so it is formed exactly (``exact_difference``)."""

    def build(n, c, t, p):
        m = n[..., None]
        return n * c, (t * p).sum(-1), (t * (m - p)).sum(-1), (p * (m - p)).sum(-1), \
            (t * (m - t)).sum(-1)

    def compute():
        n = np.asarray(stats.n)
        return exact_difference(build, (n, stats.correct, stats.rows, stats.cols),
                                largest(n) ** 2)

    return memo(stats, "chance_terms", compute)


def ovr_covariance(c: Any) -> np.ndarray:
    """``TP TN - FP FN`` per class in float64, formed exactly (it cancels near chance level):
    the numerator of one-vs-rest MCC, informedness, markedness and Yule's Q."""

    def compute():
        tp, fp, fn, tn = np.broadcast_arrays(c.tp, c.fp, c.fn, c.tn)
        bound = largest(tp + fp + fn + tn) ** 2 if tp.dtype.kind in "iu" else 0
        return exact_difference(lambda tp, fp, fn, tn: (tp * tn, fp * fn),
                                (tp, fp, fn, tn), bound)[0]

    return memo(c, "ovr_covariance", compute)


def where_defined(num: Any, den: Any, composed: Any) -> np.ndarray:
    """``num / den`` where ``den != 0``; elsewhere ``composed()``, the metric composed of its
    parts (called only then), so that undefined values and their warnings follow the
    zero-division policy exactly as the composed formula does."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    ok = den != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        value = num / np.where(ok, den, 1.0)
    if ok.all():
        return value
    return np.where(ok, value, composed())
