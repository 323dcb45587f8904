"""Adversarial differential probe of ``confmat.io``: random frames written to every format the
documentation lists (docs/scaling.md, "Files and databases") and read back with
``io.evaluate_file`` / ``io.evaluate_sql``, against an oracle computed in the test from the
same Python values.

Oracles (never confmat): the rows kept are found by plain Python over the values written,
each skip counted by the documented precedence (null true label, null prediction, null or NaN
score, null or NaN weight, null in a group column); the matrix is scikit-learn's
``confusion_matrix`` of the kept rows (labels coded by their sorted Python values, so that
float and text labels reach it as integer codes), weighted by ``sample_weight``; the score
histograms are ``numpy.histogram`` with the documented edges ``j / bins``
(``confmat.inputs.scores.histogram_edges`` is not called); the files are written by Python's
``csv`` and ``json``, pyarrow and numpy.
"""

from __future__ import annotations

import csv
import io as pyio
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
duckdb = pytest.importorskip("duckdb")
sk_metrics = pytest.importorskip("sklearn.metrics")

from confmat import io as cio  # noqa: E402
from io_files import write_compressed  # noqa: E402
from stray_rule import scored_classes  # noqa: E402

# ------------------------------------------------------------------------------ values
#: label pools per kind; text holds the characters CSV and JSON must quote or escape, a long
#: field and a null spelling that is a class name by default ("NA"); "" is left to its own
#: test (an empty CSV field is missing by the documented convention)
POOLS: dict[str, list[Any]] = {
    "int": [-3, 0, 1, 2, 2**40],
    "float": [-0.0, 1.0, 2.5, -1.25, 1e300],
    "str": ["a", "b", "a,b", 'q"u', "new\nline", "t\tab", "\u03a9\U0001f600", "NA",
            "x" * 3000, " lead"],
    "bool": [False, True],
}
PA_TYPES = {"int": pa.int64(), "float": pa.float64(), "str": pa.string(), "bool": pa.bool_()}
WEIGHTS = [0.0, 0.5, 1.0, 2.0, 3.25]
GROUPS = ["A", "B", "c d"]

#: every format of the table in docs/scaling.md, as the name of the written source
FILE_FORMATS = ["p.csv", "p.tsv", "p.csv.gz", "p.csv.zst", "p.csv.bz2", "p.tsv.gz", "p.jsonl",
                "p.jsonl.gz", "p.jsonl.zst", "p.parquet", "dir", "glob", "p.arrow", "p.feather",
                "p.npz", "p.npy"]
#: formats counted with ``group_cols``: every one (Arrow IPC and NumPy scanned by DuckDB where
#: they are)
GROUP_FORMATS = {*FILE_FORMATS, "sql"}


def is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


# ------------------------------------------------------------------------------ writers
def text_field(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)  # nan, inf, -0.0, 1e+300 as Python spells them
    return v


def write_csv(path: Path, cols: dict[str, list[Any]], sep: str) -> None:
    buf = pyio.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(list(cols))
    for row in zip(*cols.values(), strict=True):
        w.writerow([text_field(v) for v in row])
    write_compressed(path, buf.getvalue().encode())


def write_jsonl(path: Path, cols: dict[str, list[Any]]) -> None:
    lines = []
    for row in zip(*cols.values(), strict=True):
        rec = {k: (None if is_missing(v) else v) for k, v in zip(cols, row, strict=True)}
        lines.append(json.dumps(rec, allow_nan=False))
    write_compressed(path, ("\n".join(lines) + "\n").encode())


def arrow_table(cols: dict[str, list[Any]], types: dict[str, Any]) -> Any:
    return pa.table({k: pa.array(v, type=types[k], from_pandas=False)
                     for k, v in cols.items()})


def write_source(root: Path, name: str, cols: dict[str, list[Any]],
                 types: dict[str, Any]) -> Any:
    """Write the columns as ``name`` under ``root``; return what evaluate_file reads (a path)
    or, for ``"sql"``, a DuckDB connection to a database file holding table ``t``."""
    path = root / name
    table = arrow_table(cols, types)
    if name.startswith("p.csv"):
        write_csv(path, cols, ",")
    elif name.startswith("p.tsv"):
        write_csv(path, cols, "\t")
    elif name.startswith("p.jsonl"):
        write_jsonl(path, cols)
    elif name == "p.parquet":
        pq.write_table(table, path, row_group_size=7)
    elif name in ("dir", "glob"):
        path.mkdir()
        half = table.num_rows // 2
        pq.write_table(table.slice(0, half), path / "part-0.parquet")
        pq.write_table(table.slice(half), path / "part-1.parquet")
        if name == "glob":
            return str(path / "part-*.parquet")
    elif name == "p.arrow":
        feather.write_feather(table, path, chunksize=5)
    elif name == "p.feather":
        feather.write_feather(table, path, compression="zstd")
    elif name == "p.npz":
        np.savez(path, **{k: np.array([np.nan if v is None else v for v in c])
                          for k, c in cols.items()})
    elif name == "p.npy":  # one structured array, a field per column
        arrays = {k: np.array([np.nan if v is None else v for v in c]) for k, c in cols.items()}
        rec = np.zeros(len(cols["y"]), dtype=[(k, a.dtype) for k, a in arrays.items()])
        for k, a in arrays.items():
            rec[k] = a
        np.save(path, rec)
    elif name == "sql":
        con = duckdb.connect(str(root / "warehouse.duckdb"))
        con.register("incoming", table)
        con.execute("CREATE TABLE t AS SELECT * FROM incoming")
        con.unregister("incoming")
        return con
    else:  # pragma: no cover - a name of this list
        raise AssertionError(name)
    return str(path)


def evaluate(src: Any, name: str, true_col: str, pred_col: str, **kw: Any) -> tuple[Any, Any]:
    if name == "sql":
        return cio.evaluate_sql(src, "SELECT * FROM t", true_col=true_col, pred_col=pred_col,
                                **kw)
    return cio.evaluate_file(src, true_col, pred_col, **kw)


# ------------------------------------------------------------------------------ oracle
def oracle(cols: dict[str, list[Any]], *, score: str | None = None, weight: str | None = None,
           group: str | None = None) -> tuple[list[int], dict[str, int]]:
    """The rows kept and the skipped rows per reason, by the documented precedence."""
    order = [("y", "null true label"), ("yhat", "null prediction")]
    if score:
        order.append((score, "null or NaN score"))
    if weight:
        order.append((weight, "null or NaN weight"))
    if group:
        order.append((group, f"null in group column {group!r}"))
    kept, reasons = [], {}
    for i in range(len(cols["y"])):
        for col, reason in order:
            if is_missing(cols[col][i]):
                reasons[reason] = reasons.get(reason, 0) + 1
                break
        else:
            kept.append(i)
    return kept, reasons


def sk_matrix(y: list[Any], yhat: list[Any], w: list[float] | None) -> tuple[list[Any], Any]:
    """scikit-learn's matrix of labels coded by their sorted Python values."""
    labels = sorted(set(y) | set(yhat))
    code = {v: i for i, v in enumerate(labels)}
    m = sk_metrics.confusion_matrix([code[v] for v in y], [code[v] for v in yhat],
                                    labels=list(range(len(labels))), sample_weight=w)
    return labels, m


def assert_same_labels(got: list[Any], want: list[Any]) -> None:
    assert got == want
    assert [type(v) for v in got] == [type(v) for v in want]


# ------------------------------------------------------------------------------ frames
@st.composite
def frames(draw: Any, kind: str | None = None, binary: bool = False) -> dict[str, Any]:
    kind = kind or draw(st.sampled_from(sorted(POOLS)))
    pool = POOLS[kind]
    if binary:
        pool = draw(st.permutations(pool))[:2]
    n = draw(st.integers(2, 30))
    p_null = draw(st.sampled_from([0.0, 0.1, 0.3]))

    def col(values: list[Any], null: Any = None) -> list[Any]:
        out = []
        for _ in range(n):
            out.append(null if draw(st.floats(0, 1)) < p_null else draw(st.sampled_from(values)))
        return out

    cols = {"y": col(pool), "yhat": col(pool), "w": col(WEIGHTS), "g": col(GROUPS)}
    # scores: the range's ends, edges of small bin counts, NaN and null
    scores = [0.0, 1.0, 0.5, 0.25, 1 / 3, 0.7, 0.999, 0.1, 0.3]
    cols["s"] = col(scores)
    return {"kind": kind, "cols": cols, "pool": sorted(pool)}


def column_types(kind: str) -> dict[str, Any]:
    return {"y": PA_TYPES[kind], "yhat": PA_TYPES[kind], "w": pa.float64(), "g": pa.string(),
            "s": pa.float64()}


def fits(name: str, kind: str, cols: dict[str, list[Any]]) -> bool:
    """Whether the format can hold the frame: NumPy has no null beside float NaN (a text
    group column with a null would hold the text 'nan')."""
    if name not in ("p.npz", "p.npy"):
        return True
    if any(v is None for v in cols["g"]):
        return False
    return kind == "float" or not any(v is None for c in ("y", "yhat") for v in cols[c])


PROBE = settings(max_examples=int(os.environ.get("PROBE_N", "12")), deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])


@PROBE
@given(frame=frames(), weighted=st.booleans(), by_group=st.booleans())
def test_random_frames_in_every_format_equal_sklearn(tmp_path_factory, frame, weighted,
                                                     by_group):
    kind, cols = frame["kind"], frame["cols"]
    weight = "w" if weighted else None
    group = "g" if by_group else None
    kept, reasons = oracle(cols, weight=weight, group=group)
    y = [cols["y"][i] for i in kept]
    yhat = [cols["yhat"][i] for i in kept]
    w = [cols["w"][i] for i in kept] if weighted else None
    root = tmp_path_factory.mktemp("frame")
    for name in [*FILE_FORMATS, "sql"]:
        if not fits(name, kind, cols) or (by_group and name not in GROUP_FORMATS):
            continue
        sub = root / name.replace("*", "_")
        sub.mkdir()
        src = write_source(sub, name, cols, column_types(kind))
        kw: dict[str, Any] = {"skip_invalid": True, "weight_col": weight}
        if by_group:
            kw["group_cols"] = "g"
        if not kept:
            with pytest.raises(ValueError, match="no valid rows"):
                evaluate(src, name, "y", "yhat", **kw)
            continue
        if weighted and not any(w):  # scikit-learn refuses all-zero weights too
            with pytest.raises(ValueError, match="sample_weight must contain at least one"):
                evaluate(src, name, "y", "yhat", **kw)
            continue
        got, report = evaluate(src, name, "y", "yhat", **kw)
        assert (report.rows_read, report.skipped_by_reason) == (len(kept), reasons), name
        assert report.rows_read + report.rows_skipped == len(cols["y"]), name
        labels, want = sk_matrix(y, yhat, w)
        if by_group:
            if len(labels) == 1 and labels[0] == 0 and kind != "str":
                # by_group's documented rule: a table of the negative class 0 (False) alone
                # gains the positive class 1 (True), empty (as in memory; see
                # tests/test_groups_io.py, test_file_of_one_class_gets_the_positive_class)
                labels = [labels[0], type(labels[0])(1)]
            assert_same_labels(got.labels, labels)
            groups = sorted({cols["g"][i] for i in kept})
            assert got.groups == groups, name
            assert got.stack.shape == (len(groups), len(labels), len(labels))
            code = {v: j for j, v in enumerate(labels)}
            gcode = {v: j for j, v in enumerate(groups)}
            stack = np.zeros(got.stack.shape)  # the cells summed by hand
            for i in kept:
                stack[gcode[cols["g"][i]], code[cols["y"][i]], code[cols["yhat"][i]]] += (
                    cols["w"][i] if weighted else 1)
            np.testing.assert_allclose(got.stack, stack, rtol=1e-12, err_msg=name)
        else:
            assert_same_labels(got.labels, labels)
            np.testing.assert_allclose(got.counts, want, rtol=1e-12, err_msg=name)
        if name == "sql":
            src.close()


# ------------------------------------------------------------------------------ weights
@pytest.mark.parametrize("name", ["p.csv", "p.parquet", "p.arrow", "sql"])
def test_all_zero_weights_are_refused_naming_the_weight_column(tmp_path, name):
    """Every weight 0: scikit-learn's confusion_matrix and ``by_group`` in memory refuse it,
    and so does every file path, with one message naming the source and the weight column
    (the ungrouped counted path said ``chunk 1:``, the accumulator's name for its first
    update, and named no column; the streamed path did not name the file)."""
    cols = {"y": [0, 1, 1], "yhat": [0, 1, 0], "w": [0.0, 0.0, 0.0], "g": ["A", "B", "A"],
            "s0": [0.5, 0.25, 1.0], "s1": [0.5, 0.75, 0.0]}
    types = {"y": pa.int64(), "yhat": pa.int64(), "w": pa.float64(), "g": pa.string(),
             "s0": pa.float64(), "s1": pa.float64()}
    src = write_source(tmp_path, name, cols, types)
    import sklearn

    # scikit-learn refuses them from 1.9 on (1.8 and older do not)
    if tuple(int(v) for v in sklearn.__version__.split(".")[:2]) >= (1, 9):
        with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero"):
            sk_metrics.confusion_matrix(cols["y"], cols["yhat"], sample_weight=cols["w"])
    ways: list[dict[str, Any]] = [{}, {"score_cols": "s1"}, {"score_cols": ["s0", "s1"]},
                                  {"where": "y >= 0"}]
    if name in GROUP_FORMATS:
        ways.append({"group_cols": "g"})
    messages = set()
    try:
        for kw in ways:
            with pytest.raises(ValueError) as info:
                evaluate(src, name, "y", "yhat", weight_col="w", **kw)
            messages.add(str(info.value))
    finally:
        if name == "sql":
            src.close()
    assert len(messages) == 1, messages
    message = messages.pop()
    assert message.endswith(": column 'w': sample_weight must contain at least one non-zero "
                            "weight"), message
    assert message.startswith("the query" if name == "sql" else "file "), message
    assert "chunk" not in message


# ------------------------------------------------------------------------------ scores
def hist_oracle(cols: dict[str, list[Any]], kept: list[int], labels: list[Any], bins: int,
                weighted: bool) -> np.ndarray:
    """numpy.histogram of each class's scores over the documented edges ``j / bins``."""
    edges = np.arange(bins + 1) / bins
    out = np.zeros((len(labels), 1, bins))
    for c, lab in enumerate(labels):
        rows = [i for i in kept if cols["y"][i] == lab]
        out[c, 0] = np.histogram([cols["s"][i] for i in rows], bins=edges,
                                 weights=[cols["w"][i] for i in rows] if weighted else None)[0]
    return out


@PROBE
@given(frame=frames(binary=True), weighted=st.booleans(), bins=st.sampled_from([1, 3, 10, 1000]),
       fixed=st.booleans())
def test_random_scores_in_every_format_equal_numpy_histogram(tmp_path_factory, frame, weighted,
                                                             bins, fixed):
    kind, cols = frame["kind"], frame["cols"]
    weight = "w" if weighted else None
    kept, reasons = oracle(cols, score="s", weight=weight)
    y = [cols["y"][i] for i in kept]
    yhat = [cols["yhat"][i] for i in kept]
    w = [cols["w"][i] for i in kept] if weighted else None
    # labels= fixes both classes; without it they are the sorted classes of the kept rows
    labels = frame["pool"] if fixed else sorted(set(y) | set(yhat))
    # the documented rule of the class one score column scores (docs/cli.md, "Predicted
    # labels beside scores"): beside a truth of one class, that truth's positive class, which
    # {0, 1}, {-1, 1} and {False, True} imply (1 / True) and text labels do not
    truth = set(y)
    implied = truth <= {0, 1} or truth <= {-1, 1}
    unscored = not fixed and len(truth) == 1 and not implied
    # two true classes found that imply none (text): the column's class is named, here the
    # second (docs/scaling.md, "The positive class of one score column")
    named = {"pos_label": sorted(truth)[1]} if not fixed and len(truth) == 2 and not implied \
        else {}
    positive = True if kind == "bool" else 1
    one_truth = not fixed and len(truth) == 1 and implied
    # a predicted label that is no class of that truth nor the positive class is stray
    stray = one_truth and not set(yhat) <= scored_classes(y, yhat, positive)
    if one_truth and len(labels) == 2 and not stray:
        # the histogram's classes [other, positive] (the second scored)
        labels_hist = [v for v in labels if v != positive] + [positive]
    else:
        labels_hist = labels
    root = tmp_path_factory.mktemp("scores")
    for name in [*FILE_FORMATS, "sql"]:
        if not fits(name, kind, cols):
            continue
        sub = root / name
        sub.mkdir()
        src = write_source(sub, name, cols, column_types(kind))
        kw: dict[str, Any] = {"skip_invalid": True, "weight_col": weight, "score_cols": "s",
                              "bins": bins, "labels": labels if fixed else None, **named}
        try:
            if not kept:
                with pytest.raises(ValueError, match="no valid rows"):
                    evaluate(src, name, "y", "yhat", **kw)
                continue
            if weighted and not any(w):
                # both refusals apply when the column scores no class or a prediction is
                # stray: either comes first
                why = "sample_weight must contain at least one" + (
                    "|pos_label is not specified" if unscored else "") + (
                    "|which is not one of the classes" if stray else "")
                with pytest.raises(ValueError, match=why):
                    evaluate(src, name, "y", "yhat", **kw)
                continue
            if unscored:
                with pytest.raises(ValueError, match="pos_label is not specified"):
                    evaluate(src, name, "y", "yhat", **kw)
                continue
            if stray:
                with pytest.raises(ValueError, match="which is not one of the classes"):
                    evaluate(src, name, "y", "yhat", **kw)
                continue
            got, report = evaluate(src, name, "y", "yhat", **kw)
            code = {v: j for j, v in enumerate(labels)}
            want = sk_metrics.confusion_matrix([code[v] for v in y], [code[v] for v in yhat],
                                               labels=list(range(len(labels))), sample_weight=w)
        finally:
            if name == "sql":
                src.close()
        assert (report.rows_read, report.skipped_by_reason) == (len(kept), reasons), name
        assert_same_labels(got.labels, labels)
        np.testing.assert_allclose(got.counts, want, rtol=1e-12, err_msg=name)
        if len(labels) == 1:
            # one class seen: the histogram of its implied positive class (1 / True), the
            # samples in the row of that class or of the other one, named 0 / False
            hist_labels = [False, True] if kind == "bool" else [0, 1]
            assert report.curves.labels == hist_labels, name
            only = hist_oracle(cols, kept, labels, bins, weighted)[0]
            rows = [only, np.zeros_like(only)] if labels[0] != positive else [
                np.zeros_like(only), only]
            np.testing.assert_allclose(report.curves.counts, np.stack(rows), rtol=1e-12,
                                       err_msg=name)
            continue
        assert report.curves.labels == labels_hist, name
        np.testing.assert_allclose(report.curves.counts,
                                   hist_oracle(cols, kept, labels_hist, bins, weighted),
                                   rtol=1e-12, err_msg=name)


# ------------------------------------------------------------------------------ options
NAMES = ["a b", 'x"y', "it's", "\u03a9 \u00e9", "select", "from", "y) ; drop table t; --"]


@pytest.mark.parametrize("name", ["p.csv", "p.jsonl", "p.parquet", "p.arrow", "sql"])
def test_column_names_that_are_sql_are_only_names(tmp_path, name):
    """Column names with spaces, quotes, unicode, SQL keywords and SQL text are quoted: each
    column is read as itself (oracle: scikit-learn on the values written), by group too."""
    y, yhat, w = [1, 0, 1, 1], [1, 1, 0, 1], [1.0, 2.0, 3.0, 0.5]
    cols = {NAMES[0]: y, NAMES[1]: yhat, NAMES[2]: w, NAMES[3]: ["A", "B", "A", "B"],
            NAMES[4]: [0.1, 0.9, 0.4, 0.8], NAMES[5]: [1, 1, 1, 0], NAMES[6]: [0, 0, 0, 0]}
    types = {k: pa.float64() if k in NAMES[2:5:2] else pa.string() if k == NAMES[3]
             else pa.int64() for k in cols}
    src = write_source(tmp_path, name, cols, types)
    try:
        cm, report = evaluate(src, name, NAMES[0], NAMES[1], weight_col=NAMES[2],
                              score_cols=NAMES[4], bins=4)
        np.testing.assert_allclose(cm.counts, sk_metrics.confusion_matrix(y, yhat,
                                                                          sample_weight=w))
        if name in GROUP_FORMATS:  # by hand: A holds rows 1, 3 (1 -> 0 twice), B 2, 4
            ev, _ = evaluate(src, name, NAMES[5], NAMES[6], group_cols=[NAMES[3]])
            assert ev.names == [NAMES[3]] and ev.groups == ["A", "B"]
            np.testing.assert_array_equal(ev.stack, [[[0, 0], [2, 0]], [[1, 0], [1, 0]]])
        quoted = '"' + NAMES[1].replace('"', '""') + '"'
        cm, report = evaluate(src, name, NAMES[0], NAMES[1], where=f"{quoted} = 1")
        assert report.skipped_by_reason == {"user filter": 1}
        np.testing.assert_array_equal(cm.counts, sk_metrics.confusion_matrix(
            [1, 0, 1], [1, 1, 1], labels=[0, 1]))
    finally:
        if name == "sql":
            src.close()


@pytest.mark.parametrize("read", ["evaluate_file", "read_columns"])
def test_where_cannot_read_other_files_through_a_subquery(tmp_path, read):
    """``where=`` is a SQL condition over the source's columns (docs/scaling.md). A subquery
    in it reached any file DuckDB can read: the count below depended on another file, and an
    error message carried that file's text out (the cast of its content). Both must be
    refused as not a condition over the source's columns, and so must text that closes the
    parentheses the condition is put in."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET\n")
    path = tmp_path / "p.csv"
    path.write_text("y,yhat\n1,1\n0,1\n")

    def run(where: str) -> Any:
        if read == "read_columns":
            return cio.read_columns(path, ["y", "yhat"], where=where)
        return cio.evaluate_file(path, "y", "yhat", where=where)

    with pytest.raises(ValueError, match="where") as info:
        run(f"cast((SELECT content FROM read_text('{secret}')) AS INT) = 1")
    assert "TOPSECRET" not in str(info.value)
    with pytest.raises(ValueError, match="where"):
        run(f"(SELECT count(*) FROM read_csv('{path}')) = 2")
    # text that closes the filter's parentheses: the filter became `coalesce((true), false)`,
    # its `y = 1` a column of its own, and every row was kept, silently
    with pytest.raises(ValueError, match="where"):
        run("y = 1), false) AS a, coalesce((true")




@PROBE
@given(frame=frames(kind="int"), weighted=st.booleans())
def test_hive_partition_columns_as_labels_and_groups(tmp_path_factory, frame, weighted):
    """A hive-partitioned Parquet directory (pyarrow's writer; a null partition value is its
    ``__HIVE_DEFAULT_PARTITION__`` directory): the partition column read as a group column
    and as the true label, against the values written, counted by hand and by scikit-learn."""
    cols = frame["cols"]
    weight = "w" if weighted else None
    root = tmp_path_factory.mktemp("hive")
    table = arrow_table(cols, column_types("int"))
    pq.write_to_dataset(table, root / "by_g", partition_cols=["g"])
    pq.write_to_dataset(table.drop(["g"]), root / "by_y", partition_cols=["y"])
    kept, reasons = oracle(cols, weight=weight, group="g")
    w_kept = [cols["w"][i] for i in kept] if weighted else []
    if kept and (not weighted or any(w_kept)):
        ev, report = cio.evaluate_file(root / "by_g", "y", "yhat", group_cols="g",
                                       weight_col=weight, skip_invalid=True)
        assert (report.rows_read, report.skipped_by_reason) == (len(kept), reasons)
        groups = sorted({cols["g"][i] for i in kept})
        assert ev.groups == groups
        labels = ev.labels
        code = {v: j for j, v in enumerate(labels)}
        stack = np.zeros((len(groups), len(labels), len(labels)))
        for i in kept:
            stack[groups.index(cols["g"][i]), code[cols["y"][i]], code[cols["yhat"][i]]] += (
                cols["w"][i] if weighted else 1)
        assert set(labels) >= {cols[c][i] for i in kept for c in ("y", "yhat")}
        np.testing.assert_allclose(ev.stack, stack, rtol=1e-12)
    kept, reasons = oracle(cols, weight=weight)
    y = [cols["y"][i] for i in kept]
    yhat = [cols["yhat"][i] for i in kept]
    w = [cols["w"][i] for i in kept] if weighted else None
    if not kept or (weighted and not any(w)):
        with pytest.raises(ValueError):
            cio.evaluate_file(root / "by_y", "y", "yhat", weight_col=weight, skip_invalid=True)
        return
    cm, report = cio.evaluate_file(root / "by_y", "y", "yhat", weight_col=weight,
                                   skip_invalid=True)
    labels, want = sk_matrix(y, yhat, w)
    assert (report.rows_read, report.skipped_by_reason) == (len(kept), reasons)
    assert_same_labels(cm.labels, labels)
    np.testing.assert_allclose(cm.counts, want, rtol=1e-12)


@pytest.mark.parametrize("name", ["p.csv", "p.parquet", "p.arrow", "p.npz", "sql"])
@pytest.mark.parametrize("bad", [math.inf, -math.inf, 1.5, -0.25])
def test_scores_outside_the_range_are_errors_not_skips(tmp_path, name, bad):
    """The documented range of a score is [0, 1]; an infinite or outside score is an error
    naming the column and its 1-based data row on every path, with skip_invalid too (it is not
    a missing value), and NaN is a skip. The streamed path (Arrow IPC, NumPy) named the
    argument ``y_score`` and a 0-based position in the batch ("at row 1") instead."""
    cols = {"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0], "s": [0.2, bad, math.nan, 0.0]}
    types = {"y": pa.int64(), "yhat": pa.int64(), "s": pa.float64()}
    for sub, score in (("bad", bad), ("ok", 1.0)):
        cols["s"][1] = score
        (tmp_path / sub).mkdir()
        src = write_source(tmp_path / sub, name, cols, types)
        try:
            if sub == "bad":
                with pytest.raises(ValueError, match=r"row 2: column 's' holds a score"):
                    evaluate(src, name, "y", "yhat", score_cols="s", skip_invalid=True)
                continue
            _, report = evaluate(src, name, "y", "yhat", score_cols="s", skip_invalid=True,
                                 bins=2)
        finally:
            if name == "sql":
                src.close()
    assert report.skipped_by_reason == {"null or NaN score": 1}
    np.testing.assert_array_equal(report.curves.counts[:, 0],
                                  [np.histogram([0.2, 0.0], bins=[0, .5, 1])[0],
                                   np.histogram([1.0], bins=[0, .5, 1])[0]])


@pytest.mark.parametrize("name", ["p.csv", "p.tsv.gz", "p.jsonl", "p.parquet", "p.arrow", "sql"])
def test_an_empty_string_is_missing_in_csv_only(tmp_path, name):
    """The documented difference (docs/scaling.md, "Missing values and class names"): an empty
    CSV / TSV field is missing; in JSON lines, Parquet, Arrow and SQL the empty
    string is a class. Oracle: scikit-learn on the values written, with or without ""."""
    cols = {"y": ["", "a", "b", "a"], "yhat": ["a", "", "b", "a"]}
    types = {"y": pa.string(), "yhat": pa.string()}
    src = write_source(tmp_path, name, cols, types)
    try:
        cm, report = evaluate(src, name, "y", "yhat", skip_invalid=True)
    finally:
        if name == "sql":
            src.close()
    text = name.startswith(("p.csv", "p.tsv"))
    kept = [2, 3] if text else [0, 1, 2, 3]
    labels, want = sk_matrix([cols["y"][i] for i in kept], [cols["yhat"][i] for i in kept], None)
    assert report.skipped_by_reason == (
        {"null true label": 1, "null prediction": 1} if text else {})
    assert_same_labels(cm.labels, labels)
    np.testing.assert_array_equal(cm.counts, want)


# ------------------------------------------------------------------------------ JSON types
@pytest.mark.parametrize("rows", [
    [{"y": 1.5, "yhat": "a"}, {"y": "a", "yhat": "a"}],     # a number and a text
    [{"y": {"k": 1}, "yhat": "a"}, {"y": "a", "yhat": "a"}],  # an object and a text
])
def test_a_json_column_of_mixed_kinds_is_refused_not_read_as_json_text(tmp_path, rows):
    """Oracle: Python's json reads y as [1.5, 'a'] (or an object and 'a'): a label column
    mixing numbers (objects) and text, which docs/scaling.md ("Labels keep their type"; "Any
    other mix ... is a ValueError naming the column") refuses. The io path returned a matrix
    whose classes '"a"' (y, as JSON text) and 'a' (yhat) differ: the second row, a correct
    prediction of 'a', was counted as an error."""
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    back = [json.loads(line) for line in path.read_text().splitlines()]
    assert {type(r["y"]) for r in back} != {str}  # the file holds a label that is not text
    with pytest.raises(ValueError, match=r"column 'y' holds values of type .*column_types="):
        cio.evaluate_file(path, "y", "yhat")
    if all(isinstance(r["y"], float | str) for r in back):  # the hint's reading: text labels
        cm, _ = cio.evaluate_file(path, "y", "yhat", column_types={"y": "string"})
        y = [str(r["y"]) for r in back]
        yhat = [r["yhat"] for r in back]
        labels = sorted(set(y) | set(yhat))
        assert cm.labels == labels
        np.testing.assert_array_equal(cm.counts,
                                      sk_metrics.confusion_matrix(y, yhat, labels=labels))


def read_rows(files: list[Path]) -> list[dict[str, Any]]:
    """Every row of CSV or JSON lines files, concatenated, by Python's csv / json modules."""
    rows: list[dict[str, Any]] = []
    for f in files:
        if f.suffix == ".csv":
            with f.open(newline="") as fh:
                rows += [{k: (None if v == "" else int(v)) for k, v in r.items()}
                         for r in csv.DictReader(fh)]
        else:
            rows += [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
    return rows


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".ndjson"])
@pytest.mark.parametrize("empty_first", [True, False])
@pytest.mark.parametrize("pattern", ["glob", "dir"])
def test_a_file_with_no_data_row_among_others_adds_no_row(tmp_path, ext, empty_first, pattern):
    """A glob or directory of CSV files one of which is its header alone (or of JSON lines
    files one of which is empty, 0 bytes): such a file holds no value of any kind, so its
    sniffed types (all VARCHAR for a CSV header) take no part in the unification of the
    files' types, which refused the source; it adds no row, and the row accounting still
    covers every row. Oracle: Python's csv / json modules reading every file, the rows
    concatenated, counted by scikit-learn."""
    empty, full = ("a", "b") if empty_first else ("b", "a")
    if ext == ".csv":
        (tmp_path / f"{empty}.csv").write_text("y,yhat\n")
        (tmp_path / f"{full}.csv").write_text("y,yhat\n1,1\n0,1\n1,0\n,1\n")
        (tmp_path / "c.csv").write_text("y,yhat\n0,0\n1,1\n")
    else:
        (tmp_path / f"{empty}{ext}").write_text("")
        (tmp_path / f"{full}{ext}").write_text(
            '{"y": 1, "yhat": 1}\n{"y": 0, "yhat": 1}\n{"y": 1, "yhat": 0}\n'
            '{"y": null, "yhat": 1}\n')
        (tmp_path / f"c{ext}").write_text('{"y": 0, "yhat": 0}\n{"y": 1, "yhat": 1}\n')
    files = sorted(tmp_path.glob(f"*{ext}"))
    rows = read_rows(files)
    kept = [r for r in rows if r["y"] is not None and r["yhat"] is not None]
    y, yhat = [r["y"] for r in kept], [r["yhat"] for r in kept]
    cm, report = cio.evaluate_file(str(tmp_path / f"*{ext}") if pattern == "glob" else tmp_path,
                                   "y", "yhat", skip_invalid=True)
    assert report.rows_read == len(kept) == 5
    assert report.rows_read + report.rows_skipped == len(rows)
    assert report.skipped_by_reason == {"null true label": 1}
    assert cm.labels == sorted(set(y) | set(yhat))
    np.testing.assert_array_equal(cm.counts, sk_metrics.confusion_matrix(y, yhat))


@pytest.mark.parametrize("ext", [".csv", ".jsonl"])
def test_a_source_of_files_with_no_data_row_has_no_rows_and_says_why(tmp_path, ext):
    """Every file a header alone (CSV) or empty (JSON lines): no matrix, the "no valid rows"
    error, saying that the source holds no data row (nothing was skipped). Oracle: Python's
    csv / json modules find no row."""
    for name in ("a", "b"):
        (tmp_path / f"{name}{ext}").write_text("y,yhat\n" if ext == ".csv" else "")
    assert read_rows(sorted(tmp_path.glob(f"*{ext}"))) == []
    # JSON lines without a record name no column either: the reader says so
    why = (r"has no valid rows to evaluate \(0 skipped: it holds no data rows\)" if ext == ".csv"
           else r"holds no rows: each of its files is empty \(0 bytes\)")
    with pytest.raises(ValueError, match=why):
        cio.evaluate_file(tmp_path, "y", "yhat")


def test_a_zero_byte_csv_among_others_is_refused_naming_it(tmp_path):
    """A CSV file of 0 bytes lacks the header line every CSV file of a source starts with
    (unlike an empty JSON lines file, which is a whole file of no records): it may be a file
    whose writing failed, so it is an error naming it, never read as no rows. Oracle: Python's
    csv module finds no header in it."""
    (tmp_path / "a.csv").write_text("y,yhat\n1,1\n")
    (tmp_path / "b.csv").write_text("")
    with (tmp_path / "b.csv").open(newline="") as fh:
        assert csv.DictReader(fh).fieldnames is None
    with pytest.raises(ValueError, match=r"b\.csv' is empty \(0 bytes\): it has no header "
                                         r"line; every CSV file of a source starts with"):
        cio.evaluate_file(tmp_path, "y", "yhat")


# ------------------------------------------------------------------------------ where= at run time
@pytest.mark.parametrize("name", ["p.csv", "p.jsonl", "p.parquet", "p.arrow", "sql"])
@pytest.mark.parametrize("where", ["CAST(s AS INTEGER) > 0", "y // (yhat - yhat) = 0",
                                   "strptime(s, '%Y') IS NULL"])
def test_a_where_that_fails_while_it_runs_is_named_as_the_filter(tmp_path, name, where):
    """A ``where=`` that binds but fails on the values (a cast of text labels, an integer
    division by zero, a date that does not parse) was reported as "cannot be read whole", as
    if the file were damaged. It is a ValueError (not a ReadError) quoting the filter and
    DuckDB's reason, on every path that runs it. Oracle: DuckDB's own ``WHERE`` over the same
    values held in memory, which fails with that reason."""
    cols = {"y": [0, 1, 1], "yhat": [0, 1, 0], "s": ["x", "1", "y"], "p": [0.5, 0.25, 1.0],
            "g": ["A", "B", "A"]}
    types = {"y": pa.int64(), "yhat": pa.int64(), "s": pa.string(), "p": pa.float64(),
             "g": pa.string()}
    table = arrow_table(cols, types)
    with pytest.raises(duckdb.Error) as oracle_error:
        duckdb.connect().from_arrow(table).filter(where).fetchall()
    reason = str(oracle_error.value).splitlines()[0].split(" when ")[0].split(" in expression")[0]
    src = write_source(tmp_path, name, cols, types)
    runs: list[Any] = [lambda: evaluate(src, name, "y", "yhat", where=where),
                       lambda: evaluate(src, name, "y", "yhat", where=where, score_cols="p"),
                       lambda: evaluate(src, name, "y", "yhat", where=where,
                                        score_cols=["p", "p"])]
    if name in GROUP_FORMATS:
        runs.append(lambda: evaluate(src, name, "y", "yhat", where=where, group_cols="g"))
    if name != "sql":
        runs += [lambda: cio.read_columns(src, ["y", "yhat"], where=where),
                 lambda: list(cio.iter_batches(src, ["y"], where=where))]
    try:
        for run in runs:
            with pytest.raises(ValueError) as info:
                run()
            message = str(info.value)
            assert not isinstance(info.value, cio.ReadError), message
            assert "cannot be read whole" not in message
            assert message.startswith(f"where: the filter {where!r} failed"), message
            assert reason in message, (reason, message)
    finally:
        if name == "sql":
            src.close()


def test_a_damaged_file_with_a_where_is_still_a_read_error(tmp_path):
    """The other side: a ragged CSV row read under a filter that cannot fail is damage, named
    as before. Oracle: DuckDB's own read of the file refuses it."""
    path = tmp_path / "p.csv"
    path.write_text("y,yhat\n" + "1,0\n" * 5000 + "1,0,7,8\n")
    with pytest.raises(duckdb.Error):
        duckdb.connect().sql(f"SELECT * FROM read_csv('{path}')").fetchall()
    with pytest.raises(cio.ReadError, match="cannot be read whole"):
        cio.evaluate_file(path, "y", "yhat", where="y >= 0")


# ------------------------------------------------------------------------------ no rows
@pytest.mark.parametrize(("name", "by_group"),
                         [(n, g) for g in (False, True) for n in ["p.csv", "p.parquet", "p.arrow", "p.npz", "sql"]
                          if not g or n in GROUP_FORMATS])  # group_cols: DuckDB formats only
def test_a_where_that_keeps_no_row_is_an_error_naming_the_reasons(tmp_path, name, by_group):
    """A ``where=`` that holds for no row, or rows all skipped: no matrix (as in memory, where
    an empty input is an error, and unlike scikit-learn, whose confusion_matrix of nothing is
    zeros), and the error names why each row went: the reasons counted by hand."""
    cols = {"y": [1.0, 0.0, math.nan], "yhat": [1.0, 1.0, 0.0], "g": [1.0, 2.0, 1.0]}
    types = {k: pa.float64() for k in cols}
    src = write_source(tmp_path, name, cols, types)
    kw: dict[str, Any] = {"group_cols": "g"} if by_group else {}
    try:
        with pytest.raises(ValueError, match=r"no valid rows to evaluate \(3 skipped: "
                                             r"user filter 2, null true label 1\)"):
            evaluate(src, name, "y", "yhat", where="yhat = 0", skip_invalid=True, **kw)
    finally:
        if name == "sql":
            src.close()


# ------------------------------------------------------------------------------ labels=
@PROBE
@given(frame=frames(), how=st.sampled_from(["superset", "permuted", "subset"]), data=st.data())
def test_fixed_labels_superset_order_and_subset_equal_sklearn(tmp_path_factory, frame, how,
                                                              data):
    """``labels=`` adds absent classes, fixes their order, or leaves out a class the file holds
    (an error naming that label). Oracle: scikit-learn's confusion_matrix with the same
    ``labels`` order (as codes)."""
    kind, cols = frame["kind"], frame["cols"]
    kept, reasons = oracle(cols)
    y = [cols["y"][i] for i in kept]
    yhat = [cols["yhat"][i] for i in kept]
    seen = sorted(set(y) | set(yhat))
    assume(seen and (how != "subset" or len(seen) >= 2))
    if how == "superset":
        extra = [v for v in POOLS[kind] if v not in seen]
        labels = data.draw(st.permutations(seen + extra))
    elif how == "permuted":
        labels = data.draw(st.permutations(seen))
    else:
        labels = data.draw(st.permutations(seen))[1:]
    root = tmp_path_factory.mktemp("labels")
    for name in ["p.csv", "p.jsonl", "p.parquet", "p.arrow", "p.npz", "sql"]:
        if not fits(name, kind, cols):
            continue
        (root / name).mkdir()
        src = write_source(root / name, name, cols, column_types(kind))
        try:
            if how == "subset":
                with pytest.raises(ValueError, match=r"row \d+: label .* \(column 'y(hat)?'\) "
                                                     r"is not in the fixed labels"):
                    evaluate(src, name, "y", "yhat", labels=labels, skip_invalid=True)
                continue
            cm, report = evaluate(src, name, "y", "yhat", labels=labels, skip_invalid=True)
        finally:
            if name == "sql":
                src.close()
        code = {v: j for j, v in enumerate(labels)}
        want = sk_metrics.confusion_matrix([code[v] for v in y], [code[v] for v in yhat],
                                           labels=list(range(len(labels))))
        assert (report.rows_read, report.skipped_by_reason) == (len(kept), reasons), name
        assert cm.labels == labels, name
        np.testing.assert_array_equal(cm.counts, want, err_msg=name)


# ------------------------------------------------------------------------------ multiclass
@PROBE
@given(frame=frames(kind="str"), batch_rows=st.integers(1, 9), bins=st.sampled_from([1, 4, 10]),
       weighted=st.booleans(), fixed=st.booleans())
def test_one_score_column_per_class_streamed_equal_numpy_histogram(tmp_path_factory, frame,
                                                                    batch_rows, bins,
                                                                    weighted, fixed):
    """Several score columns (one per class, in label order) are streamed in batches of
    ``batch_rows``: the histograms must not depend on where the batches are cut. Oracle:
    numpy.histogram of each class's scores in each column over the edges ``j / bins``."""
    cols = frame["cols"]
    kept0, _ = oracle(cols)
    classes = sorted({cols[c][i] for i in kept0 for c in ("y", "yhat")})
    assume(len(classes) >= 3)
    n = len(cols["y"])
    rng = np.random.default_rng(len(classes) * 1000 + n)
    score_cols = [f"s{k}" for k in range(len(classes))]
    for c in score_cols:
        cols[c] = [0.0] * n
    for i in range(n):  # rows of probabilities that sum to 1 exactly, or a NaN
        kind = rng.integers(4)
        ks = rng.permutation(len(classes))
        for k, v in zip(ks, [(1.0,), (0.5, 0.5), (0.25, 0.25, 0.5), (math.nan,)][kind],
                        strict=False):
            cols[score_cols[k]][i] = v
    types = {**column_types("str"), **{c: pa.float64() for c in score_cols}}
    kept, _ = oracle(cols, weight="w" if weighted else None)
    kept = [i for i in kept if not any(math.isnan(cols[c][i]) for c in score_cols)]
    n_nan = len([i for i in range(n) if i not in kept])
    root = tmp_path_factory.mktemp("multi")
    for name in ["p.csv", "p.parquet", "p.arrow", "sql"]:
        (root / name).mkdir()
        src = write_source(root / name, name, cols, types)
        kw: dict[str, Any] = {"score_cols": score_cols, "bins": bins, "skip_invalid": True,
                              "batch_rows": batch_rows, "weight_col": "w" if weighted else None,
                              "labels": classes if fixed else None}
        try:
            if not kept or (weighted and not any(cols["w"][i] for i in kept)):
                with pytest.raises(ValueError):
                    evaluate(src, name, "y", "yhat", **kw)
                continue
            seen = sorted({cols[c][i] for i in kept for c in ("y", "yhat")})
            if not fixed and seen != classes:  # the score columns serve the classes seen
                continue
            cm, report = evaluate(src, name, "y", "yhat", **kw)
            event("histograms compared")
        finally:
            if name == "sql":
                src.close()
        assert report.rows_read == len(kept) and report.rows_skipped == n_nan, name
        assert report.curves.labels == classes, name
        edges = np.arange(bins + 1) / bins
        want = np.zeros((len(classes), len(classes), bins))
        for ci, lab in enumerate(classes):
            rows = [i for i in kept if cols["y"][i] == lab]
            for k, c in enumerate(score_cols):
                want[ci, k] = np.histogram(
                    [cols[c][i] for i in rows], bins=edges,
                    weights=[cols["w"][i] for i in rows] if weighted else None)[0]
        np.testing.assert_allclose(report.curves.counts, want, rtol=1e-12, err_msg=name)
        code = {v: j for j, v in enumerate(classes)}
        np.testing.assert_allclose(cm.counts, sk_metrics.confusion_matrix(
            [code[cols["y"][i]] for i in kept], [code[cols["yhat"][i]] for i in kept],
            labels=list(range(len(classes))),
            sample_weight=[cols["w"][i] for i in kept] if weighted else None),
            rtol=1e-12, err_msg=name)


@pytest.mark.parametrize(("name", "by_group"),
                         [(n, g) for g in (False, True) for n in ["p.csv", "p.jsonl", "p.parquet", "p.arrow", "p.npz", "sql"]
                          if not g or n in GROUP_FORMATS])  # group_cols: DuckDB formats only
def test_a_label_outside_labels_is_named_by_row_and_column_on_every_path(tmp_path, name,
                                                                         by_group):
    """The counted path named ``row 4: label 2 (column 'yhat')``; the streamed one (Arrow IPC,
    NumPy) said ``rows 1..5 has label 2 not in the fixed labels`` and the grouped one named no
    row. The row is the 1-based data row of the first label outside ``labels=`` (by hand:
    rows 1-3 hold 0 and 1, row 2 has a null that ``skip_invalid`` drops)."""
    cols = {"y": [0.0, math.nan, 1.0, 1.0, 2.0], "yhat": [1.0, 0.0, 0.0, 2.0, 2.0],
            "g": ["A", "B", "A", "B", "A"]}
    types = {"y": pa.float64(), "yhat": pa.float64(), "g": pa.string()}
    src = write_source(tmp_path, name, cols, types)
    kw: dict[str, Any] = {"group_cols": "g"} if by_group else {}
    try:
        with pytest.raises(ValueError, match=r"row 4: label 2\.0 \(column 'yhat'\) is not in "
                                             r"the fixed labels \[0\.0, 1\.0\]"):
            evaluate(src, name, "y", "yhat", labels=[0.0, 1.0], skip_invalid=True, **kw)
    finally:
        if name == "sql":
            src.close()



@pytest.mark.parametrize("name", ["p.csv", "p.parquet", "p.arrow", "p.npz"])
def test_score_rows_that_do_not_sum_to_one_are_named_by_data_row(tmp_path, name):
    """One score column per class: a row whose probabilities do not sum to 1 is named by its
    1-based data row (row 4 by hand: rows 1-3 sum to 1, row 2 is skipped for its null label)
    and the columns, not by a 0-based position in a batch ("rows 1..5: ... row 0")."""
    cols = {"y": [0.0, math.nan, 2.0, 1.0, 0.0], "yhat": [0.0, 1.0, 2.0, 1.0, 1.0],
            "s0": [1.0, 0.2, 0.0, 0.5, 0.1], "s1": [0.0, 0.2, 0.5, 0.5, 0.1],
            "s2": [0.0, 0.2, 0.5, 0.25, 0.8]}
    types = {k: pa.float64() for k in cols}
    src = write_source(tmp_path, name, cols, types)
    for batch_rows in (1, 2, 100):
        with pytest.raises(ValueError, match=r"row 4: the score columns \['s0', 's1', 's2'\] "
                                             r"sum to 1\.25"):
            cio.evaluate_file(src, "y", "yhat", score_cols=["s0", "s1", "s2"],
                              skip_invalid=True, batch_rows=batch_rows, labels=[0.0, 1.0, 2.0])


# ------------------------------------------------------------------------------ SQL
@pytest.mark.parametrize("query", [
    "SELECT * FROM t; DROP TABLE t",
    "DROP TABLE t",
    "CREATE TABLE z AS SELECT * FROM t",
    "INSERT INTO t VALUES (5, 5) RETURNING *",
    "UPDATE t SET y = 9 RETURNING *",
    "SELECT * FROM query('CREATE TABLE z AS SELECT 1 AS y, 2 AS yhat')",
    "ATTACH ':memory:' AS other",
])
def test_evaluate_sql_runs_one_select_and_changes_no_table(tmp_path, query):
    """evaluate_sql documents a SELECT over the connection: any other statement, a second
    statement, or a statement smuggled through a table function is refused before it runs.
    Oracle: DuckDB's own catalogue and count of the database file afterwards."""
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (0, 1), (0, 0)) v(y, yhat)")
    with pytest.raises(ValueError, match="query"):
        cio.evaluate_sql(con, query)
    tables = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    assert tables == [("t",)]
    assert con.execute("SELECT y, yhat FROM t ORDER BY ALL").fetchall() == [(0, 0), (0, 1),
                                                                              (1, 1)]
    assert con.execute("SELECT database_name FROM duckdb_databases() WHERE NOT internal"
                       ).fetchall() == [("w",)]
    con.close()
