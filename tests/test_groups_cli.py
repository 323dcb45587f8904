"""``confmat report FILE --by col[,col]``: the table by group (sizes, small groups flagged),
the disparities, JSON output, and bad input as a message with exit status 2. Expected values
are worked from scikit-learn and fairlearn on the same rows."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sklearn.metrics as skm

pytest.importorskip("duckdb")
fairlearn_metrics = pytest.importorskip("fairlearn.metrics")

from confmat.cli import main  # noqa: E402

ROWS = [(1, 1, "f", 30), (0, 1, "m", 30), (1, 0, "f", 40), (1, 1, "m", 40), (0, 0, "f", 30),
        (1, 1, "f", 30), (0, 0, "m", 30)]


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text("y,yhat,sex,age\n" + "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in ROWS))
    return p


def test_json_table_and_disparities(path, capsys):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 "--pos-label", "1", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    y = np.array([r[0] for r in ROWS])
    p = np.array([r[1] for r in ROWS])
    sex = np.array([r[2] for r in ROWS])
    assert [r["group"] for r in out["rows"]] == ["f", "m"]
    assert [r["size"] for r in out["rows"]] == [4, 3]
    assert all(r["small"] for r in out["rows"])
    for r in out["rows"]:
        m = sex == r["group"]
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m]), abs=1e-12)
        assert r["accuracy"] == pytest.approx(skm.accuracy_score(y[m], p[m]), abs=1e-12)
    disp = {d["name"]: d["value"] for d in out["disparities"]}
    assert disp["demographic_parity_difference"] == pytest.approx(
        fairlearn_metrics.demographic_parity_difference(y, p, sensitive_features=sex),
        abs=1e-12)
    assert disp["equalized_odds_difference"] == pytest.approx(
        fairlearn_metrics.equalized_odds_difference(y, p, sensitive_features=sex), abs=1e-12)
    assert out["rows_read"] == len(ROWS)


def test_text_two_columns(path, capsys):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex,age"]) == 0
    text = capsys.readouterr().out
    assert "By group (sex x age): 4 groups" in text
    assert "f / 30" in text and "3*" in text  # size shown, small flagged
    assert "demographic_parity_difference" in text


@pytest.mark.parametrize("args, message", [
    (["--by", "nope"], "no column 'nope'"),
    (["--by", "sex", "--scores", "y,yhat"], "--by takes --score (one column"),
    (["--by", "sex", "--score", "y,yhat"], "--score takes one column"),
    (["--by", "sex", "--pos-label", "7"], "--pos-label"),
    (["--by", "sex,sex", "--pos-label", "1"], "--by names column 'sex' twice"),
])
def test_bad_input_exit_2(path, capsys, args, message):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# ----------------------------------------------------------------------------- metrics chosen
@pytest.fixture
def scored(tmp_path):
    rng = np.random.default_rng(4)
    n = 400
    sex = rng.choice(["f", "m", "x"], n, p=[0.5, 0.4, 0.1])
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + np.where(sex == "m", 0.6, 0.3) * y, 3)
    p = (s > 0.6).astype(int)
    path = tmp_path / "s.csv"
    path.write_text("y,yhat,p,sex\n" + "".join(f"{a},{b},{c},{d}\n"
                                               for a, b, c, d in zip(y, p, s, sex, strict=True)))
    return path, y, p, s, sex


def _json(runner_result):
    assert runner_result.exit_code == 0, runner_result.output
    return json.loads(runner_result.output)


def test_group_metrics_choose_the_table_and_its_disparities(scored):
    from click.testing import CliRunner

    from confmat.cli import cli

    path, y, p, _s, sex = scored
    out = _json(CliRunner().invoke(cli, [
        "report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex", "--format", "json",
        "--group-metrics", "TPR, selection_rate", "--group-metrics", "fpr"]))
    assert out["metrics"] == ["recall", "selection_rate", "fpr"]  # canonical, in order
    assert out["forest"]["metric"] == "balanced_accuracy"  # the default forest metric
    for r in out["rows"]:
        m = sex == r["group"]
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m]), abs=1e-12)
        assert r["fpr"] == pytest.approx(fairlearn_metrics.false_positive_rate(y[m], p[m]),
                                         abs=1e-12)
        assert r["selection_rate"] == pytest.approx(
            fairlearn_metrics.selection_rate(y[m], p[m]), abs=1e-12)
    generic = {d["metric"] for d in out["disparities"] if d["method"] != "named"}
    assert generic == {"recall", "selection_rate", "fpr"}


def test_score_metrics_by_group_and_the_disparity_metric(scored):
    from click.testing import CliRunner

    from confmat.cli import cli

    path, y, _p, s, sex = scored
    out = _json(CliRunner().invoke(cli, [
        "report", str(path), "--true", "y", "--pred", "yhat", "--score", "p", "--by", "sex",
        "--format", "json", "--group-metrics", "accuracy,ap", "--disparity-metric", "auroc"]))
    assert out["metrics"] == ["accuracy", "average_precision", "roc_auc"]
    f = out["forest"]
    assert f["metric"] == "roc_auc" and f["method"] == "delong"
    for r, e in zip(out["rows"], f["estimate"], strict=True):
        m = sex == r["group"]
        auc = skm.roc_auc_score(y[m], s[m])
        assert r["roc_auc"] == pytest.approx(auc, abs=1e-12) and e == pytest.approx(auc)
        assert r["average_precision"] == pytest.approx(skm.average_precision_score(y[m], s[m]),
                                                       abs=1e-12)
    assert out["overall"]["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    d = {x["name"]: x for x in out["disparities"]}
    aucs = [skm.roc_auc_score(y[sex == k], s[sex == k]) for k in ("f", "m", "x")]
    assert d["roc_auc difference"]["value"] == pytest.approx(max(aucs) - min(aucs), abs=1e-12)
    assert d["roc_auc difference"]["low"] <= d["roc_auc difference"]["value"] \
        <= d["roc_auc difference"]["high"]
    assert d["roc_auc difference to overall"]["value"] == pytest.approx(
        max(abs(a - skm.roc_auc_score(y, s)) for a in aucs), abs=1e-12)


@pytest.mark.parametrize("bins", [None, 100])
def test_default_metrics_with_scores_are_the_libraries(scored, tmp_path, bins):
    # one list of default metrics by group: the command line's table (both counting paths)
    # shows the columns of GroupedEvaluation.to_frame(); with a score column these include ROC
    # AUC and average precision, checked against scikit-learn per group (on the --bins path on
    # the scores floored to their bin, the values a histogram's metrics are exact for)
    from click.testing import CliRunner

    from confmat.cli import cli
    from confmat.groups import by_group
    from io_files import floor_to_bin

    _, y, p, s, sex = scored
    s = s / 2  # probabilities, as the --bins path requires
    path = tmp_path / "half.csv"
    path.write_text("y,yhat,p,sex\n" + "".join(f"{a},{b},{float(c)!r},{d}\n"
                                               for a, b, c, d in zip(y, p, s, sex, strict=True)))
    extra = ["--bins", str(bins), "--no-intervals"] if bins else ["--no-intervals"]
    out = _json(CliRunner().invoke(cli, [
        "report", str(path), "--true", "y", "--pred", "yhat", "--score", "p", "--by", "sex",
        "--format", "json", *extra]))
    library = by_group(y, p, sex, scores=s).to_frame().columns.tolist()
    assert out["metrics"] == [c for c in library if c not in ("size", "small")]
    assert {"roc_auc", "average_precision", "recall"} <= set(out["metrics"])
    seen = floor_to_bin(s, bins) if bins else s
    for r in out["rows"]:
        m = sex == r["group"]
        assert r["roc_auc"] == pytest.approx(skm.roc_auc_score(y[m], seen[m]), abs=1e-9)
        assert r["average_precision"] == pytest.approx(
            skm.average_precision_score(y[m], seen[m]), abs=1e-9)


@pytest.mark.parametrize("args, message", [
    (["--group-metrics", "recal"],
     "--group-metrics: unknown metric 'recal'; did you mean 'recall'?"),
    (["--group-metrics", "accuracy,roc_acu", "--score", "p"],
     "--group-metrics: unknown metric 'roc_acu'; did you mean 'roc_auc'?"),
    (["--disparity-metric", "balanced_acuracy"],
     "--disparity-metric: unknown metric 'balanced_acuracy'; did you mean 'balanced_accuracy'"),
    (["--group-metrics", "roc_auc"], "--group-metrics: roc_auc needs scores (give --score)"),
    (["--disparity-metric", "ap"],
     "--disparity-metric: average_precision needs scores (give --score)"),
])
def test_bad_metric_names_exit_2(scored, capsys, args, message):
    path = scored[0]
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("confmat: error: ") and message in err
    assert "Traceback" not in err


def test_metric_options_need_by(scored, capsys):
    from click.testing import CliRunner

    from confmat.cli import cli
    from confmat.cli.common import InputError

    path = scored[0]
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--group-metrics", "recall"]
    result = CliRunner().invoke(cli, args)
    assert isinstance(result.exception, InputError)
    assert "--group-metrics and --disparity-metric apply to the report by group" in str(
        result.exception)
    assert main(args) == 2 and "give --by" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", ["html", "md", "txt"])
def test_score_metrics_by_group_in_every_format(scored, tmp_path, suffix):
    path, y, _p, s, sex = scored
    out = tmp_path / f"r.{suffix}"
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p", "--by",
                 "sex", "--group-metrics", "recall,roc_auc", "--disparity-metric", "roc_auc",
                 "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8").replace("\\_", "_")  # Markdown escapes _
    auc_f = skm.roc_auc_score(y[sex == "f"], s[sex == "f"])
    assert "roc_auc difference" in text and f"{auc_f:.4f}" in text
    if suffix == "html":
        assert "forest plot of roc_auc by group" in text


def test_csv_long_form_by_two_features(path, capsys):
    """``--by sex,age -f csv``: one row per group and metric with a column per feature, the
    overall values and the disparities, read back by pandas. Oracles: scikit-learn on each
    group's rows and on all rows, fairlearn's disparity functions."""
    import io

    import pandas as pd

    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex,age",
                 "--pos-label", "1", "--format", "csv", "--no-intervals"]) == 0
    df = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(df.columns) == ["section", "group[sex]", "group[age]", "metric", "value", "low",
                                "high", "size", "small", "method", "flag"]
    y = np.array([r[0] for r in ROWS])
    p = np.array([r[1] for r in ROWS])
    sex = np.array([r[2] for r in ROWS])
    age = np.array([r[3] for r in ROWS])
    groups = df[df.section == "group"]
    assert sorted({(s, int(a)) for s, a in zip(groups["group[sex]"], groups["group[age]"],
                                              strict=True)}) == sorted(set(zip(sex, age,
                                                                               strict=True)))
    for _, r in groups[groups.metric == "accuracy"].iterrows():
        m = (sex == r["group[sex]"]) & (age == int(r["group[age]"]))
        assert r["value"] == pytest.approx(skm.accuracy_score(y[m], p[m]), abs=1e-12)
        assert int(r["size"]) == m.sum()
    overall = df[df.section == "overall"].set_index("metric")["value"]
    assert float(overall["accuracy"]) == pytest.approx(skm.accuracy_score(y, p), abs=1e-12)
    disp = df[df.section == "disparity"].set_index("metric")["value"]
    both = np.char.add(sex.astype(str), age.astype(str))
    assert float(disp["demographic_parity_difference"]) == pytest.approx(
        fairlearn_metrics.demographic_parity_difference(y, p, sensitive_features=both),
        abs=1e-12)


def test_csv_by_group_excel_safe_quotes_a_formula_group(tmp_path, capsys):
    """A group key that a spreadsheet would run (``=cmd``) is quoted with --csv-excel-safe and
    written as it is without; a negative number stays a number."""
    p = tmp_path / "inj.csv"
    p.write_text("y,yhat,g\n1,1,=cmd\n0,1,=cmd\n1,0,-1\n0,0,-1\n")
    base = ["report", str(p), "--true", "y", "--pred", "yhat", "--by", "g", "-f", "csv",
            "--no-intervals", "--pos-label", "1"]
    assert main(base) == 0
    plain = capsys.readouterr().out
    assert main([*base, "--csv-excel-safe"]) == 0
    safe = capsys.readouterr().out
    assert "\r\ngroup,=cmd,accuracy," in plain and "\r\ngroup,'=cmd,accuracy," in safe
    assert "\r\ngroup,-1,accuracy," in safe


def test_labels_option_is_read_in_the_type_of_the_label_column(path, capsys):
    # --labels 1,0 on integer labels, by group: the typed text is the integers 1 and 0 (as
    # without --by), in that order
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 "--labels", "1,0", "--pos-label", "1", "--format", "json",
                 "--no-intervals"]) == 0
    out = json.loads(capsys.readouterr().out)
    y = np.array([r[0] for r in ROWS])
    p = np.array([r[1] for r in ROWS])
    sex = np.array([r[2] for r in ROWS])
    for r in out["rows"]:
        m = sex == r["group"]
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m]), abs=1e-12)


@pytest.fixture
def text_path(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.choice(["cat", "dog"], 80)
    p = np.where(rng.random(80) < 0.7, y, rng.choice(["cat", "dog"], 80))
    g = rng.choice(["a", "b", "c"], 80)
    path = tmp_path / "t.csv"
    path.write_text("y,yhat,g\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(y, p, g,
                                                                               strict=True)))
    return path, y, p, g


def test_a_per_class_metric_on_text_labels_needs_the_positive_class(text_path, capsys):
    path, y, p, g = text_path
    base = ["report", str(path), "--true", "y", "--pred", "yhat", "--by", "g",
            "--group-metrics", "recall", "--no-intervals"]
    assert main(base) == 2
    err = capsys.readouterr().err
    assert "recall" in err and "--pos-label" in err and "Traceback" not in err
    assert main([*base, "--pos-label", "cat", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for r in out["rows"]:
        m = g == r["group"]
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m], pos_label="cat"),
                                            abs=1e-12)
    disp = {d["name"]: d["value"] for d in out["disparities"]}
    assert disp["demographic_parity_difference"] == pytest.approx(
        fairlearn_metrics.demographic_parity_difference(y == "cat", p == "cat",
                                                        sensitive_features=g), abs=1e-12)


@pytest.mark.parametrize("suffix", [".arrow", ".npy"])
def test_by_group_on_arrow_ipc_and_numpy_files(tmp_path, capsys, suffix):
    # Arrow IPC and NumPy files are counted by group too (DuckDB scans them where they are)
    rng = np.random.default_rng(5)
    y, p = rng.integers(0, 2, 90), rng.integers(0, 2, 90)
    g = rng.integers(0, 3, 90)
    path = tmp_path / f"d{suffix}"
    if suffix == ".npy":
        np.save(path, np.column_stack([y, p, g]))
        cols = ["0", "1", "2"]
    else:
        import pyarrow as pa
        import pyarrow.feather as feather

        feather.write_feather(pa.table({"y": y, "yhat": p, "g": g}), str(path))
        cols = ["y", "yhat", "g"]
    assert main(["report", str(path), "--true", cols[0], "--pred", cols[1], "--by", cols[2],
                 "--format", "json", "--no-intervals"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["group"] for r in out["rows"]] == [0, 1, 2]
    for r in out["rows"]:
        m = g == r["group"]
        assert r["size"] == int(m.sum())
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m]), abs=1e-12)
