"""Adversarial end-to-end probe of the command line: every number a user reads off ``confmat
report`` / ``compare`` / ``matrix`` (JSON, CSV, text, Markdown, HTML) against oracles computed
from the raw predictions, and bad input to every command (one line, exit status 2).

Oracles, never confmat's output:

* scikit-learn (``confusion_matrix``, ``precision_recall_fscore_support`` with every average and
  ``zero_division=0``, ``jaccard_score``, ``accuracy_score``, ``balanced_accuracy_score``,
  ``cohen_kappa_score``, ``matthews_corrcoef``, ``zero_one_loss``, ``roc_auc_score``,
  ``average_precision_score``, ``brier_score_loss``);
* hand formulas of the one-vs-rest counts (counted here with numpy from the label arrays) for
  specificity, NPV, FPR, FNR, FDR, FOR, informedness, markedness, prevalence and predicted rate
  (Powers 2011; Fawcett 2006), and of the Wilson interval (Wilson 1927) via statsmodels'
  ``proportion_confint``;
* for text, Markdown, CSV and the HTML page: the JSON of the same run, itself checked against
  the oracles above, formatted with Python's ``format`` (round half to even on the exact
  binary value, the rule of ``confmat.report.render_text.fmt``).
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    brier_score_loss,
    cohen_kappa_score,
    confusion_matrix,
    jaccard_score,
    matthews_corrcoef,
    precision_recall_fscore_support,
    roc_auc_score,
    zero_one_loss,
)

from confmat.cli.app import cli, main
from proc_oracle import proc  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[1]
TOL = dict(rel=1e-9, abs=1e-12)


# ------------------------------------------------------------------------------ data
def make_data(seed: int, k: int, n: int, kind: str, mode: str, weights: bool,
              scores: bool) -> dict[str, Any]:
    """Random predictions: ``mode`` is 'plain', 'never_predicted' (a class never in the
    predictions), 'absent_truth' (a class only in the predictions) or 'imbalance' (one class
    holds about 95% of the truth)."""
    rng = np.random.default_rng(seed)
    codes_t = rng.integers(0, k, n)
    if mode == "imbalance":
        codes_t = np.where(rng.random(n) < 0.95, 0, rng.integers(1, k, n))
        codes_t[:2] = [0, k - 1]
    codes_p = np.where(rng.random(n) < 0.6, codes_t, rng.integers(0, k, n))
    if mode == "never_predicted":
        codes_p = np.where(codes_p == k - 1, 0, codes_p)
        codes_t[0] = k - 1
    if mode == "absent_truth":
        codes_t = np.where(codes_t == k - 1, 0, codes_t)
        codes_p[0] = k - 1
    # both classes of a binary problem in the truth (and so a defined AUC)
    codes_t[1], codes_t[2] = 0, (1 if mode != "absent_truth" else 0)
    if k == 2 and mode != "absent_truth":
        codes_t[2] = 1
    if kind == "int":
        book = np.array([-3, 0, 7, 12, 100][:k])
        t, p = book[codes_t], book[codes_p]
    elif kind == "str":
        book = np.array(["b", "a", "ca", "Z", "x y"][:k])
        t, p = book[codes_t], book[codes_p]
    else:
        book = np.array([False, True])
        t, p = book[codes_t], book[codes_p]
    out: dict[str, Any] = {"y": t, "yhat": p, "book": book}
    if weights:
        out["w"] = np.round(rng.random(n) * 3 + 0.25, 3)
    if scores:
        raw = rng.random((n, k)) + 1.5 * np.eye(k)[codes_t] * rng.random((n, 1))
        raw = np.round(raw / raw.sum(axis=1, keepdims=True), 4)
        out["P"] = raw
    return out


def write(d: Path, data: dict[str, Any], fmt: str, name: str = "preds") -> Path:
    import pandas as pd

    cols: dict[str, Any] = {"y": data["y"], "yhat": data["yhat"]}
    if "w" in data:
        cols["w"] = data["w"]
    if "P" in data:
        for j in range(data["P"].shape[1]):
            cols[f"s{j}"] = data["P"][:, j]
    df = pd.DataFrame(cols)
    path = d / f"{name}.{ {'csv': 'csv', 'parquet': 'parquet', 'jsonl': 'jsonl'}[fmt] }"
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_json(path, orient="records", lines=True)
    return path


def sorted_labels(data: dict[str, Any]) -> list[Any]:
    return sorted(set(data["y"].tolist()) | set(data["yhat"].tolist()))


# ------------------------------------------------------------------------------ oracle
def ovr(y: np.ndarray, p: np.ndarray, labels: list[Any], w: np.ndarray | None) -> tuple:
    """One-vs-rest TP, FP, FN, TN per class, summed here from the label arrays."""
    w = np.ones(len(y)) if w is None else w
    tp = np.array([w[(y == c) & (p == c)].sum() for c in labels])
    fp = np.array([w[(y != c) & (p == c)].sum() for c in labels])
    fn = np.array([w[(y == c) & (p != c)].sum() for c in labels])
    tn = np.array([w[(y != c) & (p != c)].sum() for c in labels])
    return tp, fp, fn, tn


def ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b with 0 for 0 / 0 (scikit-learn's ``zero_division=0``)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), 0.0)


def oracle(data: dict[str, Any], labels: list[Any]) -> dict[str, Any]:
    y, p, w = data["y"], data["yhat"], data.get("w")
    prfs = {avg: precision_recall_fscore_support(y, p, labels=labels, average=avg,
                                                 sample_weight=w, zero_division=0)
            for avg in (None, "micro", "macro", "weighted")}
    tp, fp, fn, tn = ovr(y, p, labels, w)
    support = tp + fn
    hand = {
        "specificity": (tn, tn + fp), "npv": (tn, tn + fn), "fpr": (fp, fp + tn),
        "fnr": (fn, fn + tp), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
        "prevalence": (tp + fn, tp + fp + fn + tn), "predicted_rate": (tp + fp, tp + fp + fn + tn),
    }
    per: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(("precision", "recall", "f1")):
        per[name] = {"values": prfs[None][i],
                     **{a: prfs[a][i] for a in ("micro", "macro", "weighted")}}
    per["jaccard"] = {"values": jaccard_score(y, p, labels=labels, average=None, sample_weight=w,
                                              zero_division=0),
                      **{a: jaccard_score(y, p, labels=labels, average=a, sample_weight=w,
                                          zero_division=0)
                         for a in ("micro", "macro", "weighted")}}
    for name, (num, den) in hand.items():
        vals = ratio(num, den)
        per[name] = {"values": vals, "micro": ratio(num.sum(), den.sum()),
                     "macro": vals.mean(), "weighted": ratio((vals * support).sum(),
                                                             support.sum())}
    rec, spec = per["recall"]["values"], per["specificity"]["values"]
    prec, npv = per["precision"]["values"], per["npv"]["values"]
    per["informedness"] = {"values": rec + spec - 1}
    per["markedness"] = {"values": prec + npv - 1}
    overall = {
        "accuracy": accuracy_score(y, p, sample_weight=w),
        "error_rate": 1 - accuracy_score(y, p, sample_weight=w),
        "zero_one_loss": zero_one_loss(y, p, sample_weight=w),
        "mcc": matthews_corrcoef(y, p, sample_weight=w),
        # the report's one rule for undefined values (0, marked): scikit-learn's
        # zero_division=0 above, and its replace_undefined_by=0.0 for kappa (one class only:
        # p_e = 1, kappa is 0 / 0)
        "kappa": cohen_kappa_score(y, p, labels=labels, sample_weight=w,
                                   replace_undefined_by=0.0),
    }
    if set(p.tolist()) <= set(y.tolist()):
        # scikit-learn averages the recalls of the classes in y_true only; with a class only
        # in the predictions its value differs on purpose (see test_balanced_accuracy_...)
        overall["balanced_accuracy"] = balanced_accuracy_score(y, p, sample_weight=w)
    counts = confusion_matrix(y, p, labels=labels, sample_weight=w)
    return {"labels": labels, "counts": counts, "per_class": per, "overall": overall,
            "n": float(np.sum(w)) if w is not None else float(len(y))}


def score_oracle(data: dict[str, Any], labels: list[Any], pos: Any) -> dict[str, float]:
    y, w = data["y"], data.get("w")
    j = labels.index(pos)
    s = data["P"][:, j]  # the score columns are in the order of the labels
    yb = y == pos
    return {"auc": roc_auc_score(yb, s, sample_weight=w),
            "average_precision": average_precision_score(yb, s, sample_weight=w),
            "brier": brier_score_loss(yb, s, sample_weight=w)}


def as_label(v: Any, kind: str) -> Any:
    return {"int": int, "str": str, "bool": bool}[kind](v)


# ------------------------------------------------------------------------------ checks
def check_json(rep: dict[str, Any], exp: dict[str, Any]) -> None:
    assert rep["labels"] == [x.item() if hasattr(x, "item") else x for x in exp["labels"]]
    np.testing.assert_allclose(np.array(rep["counts"], dtype=float), exp["counts"],
                               rtol=1e-12, atol=1e-12)
    assert rep["n"] == pytest.approx(exp["n"], **TOL)
    rows = {r["name"]: r for r in rep["per_class"]}
    for name, want in exp["per_class"].items():
        got = rows[name]
        np.testing.assert_allclose(got["values"], want["values"], rtol=1e-9, atol=1e-12,
                                   err_msg=name)
        for avg in ("micro", "macro", "weighted"):
            if avg in want:
                assert got["averages"][avg] == pytest.approx(float(want[avg]), **TOL), (
                    name, avg)
    overall = {r["name"]: r["value"] for r in rep["overall"]}
    for name, want in exp["overall"].items():
        assert overall[name] == pytest.approx(float(want), **TOL), name


def run_cli(*args: str) -> str:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


@settings(max_examples=14, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), k=st.integers(2, 4), n=st.integers(12, 90),
       kind=st.sampled_from(["int", "str", "bool"]),
       mode=st.sampled_from(["plain", "never_predicted", "absent_truth", "imbalance"]),
       fmt=st.sampled_from(["csv", "parquet", "jsonl"]), weights=st.booleans(),
       scores=st.booleans())
def test_report_json_and_csv_equal_sklearn(tmp_path_factory, seed, k, n, kind, mode, fmt,
                                           weights, scores) -> None:
    if kind == "bool":
        k = 2
    d = tmp_path_factory.mktemp("r")
    scores = scores and mode != "absent_truth"  # a stray prediction beside scores: refused
    data = make_data(seed, k, n, kind, mode, weights, scores)
    path = write(d, data, fmt)
    labels = sorted_labels(data)
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--no-intervals"]
    if weights:
        args += ["--weight", "w"]
    pos = None
    if scores:
        # one score column per class made; keep those of the labels in play
        cols = [f"s{int(np.flatnonzero(data['book'] == c)[0])}" for c in labels]
        pos = max(set(data["y"].tolist()))  # a class of the truth: its AUC is defined
        if len(labels) == 2:
            args += ["--score", cols[labels.index(pos)], "--pos-label", str(pos)]
            data = {**data, "P": np.column_stack([data["P"][:, int(c[1:])] for c in cols])}
        else:
            data = {**data, "P": np.column_stack([data["P"][:, int(c[1:])] for c in cols])}
            args += ["--scores", ",".join(cols), "--pos-label", str(pos)]
    exp = oracle(data, labels)
    rep = json.loads(run_cli(*args, "-f", "json"))
    check_json(rep, exp)
    if scores:
        sc = score_oracle(data, labels, pos)
        curve = next(c for c in rep["curves"] if c["pos_label"] == as_label(pos, kind))
        assert curve["auc"] == pytest.approx(sc["auc"], **TOL)
        assert curve["average_precision"] == pytest.approx(sc["average_precision"], **TOL)
        if rep["calibration"] is not None and rep["calibration"]["kind"] == "binary":
            assert rep["calibration"]["brier"] == pytest.approx(sc["brier"], **TOL)
    check_csv(run_cli(*args, "-f", "csv"), rep, exp, kind)
    check_printed(run_cli(*args, "-f", "markdown"), rep)


def check_csv(text: str, rep: dict[str, Any], exp: dict[str, Any], kind: str) -> None:
    rows = list(csv.DictReader(io.StringIO(text)))
    names = [str(x) for x in rep["labels"]]
    cells = {(r["true"], r["predicted"]): float(r["value"]) for r in rows
             if r["section"] == "matrix"}
    assert len(cells) == len(names) ** 2
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            assert cells[(a, b)] == pytest.approx(float(exp["counts"][i][j]), **TOL)
    per = {(r["metric"], r["class"]): float(r["value"]) if r["value"] else math.nan
           for r in rows if r["section"] in ("per_class", "average")}
    for name, want in exp["per_class"].items():
        for i, c in enumerate(names):
            assert per[(name, c)] == pytest.approx(float(want["values"][i]), **TOL), (name, c)
        for avg in ("micro", "macro", "weighted"):
            if avg in want:
                assert per[(name, avg)] == pytest.approx(float(want[avg]), **TOL)
    overall = {r["metric"]: r["value"] for r in rows if r["section"] == "overall"}
    for name, want in exp["overall"].items():
        assert float(overall[name]) == pytest.approx(float(want), **TOL), name
    # every overall number of the JSON is in the CSV, exactly
    for m in rep["overall"]:
        got = overall[m["name"]]
        if m["value"] is None:
            # documented (docs/report.md, "JSON-ready (NaN/inf -> null)"): the JSON writes
            # null for a value that is not finite, the CSV keeps it as the text shows it
            assert got in ("nan", "inf", "-inf"), (m["name"], got)
        else:
            assert float(got) == m["value"], m["name"]


def fmt4(v: float) -> str:
    out = f"{v:.4f}"
    return out[1:] if out.startswith("-") and float(out) == 0 else out


def check_printed(text: str, rep: dict[str, Any]) -> None:
    """Every overall metric of the JSON appears in the Markdown at 4 decimals."""
    for m in rep["overall"]:
        v = m["value"]
        if v is None or not math.isfinite(v) or (0 < abs(v) < 5e-5) or float(v).is_integer():
            continue
        line = next((ln for ln in text.splitlines() if ln.startswith(f"| {m['name']} |")
                     or ln.startswith(f"| {m['name'].replace('_', chr(92) + '_')} |")), None)
        assert line is not None, m["name"]
        assert fmt4(v) in line, (m["name"], v, line)


# ------------------------------------------------------------------------------ HTML page
def page_data(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="confmat-data">(.*?)</script>', page,
                  re.S)
    assert m is not None
    return json.loads(m.group(1))


def heat_cells(page: str) -> list[tuple[str, str]]:
    """(count, percent) of every cell of the page's first heatmap, row by row."""
    heat = page[page.index('<table class="heat">'):]
    heat = heat[:heat.index("</table>")]
    return re.findall(r'<td class="h\d+[^"]*" title="[^"]*">([^<]*)<small>([^<]*)</small>', heat)


def overall_cell(page: str, name: str) -> str:
    m = re.search(rf"<table class=\"overall\">.*?<tr><td class='name'>{re.escape(name)}</td>"
                  r"<td>([^<]*)</td>", page, re.S)
    assert m is not None, name
    return html.unescape(m.group(1))


def binary_oracle(y: np.ndarray, p: np.ndarray, pos: Any, w: np.ndarray | None) -> dict:
    """The positive class against the rest: counts and the slider's ten metrics."""
    tp, fp, fn, tn = (float(np.sum((w if w is not None else 1) * m)) for m in (
        (y == pos) & (p == pos), (y != pos) & (p == pos), (y == pos) & (p != pos),
        (y != pos) & (p != pos)))
    yb, pb = y == pos, p == pos
    rec = ratio(np.array(tp), np.array(tp + fn))
    spec = ratio(np.array(tn), np.array(tn + fp))
    prec = ratio(np.array(tp), np.array(tp + fp))
    npv = ratio(np.array(tn), np.array(tn + fn))
    return {"counts": (tp, fn, fp, tn), "metrics": {
        "recall": rec, "specificity": spec, "precision": prec, "npv": npv,
        "f1": precision_recall_fscore_support(yb, pb, average="binary", sample_weight=w,
                                              zero_division=0)[2],
        "accuracy": accuracy_score(yb, pb, sample_weight=w),
        "balanced_accuracy": (rec + spec) / 2, "informedness": rec + spec - 1,
        "markedness": prec + npv - 1, "mcc": matthews_corrcoef(yb, pb, sample_weight=w)}}


def count_text(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), n=st.integers(15, 80), theta=st.floats(0.05, 0.95),
       kind=st.sampled_from(["int", "str"]), pos_first=st.booleans(), weights=st.booleans(),
       fmt=st.sampled_from(["csv", "parquet", "jsonl"]))
def test_html_matrix_tables_and_slider_open_on_one_matrix(tmp_path_factory, seed, n, theta,
                                                          kind, pos_first, weights,
                                                          fmt) -> None:
    """The heatmap, the numbers printed above and beside it and the slider's opening state are
    one matrix: that of scikit-learn on the file's predictions, for a non-default threshold
    and either class as the positive one."""
    rng = np.random.default_rng(seed)
    book = np.array([4, 9]) if kind == "int" else np.array(["pos", "neg"])
    pos = book[0] if pos_first else book[1]
    y = rng.choice(book, n)
    y[:2] = book
    s = np.round(np.clip(rng.random(n) * 0.7 + 0.3 * (y == pos), 0, 1), 3)
    p = np.where(s >= theta, pos, book[1] if pos_first else book[0])
    data = {"y": y, "yhat": p, "P": s[:, None], "book": book}
    if weights:
        data["w"] = np.round(rng.random(n) * 2 + 0.5, 2)
    d = tmp_path_factory.mktemp("h")
    path = write(d, data, fmt)
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s0",
            "--pos-label", str(pos), "--no-intervals"]
    if weights:
        args += ["--weight", "w"]
    out = d / "r.html"
    run_cli(*args, "-o", str(out))
    page = out.read_text()
    labels = sorted(book.tolist())
    w = data.get("w")
    cm = confusion_matrix(y, p, labels=labels, sample_weight=w)
    cells = heat_cells(page)
    assert [c for c, _ in cells] == [count_text(v) for v in cm.ravel()]
    rows = cm.sum(axis=1, keepdims=True)
    assert [q for _, q in cells] == [f"{100 * v / r:.1f}%"
                                     for v, r in zip(cm.ravel(), np.repeat(rows, 2), strict=True)]
    want = binary_oracle(y, p, pos, w)
    widget = page_data(page)["widgets"]["r0"][0]
    i = widget["start"]
    assert "model's own predictions" in widget["start_note"]
    if not (p == pos).any():
        # no sample predicted positive: the slider's stop above every score (threshold
        # inf, null in the page's JSON), where it opens (report/scores.py, ScoreCurve.opening)
        assert i == 0 and widget["thresholds"][0] is None
        assert f"no sample is predicted {pos}" in widget["start_note"]
    assert [widget[k][i] for k in ("tp", "fn", "fp", "tn")] == [count_text(v)
                                                                for v in want["counts"]]
    for name, v in want["metrics"].items():
        assert widget["metrics"][name][i].rstrip("†") == fmt4(float(v)), name
    for name, v in (("accuracy", accuracy_score(y, p, sample_weight=w)),
                    ("mcc", matthews_corrcoef(y, p, sample_weight=w)),
                    ("kappa", cohen_kappa_score(y, p, sample_weight=w))):
        assert overall_cell(page, name) == fmt4(v), name
    auc = roc_auc_score(y == pos, s, sample_weight=w)
    ap = average_precision_score(y == pos, s, sample_weight=w)
    assert f"{html.escape(str(pos))}: ROC AUC {fmt4(auc)}, AP {fmt4(ap)}" in page


# ------------------------------------------------------------------------------ terminal text
def wilson(k: float, n: float) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    return float(lo), float(hi)


def fmt3_interval(iv: tuple[float, float]) -> str:
    return f"[{iv[0]:.3f}, {iv[1]:.3f}]"


def text_row(text: str, name: str, after: str) -> list[str]:
    """The cells of the first line of ``text`` after the heading ``after`` that starts with
    ``name`` (the terminal's tables separate cells by two or more spaces)."""
    part = text[text.index(after):]
    line = next(ln for ln in part.splitlines() if ln.strip().startswith(name + " "))
    return re.split(r"\s{2,}", line.strip())


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), k=st.integers(2, 4), n=st.integers(30, 120),
       kind=st.sampled_from(["int", "str"]), mode=st.sampled_from(["plain", "imbalance"]))
def test_terminal_summary_equals_sklearn_and_wilson(tmp_path_factory, seed, k, n, kind,
                                                    mode) -> None:
    """The terminal's summary (with intervals): matrix, accuracy matrix, headline values and
    their Wilson intervals (statsmodels), the per-class table and its intervals."""
    d = tmp_path_factory.mktemp("t")
    data = make_data(seed, k, n, kind, mode, False, False)
    path = write(d, data, "csv")
    labels = sorted_labels(data)
    res = CliRunner(env={"COLUMNS": "400", "NO_COLOR": "1"}).invoke(
        cli, ["report", str(path), "--true", "y", "--pred", "yhat"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    text = res.output
    y, p = data["y"], data["yhat"]
    cm = confusion_matrix(y, p, labels=labels)
    for i, c in enumerate(labels):
        assert text_row(text, str(c), "Confusion matrix") == [
            str(c), *map(str, cm[i]), str(cm[i].sum())]
        # a class absent from the truth: its row's percentages divide by zero, so they are
        # the zero-division rule's 0.0 with the mark, as its recall in the per-class table
        assert text_row(text, str(c), "Accuracy matrix") == [
            str(c), *(f"{100 * v / cm[i].sum():.1f}" if cm[i].sum() else "0.0†"
                      for v in cm[i])]
    acc = accuracy_score(y, p)
    assert text_row(text, "accuracy", "Headline")[1:3] == [
        fmt4(acc), fmt3_interval(wilson(np.trace(cm), cm.sum()))]
    assert text_row(text, "mcc", "Headline")[1] == fmt4(matthews_corrcoef(y, p))
    if k > 2:
        assert text_row(text, "kappa", "Headline")[1] == fmt4(cohen_kappa_score(y, p))
        assert text_row(text, "f1_macro", "Headline")[1] == fmt4(
            precision_recall_fscore_support(y, p, labels=labels, average="macro",
                                            zero_division=0)[2])
    tp, fp, fn, tn = ovr(y, p, labels, None)
    for name, num, den in (("recall", tp, tp + fn), ("specificity", tn, tn + fp),
                           ("precision", tp, tp + fp)):
        cells = text_row(text, name, "Per-class")
        for i in range(len(labels)):
            v = float(ratio(num[i], den[i]))
            shown = fmt4(v) + ("" if den[i] == 0 else " " + fmt3_interval(wilson(num[i], den[i])))
            assert cells[1 + i].replace("†", "") == shown, (name, labels[i], cells)


# ------------------------------------------------------------------------------ compare
def compare_data(seed: int, n: int, models: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    out = {"y": y}
    for m in range(models):
        s = np.round(np.clip(rng.random(n) * (0.6 + 0.1 * m) + (0.4 - 0.1 * m) * y, 0, 1), 3)
        out[f"s{m}"] = s
        out[f"m{m}"] = (s >= rng.choice([0.4, 0.5, 0.6])).astype(int)
    return out


def mcnemar_oracle(y: np.ndarray, a: np.ndarray, b: np.ndarray, exact: bool
                   ) -> tuple[float, float]:
    """statsmodels' McNemar test; the continuity correction left out when the discordant
    counts are equal, as R's ``mcnemar.test`` does (it would push the statistic past 0)."""
    from statsmodels.stats.contingency_tables import mcnemar

    ra, rb = a == y, b == y
    table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
    res = mcnemar(table, exact=exact, correction=table[0][1] != table[1][0])
    return float(res.statistic), float(res.pvalue)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), n=st.integers(30, 120), models=st.integers(2, 3),
       files=st.booleans())
def test_compare_json_and_csv_equal_sklearn_and_statsmodels(tmp_path_factory, seed, n, models,
                                                            files) -> None:
    """The side-by-side table, each model's matrix and McNemar's tests (corrected chi-square,
    statsmodels) with Holm's adjustment (statsmodels' multipletests), from one file with
    several --pred columns or one file per model."""
    import pandas as pd
    from statsmodels.stats.multitest import multipletests

    d = tmp_path_factory.mktemp("c")
    data = compare_data(seed, n, models)
    names = [f"m{m}" for m in range(models)]
    if files:
        paths = []
        for m in range(models):
            path = d / f"m{m}.parquet"
            pd.DataFrame({"y": data["y"], "yhat": data[f"m{m}"],
                          "s": data[f"s{m}"]}).to_parquet(path)
            paths.append(str(path))
        args = ["compare", *paths, "--true", "y", "--pred", "yhat", "--score", "s",
                "--name", ",".join(names)]
    else:
        path = d / "all.csv"
        pd.DataFrame(data).to_csv(path, index=False)
        args = ["compare", str(path), "--true", "y", "--pred", ",".join(names),
                "--score", ",".join(f"s{m}" for m in range(models))]
    args += ["--no-intervals"]
    rep = json.loads(run_cli(*args, "-f", "json"))
    y = data["y"]
    table = {r["model"]: r for r in rep["table"]}
    for m, name in enumerate(names):
        p, s = data[name], data[f"s{m}"]
        want = {"accuracy": accuracy_score(y, p), "balanced_accuracy":
                balanced_accuracy_score(y, p), "mcc": matthews_corrcoef(y, p),
                "f1": precision_recall_fscore_support(y, p, average="binary",
                                                      zero_division=0)[2],
                "roc_auc": roc_auc_score(y, s), "average_precision":
                average_precision_score(y, s)}
        for k, v in want.items():
            assert table[name][k] == pytest.approx(v, **TOL), (name, k)
        sub = next(r for r in rep["reports"] if r["title"] == name)
        assert sub["counts"] == confusion_matrix(y, p).tolist()
    pairs = rep["comparison"]["pairwise"]
    assert len(pairs) == models * (models - 1) // 2
    raw = []
    for t in pairs:
        # the exact binomial test below 25 discordant pairs (Edwards 1948; the method named)
        exact = t["method"].startswith("mcnemar (exact")
        ra, rb = data[t["model_a"]] == y, data[t["model_b"]] == y
        assert exact == (np.sum(ra != rb) < 25), t["method"]
        stat, pv = mcnemar_oracle(y, data[t["model_a"]], data[t["model_b"]], exact)
        assert t["statistic"] == pytest.approx(stat, **TOL)
        assert t["pvalue"] == pytest.approx(pv, **TOL)
        assert t["difference"] == pytest.approx(accuracy_score(y, data[t["model_a"]])
                                                - accuracy_score(y, data[t["model_b"]]), **TOL)
        raw.append(pv)
    holm = multipletests(raw, method="holm")[1]
    for t, h in zip(pairs, holm, strict=True):
        assert t["pvalue_adjusted"] == pytest.approx(float(h), **TOL)
    md = run_cli(*args, "-f", "markdown")
    side = md[md.index("## Models side by side"):md.index("## Pairwise tests")]
    header = [c.strip() for c in side.splitlines()[2].strip("|").split("|")]
    for name in names:  # the Markdown table: the JSON's values at 4 decimals
        line = next(ln for ln in side.splitlines() if ln.startswith(f"| {name} |"))
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        for k in ("accuracy", "balanced_accuracy", "mcc", "f1", "roc_auc", "average_precision"):
            assert cells[k] == fmt4(table[name][k]), (name, k, cells[k])
    rows = list(csv.DictReader(io.StringIO(run_cli(*args, "-f", "csv"))))
    tests = [r for r in rows if r["section"] == "test"]
    assert sorted(float(r["value"]) for r in tests) == pytest.approx(sorted(raw), **TOL)
    for name in names:
        got = {r["metric"]: float(r["value"]) for r in rows
               if r["model"] == name and r["section"] == "overall"}
        assert got["accuracy"] == pytest.approx(table[name]["accuracy"], **TOL)
        assert got["mcc"] == pytest.approx(table[name]["mcc"], **TOL)


R_DELONG_PAIRED = """
ra <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
rb <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
t <- roc.test(ra, rb, method = "delong", paired = TRUE)
out <- list(stat = t$statistic, p = t$p.value, auc = c(auc(ra), auc(rb)))
"""


def test_compare_delong_test_equals_proc(proc, tmp_path) -> None:  # noqa: F811
    """``compare --test-metric roc_auc``: DeLong's paired test as pROC's ``roc.test``
    (Robin et al. 2011), read from the JSON and the CSV."""
    import pandas as pd

    data = compare_data(11, 90, 2)
    path = tmp_path / "two.csv"
    pd.DataFrame(data).to_csv(path, index=False)
    args = ["compare", str(path), "--true", "y", "--pred", "m0,m1", "--score", "s0,s1",
            "--test-metric", "roc_auc", "--no-intervals"]
    rep = json.loads(run_cli(*args, "-f", "json"))
    r = proc(R_DELONG_PAIRED, y=data["y"].astype(float), a=data["s0"], b=data["s1"])
    (t,) = [t for t in rep["comparison"]["pairwise"] if t["metric"] == "roc_auc"]
    assert abs(t["statistic"]) == pytest.approx(abs(float(r["stat"][0])), rel=1e-9)
    assert t["pvalue"] == pytest.approx(float(r["p"][0]), rel=1e-9)
    table = {row["model"]: row for row in rep["table"]}
    assert table["m0"]["roc_auc"] == pytest.approx(float(r["auc"][0]), rel=1e-12)
    assert table["m1"]["roc_auc"] == pytest.approx(float(r["auc"][1]), rel=1e-12)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), k=st.integers(3, 5), n=st.integers(40, 150),
       weights=st.booleans())
def test_multiclass_score_summaries_equal_sklearn(tmp_path_factory, seed, k, n,
                                                  weights) -> None:
    """One-vs-rest curves per class, their micro and macro AUC, and Hand and Till's (2001)
    AUC with every pair's (scikit-learn's ``multi_class='ovo'``, and ``roc_auc_score`` on the
    two classes' samples for a pair)."""
    import pandas as pd
    from sklearn.preprocessing import label_binarize

    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    raw = rng.random((n, k)) + np.eye(k)[y] * rng.random((n, 1))
    P = raw / raw.sum(axis=1, keepdims=True)
    w = np.round(rng.random(n) + 0.5, 2) if weights else None
    cols = {"y": y, "yhat": P.argmax(axis=1), **{f"s{j}": P[:, j] for j in range(k)}}
    if weights:
        cols["w"] = w
    path = tmp_path_factory.mktemp("mc") / "mc.parquet"
    pd.DataFrame(cols).to_parquet(path)
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--scores",
            ",".join(f"s{j}" for j in range(k)), "--no-intervals", "-f", "json"]
    rep = json.loads(run_cli(*args, *(["--weight", "w"] if weights else [])))
    for j, c in enumerate(rep["curves"]):
        assert c["pos_label"] == j
        assert c["auc"] == pytest.approx(roc_auc_score(y == j, P[:, j], sample_weight=w), **TOL)
        assert c["average_precision"] == pytest.approx(
            average_precision_score(y == j, P[:, j], sample_weight=w), **TOL)
    Y = label_binarize(y, classes=list(range(k)))
    av = rep["roc_averages"]
    assert av["micro_auc"] == pytest.approx(roc_auc_score(Y, P, average="micro",
                                                          sample_weight=w), **TOL)
    assert av["macro_auc"] == pytest.approx(roc_auc_score(Y, P, average="macro",
                                                          sample_weight=w), **TOL)
    if not weights:  # scikit-learn's one-vs-one AUC takes no weights
        ht = rep["multiclass_auc"]
        assert ht["auc"] == pytest.approx(roc_auc_score(y, P, multi_class="ovo"), **TOL)
        for pair in ht["pairs"]:
            a, b = pair["a"], pair["b"]
            sel = (y == a) | (y == b)
            want = (roc_auc_score(y[sel] == a, P[sel, a]) + roc_auc_score(y[sel] == b,
                                                                          P[sel, b])) / 2
            assert pair["auc"] == pytest.approx(want, **TOL)


# ------------------------------------------------------------------------------ matrix
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), k=st.integers(2, 5), pred_rows=st.booleans(),
       empty=st.booleans())
def test_matrix_command_equals_sklearn_on_expanded_labels(seed, k, pred_rows, empty) -> None:
    """``confmat matrix`` on a typed-in table: the metrics of the samples the table counts
    (expanded into label arrays for scikit-learn), also typed the other way round."""
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 15, (k, k)) + np.diag(rng.integers(1, 30, k))
    if empty:
        table[:, -1] = 0  # a class never predicted
    y = np.repeat(np.arange(k), table.sum(axis=1))
    p = np.concatenate([np.repeat(np.arange(k), row) for row in table])
    typed = table.T if pred_rows else table
    names = [f"c{j}" for j in range(k)]
    args = ["matrix", json.dumps(typed.tolist()), "--labels", ",".join(names), "--no-intervals"]
    if pred_rows:
        args.append("--pred-rows")
    rep = json.loads(run_cli(*args, "-f", "json"))
    assert rep["labels"] == names
    exp = oracle({"y": y, "yhat": p}, list(range(k)))
    exp["labels"] = names
    check_json(rep, exp)
    kappa = next(r for r in rep["overall"] if r["name"] == "kappa")
    assert kappa["undefined"] == np.isnan(cohen_kappa_score(y, p))  # 0 / 0: marked
    check_csv(run_cli(*args, "-f", "csv"), rep, {**exp, "labels": names}, "str")


# ------------------------------------------------------------------------------ bad input
@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    (d / "ok.csv").write_text("y,yhat,p,w,t\n1,1,0.9,1,a\n0,1,0.3,2,b\n1,0,0.7,1,c\n0,0,0.1,1,d\n")
    (d / "three.csv").write_text("y,yhat,p\n1,1,0.9\n0,2,0.3\n1,0,0.7\n0,0,0.1\n")
    (d / "empty.csv").write_text("")
    (d / "header.csv").write_text("y,yhat,p\n")
    (d / "nulls.csv").write_text("y,yhat,p\n,,\n,,\n")
    (d / "nodata").mkdir()
    (d / "afile").write_text("")
    return d


OK = ["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat"]
PAIR = ["compare", "{d}/ok.csv", "--true", "y", "--pred", "yhat,y"]
BAD_INPUT = [
    # files and columns
    (["report", "{d}/missing.csv", "--true", "y", "--pred", "yhat"],
     ["missing.csv", "does not exist"]),
    (["report", "{d}/ok.csv", "--true", "zz", "--pred", "yhat"], ["no column 'zz'", "available"]),
    ([*OK, "--score", "zz"], ["no column 'zz'"]),
    ([*OK, "--weight", "zz"], ["no column 'zz'"]),
    ([*OK, "--score", "t"], ["column 't'", "must be numeric", "'a'"]),
    ([*OK, "--weight", "t"], ["column 't'", "must be numeric"]),
    (["report", "{d}/empty.csv", "--true", "y", "--pred", "yhat"], ["empty.csv", "is empty"]),
    (["report", "{d}/header.csv", "--true", "y", "--pred", "yhat", "--score", "p"],
     ["header.csv", "no rows to evaluate"]),
    (["report", "{d}/nulls.csv", "--true", "y", "--pred", "yhat"],
     ["row 1", "null true label", "--skip-invalid"]),
    (["report", "{d}/nulls.csv", "--true", "y", "--pred", "yhat", "--skip-invalid"],
     ["no rows to evaluate", "2 for a null true label"]),
    (["report", "{d}/nodata", "--true", "y", "--pred", "yhat", "--score", "p"],
     ["nodata", "holds no data files"]),
    ([*OK, "--input-format", "xls"], ["'--input-format'", "'xls'"]),
    # label lists
    ([*OK, "--labels", ","], ["'--labels'", "names nothing"]),
    ([*OK, "--labels", ""], ["'--labels'", "names nothing"]),
    ([*OK, "--labels", "0,0,1"], ["--labels contains duplicates", "[0]"]),
    ([*OK, "--score", "p", "--labels", "0,1.0,1"], ["--labels contains duplicates"]),
    ([*OK, "--labels", "a,b"], ["--labels value 'a'", "integers"]),
    ([*OK, "--labels", "0"], ["row 1", "label 1", "not in --labels [0]"]),
    ([*OK, "--score", "p", "--pos-label", "7"], ["--pos-label 7", "not one of the labels"]),
    ([*OK, "--score", "p", "--pos-label", "1.5"], ["--pos-label", "1.5"]),
    # a class of the predictions only, asked for as the positive class of per-class scores
    (["report", "{d}/three.csv", "--true", "y", "--pred", "yhat", "--scores", "p,p,p",
      "--pos-label", "2"], ["--pos-label 2", "labels in the --true column"]),
    # numbers and ranges
    ([*OK, "--score", "p", "--bins", "0"], ["'--bins'", "0 is not in the range"]),
    ([*OK, "--score", "p", "--bins", "-1"], ["'--bins'", "-1 is not in the range"]),
    ([*OK, "--score", "p", "--bins", "x"], ["'--bins'", "'x' is not a valid integer"]),
    ([*OK, "--score", "p", "--partial-auc", "0.8"], ["--partial-auc", "'0.8'"]),
    ([*OK, "--score", "p", "--partial-auc", "nan,0.5"], ["--partial-auc", "nan,0.5"]),
    ([*OK, "--score", "p", "--partial-auc", "1.2,0.5"], ["--partial-auc", "1.2,0.5"]),
    ([*OK, "--score", "p", "--cost", "[[0,1],[1]]"], ["--cost", "2 x 2"]),
    # names of metrics
    ([*OK, "--by", "t", "--group-metrics", "recal"], ["--group-metrics", "did you mean 'recall'"]),
    ([*PAIR, "--metrics", "acuracy"], ["--metrics: unknown metric 'acuracy'", "'accuracy'"]),
    ([*PAIR, "--test-metric", "acuracy"], ["--test-metric: unknown metric 'acuracy'"]),
    ([*PAIR, "--test-metric", "roc_auc"], ["--test-metric", "roc_auc needs scores"]),
    ([*PAIR, "--test-metric", "kappa"], ["--test-metric 'kappa'", "compared metrics (--metrics)"]),
    ([*PAIR, "--metrics", "acc,accuracy"], ["--metrics contains duplicates"]),
    (["explain", "acuracy"], ["unknown metric 'acuracy'"]),
    (["metrics", "--kind", "x"], ["'--kind'", "'x'"]),
    # conflicting or incomplete options
    ([*OK, "--score", "p", "--scores", "p,p"], ["--score", "--scores", "not both"]),
    ([*OK, "--bins", "10"], ["--bins", "give --score or --scores"]),
    ([*OK, "--by", "t", "--bins", "3"], ["--bins", "give --score"]),
    ([*OK, "--by", ","], ["'--by'", "names nothing"]),
    ([*OK, "--group-metrics", "recall"], ["--group-metrics", "give --by"]),
    ([*OK, "--score", "p", "--partial-auc-focus", "sensitivity"], ["--partial-auc-focus",
                                                                    "needs --partial-auc"]),
    ([*OK, "--csv-excel-safe", "-f", "json"], ["--csv-excel-safe", "not json"]),
    ([*PAIR, "--name", "a"], ["--name", "1 names for 2 models"]),
    ([*PAIR, "--name", ","], ["'--name'", "names nothing"]),
    (["compare", "{d}/ok.csv", "--true", "y", "--pred", "yhat"], ["at least two models"]),
    ([*OK, "--where", "zz = 1"], ["--where: DuckDB cannot evaluate", "zz"]),
    # output
    ([*OK, "-o", "{d}/out.xlsx"], ["out.xlsx", "unknown extension", "--format"]),
    ([*OK, "-o", "{d}/afile/out.json"], ["-o ", "cannot write there", "afile' is a file"]),
    ([*OK, "-o", "{d}"], ["-o ", "is a directory", "names the file to write"]),
    ([*OK, "--plots", "{d}/afile"], ["--plots ", "must be a directory", "afile' is a file"]),
    ([*OK, "--plots", "{d}/afile/sub"], ["--plots ", "cannot write there", "afile' is a file"]),
    ([*OK, "-f", "xml"], ["'--format'", "'xml'"]),
    (["matrix", "[[1,2],[3,4]]", "-o", "{d}/afile/x.json"], ["-o ", "afile' is a file"]),
    (["demo", "-o", "{d}/afile"], ["-o ", "must be a directory", "afile' is a file"]),
    # matrices
    (["matrix", "[[1,2],[3]]"], ["bad matrix", "square"]),
    (["matrix", "[[1,-2],[3,4]]"], ["non-negative", "-2"]),
    (["matrix", "[[1,2],[3,4]]", "--labels", "a"], ["--labels has 1 names", "2 classes"]),
    (["matrix", "[[1,2],[3,4]]", "--labels", "a,a"], ["--labels contains duplicates"]),
    (["matrix", "{d}/empty.csv"], ["empty.csv", "is empty"]),
    (["matrix", "{d}/nodata"], ["nodata", "is a directory"]),
]


@pytest.mark.parametrize(("args", "fragments"), BAD_INPUT,
                         ids=[" ".join(a[0:1] + a[3 if a[0] != "matrix" else 1:])[:60]
                              for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_naming_the_option_exit_2(bad: Path, capsys, args: list[str],
                                                        fragments: list[str]) -> None:
    """Every bad input: exit status 2, one line ``confmat: error: ...`` on stderr naming the
    option or argument and the problem, nothing on stdout, no traceback."""
    code = main([a.replace("{d}", str(bad)) for a in args])
    out = capsys.readouterr()
    assert code == 2
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("confmat: error: "), out.err
    assert "Traceback" not in out.err and out.out == ""
    for f in fragments:
        assert f in lines[0], (f, lines[0])


@pytest.mark.parametrize("case", [0, 13, 36, 52])
def test_bad_input_through_a_real_process(bad: Path, case: int) -> None:
    """The same messages from ``python -m confmat`` in a child process (exit status 2)."""
    args, fragments = BAD_INPUT[case]
    res = subprocess.run([sys.executable, "-m", "confmat",
                          *(a.replace("{d}", str(bad)) for a in args)],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("confmat: error: ") and res.stderr.count("\n") == 1
    assert all(f in res.stderr for f in fragments), res.stderr


def test_report_json_through_a_real_process_equals_sklearn(tmp_path: Path) -> None:
    """``python -m confmat report`` in a child process, on a Parquet file of text labels with
    weights: the JSON it prints equals scikit-learn."""
    data = make_data(5, 3, 70, "str", "never_predicted", True, False)
    path = write(tmp_path, data, "parquet")
    res = subprocess.run([sys.executable, "-m", "confmat", "report", str(path), "--true", "y",
                          "--pred", "yhat", "--weight", "w", "--no-intervals", "-f", "json"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})
    assert res.returncode == 0, res.stderr
    check_json(json.loads(res.stdout), oracle(data, sorted_labels(data)))


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), n=st.integers(30, 120), weights=st.booleans())
def test_compare_multiclass_weighted_equals_sklearn(tmp_path_factory, seed, n,
                                                    weights) -> None:
    """Multi-class models of text labels with float weights: each model's report equals
    scikit-learn with the weights, the side-by-side table without (as its note says). The
    weighted tables count the same samples; their row sums, added in another order, may
    differ in the last bit, which is no reason to refuse them (it was)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    book = np.array(["a", "b", "c"])
    y = rng.choice(book, n)
    m1 = np.where(rng.random(n) < 0.6, y, rng.choice(book, n))
    m2 = np.where(rng.random(n) < 0.5, y, "a")
    w = np.round(rng.random(n) + 0.5, 2) if weights else None
    cols = {"y": y, "m1": m1, "m2": m2, **({"w": w} if weights else {})}
    path = tmp_path_factory.mktemp("cw") / "cw.csv"
    pd.DataFrame(cols).to_csv(path, index=False)
    rep = json.loads(run_cli("compare", str(path), "--true", "y", "--pred", "m1,m2",
                             "--no-intervals", "-f", "json",
                             *(["--weight", "w"] if weights else [])))
    # documented difference (confmat.report.build_comparison, and the note of every page
    # given weights): the side-by-side table and the tests are unweighted, the reports weighted
    assert any("not the side-by-side table" in n for n in rep["notes"]) == weights
    for r in rep["table"]:
        p = cols[r["model"]]
        want = {"accuracy": accuracy_score(y, p), "balanced_accuracy":
                balanced_accuracy_score(y, p), "mcc": matthews_corrcoef(y, p)}
        for k, v in want.items():
            assert r[k] == pytest.approx(v, **TOL), (r["model"], k)
        sub = next(s for s in rep["reports"] if s["title"] == r["model"])
        np.testing.assert_allclose(sub["counts"], confusion_matrix(y, p, labels=list(book),
                                                                   sample_weight=w),
                                   rtol=1e-12)
        overall = {m["name"]: m["value"] for m in sub["overall"]}
        assert overall["accuracy"] == pytest.approx(accuracy_score(y, p, sample_weight=w),
                                                    **TOL)
        assert overall["mcc"] == pytest.approx(matthews_corrcoef(y, p, sample_weight=w),
                                               **TOL)


# ------------------------------------------------------------------------------ by group
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), n=st.integers(40, 150), weights=st.booleans(),
       scores=st.booleans())
def test_report_by_group_csv_equals_sklearn_per_group(tmp_path_factory, seed, n, weights,
                                                      scores) -> None:
    """``report --by``: every value of the CSV's group and overall rows is scikit-learn on
    that group's rows (selection rate: the weighted share predicted positive), and every
    between-groups difference is max - min of the group values."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(rng.random(n) * 0.7 + 0.3 * y, 0, 1), 3)
    p = (s >= 0.5).astype(int)
    g = rng.choice(["f", "m", "x"], n)
    g[:3] = ["f", "m", "x"]
    w = np.round(rng.random(n) + 0.5, 2) if weights else None
    cols = {"y": y, "yhat": p, "p": s, "sex": g, **({"w": w} if weights else {})}
    path = tmp_path_factory.mktemp("g") / "g.parquet"
    pd.DataFrame(cols).to_parquet(path)
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
            "--pos-label", "1", "--no-intervals", "-f", "csv"]
    if weights:
        args += ["--weight", "w"]
    if scores:
        args += ["--score", "p", "--group-metrics",
                 "accuracy,recall,precision,fpr,selection_rate,roc_auc,average_precision"]
    rows = list(csv.DictReader(io.StringIO(run_cli(*args))))

    def want(metric: str, sel: np.ndarray) -> float:
        yy, pp, ww = y[sel], p[sel], None if w is None else w[sel]
        return {
            "accuracy": lambda: accuracy_score(yy, pp, sample_weight=ww),
            "balanced_accuracy": lambda: balanced_accuracy_score(yy, pp, sample_weight=ww),
            "recall": lambda: precision_recall_fscore_support(
                yy, pp, average="binary", sample_weight=ww, zero_division=0)[1],
            "precision": lambda: precision_recall_fscore_support(
                yy, pp, average="binary", sample_weight=ww, zero_division=0)[0],
            "f1": lambda: precision_recall_fscore_support(
                yy, pp, average="binary", sample_weight=ww, zero_division=0)[2],
            "fpr": lambda: float(ratio(np.sum((ww if ww is not None else 1) * ((yy == 0)
                                                                              & (pp == 1))),
                                       np.sum((ww if ww is not None else 1) * (yy == 0)))),
            "selection_rate": lambda: float(np.average(pp == 1, weights=ww)),
            "roc_auc": lambda: roc_auc_score(yy, s[sel], sample_weight=ww),
            "average_precision": lambda: average_precision_score(yy, s[sel], sample_weight=ww),
        }[metric]()

    seen = set()
    by_metric: dict[str, list[float]] = {}
    for r in rows:
        if r["section"] == "group":
            sel = g == r["group[sex]"]
            assert float(r["value"]) == pytest.approx(want(r["metric"], sel), **TOL), r
            by_metric.setdefault(r["metric"], []).append(float(r["value"]))
            seen.add(r["metric"])
        elif r["section"] == "overall":
            assert float(r["value"]) == pytest.approx(want(r["metric"], np.ones(n, bool)),
                                                      **TOL), r
    assert {"accuracy", "recall", "precision", "fpr", "selection_rate"} <= seen
    if scores:
        assert {"roc_auc", "average_precision"} <= seen
    for r in rows:
        if r["section"] == "disparity" and r["method"] == "between_groups" \
                and r["metric"].endswith(" difference"):
            vals = by_metric[r["metric"][:-len(" difference")]]
            assert float(r["value"]) == pytest.approx(max(vals) - min(vals), **TOL), r
