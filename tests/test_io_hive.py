"""Hive-partitioned directories (``key=value`` subdirectories): the type of a partition column.

A partition value is text in a directory name. DuckDB infers a type for it (an integer when
every value reads as one, so a label or group ``'1'`` became the integer 1), and
``column_types=`` did not reach Parquet; the rule (docs/scaling.md, "Hive partitions"):
``column_types=`` types a partition column when it names it, otherwise DuckDB's inference
stands, on the counted and the streamed paths alike; a partition column that is also a
column inside the files is an error naming it (DuckDB silently read the directory's value
in place of the file's).

Oracles: pyarrow's dataset reading the same directory with an explicit hive partitioning
schema (the types the test asks for), and scikit-learn's ``confusion_matrix`` of its rows;
for CSV, Python's ``csv`` module and the ``key=value`` directory names split by hand.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ds = pytest.importorskip("pyarrow.dataset")
sk_metrics = pytest.importorskip("sklearn.metrics")

from confmat import io as cio  # noqa: E402

#: text partition values that an integer type would merge ('1' and '01') or that a
#: number type would change
VALUES = ["1", "01", "2", "10"]


def write_parquet_dataset(root: Path, key: str, rows: int = 40, seed: int = 0) -> Path:
    """A directory partitioned by ``key`` (pyarrow's writer) over text values of VALUES."""
    rng = np.random.default_rng(seed)
    table = pa.table({
        "y": pa.array(rng.integers(0, 2, rows), pa.int64()),
        "yhat": pa.array(rng.integers(0, 2, rows), pa.int64()),
        "k": pa.array([VALUES[i % len(VALUES)] for i in range(rows)], pa.string()),
    }).rename_columns(["y", "yhat", key])
    pq.write_to_dataset(table, root, partition_cols=[key])
    return root


def oracle_table(root: Path, types: dict[str, Any]) -> dict[str, list[Any]]:
    """pyarrow's read of the directory with the partition columns of the given types."""
    part = ds.partitioning(pa.schema(list(types.items())), flavor="hive")
    return ds.dataset(root, format="parquet", partitioning=part).to_table().to_pydict()


def sk(y: list[Any], yhat: list[Any], labels: list[Any]) -> np.ndarray:
    code = {v: i for i, v in enumerate(labels)}
    return sk_metrics.confusion_matrix([code[v] for v in y], [code[v] for v in yhat],
                                       labels=list(range(len(labels))))


@pytest.mark.parametrize(("given", "arrow_type", "py"), [("string", pa.string(), str),
                                                         ("int64", pa.int64(), int)])
def test_partition_group_column_typed_by_column_types(tmp_path, given, arrow_type, py):
    """Groups held in the partition path: ``column_types={'g': ...}`` gives their type
    (text keeps '1' and '01' apart; int64 merges them, as the user asked)."""
    root = write_parquet_dataset(tmp_path / "d", "g")
    want = oracle_table(root, {"g": arrow_type})
    ev, report = cio.evaluate_file(root, "y", "yhat", group_cols="g", column_types={"g": given})
    groups = sorted(set(want["g"]))
    assert ev.groups == groups
    assert all(type(g) is py for g in ev.groups)
    assert report.rows_read == len(want["y"])
    labels = ev.labels
    for i, g in enumerate(groups):
        rows = [j for j, v in enumerate(want["g"]) if v == g]
        np.testing.assert_array_equal(
            ev.stack[i], sk([want["y"][j] for j in rows], [want["yhat"][j] for j in rows], labels))


@pytest.mark.parametrize("scores", [None, ["p0", "p1"]])
def test_partition_label_column_as_text_on_the_counted_and_streamed_paths(tmp_path, scores):
    """The true label held in the partition path, read as text: '1' and '01' are two classes
    on the counted path (DuckDB) and on the streamed one (pyarrow's dataset: a score column
    per class), where pyarrow's own inference made them one integer."""
    rng = np.random.default_rng(2)
    n = 40
    table = pa.table({"yhat": [["1", "01"][v] for v in rng.integers(0, 2, n)],
                      "y": [["1", "01"][i % 2] for i in range(n)],
                      "p0": np.full(n, 0.25), "p1": np.full(n, 0.75)})
    root = tmp_path / "d"
    pq.write_to_dataset(table, root, partition_cols=["y"])
    want = oracle_table(root, {"y": pa.string()})
    cm, report = cio.evaluate_file(root, "y", "yhat", column_types={"y": "string"},
                                   score_cols=scores)
    assert report.engine == ("duckdb GROUP BY" if scores is None else "pyarrow dataset")
    labels = sorted(set(want["y"]) | set(want["yhat"]))
    assert cm.labels == labels == ["01", "1"]
    np.testing.assert_array_equal(cm.counts, sk(want["y"], want["yhat"], labels))


def test_partition_values_without_column_types_are_as_duckdb_infers(tmp_path):
    """Without ``column_types`` the documented rule is DuckDB's inference: integers when
    every value of a key reads as one without change ('1', '2', '10'), text otherwise (a
    value '01' keeps the key text); the streamed path reads the same types. Oracle: pyarrow
    with those types given."""
    root = tmp_path / "d"
    rng = np.random.default_rng(1)
    table = pa.table({"y": rng.integers(0, 2, 30), "yhat": rng.integers(0, 2, 30),
                      "g": [["1", "2", "10"][i % 3] for i in range(30)],
                      "h": [["1", "01"][i % 2] for i in range(30)]})
    pq.write_to_dataset(table, root, partition_cols=["g", "h"])
    want = oracle_table(root, {"g": pa.int64(), "h": pa.string()})
    cols = cio.read_columns(root, ["g", "h"])
    assert sorted(set(cols["g"].tolist())) == sorted(set(want["g"])) == [1, 2, 10]
    assert sorted(set(cols["h"].tolist())) == sorted(set(want["h"])) == ["01", "1"]
    batches = list(cio.iter_batches(root, ["g", "h"]))
    assert sorted({v for b in batches for v in b["g"].tolist()}) == [1, 2, 10]
    assert sorted({v for b in batches for v in b["h"].tolist()}) == ["01", "1"]


def test_a_partition_column_that_is_also_a_file_column_is_an_error(tmp_path):
    """A file holding a column ``g`` under a directory ``g=1``: DuckDB read the directory's
    value and dropped the file's without a word; confmat names the column and the file."""
    part = tmp_path / "d" / "g=1"
    part.mkdir(parents=True)
    pq.write_table(pa.table({"y": [1, 0], "yhat": [1, 1], "g": ["x", "y"]}),
                   part / "a.parquet")
    # the two values the file and its directory give the column differ
    assert pq.ParquetFile(part / "a.parquet").read()["g"].to_pylist() == ["x", "y"]
    with pytest.raises(ValueError, match=r"column 'g' is a hive partition .* and a column of "
                                         r"the file .*a\.parquet"):
        cio.evaluate_file(tmp_path / "d", "y", "yhat", group_cols="g")


def test_column_types_naming_a_parquet_data_column_is_refused(tmp_path):
    """Parquet files carry the types of their columns: ``column_types`` may type only the
    partition columns, and naming another column is an error naming it."""
    root = write_parquet_dataset(tmp_path / "d", "g")
    with pytest.raises(ValueError, match=r"column_types names \['y'\], .*Parquet"):
        cio.evaluate_file(root, "y", "yhat", column_types={"y": "string"})
    with pytest.raises(ValueError, match=r"column_types names \['g'\], .*Parquet"):
        cio.evaluate_file(root / "g=1" / os.listdir(root / "g=1")[0], "y", "yhat",
                          column_types={"g": "string"})


@pytest.mark.parametrize("ext", [".csv", ".jsonl"])
def test_text_partition_values_typed_by_column_types(tmp_path, ext):
    """A hive-partitioned CSV or JSON lines directory: ``column_types={'g': 'string'}`` keeps
    '1' and '01' apart. Oracle: Python's csv / json modules and the directory names split by
    hand."""
    rows = []
    for i, g in enumerate(VALUES):
        part = tmp_path / "d" / f"g={g}"
        part.mkdir(parents=True)
        data = [(i % 2, (i // 2) % 2), (1, 1), (0, i % 2)]
        with (part / f"a{ext}").open("w", newline="") as fh:
            if ext == ".csv":
                w = csv.writer(fh)
                w.writerow(["y", "yhat"])
                w.writerows(data)
            else:
                fh.writelines(json.dumps({"y": t, "yhat": p}) + "\n" for t, p in data)
    for f in sorted((tmp_path / "d").rglob(f"*{ext}")):
        g = f.parent.name.split("=", 1)[1]
        with f.open(newline="") as fh:
            read = csv.DictReader(fh) if ext == ".csv" else map(json.loads, fh)
            rows += [(g, int(r["y"]), int(r["yhat"])) for r in read]
    ev, report = cio.evaluate_file(tmp_path / "d", "y", "yhat", group_cols="g",
                                   column_types={"g": "string"})
    groups = sorted({g for g, _, _ in rows})
    assert ev.groups == groups == sorted(VALUES)
    assert report.rows_read == len(rows)
    for i, g in enumerate(groups):
        mine = [(t, p) for gg, t, p in rows if gg == g]
        np.testing.assert_array_equal(ev.stack[i], sk([t for t, _ in mine],
                                                      [p for _, p in mine], ev.labels))


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_a_glob_reads_no_partition_columns(tmp_path, ext):
    """Partition columns come from a directory source only: a glob over ``g=1/`` directories
    reads the files' own columns (DuckDB guessed partitions from any path of a CSV or JSON
    lines glob). Oracle: the columns written."""
    for g in ("1", "2"):
        part = tmp_path / f"g={g}"
        part.mkdir()
        if ext == ".csv":
            (part / "a.csv").write_text("y,yhat\n1,0\n")
        elif ext == ".jsonl":
            (part / "a.jsonl").write_text('{"y": 1, "yhat": 0}\n')
        else:
            pq.write_table(pa.table({"y": [1], "yhat": [0]}), part / "a.parquet")
    assert cio.list_columns(str(tmp_path / "*" / f"a{ext}")) == ["y", "yhat"]
    assert cio.list_columns(tmp_path) == ["y", "yhat", "g"]


# ------------------------------------------------------------------ Arrow IPC directories
def write_arrow_dataset(root: Path, table: Any, keys: list[str]) -> Path:
    """A hive directory of Arrow IPC files (pyarrow's writer), the keys' values as text."""
    ds.write_dataset(table, root, format="ipc", partitioning=keys, partitioning_flavor="hive",
                     basename_template="part-{i}.arrow")
    return root


def arrow_oracle(root: Path, types: dict[str, Any]) -> dict[str, list[Any]]:
    """pyarrow's read of an Arrow IPC directory with the partition columns of given types."""
    part = ds.partitioning(pa.schema(list(types.items())), flavor="hive")
    return ds.dataset(root, format="ipc", partitioning=part).to_table().to_pydict()


def text_keyed(rows: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return pa.table({"y": pa.array(rng.integers(0, 2, rows), pa.int64()),
                     "yhat": pa.array(rng.integers(0, 2, rows), pa.int64()),
                     "g": pa.array([VALUES[i % len(VALUES)] for i in range(rows)], pa.string())})


@pytest.mark.parametrize(("given", "arrow_type", "py"), [("string", pa.string(), str),
                                                         ("int64", pa.int64(), int)])
def test_arrow_partition_label_column_typed_by_column_types(tmp_path, given, arrow_type, py):
    """Arrow IPC directories follow the rule of the other formats: ``column_types={'y': ...}``
    types the partition values (text keeps '1' and '01' apart; int64 merges them). Before, it
    was refused for Arrow, and pyarrow's guess made them one integer."""
    rng = np.random.default_rng(0)
    n = 40
    pred = [VALUES[v] for v in rng.integers(0, len(VALUES), n)]
    table = pa.table({"yhat": pa.array([py(v) for v in pred], arrow_type),
                      "y": [VALUES[i % len(VALUES)] for i in range(n)]})
    root = write_arrow_dataset(tmp_path / "d", table, ["y"])
    want = arrow_oracle(root, {"y": arrow_type})
    cm, report = cio.evaluate_file(root, "y", "yhat", column_types={"y": given})
    labels = sorted(set(want["y"]) | set(want["yhat"]))
    assert cm.labels == labels
    assert all(type(v) is py for v in cm.labels)
    assert len(labels) == (4 if py is str else 3)
    assert report.rows_read == n
    np.testing.assert_array_equal(cm.counts, sk(want["y"], want["yhat"], labels))


def test_arrow_partition_label_column_as_text(tmp_path):
    """The true label in the partition path of an Arrow IPC directory, typed as text: '1' and
    '01' are two classes."""
    rng = np.random.default_rng(2)
    n = 40
    table = pa.table({"yhat": [["1", "01"][v] for v in rng.integers(0, 2, n)],
                      "y": [["1", "01"][i % 2] for i in range(n)]})
    root = write_arrow_dataset(tmp_path / "d", table, ["y"])
    want = arrow_oracle(root, {"y": pa.string()})
    cm, _ = cio.evaluate_file(root, "y", "yhat", column_types={"y": "string"})
    labels = sorted(set(want["y"]) | set(want["yhat"]))
    assert cm.labels == labels == ["01", "1"]
    np.testing.assert_array_equal(cm.counts, sk(want["y"], want["yhat"], labels))


def test_arrow_partition_values_without_column_types_as_duckdb_infers(tmp_path):
    """Without ``column_types`` an Arrow IPC directory's keys get the types DuckDB infers for
    a Parquet directory of the same paths (integers for '1', '2', '10'; text beside '01';
    dates). Oracles: DuckDB's own ``read_parquet`` of that Parquet directory for the rule,
    pyarrow's dataset with those types given for the values, scikit-learn for the counts."""
    import duckdb

    rng = np.random.default_rng(1)
    n = 30
    table = pa.table({"y": rng.integers(0, 2, n), "yhat": rng.integers(0, 2, n),
                      "g": [["1", "2", "10"][i % 3] for i in range(n)],
                      "h": [["1", "01"][i % 2] for i in range(n)],
                      "d": [["2024-01-02", "2024-02-03"][i % 2] for i in range(n)],
                      "gp": rng.choice([1, 2, 10], n)})
    keys = ["g", "h", "d"]
    root = write_arrow_dataset(tmp_path / "a", table, keys)
    twin = tmp_path / "p"
    pq.write_to_dataset(table, twin, partition_cols=keys)
    rule = duckdb.sql(f"SELECT g, h, d FROM read_parquet('{twin}/**/*.parquet', "
                      "hive_partitioning = true)")
    assert [str(t) for t in rule.types] == ["BIGINT", "VARCHAR", "DATE"]
    want = arrow_oracle(root, {"g": pa.int64(), "h": pa.string(), "d": pa.date32()})
    cols = cio.read_columns(root, keys)
    assert sorted(set(cols["g"].tolist())) == sorted(set(want["g"])) == [1, 2, 10]
    assert sorted(set(cols["h"].tolist())) == sorted(set(want["h"])) == ["01", "1"]
    assert sorted(set(cols["d"].tolist())) == sorted(set(want["d"]))
    cm, _ = cio.evaluate_file(root, "g", "gp")
    labels = sorted(set(want["g"]) | set(want["gp"]))
    assert cm.labels == labels == [1, 2, 10]
    np.testing.assert_array_equal(cm.counts, sk(want["g"], want["gp"], labels))


def test_arrow_column_types_naming_a_data_column_is_refused(tmp_path):
    root = write_arrow_dataset(tmp_path / "d", text_keyed(8, 3), ["g"])
    with pytest.raises(ValueError, match=r"column_types names \['y'\], .*Arrow IPC columns"):
        cio.evaluate_file(root, "y", "yhat", column_types={"y": "string"})


def test_an_arrow_partition_column_that_is_also_a_file_column_is_an_error(tmp_path):
    part = tmp_path / "d" / "g=1"
    part.mkdir(parents=True)
    import pyarrow.feather as feather

    feather.write_feather(pa.table({"y": [1, 0], "yhat": [1, 1], "g": ["x", "y"]}),
                          part / "a.arrow")
    assert feather.read_table(part / "a.arrow")["g"].to_pylist() == ["x", "y"]
    with pytest.raises(ValueError, match=r"column 'g' is a hive partition .* and a column of "
                                         r"the file .*a\.arrow"):
        cio.evaluate_file(tmp_path / "d", "y", "yhat", group_cols="g")


def test_arrow_files_under_different_partition_keys_are_refused(tmp_path):
    """As DuckDB refuses a Parquet directory whose files lie under different keys, so an Arrow
    IPC one: the error names the keys of two files (written here: ``g=1/`` and ``g=2/h=3/``)."""
    import pyarrow.feather as feather

    for sub in ("g=1", "g=2/h=3"):
        (tmp_path / "d" / sub).mkdir(parents=True)
        feather.write_feather(pa.table({"y": [1, 0], "yhat": [1, 1]}),
                              tmp_path / "d" / sub / "a.arrow")
    with pytest.raises(ValueError, match=r"different hive partition keys \(\['g'\] for .*, "
                                         r"\['g', 'h'\] for "):
        cio.evaluate_file(tmp_path / "d", "y", "yhat")
