"""Proper scoring rules of predicted probabilities: the log loss and the Brier score.

Both score each sample's probabilities against the class that occurred, and both are
*proper*: a forecaster minimises the expected score by stating its true beliefs.

* The **log loss** (the logarithmic score of Good 1952; cross-entropy) is ``-log p``, the
  minus log of the probability given to the true class, in nats, averaged (or summed) over
  the samples. It is 0 for certainty on the right class and grows without bound as that
  probability goes to 0, so one confident mistake can dominate it. As in scikit-learn, a
  probability is first clipped to ``[eps, 1 - eps]`` (``eps`` the machine epsilon of the
  probabilities' float type), so a probability of 0 for the true class costs
  ``-log(eps)`` (about 36.04 for float64) instead of an infinite loss.
* The **Brier score** (Brier 1950) is the squared distance between the probability vector and
  the one-hot vector of the true class, ``sum_k (p_k - [k = y])**2``, averaged over the
  samples: in [0, 2]; halved (in [0, 1]) it is the binary Brier score ``(p - outcome)**2`` of
  either class of a two-class problem.

The functions take validated arrays (probabilities in [0, 1] from the input door,
:mod:`confmat.inputs.scores`) and compute; :func:`confmat.curves.calibration.calibration` and
the scikit-learn drop-in (``confmat.sklearn.log_loss``, ``brier_score_loss``) call them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EPS", "brier_terms", "log_loss_terms", "mean_score"]

#: the clipping ``eps`` of float64 probabilities (their machine epsilon, as in scikit-learn)
EPS = float(np.finfo(np.float64).eps)


def log_loss_terms(p_true: np.ndarray, eps: float = EPS) -> np.ndarray:
    """Each sample's log loss, ``-log(clip(p_true, eps, 1 - eps))``, in nats.

    Parameters
    ----------
    p_true : ndarray of float64, shape (n,)
        The probability each sample gives its true class, in [0, 1].
    eps : float, default :data:`EPS`
        Clipping bound (the machine epsilon of the probabilities' float type).

    Returns
    -------
    ndarray of float64, shape (n,)

    Examples
    --------
    >>> log_loss_terms(np.array([0.5, 1.0, 0.0])).round(4).tolist()
    [0.6931, 0.0, 36.0437]
    """
    return np.asarray(-np.log(np.clip(p_true, eps, 1.0 - eps)))


def brier_terms(p: np.ndarray, true_col: np.ndarray) -> np.ndarray:
    """Each sample's multi-class Brier score, ``sum_k (p_k - [k = true_col])**2``, in [0, 2].

    Parameters
    ----------
    p : ndarray of float64, shape (n, K)
        Probabilities, one column per class.
    true_col : ndarray of int, shape (n,)
        The column of each sample's true class.

    Returns
    -------
    ndarray of float64, shape (n,)

    Examples
    --------
    >>> brier_terms(np.array([[0.2, 0.8], [1.0, 0.0]]), np.array([1, 1])).round(4).tolist()
    [0.08, 2.0]
    """
    d = np.array(p, dtype=np.float64, copy=True)
    d[np.arange(d.shape[0]), true_col] -= 1.0
    return np.asarray((d * d).sum(axis=1))


def mean_score(terms: np.ndarray, weight: np.ndarray | None = None,
               normalize: bool = True) -> float:
    """The (weighted) mean of per-sample scores, or their (weighted) sum.

    Parameters
    ----------
    terms : ndarray of float64, shape (n,)
        Per-sample scores (:func:`log_loss_terms`, :func:`brier_terms`).
    weight : ndarray of float64, shape (n,), optional
        Non-negative sample weights, not all 0 (checked by the input door).
    normalize : bool, default True
        The mean; with False the sum (weighted: ``sum w_i * terms_i``).

    Returns
    -------
    float

    Examples
    --------
    >>> t = np.array([1.0, 3.0])
    >>> mean_score(t), mean_score(t, np.array([3.0, 1.0])), mean_score(t, normalize=False)
    (2.0, 1.5, 4.0)
    """
    if weight is None:
        return float(terms.mean() if normalize else terms.sum())
    if not normalize:
        return float(np.dot(weight, terms))
    # the mean is a ratio of sums: weights scaled by a power of two (exact) keep tiny or huge
    # weights from losing digits or overflowing
    top = float(weight.max())
    w = np.ldexp(weight, -int(np.frexp(top)[1]))
    return float(np.dot(w, terms) / w.sum())
