"""Every input format of ``confmat.io`` against an independent reading of the same data.

Project issue #11 ("Data in"): CSV / TSV (plain, .gz, .zst, .bz2), Parquet (a file, a
directory, a glob, hive partitions), JSON lines (plain, .gz, .zst), Arrow IPC / Feather,
``.npy`` / ``.npz``, DuckDB relations and SQL over a real database file; labels over the whole
uint64 range, booleans, text such as "NA" that is a class name unless ``na_values=`` says
otherwise, duplicate column names, long text fields, row-count reconciliation and the CLI on a
damaged file.

Oracles: the values written (Python lists), read back by pandas, pyarrow or DuckDB where the
file's conventions matter, and counted with ``collections.Counter`` or scikit-learn; the score
histograms against a one-shot :class:`confmat.binned.ScoreHistogram` of the same values.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import io as cio
from confmat.binned import ScoreHistogram
from confmat.inputs.sql_counts import score_bins
from io_files import write_compressed

U64 = 2**64 - 1
#: text labels that are class names by default: DuckDB's and pandas' usual null spellings
NA_WORDS = ["NA", "null", "NaN", "None", "N/A"]
WORDS = ["ant", "bee", "a b", "x,y", 'say "hi"', "Ω", *NA_WORDS]


# ------------------------------------------------------------------------------- helpers
def pairs_of(cm: Any) -> Counter:
    """The nonzero cells of a matrix as a Counter of (true, pred) Python values."""
    counts = np.asarray(cm.counts)
    return Counter({(a, b): counts[i, j].item() for i, a in enumerate(cm.labels)
                    for j, b in enumerate(cm.labels) if counts[i, j]})


def count_pairs(y: list[Any], yhat: list[Any], weights: list[float] | None = None) -> Counter:
    """The oracle: (true, pred) pairs of the rows without a missing value, counted in Python."""
    out: Counter = Counter()
    for i, (a, b) in enumerate(zip(y, yhat, strict=True)):
        if a is None or b is None:
            continue
        out[a, b] += 1 if weights is None else weights[i]
    return out


def assert_matrix(cm: Any, y: list[Any], yhat: list[Any]) -> None:
    want = count_pairs(y, yhat)
    assert pairs_of(cm) == want
    assert cm.labels == sorted({v for pair in want for v in pair})
    assert all(type(v) is type(cm.labels[0]) for v in cm.labels)


def write_text(path: Path, text: str) -> None:
    """Write text, compressed by the file's extension (by Python's and pyarrow's codecs)."""
    write_compressed(path, text.encode())


def csv_text(columns: dict[str, list[Any]], sep: str = ",") -> str:
    """CSV by Python's csv module; None is an empty field."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(list(columns))
    for row in zip(*columns.values(), strict=True):
        w.writerow(["" if v is None else v for v in row])
    return buf.getvalue()


def jsonl_text(columns: dict[str, list[Any]]) -> str:
    return "".join(json.dumps(dict(zip(columns, row, strict=True))) + "\n"
                   for row in zip(*columns.values(), strict=True))


def labels_strategy(kind: str, n: int) -> Any:
    pool = {"int": st.sampled_from([-(2**63), -5, 0, 1, 7, 2**63 - 1]),
            "word": st.sampled_from(WORDS)}[kind]
    return st.lists(pool, min_size=n, max_size=n)


# ------------------------------------------------------------------------- text formats
TEXT_FORMATS = ["p.csv", "p.tsv", "p.tab", "p.csv.gz", "p.csv.zst", "p.csv.bz2", "p.tsv.gz",
                "p.jsonl", "p.ndjson", "p.jsonl.gz", "p.jsonl.zst"]


@pytest.mark.parametrize("name", TEXT_FORMATS)
@settings(max_examples=4)
@given(data=st.data(), kind=st.sampled_from(["int", "word"]), n=st.integers(5, 60),
       batch_rows=st.integers(1, 50), with_nulls=st.booleans())
def test_text_formats_read_back_the_values_written(tmp_path_factory, data, name, kind, n,
                                                   batch_rows, with_nulls):
    """Each format has its own examples (drawn as an argument, .ndjson and .jsonl.gz got none
    of 40 examples under the CI profile, and 4 examples were the one fixed row)."""
    y = data.draw(labels_strategy(kind, n), "y")
    yhat = data.draw(labels_strategy(kind, n), "yhat")
    # the first row fixes the type the engine infers (a column of "NaN" alone would be read as
    # floating-point NaN by a CSV reader, which is then missing, not a class)
    y[0], yhat[0] = (1, 1) if kind == "int" else ("ant", "bee")
    if with_nulls:
        for col in (y, yhat):
            for i in data.draw(st.lists(st.integers(1, n), max_size=3), "nulls"):
                if i < n:
                    col[i] = None
    s = [round(i / n, 6) for i in range(n)]
    path = tmp_path_factory.mktemp("text") / name
    columns = {"y": y, "yhat": yhat, "s": s}
    is_json = "json" in name
    if is_json:
        write_text(path, jsonl_text(columns))
    else:
        write_text(path, csv_text(columns, "," if ".csv" in name else "\t"))
    skipped = sum(a is None or b is None for a, b in zip(y, yhat, strict=True))
    if skipped == n:
        with pytest.raises(ValueError, match="no valid rows"):
            cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
        return
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, batch_rows=batch_rows)
    assert_matrix(cm, y, yhat)
    assert (rep.rows_read, rep.rows_skipped, rep.engine) == (n - skipped, skipped, "duckdb GROUP BY")
    assert rep.format == ("jsonl" if is_json else "csv" if ".csv" in name else "tsv")
    # streamed in batches: the rows without a missing value, in order
    cols = cio.read_columns(path, ["y", "yhat", "s"], batch_rows=batch_rows, skip_invalid=True)
    kept = [(a, b, c) for a, b, c in zip(y, yhat, s, strict=True) if a is not None and b is not None]
    assert list(zip(cols["y"].tolist(), cols["yhat"].tolist(), cols["s"].tolist(), strict=True)) == kept
    if ".csv" in name and not name.endswith((".zst", ".bz2")):  # pandas reads them alike
        back = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=object)
        assert [None if pd.isna(v) else v for v in back["y"]] == [
            None if v is None else str(v) for v in y]


def test_an_empty_csv_field_is_missing_by_convention(tmp_path):
    """In CSV an empty field is the null of every reader (DuckDB, pandas, Arrow): it is a
    missing value, never the class "". JSON lines and Parquet keep "" as a class."""
    path = tmp_path / "e.csv"
    path.write_text('y,yhat\nant,\n,ant\n"",ant\nant,ant\n')
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
    assert pairs_of(cm) == Counter({("ant", "ant"): 1})
    assert rep.skipped_by_reason == {"null prediction": 1, "null true label": 2}
    js = tmp_path / "e.jsonl"
    js.write_text(jsonl_text({"y": ["ant", "", "ant"], "yhat": ["", "ant", "ant"]}))
    cm, rep = cio.evaluate_file(js, "y", "yhat")
    assert pairs_of(cm) == Counter({("ant", ""): 1, ("", "ant"): 1, ("ant", "ant"): 1})


# ---------------------------------------------------------------- Parquet, Arrow IPC, Feather
ARROW_TYPES = {
    "int8": (pa.int8(), [-128, -1, 0, 5, 127]),
    "int32": (pa.int32(), [-(2**31), 0, 3, 2**31 - 1]),
    "uint64": (pa.uint64(), [0, 1, 2**63, U64 - 1, U64]),
    "string": (pa.string(), ["ant", "", "NA", "null", "NaN", "日本"]),
    "large_string": (pa.large_string(), ["ant", "bee", "", "NA"]),
    "bool": (pa.bool_(), [False, True]),
    "dictionary": (pa.dictionary(pa.int8(), pa.string()), ["x", "y", "null"]),
}
WRITERS = ["parquet-snappy", "parquet-zstd", "parquet-none", "parquet-plain", "feather-lz4",
           "feather-zstd", "arrow-ipc"]


def write_arrow(table: pa.Table, path: Path, writer: str, chunk: int) -> None:
    if writer.startswith("parquet"):
        codec = writer.split("-")[1]
        pq.write_table(table, path, row_group_size=chunk,
                       compression="snappy" if codec == "plain" else codec,
                       use_dictionary=codec != "plain")
    elif writer.startswith("feather"):
        feather.write_feather(table, path, compression=writer.split("-")[1], chunksize=chunk)
    else:
        with pa.ipc.new_file(path, table.schema) as w:
            w.write_table(table, max_chunksize=chunk)


@pytest.mark.parametrize("typ", sorted(ARROW_TYPES))
@settings(max_examples=6)
@given(writer=st.sampled_from(WRITERS), n=st.integers(10, 300), chunk=st.integers(1, 120),
       batch_rows=st.integers(1, 200), null_rate=st.sampled_from([0.0, 0.1]),
       seed=st.integers(0, 2**32 - 1))
def test_parquet_and_arrow_files_read_back_the_values_written(tmp_path_factory, typ, writer, n,
                                                              chunk, batch_rows, null_rate,
                                                              seed):
    """Each Arrow type has its own examples (drawn as an argument, bool took 22 of 40
    examples under the CI profile; uint64, dictionary and large_string one each)."""
    arrow_type, pool = ARROW_TYPES[typ]
    rng = np.random.default_rng(seed)
    y = [pool[i] for i in rng.integers(0, len(pool), n)]
    yhat = [pool[i] for i in rng.integers(0, len(pool), n)]
    y = [None if rng.random() < null_rate else v for v in y]
    table = pa.table({"y": pa.array(y, arrow_type), "yhat": pa.array(yhat, arrow_type)})
    ext = ".parquet" if writer.startswith("parquet") else (
        ".feather" if writer.startswith("feather") else ".arrow")
    path = tmp_path_factory.mktemp("arrow") / f"p{ext}"
    write_arrow(table, path, writer, chunk)
    skipped = sum(v is None for v in y)
    if skipped == n:
        with pytest.raises(ValueError, match="no valid rows"):
            cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
        return
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, batch_rows=batch_rows)
    assert_matrix(cm, y, yhat)
    engine = "duckdb GROUP BY" if writer.startswith("parquet") else "pyarrow dataset"
    assert (rep.rows_read, rep.rows_skipped, rep.engine) == (n - skipped, skipped, engine)
    assert rep.skipped_row_numbers == [i + 1 for i, v in enumerate(y) if v is None][:10]
    got = cio.read_columns(path, ["yhat"], batch_rows=batch_rows)["yhat"].tolist()
    assert got == yhat and all(type(a) is type(b) for a, b in zip(got, yhat, strict=True))


def test_feather_v1_is_refused_with_the_file_named(tmp_path):
    """Feather V1 (deprecated by Arrow) is not the Arrow IPC format pyarrow.dataset reads."""
    path = tmp_path / "old.feather"
    with warnings.catch_warnings():  # newer pyarrow warns that V1 is deprecated, older not
        warnings.simplefilter("ignore", DeprecationWarning)
        feather.write_feather(pa.table({"y": [1], "yhat": [1]}), path, version=1)
    with pytest.raises(ValueError, match=r"old\.feather' cannot be read whole"):
        cio.evaluate_file(path, "y", "yhat")


# --------------------------------------------------------------- datasets: dir, glob, hive
def _frame(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 4, n)
    return pd.DataFrame({"y": t, "yhat": np.where(rng.random(n) < 0.6, t, rng.integers(0, 4, n)),
                         "split": rng.choice(["test", "train", "val"], n), "s": rng.random(n)})


def test_parquet_directory_and_glob(tmp_path):
    parts = [_frame(n, seed) for seed, n in enumerate([300, 1, 450])]
    d = tmp_path / "dir"
    (d / "sub").mkdir(parents=True)
    for i, part in enumerate(parts):
        where = d / "sub" if i == 2 else d
        pq.write_table(pa.Table.from_pandas(part, preserve_index=False), where / f"part-{i}.parquet",
                       row_group_size=100)
    (d / "_SUCCESS").write_text("")  # markers and hidden files are no data
    (d / ".part-0.parquet.crc").write_bytes(b"\x00\x01")
    whole = pd.concat(parts)
    for source in (d, str(d / "**" / "*.parquet")):
        cm, rep = cio.evaluate_file(source, "y", "yhat", batch_rows=64)
        assert (rep.rows_read, rep.rows_skipped) == (len(whole), 0)
        want = sk_confusion_matrix(whole["y"], whole["yhat"], labels=cm.labels)
        np.testing.assert_array_equal(cm.counts, want)
    cm, _ = cio.evaluate_file(str(d / "part-*.parquet"), "y", "yhat")  # not the subdirectory
    assert cm.n == 301
    with pytest.raises(ValueError, match="no file matches"):
        cio.evaluate_file(str(d / "nothing-*.parquet"), "y", "yhat")


@pytest.mark.parametrize("ext", [".csv", ".jsonl"])
def test_text_globs_match_columns_by_name_never_by_position(tmp_path, ext):
    """A glob of text files whose columns come in another order in a later file: read by
    name (DuckDB's CSV reader binds later files by position unless told otherwise)."""
    parts = [{"y": ["a", "a", "b"], "yhat": ["b", "b", "b"]}, {"yhat": ["c"], "y": ["d"]},
             {"yhat": ["e", "e"], "y": ["f", "a"]}]
    for i, part in enumerate(parts):
        path = tmp_path / f"part-{i}{ext}" if i < 2 else tmp_path / f"part-{i}{ext}.gz"
        write_text(path, csv_text(part) if ext == ".csv" else jsonl_text(part))
    y = [v for part in parts for v in part["y"]]
    yhat = [v for part in parts for v in part["yhat"]]
    cm, rep = cio.evaluate_file(str(tmp_path / f"part-*{ext}*"), "y", "yhat")
    assert rep.rows_read == len(y)
    assert_matrix(cm, y, yhat)
    got = cio.read_columns(str(tmp_path / f"part-*{ext}*"), ["y", "yhat"], batch_rows=2)
    assert sorted(zip(got["y"].tolist(), got["yhat"].tolist(), strict=True)) == sorted(
        zip(y, yhat, strict=True))
    if ext == ".csv":
        write_text(tmp_path / "part-9.csv", csv_text({"y": ["a"], "yhat": ["a"], "s": [0.5]}))
        with pytest.raises(ValueError, match=r"part-9\.csv' has the columns \['y', 'yhat', 's'\] but .*need the same columns"):
            cio.evaluate_file(str(tmp_path / "part-*.csv*"), "y", "yhat")


def test_hive_partitions_as_label_columns(tmp_path):
    df = _frame(2000, 7)
    df.loc[df.index[::97], "y"] = None  # null partition values: __HIVE_DEFAULT_PARTITION__
    df["y"] = df["y"].astype("Int64")
    table = pa.Table.from_pandas(df, preserve_index=False)
    pq.write_to_dataset(table, tmp_path / "by_y", partition_cols=["y"])
    pq.write_to_dataset(table, tmp_path / "by_split", partition_cols=["split"])
    kept = df.dropna(subset=["y"])
    cm, rep = cio.evaluate_file(tmp_path / "by_y", "y", "yhat", skip_invalid=True)
    np.testing.assert_array_equal(
        cm.counts, sk_confusion_matrix(kept["y"].astype(int), kept["yhat"], labels=cm.labels))
    assert rep.skipped_by_reason == {"null true label": len(df) - len(kept)}
    assert "y" in cio.list_columns(tmp_path / "by_y")
    # a text partition column is a label column too (here against the predictions)
    cm, rep = cio.evaluate_file(tmp_path / "by_split", "split", "split")
    assert pairs_of(cm) == Counter({(v, v): n for v, n in Counter(df["split"]).items()})
    # and scores stream through the partitions
    binary = tmp_path / "binary"
    df2 = df.assign(y=(df["s"] > 0.5).astype(int), yhat=(df["s"] > 0.4).astype(int))
    pq.write_to_dataset(pa.Table.from_pandas(df2, preserve_index=False), binary,
                        partition_cols=["split"])
    cm, rep = cio.evaluate_file(binary, "y", "yhat", score_cols="s", bins=20)
    back = pq.read_table(binary).to_pandas()  # the dataset's own order
    assert rep.curves == ScoreHistogram([0, 1], bins=20).update(back["y"], back["s"])


# ------------------------------------------------------------------------------ numpy
def test_npy_one_two_dimensional_structured_and_npz(tmp_path):
    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 3, 500), rng.integers(0, 3, 500)
    np.save(tmp_path / "one.npy", t)
    assert cio.list_columns(tmp_path / "one.npy") == ["0"]
    cm, rep = cio.evaluate_file(tmp_path / "one.npy", "0", "0")
    assert rep.engine == "numpy" and pairs_of(cm) == Counter({(v, v): n for v, n in Counter(t.tolist()).items()})
    np.save(tmp_path / "two.npy", np.column_stack([t, p]))
    cm, _ = cio.evaluate_file(tmp_path / "two.npy", "0", "1", batch_rows=33)
    assert_matrix(cm, t.tolist(), p.tolist())
    rec = np.rec.fromarrays([t.astype(np.uint8), np.array(["ant", "bee", "cat"])[p],
                             rng.random(500)], names="y,yhat,s")
    np.save(tmp_path / "rec.npy", rec)
    assert cio.list_columns(tmp_path / "rec.npy") == ["y", "yhat", "s"]
    got = cio.read_columns(tmp_path / "rec.npy", ["yhat", "s"], batch_rows=64)
    assert got["yhat"].tolist() == rec["yhat"].tolist() and got["s"].tolist() == rec["s"].tolist()
    np.savez(tmp_path / "a.npz", y=t, yhat=p, s=rng.random(500))
    np.savez_compressed(tmp_path / "b.npz", y=(t == 1), yhat=(p == 1))
    cm, _ = cio.evaluate_file(tmp_path / "a.npz", "y", "yhat")
    assert_matrix(cm, t.tolist(), p.tolist())
    cm, _ = cio.evaluate_file(tmp_path / "b.npz", "y", "yhat")
    assert_matrix(cm, (t == 1).tolist(), (p == 1).tolist()) and cm.labels == [False, True]
    np.savez(tmp_path / "ragged.npz", y=t, yhat=p[:10])
    with pytest.raises(ValueError, match=r"ragged\.npz.*one length"):
        cio.evaluate_file(tmp_path / "ragged.npz", "y", "yhat")
    np.save(tmp_path / "three.npy", np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match=r"three\.npy.*1-D, 2-D or structured"):
        cio.list_columns(tmp_path / "three.npy")
    np.save(tmp_path / "obj.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match=r"obj\.npy"):
        cio.evaluate_file(tmp_path / "obj.npy", "0", "0")
    (tmp_path / "bad.npz").write_bytes((tmp_path / "a.npz").read_bytes()[:300])
    with pytest.raises(ValueError, match=r"bad\.npz"):
        cio.evaluate_file(tmp_path / "bad.npz", "y", "yhat")


# -------------------------------------------------------------------- DuckDB: SQL, relations
@pytest.fixture
def database(tmp_path):
    """A real DuckDB database file with a predictions table."""
    rng = np.random.default_rng(11)
    n = 3000
    y = rng.integers(0, 2, n)
    p = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1).round(4)
    df = pd.DataFrame({"y": y, "yhat": (p >= 0.5).astype(int), "p": p,
                       "w": rng.integers(1, 5, n) / 2, "split": rng.choice(["test", "train"], n)})
    path = tmp_path / "p.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE preds AS SELECT * FROM df")
    con.close()
    con = duckdb.connect(str(path), read_only=True)
    yield con, df
    con.close()


def test_evaluate_sql_query_and_relation_on_a_database_file(database):
    con, df = database
    test = df[df["split"] == "test"]
    want = sk_confusion_matrix(test["y"], test["yhat"], labels=[0, 1])
    cm, rep = cio.evaluate_sql(con, "select y, yhat, p from preds where split = 'test'")
    np.testing.assert_array_equal(cm.counts, want)
    assert (rep.rows_read, rep.rows_skipped, rep.engine) == (len(test), 0, "duckdb GROUP BY")
    rel = con.table("preds").filter("split = 'test'")
    cm2, _ = cio.evaluate_sql(rel, true_col="y", pred_col="yhat")
    assert cm2 == cm
    # one score column: binned in the same GROUP BY, a histogram equal to a one-shot one over
    # the same rows; several score columns: streamed, the same histogram
    want_h = ScoreHistogram([0, 1], bins=50).update(test["y"], test["p"])
    cm3, rep3 = cio.evaluate_sql(con, "select y, yhat, p from preds where split = 'test' order by rowid",
                                 score_cols="p", bins=50, batch_rows=333)
    assert cm3 == cm and rep3.engine == "duckdb GROUP BY" and rep3.curves == want_h
    cm4, rep4 = cio.evaluate_sql(con, "select y, yhat, 1 - p as q, p from preds "
                                 "where split = 'test' order by rowid",
                                 score_cols=["q", "p"], bins=50, batch_rows=333)
    assert cm4 == cm and rep4.engine == "duckdb stream" and rep4.batches == -(-len(test) // 333)
    assert rep4.curves == want_h
    # weights, summed in the engine
    cmw, _ = cio.evaluate_sql(rel, true_col="y", pred_col="yhat", weight_col="w")
    np.testing.assert_allclose(
        cmw.counts, sk_confusion_matrix(test["y"], test["yhat"], labels=[0, 1],
                                        sample_weight=test["w"]))
    cmw2, _ = cio.evaluate_sql(rel, true_col="y", pred_col="yhat", weight_col="w", score_cols="p")
    np.testing.assert_allclose(cmw2.counts, cmw.counts)


def test_evaluate_sql_errors_and_nulls(database, tmp_path):
    con, _ = database
    with pytest.raises(ValueError, match="one SELECT statement, got CREATE"):
        cio.evaluate_sql(con, "create table x (a int)")
    with pytest.raises(ValueError, match=r"failed: .*nope"):
        cio.evaluate_sql(con, "select nope from preds")
    with pytest.raises(TypeError, match="query must be a SQL string"):
        cio.evaluate_sql(con)
    with pytest.raises(TypeError, match="query must be None"):
        cio.evaluate_sql(con.table("preds"), "select 1")
    with pytest.raises(TypeError, match="source must be a duckdb connection or relation"):
        cio.evaluate_sql("preds.parquet", "select 1")
    with pytest.raises(ValueError, match="has no valid rows"):
        cio.evaluate_sql(con, "select y, yhat from preds where false")
    with pytest.raises(ValueError, match="2 columns named 'y'"):
        cio.evaluate_sql(con, "select y, y from preds")
    mem = duckdb.connect()
    mem.execute("create table t as select * from (values (1, 1, 1.0), (NULL, 0, 2.0), (0, NULL, 1.0),"
                " (1, 0, 'nan'::DOUBLE), (0, 0, NULL), (1, 1, 3.0)) v(y, yhat, w)")
    with pytest.raises(ValueError, match="row 2: null true label"):
        cio.evaluate_sql(mem, "select y, yhat from t")
    cm, rep = cio.evaluate_sql(mem, "select * from t", weight_col="w", skip_invalid=True)
    assert rep.skipped_by_reason == {"null true label": 1, "null prediction": 1,
                                     "null or NaN weight": 2}
    assert rep.skipped_row_numbers == [2, 3, 4, 5] and (rep.rows_read, rep.rows_skipped) == (2, 4)
    assert pairs_of(cm) == Counter({(1, 1): 4.0})


# ------------------------------------------------------------------------------ labels
def test_uint64_labels_across_row_groups_stay_exact(tmp_path):
    """Two row groups: one of small values, one near 2**64 - 1 (the old reader narrowed their
    dictionaries to int8 and uint64 and combined them as float64, merging two classes)."""
    small = [0, 1, 2, 1, 0]
    huge = [U64, U64 - 1, U64 - 2, U64, 2**63]
    path = tmp_path / "u.parquet"
    schema = pa.schema([("y", pa.uint64()), ("yhat", pa.uint64()), ("s", pa.float64())])
    with pq.ParquetWriter(path, schema) as w:
        w.write_table(pa.table({"y": small, "yhat": small[::-1], "s": [0.1] * 5}, schema=schema))
        w.write_table(pa.table({"y": huge, "yhat": huge[::-1], "s": [0.9] * 5}, schema=schema))
    assert pq.ParquetFile(path).num_row_groups == 2
    y, yhat = small + huge, small[::-1] + huge[::-1]
    for batch_rows in (1, 3, 100):
        cm, _ = cio.evaluate_file(path, "y", "yhat", batch_rows=batch_rows)
        assert_matrix(cm, y, yhat)
        assert len(cm.labels) == 7 and cm.labels[-2:] == [U64 - 1, U64]
    # text and SQL sources: DuckDB infers HUGEINT past the int64 range
    columns = {"y": [*y, -3], "yhat": [*yhat, 0], "s": [0.5] * 11}
    write_text(tmp_path / "u.csv", csv_text(columns))
    write_text(tmp_path / "u.jsonl", jsonl_text(columns))
    for name in ("u.csv", "u.jsonl"):
        cm, _ = cio.evaluate_file(tmp_path / name, "y", "yhat")
        assert_matrix(cm, columns["y"], columns["yhat"])
        got = cio.read_columns(tmp_path / name, ["y"])["y"].tolist()
        assert got == columns["y"]
    con = duckdb.connect()
    for typ in ("UBIGINT", "HUGEINT"):
        rel = con.sql(f"select y::{typ} as y, yhat::{typ} as yhat from read_csv(?, header = true)"
                      " where y >= 0", params=[str(tmp_path / "u.csv")])
        cm, _ = cio.evaluate_sql(rel)
        assert_matrix(cm, y, yhat)
    binary = {"y": [0, U64, U64, 0], "yhat": [U64, U64, 0, 0], "s": [0.2, 0.9, 0.6, 0.1]}
    write_text(tmp_path / "b.csv", csv_text(binary))
    cm, rep = cio.evaluate_file(tmp_path / "b.csv", "y", "yhat", score_cols="s", bins=10,
                                pos_label=U64)  # 0 and U64 imply no positive class
    assert_matrix(cm, binary["y"], binary["yhat"])
    assert rep.curves == ScoreHistogram([0, U64], bins=10).update(
        np.array(binary["y"], dtype=np.uint64), np.array(binary["s"]))


def test_bool_labels_in_every_format(tmp_path):
    y = [True, False, True, True, False]
    yhat = [True, True, False, True, False]
    cols = {"y": y, "yhat": yhat}
    pq.write_table(pa.table(cols), tmp_path / "b.parquet")
    feather.write_feather(pa.table(cols), tmp_path / "b.feather")
    write_text(tmp_path / "b.csv", csv_text({"y": ["true" if v else "false" for v in y],
                                             "yhat": ["true" if v else "false" for v in yhat]}))
    write_text(tmp_path / "b.jsonl", jsonl_text(cols))
    np.savez(tmp_path / "b.npz", y=np.array(y), yhat=np.array(yhat))
    for name in ("b.parquet", "b.feather", "b.csv", "b.jsonl", "b.npz"):
        cm, _ = cio.evaluate_file(tmp_path / name, "y", "yhat")
        assert_matrix(cm, y, yhat)
        assert cm.labels == [False, True] and all(type(v) is bool for v in cm.labels)
    cm, _ = cio.evaluate_sql(duckdb.connect(), "select y::BOOLEAN, yhat::BOOLEAN from read_json(?)"
                             .replace("?", repr(str(tmp_path / "b.jsonl"))))
    assert_matrix(cm, y, yhat)


@pytest.mark.parametrize("name", ["n.parquet", "n.jsonl", "n.feather", "n.csv", "n.jsonl.gz"])
def test_na_strings_are_classes_unless_na_values_says_so(tmp_path, name):
    y = ["NA", "null", "NaN", "", "ant", "None", "ant", "NA"]
    yhat = ["ant", "NA", "null", "NaN", "ant", "ant", "", "N/A"]
    path = tmp_path / name
    if name.endswith(".parquet"):
        pq.write_table(pa.table({"y": y, "yhat": yhat}), path)
    elif name.endswith(".feather"):
        feather.write_feather(pa.table({"y": y, "yhat": yhat}), path)
    elif ".jsonl" in name:
        write_text(path, jsonl_text({"y": y, "yhat": yhat}))
    else:
        write_text(path, csv_text({"y": y, "yhat": yhat}))
    # CSV: the empty field is missing by convention (see test_an_empty_csv_field_is_missing)
    empty_is_null = name.endswith(".csv")
    expect_y = [None if empty_is_null and v == "" else v for v in y]
    expect_p = [None if empty_is_null and v == "" else v for v in yhat]
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
    assert_matrix(cm, expect_y, expect_p)
    assert {"NA", "null", "NaN", "None"} <= set(cm.labels)
    na = ["NA", "null", "NaN", ""]
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, na_values=na)
    gone_y = [None if v in na else v for v in y]
    gone_p = [None if v in na else v for v in yhat]
    assert_matrix(cm, gone_y, gone_p)
    n_true = sum(v is None for v in gone_y)
    n_pred = sum(a is not None and b is None for a, b in zip(gone_y, gone_p, strict=True))
    assert rep.skipped_by_reason == {"null true label": n_true, "null prediction": n_pred}
    assert (rep.rows_read, rep.rows_skipped) == (len(y) - n_true - n_pred, n_true + n_pred)
    with pytest.raises(ValueError, match=r"row 1: null true label \(column 'y'"):
        cio.evaluate_file(path, "y", "yhat", na_values=na)


def test_duplicate_column_names_are_errors_naming_them(tmp_path):
    (tmp_path / "d.csv").write_text("y,yhat,y\n1,1,2\n")
    (tmp_path / "c.csv").write_text("Y,y,yhat\n1,1,2\n")  # DuckDB cannot tell them apart
    dup = pa.Table.from_arrays([pa.array([1, 2]), pa.array([1, 1]), pa.array([2, 2])],
                               names=["y", "yhat", "y"])
    pq.write_table(dup, tmp_path / "d.parquet")
    feather.write_feather(dup, tmp_path / "d.feather")
    for name, want in [("d.csv", r"\['y'\]"), ("c.csv", r"\['Y', 'y'\]"),
                       ("d.parquet", r"\['y'\]"), ("d.feather", r"\['y'\]")]:
        for call in (lambda p: cio.evaluate_file(p, "y", "yhat"), cio.list_columns,
                     lambda p: cio.evaluate_file(p, "yhat", "yhat")):
            with pytest.raises(ValueError, match=rf"{name}' has duplicate column names {want}"):
                call(tmp_path / name)
    d = tmp_path / "ds"
    d.mkdir()
    pq.write_table(pa.table({"y": [1], "yhat": [1]}), d / "a.parquet")
    pq.write_table(dup, d / "b.parquet")
    with pytest.raises(ValueError, match=r"duplicate column names \['y'\]"):
        cio.evaluate_file(d, "y", "yhat")


def test_a_long_text_field_near_the_top_of_a_csv_is_read(tmp_path):
    note = "é" + "x" * 100_000 + ",\"quoted\" text"
    rows = [["y", "yhat", "note"], ["ant", "ant", note], ["bee", "ant", "short"]]
    rows += [["ant", "bee", "-"]] * 50
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path = tmp_path / "long.csv"
    path.write_text(buf.getvalue())
    cm, rep = cio.evaluate_file(path, "y", "yhat")
    assert rep.rows_read == 52
    assert pairs_of(cm) == Counter({("ant", "ant"): 1, ("bee", "ant"): 1, ("ant", "bee"): 50})
    got = cio.read_columns(path, ["note"])["note"]
    assert got[0] == note and got[1] == "short"


# -------------------------------------------------------------------------- reconciliation
def _varint(x: int) -> bytes:
    out = bytearray()
    while True:
        b, x = x & 0x7F, x >> 7
        if not x:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def _patch_i64_field(data: bytearray, old: int, new: int, nth: int) -> None:
    """Rewrite the ``nth`` Thrift compact i64 field holding ``old`` (field-id delta 1) in the
    footer; the test's own way of making a file whose metadata disagrees with itself."""
    zz = lambda v: (v << 1) ^ (v >> 63)  # noqa: E731
    flen = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - flen
    pat, rep = b"\x16" + _varint(zz(old)), b"\x16" + _varint(zz(new))
    assert len(pat) == len(rep)
    i = start - 1
    for _ in range(nth + 1):
        i = data.find(pat, i + 1)
        assert i > 0
    data[i:i + len(pat)] = rep


def test_parquet_footer_row_counts_that_disagree_are_errors(tmp_path):
    path = tmp_path / "f.parquet"
    pq.write_table(pa.table({"y": np.arange(1000) % 3, "yhat": np.arange(1000) % 2}), path,
                   row_group_size=500)
    good = bytearray(path.read_bytes())
    # the file's num_rows (the first i64 after the schema) says 1001; row groups hold 1000
    bad = bytearray(good)
    _patch_i64_field(bad, 1000, 1001, 0)
    (tmp_path / "rows.parquet").write_bytes(bad)
    assert pq.ParquetFile(tmp_path / "rows.parquet").metadata.num_rows == 1001
    assert pq.read_table(tmp_path / "rows.parquet").num_rows == 1000  # pyarrow does not mind
    for call in (lambda p: cio.evaluate_file(p, "y", "yhat"), cio.list_columns,
                 lambda p: cio.read_columns(p, ["y"])):
        with pytest.raises(ValueError, match=r"rows\.parquet' cannot be read whole: the footer "
                                             r"of '.*rows\.parquet' declares 1001 rows but its "
                                             r"row groups hold 1000"):
            call(tmp_path / "rows.parquet")
    # a row group declaring 501 rows (and the file 1001): pyarrow reads 1000 rows
    bad = bytearray(good)
    _patch_i64_field(bad, 1000, 1001, 0)
    _patch_i64_field(bad, 500, 501, 2)  # chunk values y, yhat, then the group's num_rows
    (tmp_path / "group.parquet").write_bytes(bad)
    assert pq.ParquetFile(tmp_path / "group.parquet").metadata.row_group(0).num_rows == 501
    for kw in ({}, {"score_cols": ["y", "yhat"]}):  # counted by DuckDB, or streamed
        with pytest.raises(ValueError, match=r"group\.parquet' cannot be read whole: row group 0 "
                                             r"of '.*group\.parquet' declares 501 rows but its "
                                             r"column 'y' holds 500 values"):
            cio.evaluate_file(tmp_path / "group.parquet", "y", "yhat", **kw)
    # ... or 499, which pyarrow 26 reads as 999 rows, silently dropping one (pyarrow 17 reads
    # all 1000: what a reader makes of the lie depends on its version, which is why it is
    # refused whatever the engine)
    bad = bytearray(good)
    _patch_i64_field(bad, 1000, 999, 0)
    _patch_i64_field(bad, 500, 499, 2)
    (tmp_path / "short.parquet").write_bytes(bad)
    with pytest.raises(ValueError, match=r"short\.parquet' cannot be read whole: row group 0 of "
                                         r"'.*short\.parquet' declares 499 rows but its column "
                                         r"'y' holds 500 values"):
        cio.evaluate_file(tmp_path / "short.parquet", "y", "yhat", score_cols=None)


SKIP_SOURCES = ["r.csv", "r.jsonl", "r.parquet", "sql"]


@pytest.mark.parametrize("with_scores", [False, True], ids=["labels", "labels and scores"])
@pytest.mark.parametrize("name", SKIP_SOURCES)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(20, 300))
def test_skipped_rows_by_reason_equal_an_independent_count(tmp_path_factory, seed, n, name,
                                                           with_scores):
    """Each source, with and without a score column, has its own examples of at least 20
    rows (drawn as arguments, the CSV file got 2 of 15 examples under the CI profile, both
    of one row: nothing to skip, and never a score column)."""
    rng = np.random.default_rng(seed)
    words = np.array(["ant", "bee", "cat"])
    y = [None if rng.random() < 0.1 else str(v) for v in words[rng.integers(0, 2, n)]]
    yhat = [None if rng.random() < 0.1 else str(v) for v in words[rng.integers(0, 2, n)]]
    s = [None if rng.random() < 0.05 else (float("nan") if rng.random() < 0.05 else float(v))
         for v in rng.random(n).round(5)]
    y[0], yhat[0], s[0] = "ant", "bee", 0.5  # a valid row: the engine sees text, n >= 1 read
    df = pd.DataFrame({"y": y, "yhat": yhat, "s": s})
    d = tmp_path_factory.mktemp("skip")
    if name == "sql":
        con = duckdb.connect()
        con.execute("create table t as select * from df")
        source = con.table("t")
    elif name.endswith(".csv"):
        df.to_csv(d / name, index=False, na_rep="")  # NaN and None are both empty here
        source = d / name
    elif name.endswith(".jsonl"):
        write_text(d / name, jsonl_text({"y": y, "yhat": yhat,
                                         "s": [None if v is None or v != v else v for v in s]}))
        source = d / name
    else:
        pq.write_table(pa.table({"y": y, "yhat": yhat, "s": pa.array(s, pa.float64())}), d / name)
        source = d / name
    null_t = df["y"].isna()
    null_p = df["yhat"].isna() & ~null_t
    null_s = df["s"].isna() & ~null_t & ~null_p
    want = {"null true label": int(null_t.sum()), "null prediction": int(null_p.sum())}
    if with_scores:
        want["null or NaN score"] = int(null_s.sum())
    want = {k: v for k, v in want.items() if v}
    kw = {"score_cols": "s", "labels": ["ant", "bee"], "bins": 4} if with_scores else {}
    if name == "sql":
        cm, rep = cio.evaluate_sql(source, true_col="y", pred_col="yhat", skip_invalid=True, **kw)
    else:
        cm, rep = cio.evaluate_file(source, "y", "yhat", skip_invalid=True, batch_rows=64, **kw)
    assert rep.skipped_by_reason == want
    assert rep.rows_read + rep.rows_skipped == n and rep.rows_skipped == sum(want.values())
    bad = null_t | null_p | (null_s if with_scores else False)
    assert rep.skipped_row_numbers == (np.flatnonzero(bad.to_numpy()) + 1).tolist()[:10]
    keep = df[~bad]
    assert pairs_of(cm) == Counter(zip(keep["y"], keep["yhat"], strict=True))


# ------------------------------------------------------------------- score bins in the engine
def _edge_scores(bins: int, rng: np.random.Generator, n_edges: int) -> list[float]:
    """Bin edges ``j / bins`` (as ScoreHistogram computes them) and their float neighbours,
    inside [0, 1], with 0, 1, -0.0 and their neighbours."""
    edges = ScoreHistogram([0, 1], bins=bins).edges
    js = np.unique(np.concatenate([[0, 1, bins - 1, bins],
                                   rng.integers(0, bins + 1, n_edges)]).clip(0, bins))
    out = [-0.0, 5e-324, float(np.nextafter(1.0, 0.0))]
    for e in edges[js]:
        out += [float(e), float(np.nextafter(e, -np.inf)), float(np.nextafter(e, np.inf))]
    return [v for v in out if 0.0 <= v <= 1.0]


@settings(max_examples=30, deadline=None)
@given(bins=st.sampled_from([1, 7, 1000, 10_000]), seed=st.integers(0, 2**32 - 1),
       n_random=st.integers(0, 200), weighted=st.booleans(), text=st.booleans(),
       row_group=st.integers(1, 300),
       outside=st.sampled_from([-1.0, -5e-324, float(np.nextafter(1.0, 2.0)), 1.5, np.inf,
                                -np.inf]))
def test_scores_binned_by_the_engine_equal_score_histogram(tmp_path_factory, bins, seed,
                                                           n_random, weighted, text, row_group,
                                                           outside):
    """One score column is binned inside DuckDB's GROUP BY (Parquet and CSV): the histogram
    equals ScoreHistogram.update of the same values exactly, at the bin edges and their
    float neighbours too; a score outside [0, 1] is an error naming its row."""
    rng = np.random.default_rng(seed)
    s = _edge_scores(bins, rng, 40) + rng.random(n_random).tolist()
    s = [s[i] for i in rng.permutation(len(s))]
    n = len(s)
    t = rng.integers(0, 2, n)
    t[:2] = [0, 1]
    p = np.where(rng.random(n) < 0.7, t, 1 - t)
    names = np.array(["neg", "pos"])
    y, yhat = (names[t].tolist(), names[p].tolist()) if text else (t.tolist(), p.tolist())
    w = (rng.integers(0, 9, n) / 4).tolist() if weighted else None  # exact sums in any order
    labels = ["neg", "pos"] if text else [0, 1]
    want = ScoreHistogram(labels, bins=bins).update(y, np.array(s), sample_weight=w)
    d = tmp_path_factory.mktemp("bins")
    columns = {"y": y, "yhat": yhat, "s": s, **({"w": w} if weighted else {})}
    pq.write_table(pa.table(columns), d / "b.parquet", row_group_size=row_group)
    write_text(d / "b.csv", csv_text(columns))
    # text labels name the class of the column (never the second label by sorted order)
    kw = {"score_cols": "s", "bins": bins, "weight_col": "w" if weighted else None,
          "pos_label": "pos" if text else None}
    for name in ("b.parquet", "b.csv"):
        cm, rep = cio.evaluate_file(d / name, "y", "yhat", **kw)
        assert rep.engine == "duckdb GROUP BY" and rep.rows_read == n
        assert rep.curves.labels == labels and rep.curves.bins == bins
        assert rep.curves.counts.dtype == want.counts.dtype
        np.testing.assert_array_equal(rep.curves.counts, want.counts)
        assert pairs_of(cm) == +count_pairs(y, yhat, w)
    # a score outside [0, 1]: the error names the row (1-based) and the column
    bad_row = int(rng.integers(0, n))
    s_bad = list(s)
    s_bad[bad_row] = outside
    columns["s"] = s_bad
    pq.write_table(pa.table(columns), d / "o.parquet", row_group_size=row_group)
    write_text(d / "o.csv", csv_text(columns))
    for name in ("o.parquet", "o.csv"):
        with pytest.raises(ValueError, match=rf"{name}', row {bad_row + 1}: column 's' holds a "
                                             rf"score {outside!r} outside score_range"):
            cio.evaluate_file(d / name, "y", "yhat", **kw)


def test_nan_in_a_parquet_row_group_with_finite_statistics_is_missing(tmp_path):
    """Parquet writers leave NaN out of a row group's min / max; DuckDB 2.0 then folds
    ``isnan(x)`` to false for the whole group. A NaN score or weight there is still missing."""
    s = [0.25, np.nan, 0.75, 0.5, np.nan, 0.125]
    w = [1.0, 1.0, np.nan, 2.0, 1.0, 0.5]
    y, yhat = [0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1]
    path = tmp_path / "nan.parquet"
    pq.write_table(pa.table({"y": y, "yhat": yhat, "s": s, "w": w}), path, row_group_size=2)
    assert pq.ParquetFile(path).metadata.row_group(0).column(2).statistics.max == 0.25
    with pytest.raises(ValueError, match=r"row 2: null or NaN score \(column 's'"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=8)
    cm, rep = cio.evaluate_file(path, "y", "yhat", score_cols="s", weight_col="w", bins=8,
                                skip_invalid=True)
    assert rep.engine == "duckdb GROUP BY"
    assert rep.skipped_by_reason == {"null or NaN score": 2, "null or NaN weight": 1}
    assert rep.skipped_row_numbers == [2, 3, 5]
    keep = [0, 3, 5]
    assert pairs_of(cm) == Counter({(0, 0): 3.0, (1, 1): 0.5})
    want = ScoreHistogram([0, 1], bins=8).update(np.array(y)[keep], np.array(s)[keep],
                                                 sample_weight=np.array(w)[keep])
    np.testing.assert_array_equal(rep.curves.counts, want.counts)
    with pytest.raises(ValueError, match=r"row 3: null or NaN weight \(column 'w'"):
        cio.evaluate_file(path, "y", "yhat", weight_col="w")


# ----------------------------------------------------------------------------------- CLI
def test_cli_prints_the_error_of_a_damaged_file_and_exits_2(tmp_path):
    pq_path = tmp_path / "cut.parquet"
    pq.write_table(pa.table({"y": np.arange(3000) % 2, "yhat": np.arange(3000) % 3}), pq_path,
                   row_group_size=500)
    pq_path.write_bytes(pq_path.read_bytes()[:-100])
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("y,yhat\n" + "1,1\n" * 3000 + "0,1,1\n1,0\n")
    gz = tmp_path / "broken.csv.gz"
    data = bytearray(gzip.compress(("y,yhat\n" + "1,0\n0,1\n" * 5000).encode()))
    data[len(data) // 2] ^= 0xFF
    gz.write_bytes(bytes(data))
    env = {**os.environ, "COLUMNS": "200", "PYTHONWARNINGS": "ignore"}
    for path, fragment in [(pq_path, "cannot be read whole"), (ragged, "cannot be read whole"),
                           (gz, "cannot be read whole")]:
        res = subprocess.run([sys.executable, "-m", "confmat", "report", str(path), "--true", "y",
                              "--pred", "yhat"], capture_output=True, text=True, env=env,
                             timeout=240)
        assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
        assert "Traceback" not in res.stderr, res.stderr
        assert path.name in res.stderr and fragment in res.stderr, res.stderr
        assert res.stdout == ""


@settings(max_examples=25, deadline=None)
@given(bins=st.sampled_from([1, 3, 7, 1000, 10_000]), seed=st.integers(0, 2**32 - 1),
       score_range=st.sampled_from([(0.0, 1.0), (-2.5, 3.0), (0.1, 0.7)]))
def test_score_bins_equal_score_histogram_per_value(bins, seed, score_range):
    """The engine's groups are binned by score_bins of their smallest and largest score: on
    edges, their float neighbours and random values it gives the bin ScoreHistogram.update
    puts each value in (values outside the range: below 0 / 2 * bins)."""
    rng = np.random.default_rng(seed)
    lo, hi = score_range
    edges = ScoreHistogram([0, 1], bins=bins, score_range=score_range).edges
    pick = edges[rng.integers(0, bins + 1, 30)]
    vals = np.concatenate([pick, np.nextafter(pick, -np.inf), np.nextafter(pick, np.inf),
                           lo + (hi - lo) * rng.random(30), [lo, hi]])
    got = score_bins(vals, bins, score_range)
    for v, b in zip(vals.tolist(), got.tolist(), strict=True):
        if v < lo:
            assert b < 0
        elif v > hi:
            assert b == 2 * bins
        else:
            h = ScoreHistogram([0, 1], bins=bins, score_range=score_range).update([1], [v])
            assert b == int(np.flatnonzero(h.counts.reshape(-1, bins).sum(axis=0))[0]), v
