"""The mark of a report's values that come from the zero-division rule, shared by every
format (text, Markdown, HTML tables, the threshold slider, the notebook view)."""

from __future__ import annotations

__all__ = ["ZERO_DIVISION_MARK", "ZERO_DIVISION_NOTE", "marked"]

#: the mark of a value whose ratio divides by zero: the registry's zero-division rule (an
#: undefined ratio counts as 0.0, scikit-learn's ``zero_division=0``) gave it, and every format
#: (text, Markdown, HTML tables and threshold slider) writes it after the number; the notes
#: name the metrics (:data:`ZERO_DIVISION_NOTE`), the JSON lists the places (``undefined``)
ZERO_DIVISION_MARK = "\u2020"
#: the note of a report whose tables hold marked values, before the metrics' names
ZERO_DIVISION_NOTE = (f"{ZERO_DIVISION_MARK} undefined for some classes (a zero denominator), "
                      "each undefined ratio counted as 0.0 by the zero-division rule and the "
                      "marked values computed from it")


def marked(text: str, undefined: bool) -> str:
    """A formatted value with :data:`ZERO_DIVISION_MARK` after it when it is undefined.

    Parameters
    ----------
    text : str
        The value as the tables write it.
    undefined : bool
        Whether its ratio divides by zero (the value comes from the zero-division rule).

    Returns
    -------
    str

    Examples
    --------
    >>> marked("0.0000", True), marked("0.5000", False)
    ('0.0000†', '0.5000')
    """
    return text + ZERO_DIVISION_MARK if undefined else text
