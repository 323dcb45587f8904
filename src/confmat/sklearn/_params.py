"""scikit-learn's checks of the drop-in functions' own parameters (``average``, flags such as
``normalize``, collections such as ``warn_for``, ``pos_label``) and its deprecation of keyword
arguments passed by position. Labels, scores and weights are checked by confmat's input door
(:mod:`confmat.inputs`), target types by :mod:`confmat.sklearn._targets`.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

AVERAGES = (None, "micro", "macro", "weighted", "samples")


def check_average(average: Any, allowed: Sequence[Any] = AVERAGES, binary: bool = True) -> None:
    """Refuse an ``average`` scikit-learn does not know.

    Parameters
    ----------
    average
        str or None
    allowed
        sequence
    binary
        bool, default=True
    """
    if average not in allowed and not (binary and average == "binary"):
        raise ValueError("average has to be one of " + str(tuple(allowed)))


def check_flag(value: Any, name: str, func: str) -> None:
    """Refuse a flag that is not a bool (``0``, ``1`` and ``None`` too), as scikit-learn's
    parameter check does.

    Parameters
    ----------
    value
        The user's argument.
    name
        str, the parameter's name.
    func
        str, the function's name.

    Raises
    ------
    ValueError
        ``value`` is not a Python or numpy bool.
    """
    if not isinstance(value, bool | np.bool_):
        raise ValueError(
            f"The '{name}' parameter of {func} must be an instance of 'bool' or an instance of "
            f"'numpy.bool'. Got {value!r} instead."
        )


def check_sequence(value: Any, name: str, func: str, kinds: str,
                   types: tuple[type, ...] | None = None) -> None:
    """Refuse a scalar or a string where scikit-learn takes a collection (``warn_for``,
    ``target_names``).

    Parameters
    ----------
    value
        The user's argument (None is left to the caller).
    name
        str, the parameter's name.
    func
        str, the function's name.
    kinds
        str, what scikit-learn accepts, for the message.
    types
        tuple of types, optional: the only types scikit-learn accepts (``warn_for``: list,
        tuple or set; a dict, a frozenset or an array is refused as there). None: any
        collection with a length.

    Raises
    ------
    ValueError
        ``value`` is a string, has no length, or is not of ``types``.
    """
    if types is not None and not isinstance(value, types):
        raise ValueError(
            f"The '{name}' parameter of {func} must be {kinds}. Got {value!r} instead."
        )
    if isinstance(value, str | bytes) or not hasattr(value, "__len__"):
        raise ValueError(
            f"The '{name}' parameter of {func} must be {kinds}. Got {value!r} instead."
        )


def check_pos_label(pos_label: Any) -> None:
    """Refuse a ``pos_label`` that cannot be a label (an array, a list, a dict): scikit-learn's
    parameter check refuses it too.

    Parameters
    ----------
    pos_label
        The user's ``pos_label``.

    Raises
    ------
    TypeError
        ``pos_label`` is not a single (hashable) value.
    """
    try:
        hash(pos_label)
    except TypeError:
        raise TypeError(
            "pos_label must be a single label (a number, a bool, a str or None), got "
            f"{type(pos_label).__name__} {pos_label!r}"
        ) from None


def keyword_only_warning(names: Sequence[str], version: str) -> Callable[[F], F]:
    """Accept ``names`` positionally after the first two arguments with a ``FutureWarning``
    (scikit-learn's deprecation of positional keyword arguments).

    Parameters
    ----------
    names
        sequence of str
    version
        str

    Returns
    -------
    callable
        A decorator.
    """

    def deco(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            extra = args[2:]
            if extra:
                passed = [f"{k}={v!r}" for k, v in zip(names, extra, strict=False)]
                warnings.warn(
                    f"Pass {', '.join(passed)} as keyword args. From version {version} "
                    "passing these as positional arguments will result in an error",
                    FutureWarning,
                    stacklevel=2,
                )
                kwargs.update(zip(names, extra, strict=False))
            return func(*args[:2], **kwargs)

        return wrapper  # type: ignore[return-value]

    return deco
