"""``confmat.explain(name)``: everything the registry knows about one metric, for people.

Accepts a metric name, an alias or an exact PyCM key: a numeric statistic
(:func:`confmat.metrics.pycm_keys`: "TPR Macro", "F0.5", "95% CI") or an interpretation key
(:func:`confmat.metrics.pycm_interpretations`: "SOA1(Landis & Koch)", "PLRI"), the
keys ``confmat metrics --pycm`` lists. The returned object is plain data (``to_dict()`` for
JSON) and prints as a short text page, which the CLI shows as-is.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from .metrics import find_pycm, get_metric, pycm_interpretations
from .metrics.registry import MetricSpec, pycm_keys_of
from .metrics.scales import list_scales
from .words import arg

_DIRECTION = {True: "higher is better", False: "lower is better",
              None: "no better direction (descriptive)"}


@dataclass(frozen=True)
class Explanation:
    """The registry's text about one metric, as :func:`explain` returns it.

    ``str()`` gives the terminal text, :meth:`to_dict` the JSON form. The fields are those of
    the metric's :class:`~confmat.metrics.MetricSpec`, in plain data.

    Parameters
    ----------
    name : str
        Canonical name of the metric.
    full_name : str
        Its long name.
    aliases : tuple of str
        Other names the registry accepts.
    kind : {"per_class", "overall"}
        One value per class or one per table.
    family : str
        Family in the catalogue (``"rates"``, ``"agreement"``, ...).
    formula : str
        The formula, in plain text.
    range : tuple of float
        Lowest and highest value.
    direction : str
        ``"higher is better"``, ``"lower is better"`` or
        ``"no better direction (descriptive)"``.
    meaning : str
        What the value means.
    prefer_when, avoid_when : str
        When to prefer and when to avoid the metric.
    notes : str
        Caveats; may be empty.
    references : tuple of str
        Sources, author and year first.
    sklearn : str or None
        The scikit-learn function that gives the same value, if any.
    pycm : tuple of str
        The PyCM statistics the metric reproduces, each with the confmat call that gives it.
    params : dict
        Keyword parameters of the metric and their defaults.
    scales : tuple of str
        Names of the interpretation scales for the metric (``ConfusionMatrix.interpret``).
    asked_as : str, optional
        The PyCM key the user asked for, when the metric was found through one.
    scale_details : tuple of dict, optional
        Each scale as plain data (:meth:`Scale.describe <confmat.metrics.scales.Scale.describe>`),
        printed by ``str()``.

    Examples
    --------
    >>> e = explain("tpr")
    >>> e.name, e.range, e.direction
    ('recall', (0.0, 1.0), 'higher is better')
    """

    name: str
    full_name: str
    aliases: tuple[str, ...]
    kind: str
    family: str
    formula: str
    range: tuple[float, float]
    direction: str
    meaning: str
    prefer_when: str
    avoid_when: str
    notes: str
    references: tuple[str, ...]
    sklearn: str | None
    pycm: tuple[str, ...]
    params: dict[str, Any]
    scales: tuple[str, ...]
    asked_as: str | None = None
    scale_details: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    @property
    def higher_is_better(self) -> bool | None:
        """The registry's direction: True, False, or None for a descriptive metric.

        Examples
        --------
        >>> explain("recall").higher_is_better
        True
        """
        return {v: k for k, v in _DIRECTION.items()}[self.direction]

    def to_dict(self) -> dict[str, Any]:
        """The explanation as JSON-ready data.

        Returns
        -------
        dict
            Every field but ``asked_as``; tuples become lists, and ``"scales"`` holds the scale
            details (``scale_details``) rather than their names.

        Examples
        --------
        >>> explain("recall").to_dict()["full_name"]
        'recall (true positive rate, sensitivity)'
        """
        return {
            "name": self.name, "full_name": self.full_name, "aliases": list(self.aliases),
            "kind": self.kind, "family": self.family, "formula": self.formula,
            "range": list(self.range), "direction": self.direction, "meaning": self.meaning,
            "prefer_when": self.prefer_when, "avoid_when": self.avoid_when, "notes": self.notes,
            "references": list(self.references), "sklearn": self.sklearn,
            "pycm": list(self.pycm), "params": dict(self.params),
            "scales": [dict(d) for d in self.scale_details],
        }

    def __str__(self) -> str:
        def para(label: str, text: str) -> list[str]:
            return textwrap.wrap(f"{label}{text}", width=88,
                                 subsequent_indent="  " if label else "")

        lo, hi = self.range
        kind = "per-class (average with micro/macro/weighted)" if self.kind == "per_class" \
            else "overall (one number per table)"
        lines = [f"{self.name} — {self.full_name}"]
        if self.asked_as:
            lines.append(f"(you asked for PyCM's {self.asked_as!r})")
        if self.aliases:
            lines.append("also called: " + ", ".join(self.aliases))
        lines += [f"kind: {kind}; family: {self.family}",
                  f"range: [{lo:g}, {hi:g}]; {self.direction}", ""]
        lines += para("formula: ", self.formula)
        lines += ["", *para("", self.meaning)]
        lines += ["", *para("prefer when: ", self.prefer_when)]
        lines += para("avoid when: ", self.avoid_when)
        if self.notes:
            lines += para("note: ", self.notes)
        if self.params:
            lines += ["", "parameters: " + ", ".join(f"{k}={v!r}" for k, v in self.params.items())]
        lines += ["", f"scikit-learn: {self.sklearn or 'no counterpart'}",
                  "PyCM: " + ("; ".join(self.pycm) if self.pycm else "no counterpart")]
        if self.scales:
            lines += ["", "interpretation scales (cm.interpret(name, scale=...)):"]
            for d in self.scale_details:
                lines.append(f"  {d['name']}: " + "; ".join(d["bands"]))
        lines += ["", "references:"] + [f"  - {r}" for r in self.references]
        return "\n".join(lines)


def _pycm_text(spec: MetricSpec) -> tuple[str, ...]:
    out = []
    for e in pycm_keys_of(spec.name):
        where = "class_stat" if e.table == "class" else "overall_stat"
        elem = f"[{e.element}]" if e.element is not None else ""
        text = f"{where}[{e.key!r}]{elem} = {e.call()}"
        if e.differs:
            text += f" (differs: {e.differs})"
        out.append(text)
    return tuple(out)


def _unknown(name: str, error: ValueError) -> ValueError:
    """An unknown name: the closest metric names, aliases, PyCM keys and PyCM interpretation
    keys, compared without case ("tpr macro" suggests PyCM's 'TPR Macro')."""
    import difflib

    from .metrics import list_metrics, pycm_keys

    shown: dict[str, str] = {}
    for spec in list_metrics():
        for n in (spec.name, *spec.aliases):
            shown.setdefault(n.lower(), n)
    for _, key in pycm_keys():
        shown.setdefault(key.lower(), key)
    for key in pycm_interpretations():
        shown.setdefault(key.lower(), key)
    close = difflib.get_close_matches(name.lower().strip(), list(shown), n=4, cutoff=0.6)
    if not close:
        return error
    hint = ", ".join(repr(shown[c]) for c in close)
    return ValueError(f"unknown metric {name!r}; did you mean {hint}? "
                      f"({arg('confmat.list_metrics()')} lists the metrics, "
                      f"{arg('confmat.metrics.pycm_keys()')} the PyCM keys)")


def explain(name: str) -> Explanation:
    """Explain a metric by name, alias or exact PyCM key.

    Parameters
    ----------
    name : str
        A registry name or alias, a PyCM statistic key (``"TPR Macro"``) or a PyCM
        interpretation key.

    Returns
    -------
    Explanation

    Raises
    ------
    ValueError
        An unknown name (the message suggests close metric names, aliases and PyCM keys,
        compared without case).

    Examples
    --------
    >>> print(explain("mcc").direction)
    higher is better
    >>> explain("TPR Macro").name
    'recall'
    >>> explain("tpr macro")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown metric 'tpr macro'; did you mean 'TPR Macro', ...
    """
    asked_as = None
    try:
        spec = get_metric(name)
    except ValueError as metric_error:
        try:
            spec = get_metric(find_pycm(name)[0].metric)
        except (ValueError, TypeError):
            interpretation = pycm_interpretations().get(name)
            if interpretation is None:
                raise _unknown(name, metric_error) from None
            spec = get_metric(interpretation.metric)
        asked_as = name
    scales = list_scales(spec.name)
    return Explanation(
        name=spec.name, full_name=spec.full_name, aliases=tuple(spec.aliases), kind=spec.kind,
        family=spec.family, formula=spec.formula, range=(float(spec.range[0]), float(spec.range[1])),
        direction=_DIRECTION[spec.higher_is_better], meaning=spec.meaning,
        prefer_when=spec.prefer_when, avoid_when=spec.avoid_when, notes=spec.notes,
        references=tuple(spec.references), sklearn=spec.sklearn, pycm=_pycm_text(spec),
        params=dict(spec.params), scales=tuple(s.name for s in scales), asked_as=asked_as,
        scale_details=tuple(s.describe() for s in scales),
    )
