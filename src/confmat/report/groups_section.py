"""The by-group section of a report: one row per group (its size, a flag when it is small, its
metrics), the disparities between groups and the data of a forest plot (a metric with its
interval in every group). Built from a :class:`~confmat.groups.GroupedEvaluation`; every
value comes from it (the registry through ``GroupedEvaluation.metric``), none is computed here.

Renderers: :func:`render_groups_text` (plain text) and :meth:`GroupsSection.to_dict` (JSON);
the HTML page reads ``to_dict()`` too (a sortable table, the forest plot, the disparities).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

from .jsonable import label_json, num

__all__ = ["GroupsSection", "build_groups_section", "render_groups_text"]

#: fairlearn's named measures shown for binary problems (Hardt et al. 2016; Agarwal et al.
#: 2018; Weerts et al. 2023).
NAMED_MEASURES = ("demographic_parity_difference", "demographic_parity_ratio",
                  "equalized_odds_difference", "equalized_odds_ratio",
                  "equal_opportunity_difference")


@dataclass
class GroupsSection:
    """Report data of an evaluation by group.

    Parameters
    ----------
    names : list of str
        The sensitive features.
    min_support : int
        Groups with fewer samples are flagged ``small``.
    metrics : list of str
        The metric columns of ``rows``.
    rows : list of dict
        One per group: ``group`` (its key, a list for several features), ``size``, ``small``
        and one value per metric (None where undefined).
    disparities : list of dict
        ``name``, ``value`` (None where undefined), ``kind`` ('difference' or 'ratio').
    forest : dict
        ``metric``, ``method``, ``level`` and per group ``estimate``, ``low``, ``high``.
    notes : list of str
        What the section left out, and why.

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"], pos_label=1)
    >>> sec = build_groups_section(ev, metrics=["accuracy"])
    >>> [(r["group"], r["size"], r["accuracy"]) for r in sec.rows]
    [('a', 2, 1.0), ('b', 2, 0.5)]
    """

    names: list[str]
    min_support: int
    metrics: list[str]
    rows: list[dict[str, Any]]
    disparities: list[dict[str, Any]] = field(default_factory=list)
    forest: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data of the section.

        Returns
        -------
        dict

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1], [0, 1], ["a", "b"])
        >>> build_groups_section(ev, metrics=["accuracy"]).to_dict()["rows"][0]["group"]
        'a'
        """
        return {"names": list(self.names), "min_support": self.min_support,
                "metrics": list(self.metrics), "rows": [dict(r) for r in self.rows],
                "disparities": [dict(d) for d in self.disparities],
                "forest": dict(self.forest), "notes": list(self.notes)}


def _key(k: Any) -> Any:
    return [label_json(v) for v in k] if isinstance(k, tuple) else label_json(k)


def build_groups_section(ev: Any, metrics: list[str] | None = None, *,
                         forest_metric: str | None = None, level: float = 0.95,
                         pos_label: Any = None) -> GroupsSection:
    """The by-group section of a report.

    Parameters
    ----------
    ev : GroupedEvaluation
        The evaluation by group (:func:`confmat.by_group`).
    metrics : list of str, optional
        Metric columns; by default those of ``GroupedEvaluation.to_frame``: accuracy and
        balanced accuracy, with a positive class also recall, precision, F1, false positive
        rate and selection rate.
    forest_metric : str, optional
        The metric of the forest plot (with its interval per group: Wilson for proportions,
        the bootstrap otherwise); by default balanced accuracy.
    level : float, default 0.95
        Confidence level of the forest plot's intervals.
    pos_label : label, optional
        The positive class (by default the evaluation's).

    Returns
    -------
    GroupsSection

    Raises
    ------
    ValueError
        An unknown metric, or a per-class metric without a positive class.

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3,
    ...               pos_label=1)
    >>> sec = build_groups_section(ev)
    >>> [(d["name"], d["value"]) for d in sec.disparities][:1]
    [('accuracy difference', 0.33333333333333337)]
    """
    notes: list[str] = []
    pos = pos_label
    if pos is None:
        try:
            pos = ev.pos_label
        except ValueError:
            pos = None
    if metrics is None:
        metrics = ["accuracy", "balanced_accuracy"]
        if pos is not None:
            metrics += ["recall", "precision", "f1", "fpr", "selection_rate"]
        else:
            notes.append("no positive class: per-class metrics and fairness measures are "
                         "left out (give pos_label)")
    values: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are shown as None
        for m in metrics:
            values[m] = ev.metric(m, pos_label=pos if _per_class(ev, m) else None,
                                  zero_division=float("nan"))
        rows = []
        for i, key in enumerate(ev.groups):
            row: dict[str, Any] = {"group": _key(key), "size": int(ev.sizes[i]),
                                   "small": bool(ev.small[i])}
            for m in metrics:
                row[m] = num(values[m][i])
            rows.append(row)
        disparities = []
        for m in metrics:
            p = pos if _per_class(ev, m) else None
            disparities.append({"name": f"{m} difference", "kind": "difference",
                                "value": num(ev.difference(m, pos_label=p,
                                                           zero_division=float("nan")))})
            disparities.append({"name": f"{m} ratio", "kind": "ratio",
                                "value": num(ev.ratio(m, pos_label=p,
                                                      zero_division=float("nan")))})
        if pos is not None and len(ev.labels) == 2:
            for name in NAMED_MEASURES:
                disparities.append({"name": name, "kind": name.rsplit("_", 1)[1],
                                    "value": num(getattr(ev, name)())})
        fm = forest_metric or "balanced_accuracy"
        ci = ev.ci(fm, level=level, pos_label=pos if _per_class(ev, fm) else None,
                   random_state=0)
    forest = {"metric": fm, "method": ci.method, "level": level,
              "groups": [_key(k) for k in ev.groups],
              "estimate": [num(v) for v in ci.estimate.tolist()],
              "low": [num(v) for v in ci.low.tolist()],
              "high": [num(v) for v in ci.high.tolist()]}
    return GroupsSection(list(ev.names), int(ev.min_support), list(metrics), rows, disparities,
                         forest, notes)


def _per_class(ev: Any, metric: str) -> bool:
    from ..metrics import get_metric

    alias = {"selection_rate": "predicted_rate"}.get(metric, metric)
    try:
        return bool(get_metric(alias).kind == "per_class")
    except (KeyError, ValueError):
        return False


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.4f}"


def render_groups_text(section: GroupsSection) -> str:
    """The section as plain text: the table (small groups marked ``*``), the disparities.

    Parameters
    ----------
    section : GroupsSection

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1], [0, 1], {"site": ["a", "b"]})
    >>> print(render_groups_text(build_groups_section(ev, metrics=["accuracy"])).splitlines()[2])
    a       1*    1.0000
    """
    head = [" / ".join(section.names), "size", *section.metrics]
    body = []
    for r in section.rows:
        g = " / ".join(map(str, r["group"])) if isinstance(r["group"], list) else str(r["group"])
        body.append([g, f"{r['size']}{'*' if r['small'] else ''}"]
                    + [_fmt(r[m]) for m in section.metrics])
    widths = [max(len(row[j]) for row in [head, *body]) for j in range(len(head))]
    lines = [f"By group ({' x '.join(section.names)}): {len(section.rows)} groups"]
    lines.append("  ".join(h.ljust(w) if j == 0 else h.rjust(w)
                           for j, (h, w) in enumerate(zip(head, widths, strict=True))))
    for row in body:
        lines.append("  ".join(c.ljust(w) if j == 0 else c.rjust(w)
                               for j, (c, w) in enumerate(zip(row, widths, strict=True))))
    if any(r["small"] for r in section.rows):
        lines.append(f"* fewer than {section.min_support} samples: values are unreliable")
    if section.disparities:
        lines.append("")
        lines.append("Disparities (between groups: max - min, min / max)")
        w = max(len(d["name"]) for d in section.disparities)
        lines += [f"  {d['name'].ljust(w)}  {_fmt(d['value'])}" for d in section.disparities]
    f = section.forest
    if f:
        lines.append("")
        lines.append(f"{f['metric']} with {f['level']:.0%} intervals ({f['method']})")
        for g, e, lo, hi in zip(f["groups"], f["estimate"], f["low"], f["high"], strict=True):
            name = " / ".join(map(str, g)) if isinstance(g, list) else str(g)
            lines.append(f"  {name}: {_fmt(e)} [{_fmt(lo)}, {_fmt(hi)}]")
    lines += [f"Note: {n}" for n in section.notes]
    return "\n".join(lines)
