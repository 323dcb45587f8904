"""Hive partition values that DuckDB reads and pyarrow would not convert, or would convert
otherwise, on every public entry point that reads a partitioned directory.

A partition value is text in a directory name (``g=2024-1-2/``). DuckDB types the key
(``hive_types_autocast``) and reads ``2024-1-2`` as a DATE, ``' 1'`` as the integer 1,
``NULL`` among integers and ``__HIVE_DEFAULT_PARTITION__`` as null, ``a%2Fb`` as ``a/b``,
``inf`` as an infinite date; pyarrow's hive partitioning, given the same types, refused the
first ones ("error parsing '2024-1-2' as scalar of type date32") on the streamed path
(``read_columns``, ``iter_batches``, Arrow IPC directories), and DuckDB's DATE came back as a
midnight ``datetime`` from the counted path.

Each case below (a table of such values, alone, beside ``1`` and beside ``x``, which change
the type DuckDB infers; Parquet, Arrow IPC and CSV directories written with pyarrow) must
give, on each entry point, the oracle's values and counts, or raise a ``ValueError`` (not an
engine's error) that names the key and the directory's value. The oracle is DuckDB's own
``read_parquet(..., hive_partitioning = true)`` (``read_csv`` for CSV; for Arrow IPC, which
DuckDB does not read, a Parquet twin of the same paths and rows) with ``GROUP BY g``,
counted in Python; errors are expected exactly where DuckDB's ``isinf(g)`` holds (a date
neither Arrow nor Python can hold). A null partition value is no group and no label (the
documented rule for nulls): an error naming the column, or with ``skip_invalid`` skipped, and
the oracle's counts without it.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
duckdb = pytest.importorskip("duckdb")

from confmat import io as cio  # noqa: E402
from confmat.inputs.source import ReadError  # noqa: E402

#: directory values DuckDB reads otherwise than as the text of the path, or that pyarrow
#: parses otherwise
TRICKY = ["2024-1-2", " 1", "1 ", "01", "+1", "1e3", "-0", "NULL",
          "__HIVE_DEFAULT_PARTITION__", "a%2Fb", "a%20b", "true", "TRUE", "inf",
          "2024-01-02 10:00:00", "1.5", "nan", ""]

CASES = ([[v] for v in TRICKY] + [[v, "1"] for v in TRICKY] + [[v, "x"] for v in TRICKY]
         + [["2024-1-2", "2024-01-03"], [" 1", "1", "2"], ["-0", "0", "7"],
            ["NULL", "__HIVE_DEFAULT_PARTITION__", "1"], ["true", "false"],
            ["2024-1-2", "2024-01-02"]])


def _rows(i: int) -> dict[str, list[int]]:
    n = 1 + i % 3
    return {"y": [j % 2 for j in range(n)], "yhat": [(i + j) % 2 for j in range(n)]}


def write_dirs(root: Path, values: list[str], fmt: str) -> Path:
    """One file per directory ``g=<value>`` (the value written as is), ``1 + i % 3`` rows."""
    for i, v in enumerate(values):
        d = root / f"g={v}"
        d.mkdir(parents=True, exist_ok=True)
        table = pa.table(_rows(i))
        if fmt == "parquet":
            pq.write_table(table, d / "p.parquet")
        elif fmt == "arrow":
            feather.write_feather(table, d / "p.arrow")
        else:
            with open(d / "p.csv", "w", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(table.column_names)
                w.writerows(zip(*table.to_pydict().values(), strict=True))
    return root


def midnight(k: Any) -> Any:
    """A date as the ``datetime`` of its midnight, as confmat's door makes every date label
    and group (``confmat.inputs.containers.as_datetimes``: days and seconds are one label)."""
    if isinstance(k, datetime.date) and not isinstance(k, datetime.datetime):
        return datetime.datetime(k.year, k.month, k.day)
    return k


def typed(counts: dict[Any, int]) -> dict[tuple[str, Any], int]:
    """Counts keyed by (type name, value), so that 1 and 1.0 differ; dates at midnight."""
    return {(type(midnight(k)).__name__, midnight(k)): int(n) for k, n in counts.items()}


def oracle(tmp: Path, values: list[str], fmt: str) -> tuple[dict[Any, int], bool]:
    """DuckDB's counts by partition value, and whether one of them is an infinite date."""
    if fmt == "csv":
        src = write_dirs(tmp / "oracle", values, "csv")
        read = f"read_csv('{src}/**/*.csv', hive_partitioning = true)"
    else:
        src = write_dirs(tmp / "oracle", values, "parquet")
        read = f"read_parquet('{src}/**/*.parquet', hive_partitioning = true)"
    con = duckdb.connect()
    rel = con.sql(f"SELECT g FROM {read}")
    kind = str(rel.types[0])
    inf = False
    if kind.startswith(("DATE", "TIMESTAMP")):
        inf = bool(con.sql(f"SELECT bool_or(isinf(g)) FROM {read}").fetchall()[0][0])
        if inf:
            return {}, True
    return dict(con.sql(f"SELECT g, count(*) FROM {read} GROUP BY g").fetchall()), inf


def entry_points(fmt: str) -> list[str]:
    out = ["labels", "read_columns", "iter_batches", "by_group_where", "cli_where"]
    if fmt != "arrow":  # evaluation by group is counted by DuckDB (refused for Arrow IPC)
        out += ["by_group", "cli"]
    return out


def run(entry: str, root: Path, skip: bool) -> dict[Any, int]:
    """Counts by partition value as confmat reads them through ``entry``."""
    if entry == "labels":  # the key as both labels: the diagonal counts each value
        cm, _ = cio.evaluate_file(root, "g", "g", skip_invalid=skip)
        return {k: cm.counts[i, i] for i, k in enumerate(cm.labels)}
    if entry == "read_columns":
        return Counter(cio.read_columns(root, ["g"], skip_invalid=skip)["g"].tolist())
    if entry == "iter_batches":
        reader = cio.iter_batches(root, ["g", "y"], batch_rows=2, skip_invalid=skip)
        got: Counter[Any] = Counter()
        for b in reader:
            got.update(b["g"].tolist())
        assert reader.rows_read == sum(got.values())
        return got
    if entry in ("by_group", "by_group_where"):
        where = "y IS NOT NULL" if entry == "by_group_where" else None
        ev, _ = cio.evaluate_file(root, "y", "yhat", group_cols="g", skip_invalid=skip,
                                  where=where)
        return {k[0] if isinstance(k, tuple) else k: ev.stack[i].sum()
                for i, k in enumerate(ev.groups)}
    from confmat.cli.app import main

    args = ["report", str(root), "--true", "y", "--pred", "yhat", "--by", "g", "--format",
            "json", "--no-intervals", *(["--skip-invalid"] if skip else []),
            *(["--where", "y IS NOT NULL"] if entry == "cli_where" else [])]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    if status == 2:  # the CLI's error: one line on stderr, no traceback
        assert "Traceback" not in err.getvalue()
        raise ValueError(err.getvalue())
    assert status == 0, err.getvalue()
    return {r["group"]: r["size"] for r in json.loads(out.getvalue())["rows"]}


def as_json(counts: dict[Any, int]) -> dict[Any, int]:
    """The oracle's keys as the JSON report writes a group (numbers and text as they are,
    other values as text)."""
    return {k if isinstance(k, int | str) else str(midnight(k)): n for k, n in counts.items()}


def check_case(tmp: Path, values: list[str], fmt: str) -> None:
    want, inf = oracle(tmp, values, fmt)
    root = write_dirs(tmp / "d", values, fmt)
    nulls = None in want
    kept = {k: n for k, n in want.items() if k is not None}
    for entry in entry_points(fmt):
        if inf:  # a ValueError naming the key and the directory's value, on every path
            with pytest.raises(ValueError) as err:
                run(entry, root, skip=True)
            assert type(err.value) is ValueError or entry.startswith("cli"), err.value
            assert "'g'" in str(err.value) and "'inf'" in str(err.value), err.value
            continue
        try:
            got = run(entry, root, skip=True)
        except ValueError as exc:  # every value null: nothing left to evaluate
            if kept or "no valid rows" not in str(exc):
                raise
            got = {}
        if entry.startswith("cli"):
            assert got == as_json(kept), (entry, values)
        else:
            assert typed(got) == typed(kept), (entry, values)
        if nulls:  # without skip_invalid a null partition value is an error naming 'g'
            with pytest.raises(ValueError, match=r"'g'") as err:
                run(entry, root, skip=False)
            assert not isinstance(err.value, ReadError)


@pytest.mark.parametrize("fmt", ["parquet", "arrow", "csv"])
@pytest.mark.parametrize("values", CASES, ids=lambda v: "|".join(v) or "empty")
def test_partition_values_equal_duckdbs_on_every_entry_point(tmp_path, fmt, values):
    check_case(tmp_path, values, fmt)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.sampled_from([*TRICKY, "1", "2", "10", "x", "2024-01-03"]),
                       min_size=1, max_size=4, unique=True),
       fmt=st.sampled_from(["parquet", "arrow"]))
def test_random_sets_of_partition_values_equal_duckdbs(tmp_path_factory, values, fmt):
    check_case(tmp_path_factory.mktemp("h"), values, fmt)


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_a_value_column_types_does_not_fit_names_the_key_and_the_directory(tmp_path, fmt):
    """``column_types={'g': 'int64'}`` over ``g=a%2Fb``: DuckDB's conversion error was the
    message; now a ValueError naming the key, the directory and the value."""
    root = write_dirs(tmp_path / "d", ["1", "a%2Fb"], fmt)
    for call in (lambda: cio.evaluate_file(root, "y", "yhat", column_types={"g": "int64"}),
                 lambda: cio.read_columns(root, ["g"], column_types={"g": "int64"})):
        with pytest.raises(ValueError, match=r"hive partition 'g' \(a directory 'g=a%2Fb'\) "
                                             r"does not read as BIGINT.*'a/b'") as err:
            call()
        assert type(err.value) is ValueError


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_column_types_string_keeps_the_directory_text(tmp_path, fmt):
    """Typed as text, ``' 1'``, ``'01'`` and ``'2024-1-2'`` stay apart from ``1`` and from each
    other on the counted and the streamed paths (oracle: DuckDB with ``hive_types``)."""
    values = [" 1", "01", "1", "2024-1-2", "inf"]
    root = write_dirs(tmp_path / "d", values, fmt)
    twin = write_dirs(tmp_path / "o", values, "parquet")
    want = dict(duckdb.sql(f"SELECT g, count(*) FROM read_parquet('{twin}/**/*.parquet', "
                           "hive_partitioning = true, hive_types = {'g': 'VARCHAR'}) "
                           "GROUP BY g").fetchall())
    assert set(want) == set(values)
    got = Counter(cio.read_columns(root, ["g"], column_types={"g": "string"})["g"].tolist())
    assert typed(got) == typed(want)
    cm, _ = cio.evaluate_file(root, "g", "g", column_types={"g": "string"})
    assert typed({k: cm.counts[i, i] for i, k in enumerate(cm.labels)}) == typed(want)
