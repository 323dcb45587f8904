"""The ``confmat`` command line through its real entry points (subprocess).

Expected numbers come from scikit-learn or from formulas written here; error paths check the
exit status 2, a message naming the problem, and the absence of a traceback.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import (
    average_precision_score,
    confusion_matrix,
    matthews_corrcoef,
    precision_score,
    recall_score,
    roc_auc_score,
)

SCRIPT = shutil.which("confmat")


def run(*args: str, cwd: Path | None = None, script: bool = False) -> subprocess.CompletedProcess:
    cmd = [SCRIPT, *args] if script else [sys.executable, "-m", "confmat", *args]
    env = {**os.environ, "COLUMNS": "200", "PYTHONWARNINGS": "ignore"}
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=240)


def assert_bad_input(res: subprocess.CompletedProcess, *fragments: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr
    for f in fragments:
        assert f.lower() in res.stderr.lower(), (f, res.stderr)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(7)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1).round(3)
    p = (s >= 0.5).astype(int)
    p2 = (s >= 0.4).astype(int)
    s2 = np.clip(s + rng.normal(0, 0.1, n), 0, 1).round(3)
    d = tmp_path_factory.mktemp("cli")
    csv = d / "preds.csv"
    with open(csv, "w") as f:
        f.write("y,yhat,score,yhat2,score2\n")
        for row in zip(y, p, s, p2, s2, strict=True):
            f.write(",".join(str(v) for v in row) + "\n")
    other = d / "other.csv"
    with open(other, "w") as f:
        f.write("y,yhat,score\n")
        for row in zip(y, p2, s2, strict=True):
            f.write(",".join(str(v) for v in row) + "\n")
    return {"y": y, "s": s, "p": p, "p2": p2, "s2": s2, "csv": csv, "other": other, "dir": d}


# ------------------------------------------------------------------------------ help
def test_help_on_every_command_has_an_example_via_script_and_module() -> None:
    assert SCRIPT is not None, "the confmat console script is not installed"
    top = run("--help", script=True)
    assert top.returncode == 0 and "Examples" in top.stdout
    commands = ["matrix", "metrics", "explain", "report", "compare", "demo"]
    for c in commands:
        assert c in top.stdout
        res = run(c, "--help")
        assert res.returncode == 0, res.stderr
        assert "Example" in res.stdout and f"confmat {c}" in res.stdout, (c, res.stdout)


# ------------------------------------------------------------------------------ matrix
def test_matrix_json_matches_hand_formulas(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    res = run("matrix", "[[61,2],[8,58]]", "--labels", "bus,opel", "--no-intervals", "-o",
              str(out), script=True)
    assert res.returncode == 0, res.stderr
    d = json.loads(out.read_text())
    assert d["labels"] == ["bus", "opel"] and d["counts"] == [[61, 2], [8, 58]]
    overall = {m["name"]: m["value"] for m in d["overall"]}
    tp, fn, fp, tn = 61, 2, 8, 58
    assert overall["accuracy"] == pytest.approx((tp + tn) / 129, abs=1e-12)
    mcc = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert overall["mcc"] == pytest.approx(mcc, abs=1e-12)
    per = {r["name"]: r for r in d["per_class"]}
    assert per["recall"]["values"] == pytest.approx([61 / 63, 58 / 66])
    assert per["precision"]["values"] == pytest.approx([61 / 69, 58 / 60])
    assert per["recall"]["averages"]["macro"] == pytest.approx((61 / 63 + 58 / 66) / 2)


def test_matrix_text_markdown_csv_and_counts_file(tmp_path: Path) -> None:
    text = run("matrix", "[[5,1,0],[2,7,1],[0,0,4]]", "--no-intervals")
    assert text.returncode == 0, text.stderr
    assert "Confusion matrix" in text.stdout and "mcc" in text.stdout
    md = run("matrix", "[[5,1],[2,7]]", "--format", "markdown", "--no-intervals")
    assert md.stdout.startswith("# ") and "| metric |" in md.stdout
    csv = run("matrix", "[[5,1],[2,7]]", "--format", "csv", "--no-intervals")
    lines = csv.stdout.splitlines()
    assert lines[0] == "model,section,metric,class,value,low,high,true,predicted"
    acc = next(ln for ln in lines if ",overall,accuracy," in ln)
    assert float(acc.split(",")[4]) == pytest.approx(12 / 15)
    counts = tmp_path / "counts.csv"
    counts.write_text("true,cat,dog\ncat,9,1\ndog,3,7\n")
    res = run("matrix", str(counts), "--format", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["labels"] == ["cat", "dog"] and d["counts"] == [[9, 1], [3, 7]]


def test_matrix_pred_rows_transposes() -> None:
    res = run("matrix", "[[61,8],[2,58]]", "--pred-rows", "--format", "json", "--no-intervals")
    assert json.loads(res.stdout)["counts"] == [[61, 2], [8, 58]]


def test_matrix_summary_view_by_default_and_every_metric_with_all() -> None:
    from statsmodels.stats.proportion import proportion_confint

    res = run("matrix", "[[61,2],[8,58]]", "--labels", "bus,opel")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    lines = out.splitlines()
    # headline: accuracy 119/129 with its Wilson interval (statsmodels)
    lo, hi = proportion_confint(119, 129, alpha=0.05, method="wilson")
    acc = next(ln for ln in lines if ln.split()[:1] == ["accuracy"])
    assert f"{119 / 129:.4f}" in acc and f"[{lo:.3f}, {hi:.3f}]" in acc
    # the per-class table: recall, specificity, precision, F1 only (hand formulas)
    row = {ln.split()[0]: ln for ln in lines if ln.split()[:1] in (
        ["recall"], ["specificity"], ["precision"], ["f1"])}
    assert set(row) == {"recall", "specificity", "precision", "f1"}
    assert f"{61 / 63:.4f}" in row["recall"] and f"{58 / 66:.4f}" in row["recall"]
    assert f"{61 / 69:.4f}" in row["precision"]
    assert f"{2 * 61 / (2 * 61 + 8 + 2):.4f}" in row["f1"]
    for hidden in ("jaccard", "kappa_ci_upper", "All overall metrics", "mcc_yao2022"):
        assert hidden not in out
    assert "--all" in out  # the note says how to see the rest
    full = run("matrix", "[[61,2],[8,58]]", "--labels", "bus,opel", "--all")
    assert full.returncode == 0, full.stderr
    for shown in ("jaccard", "kappa_ci_upper", "All overall metrics", "mcc_yao2022",
                  "global_performance_index"):
        assert shown in full.stdout
    assert "--all" not in full.stdout


def test_summary_intervals_are_those_of_the_full_report() -> None:
    from confmat import ConfusionMatrix
    from confmat.cli.summary import build_for_view
    from confmat.report import build_report
    from confmat.report.render_text import SUMMARY_PER_CLASS

    for table in ([[61, 2], [8, 58]], [[30, 4, 1], [3, 25, 6], [2, 2, 40]]):
        cm = ConfusionMatrix(table)
        full = build_report(cm, intervals=True)
        summ = build_for_view(cm, summary=True, intervals=True)
        pc_full = {r.name: r for r in full.per_class}
        shown = [r for r in summ.per_class if r.name in SUMMARY_PER_CLASS]
        assert [r.name for r in shown] == [n for n in pc_full if n in SUMMARY_PER_CLASS]
        for r in shown:
            assert r.intervals == pc_full[r.name].intervals, r.name
            assert r.interval_method == pc_full[r.name].interval_method
        assert [(m.name, m.value, m.interval) for m in summ.headline] == \
            [(m.name, m.value, m.interval) for m in full.headline]
        # rows that are not shown carry no interval (none was computed)
        assert all(r.intervals is None for r in summ.per_class
                   if r.name not in SUMMARY_PER_CLASS and r.name != "f1")
        assert all(m.interval is None for m in summ.overall
                   if m.name not in ("accuracy", "balanced_accuracy", "mcc", "kappa"))


def test_matrix_imports_neither_scipy_nor_rich() -> None:
    code = ("import sys, io, contextlib\n"
            "from confmat.cli.app import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['matrix', '[[61,2],[8,58]]']) == 0\n"
            "print(sorted(m for m in ('scipy', 'rich', 'matplotlib', 'jinja2') "
            "if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=240)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


@pytest.mark.parametrize("cols", [60, 80])
def test_all_view_fits_the_width_and_wraps_text(monkeypatch, capsys, cols: int) -> None:
    from confmat.cli.app import main

    monkeypatch.setenv("COLUMNS", str(cols))
    assert main(["matrix", "[[61,2,3],[8,58,4],[1,2,70]]", "--all", "--no-intervals"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= cols
    assert "…" not in out
    # a long full name is wrapped, not cut: its words all appear in order
    words = "Matthews correlation coefficient".split()
    text = " ".join(out.split())
    assert " ".join(words) in text


# ------------------------------------------------------------------------------ report
def test_report_json_against_sklearn(data: dict) -> None:
    res = run("report", str(data["csv"]), "--true", "y", "--pred", "yhat", "--score", "score",
              "--format", "json", "--no-intervals", script=True)
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    y, p, s = data["y"], data["p"], data["s"]
    assert d["counts"] == confusion_matrix(y, p).tolist()
    per = {r["name"]: r for r in d["per_class"]}
    assert per["precision"]["values"] == pytest.approx(precision_score(y, p, average=None))
    assert per["recall"]["averages"]["macro"] == pytest.approx(recall_score(y, p, average="macro"))
    overall = {m["name"]: m["value"] for m in d["overall"]}
    assert overall["mcc"] == pytest.approx(matthews_corrcoef(y, p))
    (curve,) = d["curves"]
    assert curve["pos_label"] == 1
    assert curve["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert curve["average_precision"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    i = len(curve["thresholds"]) // 3
    t = curve["thresholds"][i]
    assert curve["tp"][i] == np.sum((s >= t) & (y == 1))
    assert curve["fp"][i] == np.sum((s >= t) & (y == 0))


def test_report_with_intervals_and_other_formats(data: dict, tmp_path: Path) -> None:
    res = run("report", str(data["csv"]), "--true", "y", "--pred", "yhat", "--format", "json")
    assert res.returncode == 0, res.stderr
    acc = next(m for m in json.loads(res.stdout)["overall"] if m["name"] == "accuracy")
    lo, hi = acc["interval"]
    assert lo < acc["value"] < hi
    y, p = data["y"], data["p"]
    for ext, fmt in (("parquet", "parquet"), ("jsonl", "jsonl")):
        import pandas as pd

        path = tmp_path / f"p.{ext}"
        df = pd.DataFrame({"truth": y, "guess": p})
        if fmt == "parquet":
            df.to_parquet(path)
        else:
            df.to_json(path, orient="records", lines=True)
        r = run("report", str(path), "--true", "truth", "--pred", "guess", "-f", "json",
                "--no-intervals")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["counts"] == confusion_matrix(y, p).tolist()
    npy = tmp_path / "p.npy"
    np.save(npy, np.column_stack([y, p]))
    r = run("report", str(npy), "--true", "0", "--pred", "1", "-f", "json", "--no-intervals")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["counts"] == confusion_matrix(y, p).tolist()


def test_report_html_output_and_plots(data: dict, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    plots = tmp_path / "plots"
    res = run("report", str(data["csv"]), "--true", "y", "--pred", "yhat", "--score", "score",
              "-o", str(out), "--plots", str(plots), "--no-intervals")
    assert res.returncode == 0, res.stderr
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "confmat-data" in html
    assert "http://" not in html.replace("http://www.w3.org", "")
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["confusion_matrix.png", "pr.png", "roc.png", "threshold.png"]
    from PIL import Image

    for name in names:
        with Image.open(plots / name) as im:
            assert im.size[0] > 200 and im.size[1] > 200


def test_report_multiclass_scores_and_labels_option(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    n = 300
    y = rng.choice(["a", "b", "c"], n)
    proba = rng.dirichlet([1, 1, 1], n)
    pred = np.array(["a", "b", "c"])[proba.argmax(1)]
    path = tmp_path / "m.csv"
    with open(path, "w") as f:
        f.write("y,pred,pa,pb,pc\n")
        for t, q, r in zip(y, pred, proba, strict=True):
            f.write(f"{t},{q},{r[0]},{r[1]},{r[2]}\n")
    # --scores lists one column per class in the order of --labels
    res = run("report", str(path), "--true", "y", "--pred", "pred", "--scores", "pc,pb,pa",
              "--labels", "c,b,a", "-f", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["labels"] == ["c", "b", "a"]
    assert d["counts"] == confusion_matrix(y, pred, labels=["c", "b", "a"]).tolist()
    aucs = {c["pos_label"]: c["auc"] for c in d["curves"]}
    for j, lab in enumerate("abc"):
        assert aucs[lab] == pytest.approx(roc_auc_score(y == lab, proba[:, j]), abs=1e-12)


def test_report_progress_bar_on_stderr(data: dict) -> None:
    res = run("report", str(data["csv"]), "--true", "y", "--pred", "yhat", "--progress",
              "-f", "json", "--no-intervals")
    assert res.returncode == 0
    assert "reading" in res.stderr and "rows" in res.stderr
    json.loads(res.stdout)


def test_report_skip_invalid_counts_rows(tmp_path: Path) -> None:
    path = tmp_path / "gaps.csv"
    path.write_text("y,yhat\n1,1\n0,\n1,0\n0,0\n")
    bad = run("report", str(path), "--true", "y", "--pred", "yhat")
    assert_bad_input(bad, "row 2", "yhat")
    ok = run("report", str(path), "--true", "y", "--pred", "yhat", "--skip-invalid", "-f",
             "json", "--no-intervals")
    d = json.loads(ok.stdout)
    assert d["n"] == 3 and d["source"]["rows skipped"] == 1



def test_report_parquet_row_groups_weights_and_skips(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(11)
    n = 30_000
    y = rng.choice(["cat", "dog", "eel"], n)
    p = np.where(rng.random(n) < 0.8, y, rng.choice(["cat", "dog", "eel"], n))
    w = rng.random(n) + 0.5
    missing = rng.random(n) < 0.01
    path = tmp_path / "groups.parquet"
    pq.write_table(pa.table({"y": pa.array(y, mask=missing), "yhat": p, "w": w}), path,
                   row_group_size=1000)
    res = run("report", str(path), "--true", "y", "--pred", "yhat", "--weight", "w",
              "--labels", "dog,cat,eel", "--skip-invalid", "-f", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    keep = ~missing
    want = confusion_matrix(y[keep], p[keep], labels=["dog", "cat", "eel"], sample_weight=w[keep])
    np.testing.assert_allclose(d["counts"], want, rtol=1e-12)
    assert d["source"]["rows skipped"] == int(missing.sum())

# ------------------------------------------------------------------------------ compare
def test_compare_files_and_columns(data: dict, tmp_path: Path) -> None:
    y = data["y"]
    res = run("compare", str(data["csv"]), str(data["other"]), "--true", "y", "--pred", "yhat",
              "--score", "score", "-f", "json", "--no-intervals", "--plots", str(tmp_path),
              "--plot-format", "svg", script=True)
    assert res.returncode == 0, res.stderr
    svgs = {p.name for p in tmp_path.iterdir()}
    assert {"roc_comparison.svg", "preds_roc.svg", "other_confusion_matrix.svg"} <= svgs
    d = json.loads(res.stdout)
    assert d["models"] == ["preds", "other"]
    rows = {r["model"]: r for r in d["table"]}
    assert rows["preds"]["mcc"] == pytest.approx(matthews_corrcoef(y, data["p"]))
    assert rows["other"]["mcc"] == pytest.approx(matthews_corrcoef(y, data["p2"]))
    assert rows["other"]["roc_auc"] == pytest.approx(roc_auc_score(y, data["s2"]))
    # one test metric per comparison: accuracy (McNemar) by default, roc_auc (DeLong) on request
    assert {t["method"].split()[0] for t in d["comparison"]["pairwise"]} == {"mcnemar"}
    res = run("compare", str(data["csv"]), str(data["other"]), "--true", "y", "--pred", "yhat",
              "--score", "score", "-f", "json", "--no-intervals", "--test-metric", "roc_auc")
    assert res.returncode == 0, res.stderr
    pairs = json.loads(res.stdout)["comparison"]["pairwise"]
    assert {t["method"].split()[0] for t in pairs} == {"delong"}
    one = run("compare", str(data["csv"]), "--true", "y", "--pred", "yhat,yhat2", "--score",
              "score,score2", "--name", "A", "--name", "B", "-f", "json", "--no-intervals",
              "--metrics", "mcc,cohens_kappa")
    assert one.returncode == 0, one.stderr
    d1 = json.loads(one.stdout)
    assert d1["models"] == ["A", "B"]
    assert [k for k in d1["table"][0] if not k.endswith("_interval")] == ["model", "mcc",
                                                                          "kappa", "roc_auc"]
    assert d1["table"][1]["roc_auc"] == pytest.approx(roc_auc_score(y, data["s2"]))


# ------------------------------------------------------------------------------ registry
def test_metrics_search_and_explain() -> None:
    res = run("metrics", "sensitivity", "--json")
    names = [s["name"] for s in json.loads(res.stdout)]
    assert "recall" in names
    table = run("metrics", "--kind", "overall")
    assert table.returncode == 0 and "mcc_yao2022" in table.stdout
    ex = run("explain", "sensitivity", script=True)
    assert ex.returncode == 0 and "recall" in ex.stdout.lower()
    exj = json.loads(run("explain", "mcc", "--json").stdout)
    assert exj["name"] == "mcc" and exj["kind"] == "overall"
    pycm_key = run("explain", "TPR Macro")  # PyCM's key for macro-averaged recall
    assert pycm_key.returncode == 0 and pycm_key.stdout.startswith("recall")


# ------------------------------------------------------------------------------ errors
def test_error_missing_column(data: dict) -> None:
    res = run("report", str(data["csv"]), "--true", "label", "--pred", "yhat")
    assert_bad_input(res, "label")


def test_error_missing_file_and_directory(tmp_path: Path) -> None:
    assert_bad_input(run("report", str(tmp_path / "nope.csv"), "--true", "y", "--pred", "p"),
                     "does not exist")
    assert_bad_input(run("report", str(tmp_path), "--true", "y", "--pred", "p"), "directory")


def test_error_unreadable_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"this is not parquet at all")
    assert_bad_input(run("report", str(junk), "--true", "y", "--pred", "p"), "junk.parquet")
    npy = tmp_path / "trunc.npy"
    npy.write_bytes(b"\x93NUMPY\x01\x00")
    assert_bad_input(run("report", str(npy), "--true", "0", "--pred", "1"), "trunc.npy")
    unknown = tmp_path / "data.xyz"
    unknown.write_text("y,p\n1,1\n")
    assert_bad_input(run("report", str(unknown), "--true", "y", "--pred", "p"), "data.xyz")
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.csv"
        locked.write_text("y,p\n1,1\n")
        locked.chmod(0)
        assert_bad_input(run("report", str(locked), "--true", "y", "--pred", "p"), "permission")


@pytest.mark.parametrize(
    ("matrix", "fragment"),
    [
        ("[[61,2],[8]]", "square (K rows of K counts); got 2 rows of lengths [2, 1]"),
        ("[[61,2,0],[8,58,1]]", "got 2 rows of lengths [3, 3]"),
        ("[[1,2],[3,'x']]", "not a number"),
        ("[[1,-2],[3,4]]", "non-negative"),
        ("[[1,2],[3,4]", "bad matrix"),
        ("hello", "bad matrix"),
        ("[[9223372036854775807,2],[3,4]]", "2**63 - 1"),
    ],
)
def test_error_bad_matrix(matrix: str, fragment: str) -> None:
    assert_bad_input(run("matrix", matrix), fragment)


def test_matrix_of_huge_weights_prints_without_its_bootstrap_intervals() -> None:
    # a weighted total past int64 cannot be drawn from: the metrics print without the
    # bootstrap's intervals, and nothing raises
    res = run("matrix", "[[1e300,2],[3,4]]", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    overall = {m["name"]: m for m in json.loads(res.stdout)["overall"]}
    assert overall["accuracy"]["value"] == 1.0  # 1e300 of 1e300 + 5 on the diagonal


def test_error_bad_matrix_labels_and_file(tmp_path: Path) -> None:
    assert_bad_input(run("matrix", "[[1,2],[3,4]]", "--labels", "a,b,c"), "labels")
    f = tmp_path / "c.csv"
    f.write_text("a,b,c\n1,2,3\n4,5,6\n")
    assert_bad_input(run("matrix", str(f)), "square")


def test_error_unknown_metric_and_options(data: dict) -> None:
    assert_bad_input(run("explain", "acuracy"), "unknown metric", "accuracy")
    assert_bad_input(run("metrics", "zzzzqqq"), "no metric")
    assert_bad_input(run("report", str(data["csv"]), "--true", "y", "--pred", "yhat",
                         "--pos-label", "7", "--score", "score"), "pos-label")
    assert_bad_input(run("report", str(data["csv"]), "--true", "y", "--pred", "yhat",
                         "--pos-label", "spam"), "pos-label")
    assert_bad_input(run("report", str(data["csv"]), "--true", "y", "--pred", "yhat",
                         "--scores", "score"), "--scores")
    assert_bad_input(run("report", str(data["csv"]), "--pred", "yhat"), "--true")
    assert_bad_input(run("matrix", "[[1,2],[3,4]]", "--format", "pdf"), "format")
    assert_bad_input(run("nonsense"), "no such command")


def test_error_compare_mismatched_truth(data: dict, tmp_path: Path) -> None:
    short = tmp_path / "short.csv"
    short.write_text("y,yhat,score\n1,1,0.9\n0,0,0.1\n")
    assert_bad_input(run("compare", str(data["csv"]), str(short), "--true", "y", "--pred",
                         "yhat"), "different true labels")
    assert_bad_input(run("compare", str(data["csv"]), "--true", "y", "--pred", "yhat"),
                     "at least two models")
    assert_bad_input(run("compare", str(data["csv"]), "--true", "y", "--pred", "yhat,yhat2",
                         "--metrics", "recall"), "per-class")


# ------------------------------------------------------------------------------ demo
def test_demo_writes_reports_and_reports_its_runtime(tmp_path: Path) -> None:
    t0 = time.perf_counter()
    res = run("demo", "-o", str(tmp_path / "demo"), script=True)
    elapsed = time.perf_counter() - t0
    print(f"confmat demo runtime: {elapsed:.1f} s")
    assert res.returncode == 0, res.stderr
    written = [Path(p) for p in res.stdout.split()]
    assert len(written) == 6
    for p in written:
        assert p.exists() and p.stat().st_size > 20_000
        assert p.read_text().startswith("<!DOCTYPE html>")
    assert "demo finished in" in res.stderr


def test_error_option_combinations_and_file_contents(data: dict, tmp_path: Path) -> None:
    csv_path = str(data["csv"])
    cases = [
        (["report", csv_path, "--true", "y", "--pred", "yhat", "--score", "score",
          "--scores", "score,score2"], "not both"),
        (["report", csv_path, "--true", "y", "--pred", "yhat", "--score", "score,score2"],
         "one column"),
        (["report", csv_path, "--true", "y", "--pred", "yhat", "--labels", "0"],
         "not in --labels"),
        (["compare", csv_path, "--true", "y", "--pred", "yhat,yhat2", "--score", "score"],
         "one --score column per --pred"),
        (["compare", csv_path, "--true", "y", "--pred", "yhat,yhat2", "--name", "only"],
         "--name"),
        (["compare", csv_path, str(data["other"]), "--true", "y", "--pred", "yhat,yhat2"],
         "one --pred column"),
        (["compare", csv_path, "--true", "y", "--pred", "yhat,yhat2", "--scores", "s"],
         "--score"),
        (["report", csv_path, "--true", "y", "--pred", "yhat", "-o",
          str(tmp_path / "file.txt" / "x.html")], "cannot write"),
    ]
    (tmp_path / "file.txt").write_text("a file, not a directory")
    words = tmp_path / "words.csv"
    words.write_text("y,yhat,score\n1,1,high\n0,0,low\n")
    cases.append((["report", str(words), "--true", "y", "--pred", "yhat", "--score", "score"],
                  "must be numeric"))
    counts = tmp_path / "counts.csv"
    counts.write_text("true,a,b\nx,1,2\ny,3,4\n")
    cases.append((["matrix", str(counts)], "differ from the column labels"))
    for args, fragment in cases:
        assert_bad_input(run(*args), fragment)


def test_report_binned_curves_stream(data: dict) -> None:
    y, s = data["y"], data["s"]
    res = run("report", str(data["csv"]), "--true", "y", "--pred", "yhat", "--score", "score",
              "--bins", "1000", "-f", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["counts"] == confusion_matrix(y, data["p"]).tolist()
    (curve,) = d["curves"]
    # scores have 3 decimals, so with 1000 bins every threshold is a bin edge: exact counts
    for t, tp, fp in zip(curve["thresholds"], curve["tp"], curve["fp"], strict=True):
        assert (tp, fp) == (np.sum((s >= t) & (y == 1)), np.sum((s >= t) & (y == 0)))
    bound = float(next(n for n in d["notes"] if "within" in n).split("within ")[1].split()[0])
    assert abs(curve["auc"] - roc_auc_score(y, s)) <= bound + 1e-12
    assert_bad_input(run("report", str(data["csv"]), "--true", "y", "--pred", "yhat",
                         "--bins", "10"), "--bins")


# ------------------------------------------------------------------------------ pos_label
@pytest.fixture(scope="module")
def text_labels(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(11)
    n = 300
    y = np.where(rng.random(n) < 0.4, "sick", "healthy")
    s = np.clip(0.3 * (y == "sick") + 0.7 * rng.random(n), 0, 1).round(3)
    p = np.where(s >= 0.5, "sick", "healthy")
    path = tmp_path_factory.mktemp("cli_text") / "text.csv"
    with open(path, "w") as f:
        f.write("y,yhat,score,yhat2,score2\n")
        for row in zip(y, p, s, p, s[::-1], strict=True):
            f.write(",".join(str(v) for v in row) + "\n")
    return {"y": y, "s": s, "csv": str(path)}


@pytest.mark.parametrize("extra", [[], ["--bins", "1000"]])
def test_text_labels_without_pos_label_exit_2_listing_the_labels(text_labels: dict,
                                                                  extra: list[str]) -> None:
    res = run("report", text_labels["csv"], "--true", "y", "--pred", "yhat", "--score", "score",
              "--no-intervals", *extra)
    assert_bad_input(res, "--pos-label", "'healthy'", "'sick'")


def test_compare_text_labels_without_pos_label_exit_2(text_labels: dict) -> None:
    res = run("compare", text_labels["csv"], "--true", "y", "--pred", "yhat,yhat2", "--score",
              "score,score2", "--no-intervals")
    assert_bad_input(res, "--pos-label", "'healthy'", "'sick'")


def test_text_labels_with_pos_label_auc_equals_sklearn(text_labels: dict) -> None:
    y, s = text_labels["y"], text_labels["s"]
    res = run("report", text_labels["csv"], "--true", "y", "--pred", "yhat", "--score", "score",
              "--pos-label", "sick", "-f", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    (curve,) = json.loads(res.stdout)["curves"]
    assert curve["pos_label"] == "sick"
    assert curve["auc"] == pytest.approx(roc_auc_score(y == "sick", s), abs=1e-12)
    # the other class as positive: the scores of "sick" rank "healthy" the other way round
    res = run("report", text_labels["csv"], "--true", "y", "--pred", "yhat", "--score", "score",
              "--pos-label", "healthy", "-f", "json", "--no-intervals")
    assert res.returncode == 0, res.stderr
    (curve,) = json.loads(res.stdout)["curves"]
    assert curve["auc"] == pytest.approx(roc_auc_score(y == "healthy", s), abs=1e-12)


def test_compare_summary_computes_the_shown_intervals_only() -> None:
    """compare's summary view builds each model's report with the summary's intervals only;
    those equal the full comparison's, and the side-by-side table is the same."""
    import numpy as np

    from confmat.cli.summary import summary_intervals
    from confmat.report import build_comparison

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 300)
    models = {m: np.where(rng.random(300) < acc, y, rng.integers(0, 3, 300))
              for m, acc in (("a", 0.8), ("b", 0.6))}
    full = build_comparison(y, models)
    part = build_comparison(y, models, interval_metrics=summary_intervals(2) | summary_intervals(3))
    assert part.table == full.table
    for rf, rp in zip(full.reports, part.reports, strict=True):
        assert [(m.name, m.interval) for m in rp.headline] == \
            [(m.name, m.interval) for m in rf.headline]
        shown = summary_intervals(2) | summary_intervals(3)
        others = {m.name for m in rf.overall if m.interval is not None} - shown
        assert len(others) > 5  # intervals the full reports compute and the summary skips
        assert all(m.interval is None for m in rp.overall if m.name in others)


# ------------------------------------------------------------------------------ probe
# A "demanding user" probe of every command. Bad input: exit 2 and ONE line
# "confmat: error: ..." naming the argument and the problem, never a traceback. Good input
# (odd but valid): numbers equal to scikit-learn on the same data or to a hand formula.
def assert_one_line_error(res: subprocess.CompletedProcess, *fragments: str) -> None:
    assert_bad_input(res, *fragments)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("confmat: error: "), res.stderr


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("probe")
    (d / "ok.csv").write_text("y,yhat,score\n1,1,0.9\n0,1,0.3\n1,0,0.7\n0,0,0.1\n")
    (d / "nulls.csv").write_text("y,yhat,score\n,1,0.9\n,0,0.2\n")
    (d / "nan_score.csv").write_text("y,yhat,score\n1,1,nan\n0,1,0.3\n1,0,0.7\n0,0,0.1\n")
    # "inf" in the first data row makes DuckDB read the column as text (later, a float)
    (d / "inf_score.csv").write_text("y,yhat,score\n1,1,inf\n0,1,0.3\n1,0,0.7\n0,0,-inf\n")
    (d / "neg_weight.csv").write_text("y,yhat,score,w\n1,1,0.9,1\n0,1,0.3,-2\n1,0,0.7,1\n")
    (d / "huge_weights.csv").write_text("y,yhat,score,w\n1,1,0.9,1e308\n0,1,0.3,1e308\n"
                                        "1,0,0.7,1\n0,0,0.1,1\n")
    (d / "two.csv").write_text("y,p1,p2\n1,1,0\n0,1,0\n1,0,1\n0,0,0\n")
    (d / "counts_hole.csv").write_text("a,b\n1,\n3,4\n")
    (d / "empty_dir").mkdir()
    return d


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        # click's usage errors took four lines (Usage, Try, blank, Error); now one line that
        # still names the option and where the help is
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--bins", "0"],
         ["'--bins'", "0 is not in the range", "confmat report --help"]),
        (["explain"], ["missing argument 'metric'"]),
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "-o", "{d}"],
         ["-o ", "is a directory", "names the file to write"]),
        # --bins past what a histogram can hold: named, not "cannot be read whole:
        # Maximum allowed size exceeded" (10**20) or minutes of allocation (10**8)
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--score", "score",
          "--bins", "100000000"], ["'--bins'", "10000000"]),
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--score", "score",
          "--bins", "99999999999999999999"], ["'--bins'"]),
        # a NaN score was reported as a "null true label"; and the hint names the option,
        # not the Python keyword skip_invalid=True
        (["report", "{d}/nan_score.csv", "--true", "y", "--pred", "yhat", "--score", "score"],
         ["row 1", "null or nan score", "column 'score'", "give --skip-invalid"]),
        (["report", "{d}/neg_weight.csv", "--true", "y", "--pred", "yhat", "--score", "score",
          "--weight", "w"], ["non-negative", "-2"]),
        # the text 'inf' is not a number the engine reads: say which cell and why
        (["report", "{d}/inf_score.csv", "--true", "y", "--pred", "yhat", "--score", "score"],
         ["column 'score'", "'inf' in data row 1", "not a finite number"]),
        # weights each finite whose total overflows float64: was "cannot convert float
        # infinity to integer" (a metric's exact arithmetic), in both reading paths
        (["report", "{d}/huge_weights.csv", "--true", "y", "--pred", "yhat", "--weight", "w"],
         ["sample_weight", "overflows float64"]),
        (["report", "{d}/huge_weights.csv", "--true", "y", "--pred", "yhat", "--weight", "w",
          "--score", "score"], ["sample_weight", "overflows float64"]),
        # every row skipped or filtered out: say why, not only "no rows to evaluate"
        (["report", "{d}/nulls.csv", "--true", "y", "--pred", "yhat", "--skip-invalid"],
         ["no rows to evaluate", "2 for a null true label"]),
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--where", "y = 5"],
         ["no rows to evaluate", "4 by --where"]),
        # without --skip-invalid a null label is the error of its row (the streaming path
        # said "no rows to evaluate", as if the file were empty)
        (["report", "{d}/nulls.csv", "--true", "y", "--pred", "yhat"],
         ["row 1", "null true label", "column 'y'", "--skip-invalid"]),
        # a CSV read as .npy: numpy took it for a pickle ("holds Python objects")
        (["report", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--input-format", "npy"],
         ["ok.csv", "not a .npy or .npz file"]),
        # directories and globs are read by the library; an empty one or no match is named
        (["report", "{d}/empty_dir", "--true", "y", "--pred", "yhat"],
         ["holds no data files"]),
        (["report", "{d}/nomatch*.parquet", "--true", "y", "--pred", "yhat"],
         ["no file matches"]),
        # a repeated model name or column silently replaced one model by the other
        (["compare", "{d}/two.csv", "--true", "y", "--pred", "p1,p2", "--name", "a,a"],
         ["--name", "'a' twice"]),
        (["compare", "{d}/two.csv", "--true", "y", "--pred", "p1,p1"], ["--pred", "'p1' twice"]),
        (["compare", "{d}/ok.csv", "{d}/ok.csv", "--true", "y", "--pred", "yhat", "--name",
          "m,m"], ["--name", "'m' twice"]),
        # an unknown family listed nothing and said "no metric matches None"
        (["metrics", "--family", "rate"], ["unknown family 'rate'", "did you mean 'rates'"]),
        (["metrics", "--kind", "overall", "--family", "rates"],
         ["no metric with --kind overall and --family rates"]),
        (["explain", "acuracy"], ["unknown metric", "'confmat metrics' lists"]),
        # 2**63 beside small counts: numpy widened the row to float64 and the count was
        # rounded silently; now the same error as 2**64
        (["matrix", "[[9223372036854775808,1],[1,1]]"], ["9223372036854775808", "2**63 - 1"]),
        # a count that overflows float64 ("1e400" reads as inf): which cell
        (["matrix", "[[1,1],[1,1e400]]"], ["nan or infinite", "inf at row 1, column 1"]),
        # an empty cell of a counts file was called a "null true label"
        (["matrix", "{d}/counts_hole.csv"], ["counts_hole.csv", "data row 1", "empty cell"]),
    ],
)
def test_probe_bad_input_one_line(probe: Path, args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(run(*(a.replace("{d}", str(probe)) for a in args)), *fragments)


@pytest.fixture(scope="module")
def probe_data() -> dict:
    rng = np.random.default_rng(23)
    n = 60
    y = rng.integers(0, 2, n)
    s = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1).round(3)
    return {"y": y, "p": (s >= 0.5).astype(int), "s": s}


def _write_probe_file(d: Path, kind: str, data: dict) -> tuple[str, list[str]]:
    """The probe data in one layout; returns the path and the --true/--pred/--score names."""
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    y, p, s = data["y"], data["p"], data["s"]
    rows = [f"{a},{b},{c}" for a, b, c in zip(y, p, s, strict=True)]
    names = ["y", "yhat", "score"]
    if kind == "bom":
        (d / "bom.csv").write_text("y,yhat,score\n" + "\n".join(rows) + "\n",
                                   encoding="utf-8-sig")
        return str(d / "bom.csv"), names
    if kind == "crlf":
        (d / "crlf.csv").write_bytes(("y,yhat,score\r\n" + "\r\n".join(rows) + "\r\n").encode())
        return str(d / "crlf.csv"), names
    if kind == "tsv":
        (d / "p.tsv").write_text("y\tyhat\tscore\n" + "\n".join(r.replace(",", "\t")
                                                              for r in rows) + "\n")
        return str(d / "p.tsv"), names
    if kind == "csv.gz":
        with gzip.open(d / "p.csv.gz", "wt") as f:
            f.write("y,yhat,score\n" + "\n".join(rows) + "\n")
        return str(d / "p.csv.gz"), names
    if kind == "jsonl":
        (d / "p.jsonl").write_text("".join(
            json.dumps({"y": int(a), "yhat": int(b), "score": float(c)}) + "\n"
            for a, b, c in zip(y, p, s, strict=True)))
        return str(d / "p.jsonl"), names
    if kind == "odd names":  # a space, quotes, non-ASCII letters
        odd = ["true y", 'pred "x"', "skóre"]
        (d / "odd.csv").write_text('"true y","pred ""x""",skóre\n' + "\n".join(rows) + "\n")
        return str(d / "odd.csv"), odd
    table = pa.table({"y": y, "yhat": p, "score": s})
    part = d / "parts"
    part.mkdir(exist_ok=True)
    pq.write_table(table.slice(0, 25), part / "a.parquet")
    pq.write_table(table.slice(25), part / "b.parquet")
    if kind == "directory":
        return str(part), names
    assert kind == "glob"
    return str(part / "*.parquet"), names


@pytest.mark.parametrize("kind", ["bom", "crlf", "tsv", "csv.gz", "jsonl", "odd names",
                                  "directory", "glob"])
def test_probe_file_layouts_equal_sklearn(probe_data: dict, tmp_path: Path, kind: str) -> None:
    # a directory (a Parquet dataset) and a glob were refused by the command line ("is a
    # directory, not a file", "does not exist") though confmat.io reads them
    path, (t, p, s) = _write_probe_file(tmp_path, kind, probe_data)
    res = run("report", path, "--true", t, "--pred", p, "--score", s, "--no-intervals",
              "-f", "json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["counts"] == confusion_matrix(probe_data["y"], probe_data["p"]).tolist()
    (curve,) = d["curves"]
    assert curve["auc"] == pytest.approx(roc_auc_score(probe_data["y"], probe_data["s"]),
                                         abs=1e-12)
    if kind in ("directory", "glob"):  # the streaming path (no scores) reads them too
        res = run("report", path, "--true", t, "--pred", p, "--no-intervals", "-f", "json")
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["counts"] == d["counts"]


@pytest.mark.parametrize("bins", [1, 3, 7])
def test_probe_bins_that_miss_the_tenths_mark_their_own_edges(probe_data: dict,
                                                              tmp_path: Path, bins: int) -> None:
    # the terminal's threshold table marks 0.1 ... 0.9; with --bins 3 those are no bin edges
    # and the report died ("threshold np.float64(0.1) is not a bin edge"). Now it marks the
    # nearest edges, each row counted by hand here (score >= edge)
    path, _ = _write_probe_file(tmp_path, "bom", probe_data)
    res = run("report", path, "--true", "y", "--pred", "yhat", "--score", "score", "--bins",
              str(bins), "--no-intervals", "-o", str(tmp_path / "r.html"))
    assert res.returncode == 0, res.stderr
    res = run("report", path, "--true", "y", "--pred", "yhat", "--score", "score", "--bins",
              str(bins), "--no-intervals")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Thresholds for positive"))
    rows = [ln.split() for ln in lines[start + 4:] if ln.strip()]
    rows = rows[:next((i for i, r in enumerate(rows) if not r[0][0].isdigit()), len(rows))]
    assert rows
    y, s = probe_data["y"], probe_data["s"]
    edges = np.arange(bins) / bins
    for r in rows:
        t = edges[np.argmin(np.abs(edges - float(r[0])))]  # printed with two decimals
        assert abs(t - float(r[0])) <= 0.005
        tp, fn, fp, tn = (int(v) for v in r[1:5])
        assert (tp, fn) == (np.sum((s >= t) & (y == 1)), np.sum((s < t) & (y == 1)))
        assert (fp, tn) == (np.sum((s >= t) & (y == 0)), np.sum((s < t) & (y == 0)))


def test_probe_matrix_shapes_and_weights_equal_sklearn() -> None:
    from sklearn.metrics import accuracy_score, f1_score

    # 50 x 50 typed in: the table expanded back into labels is scikit-learn's oracle
    rng = np.random.default_rng(5)
    table = rng.integers(0, 30, (50, 50))
    res = run("matrix", json.dumps(table.tolist()), "--no-intervals", "-f", "json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    k = np.arange(50)
    yt, yp = np.repeat(np.repeat(k, 50), table.ravel()), np.repeat(np.tile(k, 50), table.ravel())
    overall = {m["name"]: m["value"] for m in d["overall"]}
    per = {r["name"]: r for r in d["per_class"]}
    assert overall["accuracy"] == pytest.approx(accuracy_score(yt, yp), abs=1e-12)
    assert overall["mcc"] == pytest.approx(matthews_corrcoef(yt, yp), abs=1e-12)
    assert per["recall"]["values"] == pytest.approx(recall_score(yt, yp, average=None))
    assert per["f1"]["averages"]["macro"] == pytest.approx(f1_score(yt, yp, average="macro"))
    # float cells are sums of weights: scikit-learn with sample_weight on the four cells
    res = run("matrix", "[[1.5,2],[3,4.25]]", "--no-intervals", "-f", "json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    w = [1.5, 2, 3, 4.25]
    yt, yp = [0, 0, 1, 1], [0, 1, 0, 1]
    overall = {m["name"]: m["value"] for m in d["overall"]}
    assert overall["accuracy"] == pytest.approx(accuracy_score(yt, yp, sample_weight=w))
    assert overall["mcc"] == pytest.approx(matthews_corrcoef(yt, yp, sample_weight=w))
    # 1 x 1: every sample right (hand: 5 of 5)
    res = run("matrix", "[[5]]", "--no-intervals", "-f", "json")
    assert res.returncode == 0, res.stderr
    assert {m["name"]: m["value"] for m in json.loads(res.stdout)["overall"]}["accuracy"] == 1.0


def test_probe_odd_scores_equal_sklearn(tmp_path: Path) -> None:
    # scores outside [0, 1] are decision values: the AUC stands (scikit-learn takes them
    # too), the calibration section is left out with a note saying why
    y = [1, 0, 1, 0, 1, 0]
    for name, s in (("outside", [1.9, -0.2, 0.7, 0.1, -1.5, 3.0]),
                    ("equal", [0.5] * 6)):  # all tied: AUC 0.5
        path = tmp_path / f"{name}.csv"
        path.write_text("y,yhat,score\n" + "".join(
            f"{a},{int(b >= 0.5)},{b}\n" for a, b in zip(y, s, strict=True)))
        res = run("report", str(path), "--true", "y", "--pred", "yhat", "--score", "score",
                  "--no-intervals", "-f", "json")
        assert res.returncode == 0, res.stderr
        d = json.loads(res.stdout)
        assert d["curves"][0]["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        if name == "outside":
            assert any("not probabilities" in n for n in d["notes"]), d["notes"]


def test_probe_output_paths_and_repeated_options(tmp_path: Path) -> None:
    # -o into folders that do not exist yet: created, as `mkdir -p` would (a report is often
    # written to results/<run>/); the counts are the typed ones (hand oracle)
    target = tmp_path / "new" / "deeper" / "m.json"
    res = run("matrix", "[[3,1],[0,2]]", "--no-intervals", "-o", str(target))
    assert res.returncode == 0, res.stderr
    assert json.loads(target.read_text())["counts"] == [[3, 1], [0, 2]]
    # an option of one value given twice: the last one counts, as in most command lines
    # (click's rule); options that take several values (--labels, --pred) add up instead
    res = run("matrix", "[[3,1],[0,2]]", "--no-intervals", "-f", "json", "--title", "first",
              "--title", "second")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["title"] == "second"
    assert_one_line_error(run("matrix", "[[3,1],[0,2]]", "--labels", "a,b", "--labels", "c"),
                          "--labels has 3 names")


# ------------------------------------------------------------------------------ probe: roots
# The library functions behind the probe's defects, called directly (each failed before).
def test_probe_roots_bins_have_one_rule(tmp_path: Path) -> None:
    from confmat import Accumulator
    from confmat.binned import ScoreHistogram
    from confmat.io import evaluate_file

    path = tmp_path / "p.csv"
    path.write_text("y,yhat,score\n1,1,0.9\n0,0,0.2\n")
    for make in (lambda: ScoreHistogram(bins=10**8), lambda: Accumulator(bins=10**8),
                 lambda: evaluate_file(str(path), "y", "yhat", score_cols=["score"],
                                       bins=10**8)):
        with pytest.raises(ValueError, match="bins must be a positive integer of at most "
                                             "10_000_000, got 100000000"):
            make()


def test_probe_roots_binned_marks_are_bin_edges() -> None:
    from confmat.binned import ScoreHistogram
    from confmat.plots import marked_points

    y = np.array([0, 0, 1, 1, 1, 0])
    s = np.array([0.05, 0.4, 0.35, 0.8, 0.95, 0.7])
    sweep = ScoreHistogram(bins=3).update(y, s).threshold_sweep()
    pts = marked_points(sweep)  # raised "threshold 0.1 is not a bin edge"
    assert pts and all(min(abs(p["threshold"] - j / 3) for j in range(4)) < 1e-12
                       for p in pts)
    for p in pts:  # hand counts of the rule score >= threshold
        t = p["threshold"]
        assert p["tpr"] == np.sum((s >= t) & (y == 1)) / 3
        assert p["fpr"] == np.sum((s >= t) & (y == 0)) / 3


def test_probe_roots_tables_and_registry() -> None:
    from confmat import ConfusionMatrix
    from confmat.metrics import list_metrics

    with pytest.raises(OverflowError, match=r"2\*\*63 - 1"):  # was rounded to 9.2e18
        ConfusionMatrix([[2**63, 1], [1, 1]])
    with pytest.raises(ValueError, match=r"sample_weight: the total.* overflows float64"):
        # was an OverflowError of a metric later
        ConfusionMatrix.from_predictions([1, 0, 1, 0], [1, 1, 0, 0],
                                         sample_weight=[1e308, 1e308, 1, 1])
    with pytest.raises(ValueError, match="unknown family 'rate'; did you mean 'rates'"):
        list_metrics(family="rate")  # was an empty list
    with pytest.raises(ValueError, match="unknown kind 'overal'"):
        list_metrics(kind="overal")  # type: ignore[arg-type]


def test_probe_roots_text_read_as_npy(tmp_path: Path) -> None:
    from confmat.io import read_columns

    path = tmp_path / "p.csv"
    path.write_text("y,yhat\n1,1\n")
    with pytest.raises(ValueError, match=r"is not a \.npy or \.npz file"):  # was "pickled"
        read_columns(str(path), ["y"], format="npy")
