"""One CSV file sniffed once (``confmat.inputs.csv_dialect.sniff`` and ``read_sniffed``) reads what DuckDB's
own Python ``read_csv`` reads: the same column names, types and rows, on random files written
by Python's ``csv`` module in random dialects (delimiter, quoting, line ends, compression),
with quotes in file and column names, forced types and NULL texts.

Oracle: DuckDB's ``read_csv`` relation (its sniffer, its binder) on the same file.
"""

from __future__ import annotations

import csv
import gzip
import io
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

duckdb = pytest.importorskip("duckdb")

from confmat.inputs.csv_dialect import read_sniffed, sniff  # noqa: E402

MAX_LINE = 2 << 20

#: value makers by column kind: row index, rng -> the field's text (None: an empty field)
KINDS = {
    "int": lambda i, r: str(int(r.integers(-5, 50))),
    "float": lambda i, r: repr(float(r.normal())),
    "text": lambda i, r: str(r.choice(["a", "b, c", 'say "hi"', "NA", "x;y", "null", "tab\tin"])),
    "date": lambda i, r: f"2020-0{int(r.integers(1, 10))}-1{int(r.integers(0, 10))}",
    "stamp": lambda i, r: f"2021-03-0{int(r.integers(1, 10))} 12:3{int(r.integers(0, 10))}:00",
    "bool": lambda i, r: str(r.choice(["true", "false"])),
}
NAMES = ["y", "yhat", "p's", 'q"uote', "with space", "a,b", "Ünï"]


def _write(path: str, header: list[str], rows: list[list[str | None]], delimiter: str,
           quoting: int, newline: str, compression: str) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, quoting=quoting, lineterminator=newline)
    w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else v for v in row])
    data = buf.getvalue().encode()
    if compression == "zst":
        pa = pytest.importorskip("pyarrow")
        with pa.CompressedOutputStream(path, "zstd") as out:
            out.write(data)
        return
    with open(path, "wb") as fh:
        fh.write(gzip.compress(data) if compression == "gz" else data)


def _sniffed(con, path: str, **kw):
    """The relation of ``read_sniffed`` over what ``sniff`` found (``kw`` as ``read_csv``'s)."""
    return read_sniffed(con, [path], sniff(con, path, max_line_size=MAX_LINE,
                                           delimiter=kw.get("sep"), types=kw.get("dtype"),
                                           nullstr=kw.get("na_values")))


def _read_both(path: str, **kw):
    con = duckdb.connect()
    mine = _sniffed(con, path, **kw)
    theirs = con.read_csv(path, header=True, max_line_size=MAX_LINE, **kw)
    return ((mine.columns, [str(t) for t in mine.types], mine.fetchall()),
            (theirs.columns, [str(t) for t in theirs.types], theirs.fetchall()))


@pytest.mark.parametrize("compression", ["", "gz", "zst"])
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_rows=st.integers(1, 60),
       kinds=st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=5),
       delimiter=st.sampled_from([",", ";", "|", "\t"]),
       quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]),
       newline=st.sampled_from(["\n", "\r\n"]),
       null_rate=st.sampled_from([0.0, 0.2]), tsv=st.booleans(), force_text=st.booleans(),
       na=st.booleans())
def test_sniffed_once_reads_what_duckdb_reads(tmp_path_factory, compression, seed, n_rows,
                                              kinds, delimiter, quoting, newline, null_rate,
                                              tsv, force_text, na):
    rng = np.random.default_rng(seed)
    header = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else str(i))
              for i in range(len(kinds))]
    rows = [[None if rng.random() < null_rate else KINDS[k](i, rng) for k in kinds]
            for i in range(n_rows)]
    if tsv:
        delimiter = "\t"
    suffix = ".csv" + (f".{compression}" if compression else "")
    path = os.path.join(tmp_path_factory.mktemp("dialect"), f"it's {seed}{suffix}")
    _write(path, header, rows, delimiter, quoting, newline, compression)
    kw = {}
    if tsv:
        kw["sep"] = "\t"
    if force_text:
        kw["dtype"] = {header[0]: "VARCHAR"}
    if na:
        kw["na_values"] = ["", "NA", "null"]
    try:
        theirs_error = None
        mine, theirs = _read_both(path, **kw)
    except duckdb.Error as exc:  # DuckDB refuses the file: so must the sniffed read
        theirs_error = exc
    if theirs_error is not None:
        con = duckdb.connect()
        with pytest.raises(duckdb.Error):
            con.read_csv(path, header=True, max_line_size=MAX_LINE, **kw).fetchall()
        with pytest.raises(duckdb.Error):
            _sniffed(con, path, **kw).fetchall()
        return
    assert mine == theirs


def test_quotes_in_names_dates_and_leading_lines(tmp_path):
    path = str(tmp_path / "o'neil.csv")
    with open(path, "w") as fh:
        fh.write('y"a,p\'b,d\n1,1,2020-01-02\n2,2,2020-01-03\n')
    mine, theirs = _read_both(path)
    assert mine == theirs
    assert mine[0] == ['y"a', "p'b", "d"] and mine[1] == ["BIGINT", "BIGINT", "DATE"]


def test_long_field_near_the_top(tmp_path):
    path = str(tmp_path / "long.csv")
    with open(path, "w") as fh:
        fh.write("y,p\n" + "a" * 100_000 + ",1\nb,2\n")
    mine, theirs = _read_both(path)
    assert mine == theirs and len(mine[2][0][0]) == 100_000


def test_unquoted_quote_characters_and_custom_date_formats(tmp_path):
    """No field is quoted but some hold a quote character (the sniffer finds no quote
    character: the default one would pair them up); dates and timestamps in formats other
    than ISO (the sniffer's formats must be passed on)."""
    path = str(tmp_path / "dialect.csv")
    with open(path, "w") as fh:
        fh.write("y,size,day,stamp\n")
        for i in range(40):
            fh.write(f'{i % 3},{i}",{(i % 12) + 1:02d}/{(i % 17) + 13}/2020,'
                     f"{(i % 28) + 1:02d}.03.2021 12h{i % 60:02d}\n")
    mine, theirs = _read_both(path)
    assert mine == theirs
    assert mine[1][2] == "DATE" and mine[2][0][1] == '0"'


def test_single_quote_quoting(tmp_path):
    """Fields quoted with ``'`` (found by the sniffer, not DuckDB's default ``"``)."""
    path = str(tmp_path / "single.csv")
    buf = io.StringIO()
    w = csv.writer(buf, quotechar="'", quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(["y", "note"])
    for i in range(30):
        w.writerow([i % 2, f"a, b {i}"])
    with open(path, "w") as fh:
        fh.write(buf.getvalue())
    mine, theirs = _read_both(path)
    assert mine == theirs and mine[2][3] == (1, "a, b 3")


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_files=st.integers(2, 4),
       kinds=st.lists(st.sampled_from(["int", "float", "text", "date"]), min_size=2, max_size=4),
       shuffle=st.booleans(), other_delimiter=st.booleans(), null_rate=st.sampled_from([0.0, 0.3]))
def test_several_files_read_as_duckdb_reads_them(tmp_path_factory, seed, n_files, kinds, shuffle,
                                                 other_delimiter, null_rate):
    """Several files: alike (one pinned read), or with their columns in another order or
    another delimiter (DuckDB's read by name); the rows, the columns and the types each file
    gives a column as DuckDB's ``read_csv`` finds them."""
    from confmat.inputs.csv_dialect import csv_relation
    from confmat.inputs.source import mixed_column_types

    rng = np.random.default_rng(seed)
    header = [f"c{i}" for i in range(len(kinds))]
    d = tmp_path_factory.mktemp("shards")
    files = []
    for j in range(n_files):
        order = list(rng.permutation(len(kinds))) if shuffle and j else list(range(len(kinds)))
        rows = [[None if rng.random() < null_rate else KINDS[kinds[c]](i, rng) for c in order]
                for i in range(int(rng.integers(1, 30)))]
        path = str(d / f"{j}.csv")
        _write(path, [header[c] for c in order], rows, ";" if other_delimiter and j else ",",
               csv.QUOTE_MINIMAL, "\n", "")
        files.append(path)
    con = duckdb.connect()
    rel, mixed = csv_relation(con, "shards", files, max_line_size=MAX_LINE, delimiter=None,
                              types={}, nullstr=None)
    theirs = con.read_csv(files, header=True, max_line_size=MAX_LINE, union_by_name=True)
    assert rel.columns == theirs.columns
    assert [str(t) for t in rel.types] == [str(t) for t in theirs.types]
    if not shuffle and not other_delimiter:  # one pinned read, in file order
        assert rel.fetchall() == theirs.fetchall()
    else:
        assert sorted(map(repr, rel.fetchall())) == sorted(map(repr, theirs.fetchall()))
    each = {}
    for f in files:
        one = con.read_csv(f, header=True, max_line_size=MAX_LINE)
        each[f] = {c: str(t) for c, t in zip(one.columns, one.types, strict=True)}
    assert mixed == mixed_column_types(each)


def test_several_files_with_other_columns_or_repeated_names(tmp_path):
    from confmat.inputs.csv_dialect import csv_relation

    a, b, c = (str(tmp_path / f"{x}.csv") for x in "abc")
    for path, text in ((a, "y,p\n1,2\n"), (b, "y,q\n1,2\n"), (c, "y,Y\n1,2\n")):
        with open(path, "w") as fh:
            fh.write(text)
    con = duckdb.connect()
    with pytest.raises(ValueError, match=r"file '.*b\.csv' has the columns \['y', 'q'\]"):
        csv_relation(con, "s", [a, b], max_line_size=MAX_LINE, delimiter=None, types={},
                     nullstr=None)
    with pytest.raises(ValueError, match=r"duplicate column names \['Y', 'y'\]"):
        csv_relation(con, "s", [c, c], max_line_size=MAX_LINE, delimiter=None, types={},
                     nullstr=None)


def test_several_files_whose_types_differ(tmp_path):
    """Integer labels in one file, decimals in another: the types of each file are returned
    (for the check that a column read holds one kind of value), as DuckDB reads each file."""
    from confmat.inputs.csv_dialect import csv_relation

    a, b = str(tmp_path / "a.csv"), str(tmp_path / "b.csv")
    with open(a, "w") as fh:
        fh.write("y,p\n1,0\n2,1\n")
    with open(b, "w") as fh:
        fh.write("y,p\n1.5,0\n2,1\n")
    con = duckdb.connect()
    _, mixed = csv_relation(con, "s", [a, b], max_line_size=MAX_LINE, delimiter=None, types={},
                            nullstr=None)
    each = {f: dict(zip(r.columns, map(str, r.types), strict=True))
            for f, r in ((f, con.read_csv(f, header=True)) for f in (a, b))}
    assert each[a]["y"] != each[b]["y"]
    assert mixed == {"y": {each[a]["y"]: a, each[b]["y"]: b}}
