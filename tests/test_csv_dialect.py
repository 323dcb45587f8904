"""One CSV file sniffed once (``confmat.inputs.csv_dialect.sniffed_csv``) reads what DuckDB's
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

from confmat.inputs.csv_dialect import sniffed_csv  # noqa: E402

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


def _read_both(path: str, **kw):
    con = duckdb.connect()
    mine = sniffed_csv(con, path, max_line_size=MAX_LINE, delimiter=kw.get("sep"),
                       types=kw.get("dtype"), nullstr=kw.get("na_values"))
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
            sniffed_csv(con, path, max_line_size=MAX_LINE, delimiter=kw.get("sep"),
                        types=kw.get("dtype"), nullstr=kw.get("na_values")).fetchall()
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
