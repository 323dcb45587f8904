"""Conveniences of a confusion matrix that higher layers implement: intervals, prevalence,
interpretation, the terminal and notebook views. Mixed into :class:`~confmat.ConfusionMatrix`;
the work is done through :mod:`confmat.hooks` (filled by the package root) or the metric
scales, never by importing a layer above (see docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from .. import hooks
from .protocol import CountsTable

__all__ = ["Conveniences"]


class Conveniences:
    """``ci``, ``at_prevalence``, ``interpret``, ``str`` and ``_repr_html_`` (mixed into
    :class:`~confmat.ConfusionMatrix`).

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> isinstance(ConfusionMatrix([[1, 0], [0, 1]]), Conveniences)
    True
    """

    __slots__ = ()

    def ci(
        self: CountsTable,
        metric: str,
        *,
        level: float = 0.95,
        method: str = "auto",
        average: str | None = None,
        pos_label: Any = None,
        n_resamples: int = 9999,
        random_state: Any = None,
        zero_division: Any = "warn",
        **params: Any,
    ) -> Any:
        """Confidence interval ``(low, high)`` for any registry metric (per class where the
        metric is per-class and ``average`` is None).

        Computed by :func:`confmat.inference.confidence_interval` (reached through
        :data:`confmat.hooks.CONFIDENCE_INTERVAL`; see docs/architecture.md).

        Parameters
        ----------
        metric : str
            A metric name or alias.
        level : float, default 0.95
            Confidence level.
        method : str, default 'auto'
            'wilson', 'agresti_coull', 'clopper_pearson', 'jeffreys', 'wald' (binomial
            proportions), 'kappa_asymptotic' (kappa), 'fisher_z' (2 x 2 MCC, per-class MCC), or
            the multinomial bootstrap on the counts: 'percentile', 'basic', 'bca'. 'auto' picks Wilson for
            proportions, the asymptotic SE for kappa and BCa otherwise.
        average : {None, 'micro', 'macro', 'weighted'}, optional
            Averaging of a per-class metric.
        pos_label : label, optional
            One class of a per-class metric.
        n_resamples : int, default 9999
            Bootstrap resamples.
        random_state : int or numpy Generator, optional
            Seed of the bootstrap.
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0.
        **params
            Parameters of the metric.

        Returns
        -------
        ConfidenceInterval
            Unpacks as ``low, high``; carries ``estimate``, ``method`` and ``references``.

        Raises
        ------
        ValueError
            An unknown metric or method, or a method that does not apply to the metric.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> low, high = ConfusionMatrix([[61, 2], [8, 58]]).ci("accuracy")
        >>> round(low, 4), round(high, 4)
        (0.8632, 0.9574)
        """
        return hooks.CONFIDENCE_INTERVAL(
            self, metric, level=level, method=method, average=average, pos_label=pos_label,
            n_resamples=n_resamples, random_state=random_state, zero_division=zero_division,
            **params,
        )

    def at_prevalence(self: CountsTable, prevalence: Any, *, n: float | None = None) -> Any:
        """The expected matrix at other class prevalences: each row keeps its proportions and is
        rescaled to ``n * p`` (Bayes' rule), so PPV, NPV, accuracy, ... are those of the target
        population.

        Computed by :func:`confmat.inference.at_prevalence` (reached through
        :data:`confmat.hooks.AT_PREVALENCE`).

        Parameters
        ----------
        prevalence : mapping of label -> float, or array-like of shape (K,)
            Target class shares, summing to 1.
        n : float, optional
            Total of the new table; by default :attr:`n`.

        Returns
        -------
        ConfusionMatrix
            Float counts.

        Raises
        ------
        ValueError
            Prevalences that are negative, do not sum to 1 or name unknown labels.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> cm = ConfusionMatrix([[90, 10], [5, 45]])
        >>> cm.at_prevalence({0: 0.5, 1: 0.5}, n=200).counts.tolist()
        [[90.0, 10.0], [10.0, 90.0]]
        """
        return hooks.AT_PREVALENCE(self, prevalence, n=n)

    def interpret(self: CountsTable, name: str, scale: str | None = None, *, average: str | None = None,
                  **params: Any) -> Any:
        """Put a metric's value into words on a published scale (:mod:`confmat.metrics.scales`).

        Parameters
        ----------
        name : str
            A metric name or alias.
        scale : str, optional
            The scale; by default the metric's first (Landis & Koch 1977 for kappa).
        average : {None, 'micro', 'macro', 'weighted'}, optional
            Averaging of a per-class metric.
        **params
            Parameters of the metric.

        Returns
        -------
        Interpretation or list of Interpretation
            One (label, band, scale, reference) for an overall or averaged metric, one per class
            otherwise.

        Raises
        ------
        ValueError
            An unknown scale, listing the scales available for the metric.

        Examples
        --------
        >>> from confmat import ConfusionMatrix
        >>> ConfusionMatrix([[61, 2], [8, 58]]).interpret("kappa").label
        'Almost Perfect'
        """
        from ..metrics.scales import get_scale, interpret

        get_scale(name, scale)  # fail fast, before computing
        value = self.metric(name, average, zero_division="nan", **params)
        return interpret(name, value, scale, class_labels=self.labels)

    def __repr__(self: CountsTable) -> str:
        head = f"{type(self).__name__}(labels={self.labels!r}, n={self.n:g})"
        if not hooks.MATRIX_TEXT.filled:  # a repr never raises: the bare counts instead
            return f"{head}\n{self.counts}"
        return f"{head}\n{self}"

    def __str__(self: CountsTable) -> str:
        """The terminal table (counts, totals, per-class recall), drawn by
        :func:`confmat.report.render_text.matrix_text` through :data:`confmat.hooks.MATRIX_TEXT`."""
        return str(hooks.MATRIX_TEXT(self.labels, self.counts))

    def _repr_html_(self: CountsTable) -> str:
        """The notebook view, drawn by :func:`confmat.report.render_html.matrix_html` through
        :data:`confmat.hooks.MATRIX_HTML`."""
        return str(hooks.MATRIX_HTML(self))
