"""The by-group section of a report: one row per group (its size, a flag when it is small, its
metrics), the disparities between groups and the data of a forest plot (a metric with its
interval in every group). Built from a :class:`~confmat.groups.GroupedEvaluation`; every
value comes from it (the registry through ``GroupedEvaluation.metric``), none is computed here.

Renderers: :func:`render_groups_text` (plain text), :func:`render_groups_markdown` and
:meth:`GroupsSection.to_dict` (JSON); the HTML page (``render_html`` of a report built with
``build_report(ev.overall, groups=ev)``) reads ``to_dict()`` too: a sortable table, the forest
plot, the disparities.

Which disparities are highlighted
---------------------------------
A disparity is *over the threshold* when a difference is at least :data:`LARGE_DIFFERENCE`
(0.1, ten points on a 0-1 metric) or a ratio is below :data:`LARGE_RATIO` (0.8: the
"four-fifths rule" of the US Uniform Guidelines on Employee Selection Procedures, EEOC 1978,
29 CFR 1607.4(D), which fairlearn's documentation also cites for demographic parity ratios).
Both thresholds are conventions, not tests: give ``large_difference`` / ``large_ratio`` to
:func:`build_groups_section` to use others.

A small group's value moves a lot by chance, so a threshold alone flags small groups far too
often. Every disparity therefore carries an interval (``low``, ``high``): the percentile
bootstrap interval of the comparison that gives it, its two parties fixed
(:meth:`GroupedEvaluation.pair_intervals <confmat.groups.pairs.PairMixin.pair_intervals>`,
:data:`SECTION_RESAMPLES` resamples, reproducible). Its ``flag`` (:func:`disparity_flag`) is
``'large'`` when the value is over the threshold **and** the interval excludes "no
disparity" (0 for a difference, 1 for a ratio), ``'uncertain'`` when the value is over the
threshold but the interval does not exclude it (or there is no interval: ``intervals=False``),
and None otherwise; ``large`` is ``flag == 'large'``. An undefined value is never flagged.
(The interval of the disparity itself, ``difference(..., ci=True)``, is not used: the
replicates of a largest absolute gap are never below 0, so it excludes 0 whatever the truth.)
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..groups.names import default_group_metrics
from ..words import arg
from .escapes import md_escape, visible
from .jsonable import label_json, num

__all__ = ["GroupsSection", "build_groups_section", "disparity_flag",
           "render_groups_markdown", "render_groups_text"]

#: fairlearn's named measures shown for binary problems (Hardt et al. 2016; Agarwal et al.
#: 2018; Weerts et al. 2023).
NAMED_MEASURES = ("demographic_parity_difference", "demographic_parity_ratio",
                  "equalized_odds_difference", "equalized_odds_ratio",
                  "equal_opportunity_difference")
#: a difference at least this large is highlighted (see the module docstring)
LARGE_DIFFERENCE = 0.1
#: a ratio below this is highlighted: the four-fifths rule (EEOC 1978)
LARGE_RATIO = 0.8
#: bootstrap resamples per group for the table's intervals of metrics that are not proportions
SECTION_RESAMPLES = 1000


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
        One per group: ``group`` (its key, a list for several features), ``size``, ``small``,
        one value per metric (None where undefined) and ``intervals``, a dict of metric to
        ``[low, high]`` (None where the interval is not available).
    disparities : list of dict
        ``name``, ``metric``, ``kind`` ('difference' or 'ratio'), ``method``
        ('between_groups', 'to_overall', 'to_group' or 'named'), ``value`` (None where
        undefined), ``low`` and ``high`` (the interval of the comparison behind it, None
        without one), ``flag`` ('large', 'uncertain' or None) and ``large`` (see the module
        docstring).
    forest : dict
        ``metric``, ``method``, ``level``, ``overall`` and per group ``groups``, ``sizes``,
        ``small``, ``estimate``, ``low``, ``high``.
    notes : list of str
        What the section left out, and why.
    overall : dict, optional
        Each metric's value on all samples.
    level : float, default 0.95
        Confidence level of the intervals.
    reference : label, optional
        The reference group of the ``to_group`` disparities.
    thresholds : dict, optional
        ``difference`` and ``ratio``: the highlighting rule used.

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
    overall: dict[str, Any] = field(default_factory=dict)
    level: float = 0.95
    reference: Any = None
    thresholds: dict[str, float] = field(default_factory=lambda: {
        "difference": LARGE_DIFFERENCE, "ratio": LARGE_RATIO})

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
                "metrics": list(self.metrics),
                "rows": [{**r, "intervals": dict(r.get("intervals", {}))} for r in self.rows],
                "overall": dict(self.overall), "level": self.level,
                "reference": None if self.reference is None else _key(self.reference),
                "disparities": [dict(d) for d in self.disparities],
                "thresholds": dict(self.thresholds),
                "forest": dict(self.forest), "notes": list(self.notes)}


def _key(k: Any) -> Any:
    return [label_json(v) for v in k] if isinstance(k, tuple) else label_json(k)


def is_large(kind: str, value: float | None, difference: float = LARGE_DIFFERENCE,
             ratio: float = LARGE_RATIO) -> bool:
    """Whether a disparity is over the threshold: a difference of at least ``difference``, a
    ratio below ``ratio``; an undefined value (None or NaN) never is. (The flag also needs the
    interval: :func:`disparity_flag`.)

    Parameters
    ----------
    kind : {'difference', 'ratio'}
    value : float or None
    difference : float, default 0.1
    ratio : float, default 0.8

    Returns
    -------
    bool

    Examples
    --------
    >>> is_large("difference", 0.12), is_large("ratio", 0.85), is_large("ratio", None)
    (True, False, False)
    """
    if value is None or not math.isfinite(value):
        return False
    return bool(abs(value) >= difference) if kind == "difference" else bool(value < ratio)


def disparity_flag(kind: str, value: float | None, low: float | None, high: float | None,
                   difference: float = LARGE_DIFFERENCE, ratio: float = LARGE_RATIO
                   ) -> str | None:
    """The flag of a disparity: ``'large'`` over the threshold (:func:`is_large`) with an
    interval that excludes no disparity (``low > 0`` for a difference, ``high < 1`` for a
    ratio), ``'uncertain'`` over the threshold otherwise (no interval included), else None.

    Parameters
    ----------
    kind : {'difference', 'ratio'}
    value : float or None
        The disparity.
    low, high : float or None
        The interval of the comparison behind it (None: no interval).
    difference : float, default 0.1
    ratio : float, default 0.8

    Returns
    -------
    str or None

    Examples
    --------
    >>> disparity_flag("difference", 0.2, 0.05, 0.3), disparity_flag("difference", 0.2, -0.1, 0.4)
    ('large', 'uncertain')
    >>> disparity_flag("ratio", 0.7, 0.5, 1.1), disparity_flag("ratio", 0.9, 0.8, 0.95)
    ('uncertain', None)
    """
    if not is_large(kind, value, difference, ratio):
        return None
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return "uncertain"
    excludes = low > 0 if kind == "difference" else high < 1
    return "large" if excludes else "uncertain"


def _pair_bounds(ev: Any, metric: str, asked: list[tuple[str, str]], **kw: Any
                 ) -> list[tuple[float | None, float | None]]:
    """``(low, high)`` of the comparison behind each disparity (None where not available)."""
    try:
        cis = ev.pair_intervals(metric, asked, **kw)
    except (ValueError, TypeError, ZeroDivisionError):
        return [(None, None)] * len(asked)
    return [(num(c.low), num(c.high)) for c in cis]


def _interval_pairs(ev: Any, metric: str, level: float, pos: Any, n_resamples: int
                    ) -> list[list[Any] | None] | None:
    """Per group ``[low, high]`` of ``metric`` (None for an undefined bound), or None when
    the evaluation offers no interval for it."""
    try:
        ci = ev.ci(metric, level=level, pos_label=pos, n_resamples=n_resamples, random_state=0)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError):
        return None
    out: list[list[Any] | None] = []
    for lo, hi in zip(np.asarray(ci.low, np.float64).reshape(-1),
                      np.asarray(ci.high, np.float64).reshape(-1), strict=True):
        out.append(None if not (math.isfinite(lo) and math.isfinite(hi)) else [num(lo), num(hi)])
    return out


def build_groups_section(ev: Any, metrics: list[str] | None = None, *,
                         forest_metric: str | None = None, level: float = 0.95,
                         pos_label: Any = None, intervals: bool = True,
                         reference: Any = None, n_resamples: int = SECTION_RESAMPLES,
                         large_difference: float = LARGE_DIFFERENCE,
                         large_ratio: float = LARGE_RATIO) -> GroupsSection:
    """The by-group section of a report.

    Parameters
    ----------
    ev : GroupedEvaluation
        The evaluation by group (:func:`confmat.by_group`).
    metrics : list of str, optional
        Metric columns; by default those of ``GroupedEvaluation.to_frame``
        (:func:`confmat.groups.default_group_metrics`): accuracy and balanced accuracy,
        with a positive class also recall, precision, F1, false positive rate and selection
        rate, with scores also ROC AUC and average precision.
    forest_metric : str, optional
        The metric of the forest plot (with its interval per group: Wilson for proportions,
        the bootstrap otherwise); by default balanced accuracy. A metric given here joins
        ``metrics`` (the table and the disparities) when it is not among them.
    level : float, default 0.95
        Confidence level of the intervals.
    pos_label : label, optional
        The positive class (by default the evaluation's).
    intervals : bool, default True
        Give every metric of the table its interval per group (``GroupedEvaluation.ci``:
        Wilson for proportions, the BCa bootstrap of the group's counts otherwise).
    reference : group key, optional
        Also show each metric's disparities to this group (``method='to_group'``).
    n_resamples : int, default 1000
        Bootstrap resamples per group and per metric's disparities (fixed
        ``random_state=0``: reports are reproducible).
    large_difference, large_ratio : float, default 0.1 and 0.8
        The highlighting rule of the disparities (module docstring); with ``intervals=False``
        the disparities have no interval, and those over a threshold are ``uncertain``.

    Returns
    -------
    GroupsSection

    Raises
    ------
    ValueError
        An unknown metric, a per-class metric (``recall``) when no positive class is given
        or implied by the labels, an unknown ``reference``.

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3,
    ...               pos_label=1)
    >>> sec = build_groups_section(ev, intervals=False)
    >>> [(d["name"], d["value"], d["flag"]) for d in sec.disparities][:1]
    [('accuracy difference', 0.33333333333333337, 'uncertain')]
    """
    notes: list[str] = []
    pos = pos_label
    if pos is None:
        try:
            pos = ev.pos_label
        except ValueError:
            pos = None
    if metrics is None:
        metrics = default_group_metrics(positive=pos is not None, scores=ev.scores is not None)
        if pos is None:
            notes.append("no positive class: per-class metrics and fairness measures are "
                         "left out (give pos_label)")
    if forest_metric is not None and forest_metric not in metrics:
        metrics = [*metrics, forest_metric]
    if pos is None:
        per_class = [m for m in metrics if _per_class(ev, m)]
        if per_class:
            raise ValueError(
                f"{', '.join(per_class)}: a per-class metric by group needs the class it is "
                f"computed for, and the classes {list(ev.labels)} imply none; give "
                f"{arg('pos_label')}")
    if reference is not None:
        ev.index(reference)  # an unknown group is an error here, named
    methods = ["between_groups", "to_overall"] + (["to_group"] if reference is not None else [])
    values: dict[str, Any] = {}
    pairs: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are shown as None
        for m in metrics:
            p = pos if _per_class(ev, m) else None
            values[m] = ev.metric(m, pos_label=p, zero_division=float("nan"))
            if intervals:
                pairs[m] = _interval_pairs(ev, m, level, p, n_resamples)
        overall = {m: num(ev.overall_metric(m, pos_label=pos if _per_class(ev, m) else None,
                                            zero_division=float("nan"))) for m in metrics}
        rows = []
        for i, key in enumerate(ev.groups):
            row: dict[str, Any] = {"group": _key(key), "size": int(ev.sizes[i]),
                                   "small": bool(ev.small[i])}
            for m in metrics:
                row[m] = num(values[m][i])
            row["intervals"] = {m: (pairs[m][i] if pairs.get(m) is not None else None)
                                for m in metrics}
            rows.append(row)
        disparities = []
        boot = {"level": level, "n_resamples": n_resamples, "random_state": 0}

        def add(name: str, metric: str, kind: str, method: str, v: Any,
                bounds: tuple[Any, Any]) -> None:
            flag = disparity_flag(kind, v, *bounds, large_difference, large_ratio)
            disparities.append({"name": name, "metric": metric, "kind": kind, "method": method,
                                "value": v, "low": bounds[0], "high": bounds[1],
                                "flag": flag, "large": flag == "large"})

        for m in metrics:
            p = pos if _per_class(ev, m) else None
            asked = [(kind, method) for method in methods for kind in ("difference", "ratio")]
            bounds = (_pair_bounds(ev, m, asked, pos_label=p, zero_division=float("nan"),
                                   reference=reference, **boot)
                      if intervals else [(None, None)] * len(asked))
            for (kind, method), b in zip(asked, bounds, strict=True):
                tail = {"between_groups": "", "to_overall": " to overall",
                        "to_group": f" to {_name(_key(reference))}"}[method]
                fn = ev.difference if kind == "difference" else ev.ratio
                v = num(fn(m, method=method, pos_label=p, zero_division=float("nan"),
                           reference=reference if method == "to_group" else None))
                add(f"{m} {kind}{tail}", m, kind, method, v, b)
        if pos is not None and len(ev.labels) == 2:
            for base in ("demographic_parity", "equalized_odds", "equal_opportunity"):
                names = [n for n in NAMED_MEASURES if n.startswith(base + "_")]
                asked = [(n.rsplit("_", 1)[1], "between_groups") for n in names]
                bounds = (_pair_bounds(ev, base, asked, **boot) if intervals
                          else [(None, None)] * len(asked))
                for name, (kind, _), b in zip(names, asked, bounds, strict=True):
                    add(name, name, kind, "named", num(getattr(ev, name)()), b)
        fm = forest_metric or "balanced_accuracy"
        fp = pos if _per_class(ev, fm) else None
        ci = ev.ci(fm, level=level, pos_label=fp, n_resamples=n_resamples, random_state=0)
        f_overall = num(ev.overall_metric(fm, pos_label=fp, zero_division=float("nan")))
    forest = {"metric": fm, "method": ci.method, "level": level, "names": list(ev.names),
              "groups": [_key(k) for k in ev.groups],
              "sizes": [int(v) for v in ev.sizes], "small": [bool(v) for v in ev.small],
              "estimate": [num(v) for v in ci.estimate.tolist()],
              "low": [num(v) for v in ci.low.tolist()],
              "high": [num(v) for v in ci.high.tolist()], "overall": f_overall}
    if intervals and any(pairs.get(m) is None for m in metrics):
        notes.append("no interval per group for: "
                     + ", ".join(m for m in metrics if pairs.get(m) is None))
    if not intervals and any(d["flag"] for d in disparities):
        notes.append("intervals skipped: disparities over a threshold are marked uncertain "
                     "(they need an interval to be called large)")
    return GroupsSection(list(ev.names), int(ev.min_support), list(metrics), rows, disparities,
                         forest, notes, overall, level, reference,
                         {"difference": large_difference, "ratio": large_ratio})


def _name(g: Any) -> str:
    """A group key for readers: the features' values joined by ' / '."""
    return " / ".join(map(str, g)) if isinstance(g, list | tuple) else str(g)


def _per_class(ev: Any, metric: str) -> bool:
    from ..groups.names import registry_spec

    try:
        return bool(registry_spec(metric).kind == "per_class")
    except (KeyError, ValueError):
        return False


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.4f}"


_DISPARITY_HEAD = ("Disparities (between groups: max - min, min / max; to overall: the largest "
                   "gap to, smallest ratio with, the value on all samples)")


def _large_rule(section: GroupsSection) -> str:
    t = section.thresholds
    return (f"large: a difference of at least {t['difference']:g} or a ratio below "
            f"{t['ratio']:g} (the four-fifths rule, EEOC 1978) whose {section.level:.0%} "
            "interval excludes no disparity (0 for a difference, 1 for a ratio); uncertain: "
            "over the threshold, but the interval does not exclude it. Intervals: the two "
            "groups (or a group and all samples) that give the value, resampled")


def _bounds(d: dict[str, Any]) -> str:
    return "" if d.get("low") is None or d.get("high") is None else \
        f"[{_fmt(d['low'])}, {_fmt(d['high'])}]"


def render_groups_text(section: GroupsSection) -> str:
    """The section as plain text: the table (small groups marked ``*``), the disparities with
    their intervals and flags.

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
    head = [visible(" / ".join(section.names)), "size", *section.metrics]
    body = []
    for r in section.rows:
        g = " / ".join(map(str, r["group"])) if isinstance(r["group"], list) else str(r["group"])
        body.append([visible(g), f"{r['size']}{'*' if r['small'] else ''}"]
                    + [_fmt(r[m]) for m in section.metrics])
    widths = [max(len(row[j]) for row in [head, *body]) for j in range(len(head))]
    lines = [f"By group ({visible(' x '.join(section.names))}): {len(section.rows)} groups"]
    lines.append("  ".join(h.ljust(w) if j == 0 else h.rjust(w)
                           for j, (h, w) in enumerate(zip(head, widths, strict=True))))
    for row in body:
        lines.append("  ".join(c.ljust(w) if j == 0 else c.rjust(w)
                               for j, (c, w) in enumerate(zip(row, widths, strict=True))))
    if any(r["small"] for r in section.rows):
        lines.append(f"* fewer than {section.min_support} samples: values are unreliable")
    if section.disparities:
        lines.append("")
        lines.append(_DISPARITY_HEAD)
        w = max(len(d["name"]) for d in section.disparities)
        wb = max(len(_bounds(d)) for d in section.disparities)
        lines += [(f"  {d['name'].ljust(w)}  {_fmt(d['value']).rjust(7)}  "
                   f"{_bounds(d).ljust(wb)}" + (f"  ({d['flag']})" if d.get("flag") else "")
                   ).rstrip() for d in section.disparities]
        lines.append(_large_rule(section))
    f = section.forest
    if f:
        lines.append("")
        lines.append(f"{f['metric']} with {f['level']:.0%} intervals ({f['method']})")
        for g, e, lo, hi in zip(f["groups"], f["estimate"], f["low"], f["high"], strict=True):
            name = " / ".join(map(str, g)) if isinstance(g, list) else str(g)
            lines.append(f"  {visible(name)}: {_fmt(e)} [{_fmt(lo)}, {_fmt(hi)}]")
    lines += [f"Note: {visible(n)}" for n in section.notes]
    return "\n".join(lines)


def render_groups_markdown(section: GroupsSection, heading: int = 2) -> str:
    """The section as Markdown: the table by group (small groups marked), the disparities
    with their intervals and flags (large ones in bold) and the forest plot's intervals as a
    table.

    Parameters
    ----------
    section : GroupsSection
    heading : int, default 2
        Level of the section's heading.

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1], [0, 1], {"site": ["a", "b"]})
    >>> md = render_groups_markdown(build_groups_section(ev, metrics=["accuracy"]))
    >>> md.splitlines()[4]
    '| a | 1 (small) | 1.0000 [0.2065, 1.0000] |'
    """
    h = "#" * heading
    lines = [f"{h} By group ({md_escape(' x '.join(section.names))})", ""]
    lines.append("| " + " | ".join([md_escape(" / ".join(section.names)), "size",
                                    *map(md_escape, section.metrics)]) + " |")
    lines.append("|" + "---|" * (len(section.metrics) + 2))
    for r in section.rows:
        cells = [md_escape(_name(r["group"])), f"{r['size']}{' (small)' if r['small'] else ''}"]
        for m in section.metrics:
            iv = r.get("intervals", {}).get(m)
            cells.append(_fmt(r[m]) + (f" [{_fmt(iv[0])}, {_fmt(iv[1])}]" if iv else ""))
        lines.append("| " + " | ".join(cells) + " |")
    if section.overall:
        lines.append("| overall | " + str(sum(r["size"] for r in section.rows)) + " | "
                     + " | ".join(_fmt(section.overall.get(m)) for m in section.metrics) + " |")
    if any(r["small"] for r in section.rows):
        lines += ["", f"small: fewer than {section.min_support} samples; values are unreliable."]
    if section.disparities:
        lines += ["", f"{h}# Disparities", "", _DISPARITY_HEAD + ".", "",
                  f"| measure | value | {section.level:.0%} interval | flag |", "|---|---|---|---|"]
        for d in section.disparities:
            v = _fmt(d["value"])
            flag = d.get("flag") or ""
            lines.append(f"| {md_escape(d['name'])} | {f'**{v}**' if flag == 'large' else v} | "
                         f"{_bounds(d)} | {flag} |")
        lines += ["", _large_rule(section) + "."]
    f = section.forest
    if f:
        lines += ["", f"{h}# {md_escape(f['metric'])} with {f['level']:.0%} intervals ({f['method']})",
                  "", "| group | estimate | interval |", "|---|---|---|"]
        for g, e, lo, hi in zip(f["groups"], f["estimate"], f["low"], f["high"], strict=True):
            lines.append(f"| {md_escape(_name(g))} | {_fmt(e)} | [{_fmt(lo)}, {_fmt(hi)}] |")
    if section.notes:
        lines += ["", *[f"Note: {md_escape(n)}" for n in section.notes]]
    return "\n".join(lines) + "\n"
