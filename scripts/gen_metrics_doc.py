"""Generate docs/metrics.md from the metric registry (names, formulas, meaning, advice,
counterparts, PyCM keys, interpretation scales, references).

Run ``python scripts/gen_metrics_doc.py`` after changing the registry; a test fails while the
committed file differs from what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "metrics.md"

FAMILIES = {
    "summary": "Summary metrics",
    "rates": "One-vs-rest rates",
    "agreement": "Agreement (chance-corrected)",
    "association": "Association",
    "information": "Information theory",
    "imbalance": "Imbalanced classes",
    "similarity": "Set similarity",
    "significance": "Baselines, p-values and intervals",
    "counts": "Counts and proportions",
}

# Choices the issue left open; the registry notes repeat the ones tied to a single metric.
DECISIONS = (
    "PyCM keys: a spec's `pycm` field names the statistic it reproduces exactly. Keys that are "
    "a metric with an average ('TPR Macro'), a parameter ('F0.5'), a synonym ('Y', 'Scott "
    "PI'), one element of a tuple ('95% CI', 'Kappa 95% CI', 'Overall J') or a deliberate "
    "difference live in one table next to the registry (`confmat.metrics.pycm_keys()`; "
    "`find_pycm(key)` looks one up; `explain` accepts PyCM keys).",
    "Tuple-valued PyCM statistics are split into scalar metrics: `kappa_ci_lower` / "
    "`kappa_ci_upper`, `accuracy_ci_lower` / `accuracy_ci_upper` (parameter `z`, default "
    "1.96 as in PyCM), and `jaccard_sum` with `jaccard` macro for 'Overall J'. Each element "
    "counts once in the coverage line, the key once.",
    "Undefined values follow the one zero-division policy (`zero_division`: 'warn' gives 0 "
    "with a warning, 0, 1 or NaN). PyCM's 'None' corresponds to NaN with "
    "`zero_division=np.nan`; the oracle test checks exactly that.",
    "Where PyCM is undefined or numerically wrong confmat deliberately differs, and the test "
    "pins confmat to an independent computation: Yule's Q (algebraic form, 1 when FP FN = 0), "
    "KL divergence and cross entropy (0 log 0 = 0, +inf when a true class is never "
    "predicted; scipy.stats.entropy), the accuracy p-value (incomplete beta function; "
    "scipy.stats.binom), MCC (0 when a marginal is constant; scikit-learn), and averages "
    "(undefined classes are left out as scikit-learn does, where PyCM's average becomes None).",
    "Macro averages are plain means over classes (PyCM's 'X Macro'); PyCM's AUNP weights the "
    "single-threshold AUC by P_i / N, which is confmat's `average='weighted'`.",
    "Per-class metrics that need the whole table (CEN, MCEN) are declared with "
    "`uses_table=True`; their micro average is the metric of the pooled one-vs-rest 2 x 2 "
    "table, the same rule as for every other per-class metric.",
    "Interpretation scales are data (`confmat.metrics.scales`); the first scale listed for a "
    "metric is its default. The kappa scales are also offered for the other kappa-type "
    "coefficients. PyCM's bands are reproduced exactly, including its gaps (no band at "
    "exactly 0 for lambda and Pearson's C) and its reading of every MCC below 0.3, negative "
    "ones included, as 'Negligible'.",
    "imbalanced-learn's `geometric_mean_score(correction=...)` is the `correction` parameter "
    "of `gmean`; `classification_report_imbalanced`'s columns are precision, recall, "
    "specificity, f1, class_gmean, iba (alpha=0.1, squared=True) and support, and its 'avg_' "
    "row is the support-weighted average.",
)


def _fmt_range(lo: float, hi: float) -> str:
    def f(x: float) -> str:
        return {float("inf"): "+inf", float("-inf"): "-inf"}.get(x, f"{x:g}")
    return f"[{f(lo)}, {f(hi)}]"


def _metric_section(spec, explain) -> list[str]:
    e = explain(spec.name)
    lines = [f"### `{spec.name}` — {spec.full_name}", ""]
    meta = [f"{'per-class' if spec.kind == 'per_class' else 'overall'}",
            f"range {_fmt_range(*spec.range)}", e.direction]
    if spec.aliases:
        meta.append("aliases: " + ", ".join(f"`{a}`" for a in spec.aliases))
    lines += ["*" + "; ".join(meta) + "*", ""]
    lines += [f"- **Formula:** `{spec.formula}`", f"- **Meaning:** {spec.meaning}",
              f"- **Prefer when:** {spec.prefer_when}", f"- **Avoid when:** {spec.avoid_when}"]
    if spec.notes:
        lines.append(f"- **Notes:** {spec.notes}")
    if spec.params:
        lines.append("- **Parameters:** " + ", ".join(f"`{k}={v!r}`" for k, v in
                                                     spec.params.items()))
    lines.append(f"- **scikit-learn / imbalanced-learn:** {spec.sklearn or '—'}")
    lines.append("- **PyCM:** " + ("; ".join(f"`{p}`" for p in e.pycm) if e.pycm else "—"))
    if e.scales:
        lines.append("- **Interpretation scales:** " + ", ".join(f"`{s}`" for s in e.scales))
    lines.append("- **References:** " + " ".join(f"[{i + 1}] {r}" for i, r in
                                                 enumerate(spec.references)))
    return [*lines, ""]


def render() -> str:
    from confmat import explain
    from confmat.metrics import list_metrics, pycm_keys
    from confmat.metrics.scales import list_scales

    specs = list_metrics()
    families = [f for f in FAMILIES if any(s.family == f for s in specs)]
    families += sorted({s.family for s in specs} - set(families))
    out = [
        "# Metric guide",
        "",
        "<!-- generated by scripts/gen_metrics_doc.py from the metric registry; do not edit -->",
        "",
        f"confmat's registry holds **{len(specs)} metrics**, each a pure function of the K x K "
        "confusion matrix (rows = true class, columns = predicted class). Per-class metrics are "
        "one-vs-rest (`TP, FP, FN, TN` of class i) and take `average=None | 'micro' | "
        "'macro' | 'weighted'`; overall metrics give one number. `confmat.explain(name)` "
        "prints any entry below; `cm.interpret(name, scale)` puts a value into words.",
        "",
        "Every numeric statistic of PyCM 4.6 (`class_stat` and `overall_stat`, "
        f"{len(pycm_keys())} keys) is reproduced; see the [PyCM key index](#pycm-key-index).",
        "",
        "## Contents",
        "",
    ]
    for f in families:
        title = FAMILIES.get(f, f.title())
        anchor = title.lower().replace(" ", "-").replace(",", "").replace("(", "").replace(")", "")
        out.append(f"- [{title}](#{anchor}) — "
                   + ", ".join(f"`{s.name}`" for s in specs if s.family == f))
    out += ["- [Interpretation scales](#interpretation-scales)",
            "- [PyCM key index](#pycm-key-index)",
            "- [Errors in the sources, corrected](#errors-in-the-sources-corrected)",
            "- [Decisions](#decisions)", ""]
    for f in families:
        out += [f"## {FAMILIES.get(f, f.title())}", ""]
        for spec in specs:
            if spec.family == f:
                out += _metric_section(spec, explain)
    out += ["## Interpretation scales", "",
            "Rules of thumb, not tests; the source travels with every answer of `cm.interpret`.",
            ""]
    for sc in list_scales():
        out += [f"### `{sc.name}` — {sc.title}", "",
                "Metrics: " + ", ".join(f"`{m}`" for m in sc.metrics)
                + (f"; PyCM key `{sc.pycm}`" if sc.pycm else ""), "",
                "| band | label |", "|---|---|"]
        for b in sc.bands:
            left = "(" if b.low_open else "["
            right = "]" if b.high_closed else ")"
            out.append(f"| {left}{b.low:g}, {b.high:g}{right} | {b.label} |")
        out += ["", f"Source: {sc.reference}"]
        if sc.note:
            out += ["", f"Note: {sc.note}"]
        out.append("")
    out += ["## PyCM key index", "",
            "| PyCM table | key | confmat | differs |", "|---|---|---|---|"]
    for (table, key), entries in sorted(pycm_keys().items()):
        for e in entries:
            elem = f" (element {e.element})" if e.element is not None else ""
            out.append(f"| {table}_stat | `{key}`{elem} | `{e.call()}` | {e.differs or ''} |")
    out += ["", "## Errors in the sources, corrected", "",
            "The sources this project was specified from (Yao et al. 2022, Kneusel 2021 and "
            "blog posts on scikit-learn's metrics) contain mistakes. Where one disagrees with "
            "the mathematics, the registry follows the mathematics; docs/seed_errata.md lists "
            "each mistake, the correct value and the test that pins it."]
    out += ["", "## Decisions", "", "Choices the catalogue issue left open:", ""]
    out += [f"- {d}" for d in DECISIONS]
    return "\n".join(out) + "\n"


def main() -> int:
    text = render()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
