"""ROC analysis on the command line: ``report --partial-auc``, the ROC band in the files a
report writes, ``compare`` with per-class scores (Hand and Till's AUC per model) and
``--overlay-bands``.

Oracles: the partial area integrated here from scikit-learn's ``roc_curve`` (every threshold
kept) with McClish's (1989) standardisation written out (the sensitivity focus by the mirror
identity below); scikit-learn's
``roc_auc_score(multi_class="ovo", average="macro")`` (Hand and Till 2001).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

from confmat.cli import main


def _mcclish_oracle(y: np.ndarray, s: np.ndarray, a: float, b: float) -> float:
    """McClish-corrected area under the empirical ROC curve on specificity [a, b]."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    lo, hi = 1 - b, 1 - a  # the same strip on the false-positive axis
    inside = (fpr > lo) & (fpr < hi)
    # the polyline at the strip's edges: the last point reaching the edge from the left, so
    # that a vertical segment on the edge counts with its top (pROC's rule of the highest
    # sensitivity at an exact specificity does not change an area)
    x = np.r_[lo, fpr[inside], hi]
    y_lo = np.interp(lo, fpr, tpr, left=0.0)
    k = np.flatnonzero(fpr <= hi)[-1]
    y_hi = tpr[k] if fpr[k] == hi else np.interp(hi, fpr, tpr)
    area = float(np.trapezoid(np.r_[y_lo, tpr[inside], y_hi], x))
    m, big = (2 - a - b) * (b - a) / 2, b - a
    return (1 + (area - m) / (big - m)) / 2


@pytest.fixture(scope="module")
def binary_file(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(21)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + 1.1 * y, 2)  # ties on purpose
    p = (s >= 0.5).astype(int)
    path = tmp_path_factory.mktemp("roccli") / "preds.csv"
    with open(path, "w") as f:
        f.write("y,yhat,score\n")
        for row in zip(y, p, s, strict=True):
            f.write(",".join(str(v) for v in row) + "\n")
    return {"y": y, "s": s, "path": path}


def test_report_partial_auc_json_and_terminal(binary_file, capsys) -> None:
    y, s, path = binary_file["y"], binary_file["s"], str(binary_file["path"])
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--score", "score",
                 "--partial-auc", "0.8,1.0", "-f", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    want = _mcclish_oracle(y, s, 0.8, 1.0)
    assert d["partial_auc"]["value"] == pytest.approx(want, abs=1e-12)
    lo, hi = d["partial_auc"]["interval"]
    assert lo < want < hi
    assert len(d["roc_band"]["at"]) == 101  # files hold the band
    # the terminal summary shows the partial AUC with its interval, and no band
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--score", "score",
                 "--partial-auc", "1,0.8"]) == 0
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("partial_auc"))
    assert f"{want:.4f}" in row and f"[{lo:.3f}, {hi:.3f}]" in row
    assert "sensitivity at specificity" not in out
    # --all shows the band in one row
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--score", "score",
                 "--all", "--no-intervals"]) == 0
    assert "sensitivity at specificity" not in capsys.readouterr().out  # no intervals: none
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--score", "score",
                 "--all"]) == 0
    rows = [ln for ln in capsys.readouterr().out.splitlines()
            if ln.strip().startswith("sensitivity at specificity 0.9")]
    # one row (a narrow terminal repeats its first cell in a second column group)
    assert len([r for r in rows if "[" in r]) == 1


@pytest.mark.parametrize("value, fragment", [
    ("0.8", "--partial-auc must be a specificity range"),
    ("0.8,1.2", "two different numbers in [0, 1]"),
    ("0.5,0.5", "two different numbers"),
    ("a,b", "such as 0.8,1.0"),
])
def test_report_partial_auc_bad_values(binary_file, capsys, value, fragment) -> None:
    assert main(["report", str(binary_file["path"]), "--true", "y", "--pred", "yhat",
                 "--score", "score", "--partial-auc", value]) == 2
    assert fragment in capsys.readouterr().err


def test_report_partial_auc_needs_exact_scores(binary_file, capsys) -> None:
    path = str(binary_file["path"])
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--partial-auc",
                 "0.8,1"]) == 2
    assert "--partial-auc needs exact scores" in capsys.readouterr().err
    assert main(["report", path, "--true", "y", "--pred", "yhat", "--score", "score",
                 "--bins", "20", "--partial-auc", "0.8,1"]) == 2
    assert "--partial-auc needs exact scores" in capsys.readouterr().err


def test_report_html_and_plots_carry_the_band(binary_file, tmp_path: Path, capsys) -> None:
    out, plots = tmp_path / "r.html", tmp_path / "plots"
    assert main(["report", str(binary_file["path"]), "--true", "y", "--pred", "yhat",
                 "--score", "score", "-o", str(out), "--plots", str(plots),
                 "--plot-format", "svg"]) == 0
    assert "shaded: 95% CI, stratified bootstrap (1000 resamples)" in out.read_text()
    assert '<g id="roc-ci-band">' in (plots / "roc.svg").read_text()


@pytest.fixture(scope="module")
def three_class(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(8)
    n, labels = 240, ["a", "b", "c"]
    y = rng.choice(labels, n)
    idx = np.searchsorted(labels, y)
    probs = {}
    for name, strength in (("m1", 0.4), ("m2", 2.0)):
        raw = rng.random((n, 3)) + np.eye(3)[idx] * strength
        probs[name] = raw / raw.sum(axis=1, keepdims=True)
    d = tmp_path_factory.mktemp("roccli3")
    one = d / "both.csv"
    with open(one, "w") as f:
        f.write("y,p1,p2,a1,b1,c1,a2,b2,c2\n")
        for i in range(n):
            cells = [y[i], labels[probs["m1"][i].argmax()], labels[probs["m2"][i].argmax()],
                     *probs["m1"][i], *probs["m2"][i]]
            f.write(",".join(str(v) for v in cells) + "\n")
    files = []
    for name in ("m1", "m2"):
        path = d / f"{name}.csv"
        with open(path, "w") as f:
            f.write("y,pred,pa,pb,pc\n")
            for i in range(n):
                f.write(",".join(str(v) for v in [y[i], labels[probs[name][i].argmax()],
                                                 *probs[name][i]]) + "\n")
        files.append(str(path))
    return {"y": y, "probs": probs, "one": str(one), "files": files}


def test_compare_multiclass_scores_give_hand_till_per_model(three_class, capsys) -> None:
    y, probs = three_class["y"], three_class["probs"]
    want = {m: roc_auc_score(y, p, multi_class="ovo", average="macro") for m, p in probs.items()}
    assert main(["compare", *three_class["files"], "--true", "y", "--pred", "pred", "--scores",
                 "pa,pb,pc", "-f", "json", "--no-intervals"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["table"]}
    for m in probs:
        assert rows[m]["hand_till_auc"] == pytest.approx(want[m], abs=1e-12)
    assert main(["compare", three_class["one"], "--true", "y", "--pred", "p1,p2", "--name",
                 "m1,m2", "--scores", "a1,b1,c1", "--scores", "a2,b2,c2", "-f", "json",
                 "--no-intervals"]) == 0
    d = json.loads(capsys.readouterr().out)
    rows = {r["model"]: r for r in d["table"]}
    for m in probs:
        assert rows[m]["hand_till_auc"] == pytest.approx(want[m], abs=1e-12)
    assert d["reports"][0]["multiclass_auc"]["levels"] == ["a", "b", "c"]
    # the terminal table has the column
    assert main(["compare", *three_class["files"], "--true", "y", "--pred", "pred", "--scores",
                 "pa,pb,pc", "--no-intervals"]) == 0
    assert "hand_till_auc" in capsys.readouterr().out


@pytest.mark.parametrize("args, fragment", [
    (["--scores", "a1,b1,c1"], "give --scores once per --pred column (2)"),
    (["--scores", "a1,b1,c1", "--score", "a1,a2"], "not both"),
    (["--scores", "a1,b1", "--scores", "a2,b2"], "has 2 columns but the labels are ['a', 'b', 'c']; give one score column per class"),
])
def test_compare_multiclass_score_errors(three_class, capsys, args, fragment) -> None:
    assert main(["compare", three_class["one"], "--true", "y", "--pred", "p1,p2",
                 *args]) == 2
    assert fragment in capsys.readouterr().err


def test_compare_several_files_take_one_scores_list(three_class, capsys) -> None:
    assert main(["compare", *three_class["files"], "--true", "y", "--pred", "pred", "--scores",
                 "pa,pb,pc", "--scores", "pa,pb,pc"]) == 2
    assert "with several files give --scores once" in capsys.readouterr().err


def test_compare_overlay_bands_option(binary_file, tmp_path: Path, capsys) -> None:
    path = str(binary_file["path"])
    files = [path, path, path]
    common = ["--true", "y", "--pred", "yhat", "--score", "score", "--no-intervals"]
    shaded = "Shaded lightly in each model"
    # without intervals no model has a band: nothing to shade, whatever the option says
    out = tmp_path / "none.html"
    assert main(["compare", *files, *common, "-o", str(out), "--overlay-bands"]) == 0
    assert shaded not in out.read_text()
    common = common[:-1]
    for extra, shown in (([], False), (["--overlay-bands"], True)):
        out = tmp_path / f"c{len(extra)}.html"
        assert main(["compare", *files, *common, "-o", str(out), *extra]) == 0
        assert (shaded in out.read_text()) is shown  # three models: off unless asked
    out = tmp_path / "two.html"
    assert main(["compare", path, path, *common, "-o", str(out)]) == 0
    assert shaded in out.read_text()
    assert main(["compare", path, path, *common, "-o", str(out), "--no-overlay-bands"]) == 0
    assert shaded not in out.read_text()
    capsys.readouterr()


# ------------------------------------------------------------------------------ partial AUC
# The sensitivity focus through the mirror identity: swapping the classes and negating the
# scores swaps the axes of the empirical ROC curve, so the area of specificity over a
# sensitivity range is the specificity-focus area of the mirrored problem.
def _sensitivity_oracle(y: np.ndarray, s: np.ndarray, a: float, b: float) -> float:
    return _mcclish_oracle(1 - y, -s, a, b)


@pytest.fixture(scope="module")
def two_models(tmp_path_factory: pytest.TempPathFactory) -> dict:
    rng = np.random.default_rng(31)
    n = 260
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + 1.2 * y, 2)
    b = np.round(0.5 * a + rng.normal(size=n) + 0.5 * y, 2)
    path = tmp_path_factory.mktemp("rocpauc") / "two.csv"
    with open(path, "w") as f:
        f.write("y,pa,pb,sa,sb\n")
        for row in zip(y, (a >= 0.5).astype(int), (b >= 0.5).astype(int), a, b, strict=True):
            f.write(",".join(str(v) for v in row) + "\n")
    return {"y": y, "scores": {"pa": a, "pb": b}, "path": str(path)}


def _compare_args(two_models: dict) -> list[str]:
    return ["compare", two_models["path"], "--true", "y", "--pred", "pa,pb", "--score",
            "sa,sb"]


@pytest.mark.parametrize("focus", [None, "sensitivity"])
def test_compare_partial_auc_json_and_csv(two_models, capsys, focus) -> None:
    y, sc = two_models["y"], two_models["scores"]
    extra = [] if focus is None else ["--partial-auc-focus", focus]
    oracle = _mcclish_oracle if focus is None else _sensitivity_oracle
    assert main([*_compare_args(two_models), "--partial-auc", "1,0.8", *extra, "-f", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    axis = focus or "specificity"
    assert d["partial_auc"]["focus"] == axis and d["partial_auc"]["range"] == [0.8, 1.0]
    assert d["partial_auc"]["interval_method"] == "stratified percentile bootstrap (1000 " \
                                                  "resamples)"
    for row in d["table"]:
        want = oracle(y, sc[row["model"]], 0.8, 1.0)
        assert row["partial_auc"] == pytest.approx(want, abs=1e-12)
        lo, hi = row["partial_auc_interval"]
        assert lo < want < hi
    (t,) = [t for t in d["comparison"]["pairwise"] if t["metric"] == "partial_auc"]
    assert t["method"] == "stratified bootstrap" and 0 <= t["pvalue"] <= 1
    assert all(r["partial_auc"]["focus"] == axis for r in d["reports"])
    assert main([*_compare_args(two_models), "--partial-auc", "0.8,1", *extra, "-f", "csv",
                 "--no-intervals"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    name = f"partial_auc[{axis} 0.8 to 1, McClish-corrected]"
    got = {r["model"]: float(r["value"]) for r in rows if r["metric"] == name}
    assert got == pytest.approx({m: oracle(y, s, 0.8, 1.0) for m, s in sc.items()}, abs=1e-12)
    (test_row,) = [r for r in rows if r["section"] == "test" and r["class"] == name]
    assert test_row["model"] == "pa vs pb" and test_row["metric"] == "stratified bootstrap"


def test_compare_csv_files_of_two_ranges_name_focus_bounds_and_correction(
        two_models, capsys, tmp_path: Path) -> None:
    """Two comparison CSV files of different partial ranges, written with -o and read back
    with the csv module: each names its partial AUC with the focus, the bounds and McClish's
    correction (in the metric column of the curve rows and the class column of the tests), so
    the files no longer look alike; the values are the oracle's for that range and focus."""
    import re

    y, sc = two_models["y"], two_models["scores"]
    runs = [("spec.csv", ["--partial-auc", "1,0.8"], _mcclish_oracle,
             ("specificity", 0.8, 1.0)),
            ("sens.csv", ["--partial-auc", "0.9,1", "--partial-auc-focus", "sensitivity"],
             _sensitivity_oracle, ("sensitivity", 0.9, 1.0))]
    seen = []
    for file, args, oracle, (focus, a, b) in runs:
        out = tmp_path / file
        assert main([*_compare_args(two_models), *args, "--no-intervals", "-o", str(out)]) == 0
        with open(out, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        curve = [r for r in rows if r["section"] == "curve"
                 and r["metric"].startswith("partial_auc")]
        assert sorted(r["model"] for r in curve) == ["pa", "pb"]
        (name,) = {r["metric"] for r in curve}
        m = re.fullmatch(r"partial_auc\[(\w+) ([\d.]+) to ([\d.]+), ([\w-]+)\]", name)
        assert m is not None, name
        assert (m[1], float(m[2]), float(m[3]), m[4]) == (focus, a, b, "McClish-corrected")
        got = {r["model"]: float(r["value"]) for r in curve}
        assert got == pytest.approx({k: oracle(y, s, a, b) for k, s in sc.items()}, abs=1e-12)
        tests = [r for r in rows if r["section"] == "test" and r["class"] != "accuracy"]
        assert [(r["model"], r["class"]) for r in tests] == [("pa vs pb", name)]
        assert not any(r["metric"] == "partial_auc" or r["class"] == "partial_auc" for r in rows)
        seen.append(name)
    assert seen == ["partial_auc[specificity 0.8 to 1, McClish-corrected]",
                    "partial_auc[sensitivity 0.9 to 1, McClish-corrected]"]
    capsys.readouterr()


def test_compare_partial_auc_terminal_and_html(two_models, capsys, tmp_path: Path) -> None:
    y, sc = two_models["y"], two_models["scores"]
    args = [*_compare_args(two_models), "--partial-auc", "0.8,1", "--partial-auc-focus",
            "sensitivity"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Models side by side (partial_auc: sensitivity 0.8 to 1, McClish-corrected;" in out
    for m, s in sc.items():
        want = f"{_sensitivity_oracle(y, s, 0.8, 1.0):.4f}"
        assert any(ln.strip().startswith(m) and want in ln for ln in out.splitlines())
    test_line = next(ln for ln in out.splitlines() if "partial_auc  stratified bootstrap" in ln)
    assert test_line.split()[:2] == ["pa", "pb"]
    page = tmp_path / "cmp.html"
    assert main([*args, "-o", str(page)]) == 0
    html = page.read_text()
    assert "<th>partial_auc</th>" in html
    assert '<p class="note partial-auc">partial_auc: the partial AUC on sensitivity 0.8 to 1, ' \
           "McClish-corrected (McClish 1989)" in html
    capsys.readouterr()


@pytest.mark.parametrize("args, fragment", [
    (["--partial-auc", "0.8"], '--partial-auc must be a specificity range "LOW,HIGH" of two '
                               "different numbers in [0, 1]"),
    (["--partial-auc", "0.8,1.2"], "two different numbers in [0, 1] such as 0.8,1.0, got "
                                   "'0.8,1.2'"),
    (["--partial-auc", "0.5,0.5"], "two different numbers"),
    (["--partial-auc", "a,b", "--partial-auc-focus", "sensitivity"],
     '--partial-auc must be a sensitivity range "LOW,HIGH"'),
    (["--partial-auc-focus", "sensitivity"], "--partial-auc-focus sensitivity needs "
                                             "--partial-auc LOW,HIGH"),
    (["--partial-auc", "0.8,1", "--partial-auc-focus", "fpr"],
     "Invalid value for '--partial-auc-focus'"),
])
def test_compare_partial_auc_bad_values(two_models, capsys, args, fragment) -> None:
    assert main([*_compare_args(two_models), *args, "--no-intervals"]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_compare_partial_auc_needs_binary_scores(two_models, three_class, capsys) -> None:
    assert main(["compare", two_models["path"], "--true", "y", "--pred", "pa,pb",
                 "--partial-auc", "0.8,1"]) == 2
    err = capsys.readouterr().err
    assert "--partial-auc needs --score: one column of positive-class scores per model" in err
    assert main(["compare", *three_class["files"], "--true", "y", "--pred", "pred", "--scores",
                 "pa,pb,pc", "--partial-auc", "0.8,1"]) == 2
    assert "--partial-auc needs --score" in capsys.readouterr().err
    assert main(["compare", *three_class["files"], "--true", "y", "--pred", "pred", "--score",
                 "pa", "--pos-label", "a", "--partial-auc", "0.8,1"]) == 2
    err = capsys.readouterr().err
    assert "partial_auc needs a binary problem" in err and "Traceback" not in err


def test_report_partial_auc_sensitivity_focus(binary_file, capsys) -> None:
    y, s, path = binary_file["y"], binary_file["s"], str(binary_file["path"])
    base = ["report", path, "--true", "y", "--pred", "yhat", "--score", "score"]
    assert main([*base, "--partial-auc", "0.9,1", "--partial-auc-focus", "sensitivity",
                 "-f", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["partial_auc"]
    want = _sensitivity_oracle(y, s, 0.9, 1.0)
    assert d["focus"] == "sensitivity" and d["range"] == [0.9, 1.0]
    assert d["value"] == pytest.approx(want, abs=1e-12)
    assert d["value"] != pytest.approx(_mcclish_oracle(y, s, 0.9, 1.0), abs=1e-6)
    assert main([*base, "--partial-auc", "0.9,1", "--partial-auc-focus", "sensitivity"]) == 0
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("partial_auc"))
    assert f"{want:.4f}" in row and "sensitivity 0.9 to 1" in row
    assert main([*base, "--partial-auc-focus", "sensitivity"]) == 2
    assert "--partial-auc-focus sensitivity needs --partial-auc" in capsys.readouterr().err
    assert main([*base, "--by", "yhat", "--partial-auc-focus", "sensitivity"]) == 2
    assert "not --scores, --cost or --partial-auc" in capsys.readouterr().err
