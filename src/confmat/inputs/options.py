"""Options given as a switch or as one of a few names: one check of each, named by the
argument, for every layer (metrics, curves, inference, the multilabel functions)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["check_choice", "check_flag"]


def check_choice(value: Any, allowed: tuple[str, ...], name: str) -> str:
    """One of a fixed set of strings (a method, an alternative), or a ValueError naming the
    argument and the choices.

    Parameters
    ----------
    value : object
        The user's value.
    allowed : tuple of str
        The choices.
    name : str
        The argument's name, for the message.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``value`` is not one of ``allowed``.

    Examples
    --------
    >>> check_choice("delong", ("delong", "bootstrap"), "method")
    'delong'
    """
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


def check_flag(value: Any, name: str) -> bool:
    """A switch given as True or False (a numpy bool too), or a TypeError naming it.

    Parameters
    ----------
    value : object
        The user's value.
    name : str
        The argument's name, for the message.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        For anything but a bool (1 and "yes" are refused).

    Examples
    --------
    >>> check_flag(np.True_, "stratified")
    True
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)
