"""The options of a partial ROC area (``--partial-auc``, its focus and correction) and the
range they give, as ``report`` and ``compare`` take them."""

from __future__ import annotations

from typing import Any

import click

from .common import InputError, split_values

__all__ = ["partial_auc_options", "partial_auc_range"]


def partial_auc_options(what: str) -> Any:
    """Add ``--partial-auc LOW,HIGH``, ``--partial-auc-focus specificity|sensitivity`` and
    ``--partial-auc-uncorrected`` to a click command (read them with
    :func:`partial_auc_range`).

    Parameters
    ----------
    what : str
        What the command does with the range, for the help text.

    Returns
    -------
    callable
        A decorator that adds the three options.
    """

    def deco(f: Any) -> Any:
        f = click.option("--partial-auc-uncorrected", "partial_auc_uncorrected", is_flag=True,
                         default=False,
                         help="Report the partial area itself (its maximum is the range's "
                              "width; pROC's default, partial.auc.correct = FALSE) instead of "
                              "McClish's standardised partial AUC (McClish 1989), which is 0.5 "
                              "for a useless test and 1 for a perfect one.")(f)
        f = click.option("--partial-auc-focus", "partial_auc_focus",
                         type=click.Choice(["specificity", "sensitivity"]),
                         help="The axis of --partial-auc: 'specificity' (the area of "
                              "sensitivity over a specificity range, pROC's default) or "
                              "'sensitivity' (the area of specificity over a sensitivity "
                              "range) [default: specificity].")(f)
        return click.option("--partial-auc", "partial_auc",
                            help=f'A range "LOW,HIGH" such as "0.8,1.0", of specificity '
                                 f"unless --partial-auc-focus sensitivity: {what}")(f)

    return deco


def partial_auc_range(text: str | None, focus: str | None,
                      uncorrected: bool = False) -> tuple[float, float] | None:
    """``--partial-auc`` as two different numbers in [0, 1] (None when not given), or an
    InputError naming the value; ``--partial-auc-focus`` or ``--partial-auc-uncorrected``
    without it is an error too.

    Parameters
    ----------
    text : str or None
        The value of ``--partial-auc``.
    focus : str or None
        The value of ``--partial-auc-focus`` (None: not given, specificity).
    uncorrected : bool, default False
        Whether ``--partial-auc-uncorrected`` was given.

    Returns
    -------
    (float, float) or None
        The range as typed (the library orders it).

    Raises
    ------
    InputError
        Not two different numbers in [0, 1]; a focus or the flag without a range.

    Examples
    --------
    >>> partial_auc_range("1,0.8", None), partial_auc_range(None, None)
    ((1.0, 0.8), None)
    >>> partial_auc_range("0.8", "sensitivity")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --partial-auc must be a sensitivity range "LOW,HIGH" of two different numbers in [0, 1] such as 0.8,1.0, got '0.8'
    """
    if text is None:
        if focus is not None:
            raise InputError(f"--partial-auc-focus {focus} needs --partial-auc LOW,HIGH (the "
                             "range on that axis)")
        if uncorrected:
            raise InputError("--partial-auc-uncorrected needs --partial-auc LOW,HIGH (the "
                             "range of the partial area)")
        return None
    parts = split_values([text])
    try:
        lo, hi = (float(v) for v in parts)
    except ValueError:
        lo = hi = float("nan")
    if not (0.0 <= min(lo, hi) < max(lo, hi) <= 1.0):
        raise InputError(f'--partial-auc must be a {focus or "specificity"} range "LOW,HIGH" '
                         f"of two different numbers in [0, 1] such as 0.8,1.0, got {text!r}")
    return lo, hi
