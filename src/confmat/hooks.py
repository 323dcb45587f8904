"""Conveniences of the core that a higher layer implements: named slots, filled on first use.

``cm.ci(...)``, ``cm.at_prevalence(...)``, ``str(cm)``, ``cm._repr_html_()`` in a notebook,
``ConfusionMatrix.from_predictions`` and ``Accumulator.update`` on Dask collections are
methods users expect on the core objects, but their work is done by layers above the core
(inference, report, the Dask integration). The core must not import upward, so each such
method calls a :class:`Hook` declared here. The package root ``confmat/__init__.py`` (above
every layer) registers a loader with :func:`set_loader`; the first call of an empty hook asks
it to import the hook's provider and fill the hook, so ``import confmat`` stays cheap and a
convenience costs its imports only when it is used. Any ``import confmat.<anything>`` runs the
package root first, so for users the loader is always there; a hook that stays empty (emptied
on purpose, a broken install) raises :class:`HookMissingError` naming the module that
provides it.

Every hook is also a plain function users may call directly (``confmat.inference.
confidence_interval(cm, ...)`` is what ``cm.ci(...)`` calls). See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "AT_PREVALENCE",
    "CONFIDENCE_INTERVAL",
    "DASK_ACCUMULATE",
    "DASK_CONFUSION_COUNTS",
    "GROUPED_EVALUATION",
    "HOOKS",
    "MATRIX_HTML",
    "MATRIX_TEXT",
    "Hook",
    "HookMissingError",
    "set_loader",
]

#: The loader registered by the package root (at most one): ``loader(hook)`` fills ``hook``.
_LOADERS: list[Callable[[Hook], None]] = []


def set_loader(loader: Callable[[Hook], None]) -> None:
    """Register the function that fills an empty hook on its first call.

    Parameters
    ----------
    loader : callable
        ``loader(hook)`` imports ``hook.provider`` and calls ``hook.fill`` with its
        ``hook.attribute``. A later registration replaces an earlier one.

    Raises
    ------
    TypeError
        If ``loader`` is not callable.

    Examples
    --------
    >>> import confmat  # the package root registers its loader
    >>> CONFIDENCE_INTERVAL.resolve().__name__
    'confidence_interval'
    """
    if not callable(loader):
        raise TypeError(f"loader must be callable, got {type(loader).__name__}")
    _LOADERS[:] = [loader]


class HookMissingError(RuntimeError):
    """A convenience of the core was called but the layer that implements it is not loaded.

    Examples
    --------
    >>> issubclass(HookMissingError, RuntimeError)
    True
    """


class Hook:
    """A slot for one convenience of the core, filled by the layer that implements it.

    Parameters
    ----------
    name : str
        The convenience as users see it (e.g. ``"ConfusionMatrix.ci"``).
    provider : str
        The module that implements it (e.g. ``"confmat.inference"``).
    attribute : str
        The name of the implementing function in ``provider``.

    Examples
    --------
    >>> hook = Hook("Thing.double", "mypkg.math", "double")
    >>> hook.filled
    False
    >>> hook.fill(lambda x: 2 * x)
    >>> hook(21)
    42
    """

    __slots__ = ("attribute", "emptied", "func", "name", "provider")

    def __init__(self, name: str, provider: str, attribute: str) -> None:
        self.name = name
        self.provider = provider
        self.attribute = attribute
        self.func: Callable[..., Any] | None = None
        #: True after ``fill(None)``: the hook stays empty (no loading on call)
        self.emptied = False

    @property
    def filled(self) -> bool:
        """True once :meth:`fill` has given the hook its function.

        Returns
        -------
        bool

        Examples
        --------
        >>> Hook("a", "b", "c").filled
        False
        """
        return self.func is not None

    def fill(self, func: Callable[..., Any] | None) -> None:
        """Give the hook its implementation (None empties it, and it stays empty: the loader is
        not asked again).

        Parameters
        ----------
        func : callable or None
            ``provider.attribute``.

        Raises
        ------
        TypeError
            If ``func`` is neither callable nor None.

        Examples
        --------
        >>> hook = Hook("a", "b", "c")
        >>> hook.fill(len)
        >>> hook.func is len
        True
        """
        if func is not None and not callable(func):
            raise TypeError(f"func must be callable or None, got {type(func).__name__}")
        self.func = func
        self.emptied = func is None

    def resolve(self) -> Callable[..., Any]:
        """The implementation, loaded through the registered loader on first use.

        Returns
        -------
        callable
            ``provider.attribute``.

        Raises
        ------
        HookMissingError
            If the hook is empty and no loader fills it; the message names the module to
            import.

        Examples
        --------
        >>> hook = Hook("a", "b", "c")
        >>> hook.fill(len)
        >>> hook.resolve() is len
        True
        """
        if self.func is None and not self.emptied and _LOADERS:
            _LOADERS[0](self)
        if self.func is None:
            raise HookMissingError(
                f"{self.name} is implemented by {self.provider}.{self.attribute}, which is not "
                f"loaded; import {self.provider}"
            )
        return self.func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the implementation.

        Parameters
        ----------
        *args, **kwargs
            Passed on unchanged.

        Returns
        -------
        object
            What the implementation returns.

        Raises
        ------
        HookMissingError
            If the hook is empty and no loader fills it (see :meth:`resolve`).

        Examples
        --------
        >>> hook = Hook("Thing.size", "mypkg.size", "size")
        >>> hook.fill(None)
        >>> hook([1, 2])
        Traceback (most recent call last):
        ...
        confmat.hooks.HookMissingError: Thing.size is implemented by mypkg.size.size, which is not loaded; import mypkg.size
        """
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        state = "filled" if self.filled else "empty"
        return f"Hook({self.name!r} <- {self.provider}.{self.attribute}, {state})"


#: ``cm.ci(...)``: ``confidence_interval(cm, metric, **options)``.
CONFIDENCE_INTERVAL = Hook("ConfusionMatrix.ci", "confmat.inference", "confidence_interval")
#: ``cm.at_prevalence(...)``: ``at_prevalence(cm, prevalence, n=n)``.
AT_PREVALENCE = Hook("ConfusionMatrix.at_prevalence", "confmat.inference", "at_prevalence")
#: ``str(cm)``: ``matrix_text(labels, counts)`` -> the terminal table.
MATRIX_TEXT = Hook("str(ConfusionMatrix)", "confmat.report.render_text", "matrix_text")
#: ``cm._repr_html_()``: ``matrix_html(cm)`` -> the notebook view.
MATRIX_HTML = Hook("ConfusionMatrix._repr_html_", "confmat.report.render_html", "matrix_html")
#: ``ConfusionMatrix.from_predictions`` on Dask collections:
#: ``confusion_counts(y_true, y_pred, labels=, sample_weight=)`` -> (table, labels, has_other).
DASK_CONFUSION_COUNTS = Hook(
    "ConfusionMatrix.from_predictions on Dask collections", "confmat.dask", "confusion_counts"
)
#: ``Accumulator.update`` on Dask collections: ``accumulate(y_true, y_pred, **options)`` ->
#: an Accumulator holding the counts of the collections.
DASK_ACCUMULATE = Hook("Accumulator.update on Dask collections", "confmat.dask", "accumulate")
#: ``GroupedAccumulator.result()`` (and the grouped results of ``io`` and ``dask``):
#: ``evaluation_from_counts(counts, keys, names, **options)`` -> a GroupedEvaluation (the
#: ``groups`` layer is above the accumulator).
GROUPED_EVALUATION = Hook("GroupedAccumulator.result", "confmat.groups.api",
                          "evaluation_from_counts")

#: Every hook, for the tests that check them.
HOOKS: tuple[Hook, ...] = (
    CONFIDENCE_INTERVAL,
    AT_PREVALENCE,
    MATRIX_TEXT,
    MATRIX_HTML,
    DASK_CONFUSION_COUNTS,
    DASK_ACCUMULATE,
    GROUPED_EVALUATION,
)
