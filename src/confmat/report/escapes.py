"""The escapes of user text (labels, titles, names): one for Markdown, one for plain text and
terminals, shared by every renderer of the report (HTML is escaped by its templates)."""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["BIDI_CONTROLS", "MD_ENTITIES", "MD_SPECIAL", "md_escape", "visible"]

#: characters backslash-escaped (CommonMark and Python-Markdown both honour these escapes)
MD_SPECIAL = frozenset("\\`*#|[]")
#: characters written as HTML entities, which every Markdown flavour decodes to the character
MD_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", "~": "&#126;"}


def md_escape(text: Any) -> str:
    """Text as literal Markdown on one line, for table cells, headings and list items.

    Every character that could make markup becomes literal: ``<``, ``>``, ``&`` and ``~``
    (inline HTML, an entity such as ``&lt;``, strike-through) as HTML entities, emphasis,
    code, links, images, headings and table bars by a backslash; ``_`` only where it could
    open or close emphasis, not between two letters or digits (``balanced_accuracy`` stays
    as typed). Line breaks become spaces: a label cannot end its table row or its heading.
    The text reads back unchanged in CommonMark, GitHub's Markdown and Python-Markdown
    (mkdocs).

    Parameters
    ----------
    text : object
        Converted with ``str``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(md_escape("<img src=x onerror=alert(1)> a|b *c* _d_ f1_macro"))
    &lt;img src=x onerror=alert(1)&gt; a\\|b \\*c\\* \\_d\\_ f1_macro
    >>> md_escape("two\\nlines")
    'two lines'
    """
    s = " ".join(str(text).splitlines())
    out = []
    for k, c in enumerate(s):
        if c in MD_SPECIAL:
            out.append("\\" + c)
        elif c in MD_ENTITIES:
            out.append(MD_ENTITIES[c])
        elif c == "_" and not (0 < k < len(s) - 1 and s[k - 1].isalnum() and s[k + 1].isalnum()):
            out.append("\\_")
        else:
            out.append(c)
    return "".join(out)


#: format characters that reorder the text around them in a terminal (bidirectional
#: embeddings, overrides and isolates): written as escapes like control characters
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible(text: Any) -> str:
    """Text for a terminal or a text file, on one line and inert: control characters (line
    breaks, tabs, the ESC that starts a terminal's colour or cursor sequences), line
    separators and the bidirectional overrides are written as Python escapes (``\\n``,
    ``\\x1b``, ``\\u202e``); everything else, accents and emoji included, as it is.

    Parameters
    ----------
    text : object
        Converted with ``str``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(visible("a\\nb\\x1b[31m red é 😀"))
    a\\nb\\x1b[31m red é 😀
    """
    s = str(text)
    return "".join(c.encode("unicode_escape").decode("ascii")
                   if c in BIDI_CONTROLS or unicodedata.category(c) in ("Cc", "Zl", "Zp")
                   else c for c in s)
