"""A JSON lines file that holds no JSON value adds no row to the other files of its source.

Before, only a plain file of 0 bytes was left out: a compressed file with nothing in it, or a
file of blank lines only, was read by DuckDB as one column ``json`` and refused the source
("column 'y' is missing"). Oracle: Python's ``json`` module reading every file (decompressed
by ``gzip`` / ``bz2`` / pyarrow's zstd codec), the rows concatenated and counted by
scikit-learn's ``confusion_matrix``.
"""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import io as cio
from io_files import write_compressed

ROWS_A = [{"y": 1, "yhat": 1}, {"y": 0, "yhat": 1}, {"y": 1, "yhat": 0}]
ROWS_C = [{"y": 0, "yhat": 0}, {"y": 2, "yhat": 1}]
NO_VALUE = {"gz-empty": ("b.jsonl.gz", b""), "zst-empty": ("b.jsonl.zst", b""),
            "blank": ("b.jsonl", b"\n  \n\t\n"), "blank-gz": ("b.jsonl.gz", b"\n\n"),
            "blank-zst": ("b.jsonl.zst", b" \r\n\n")}


def lines(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def read_json_lines(path: Path) -> list[dict[str, Any]]:
    """The oracle: every JSON value of the file, one a line, by Python's json module."""
    if path.name.endswith(".gz"):
        data = gzip.decompress(path.read_bytes())
    elif path.name.endswith(".bz2"):
        data = bz2.decompress(path.read_bytes())
    elif path.name.endswith(".zst"):
        with pa.input_stream(str(path), compression="zstd") as fh:
            data = fh.read()
    else:
        data = path.read_bytes()
    return [json.loads(x) for x in data.decode().splitlines() if x.strip()]


@pytest.mark.parametrize("kind", sorted(NO_VALUE))
@pytest.mark.parametrize("where", ["glob", "dir", "hive"])
def test_a_file_with_no_json_value_among_others_adds_no_row(tmp_path: Path, kind: str,
                                                            where: str) -> None:
    name, payload = NO_VALUE[kind]
    parts = ([tmp_path / "g=1", tmp_path / "g=2", tmp_path / "g=3"] if where == "hive"
             else [tmp_path] * 3)
    for d in parts:
        d.mkdir(exist_ok=True)
    files = [parts[0] / "a.jsonl", parts[1] / name, parts[2] / "c.jsonl.gz"]
    write_compressed(files[0], lines(ROWS_A))
    write_compressed(files[1], payload)
    write_compressed(files[2], lines(ROWS_C))
    assert read_json_lines(files[1]) == []
    rows = [r for f in files for r in read_json_lines(f)]
    y, yhat = [r["y"] for r in rows], [r["yhat"] for r in rows]
    source = tmp_path / "*.jsonl*" if where == "glob" else tmp_path
    cm, report = cio.evaluate_file(source, "y", "yhat")
    assert report.rows_read == len(rows) == 5
    assert cm.labels == [0, 1, 2]
    np.testing.assert_array_equal(cm.counts, sk_confusion_matrix(y, yhat, labels=[0, 1, 2]))


@pytest.mark.parametrize("kind", sorted(NO_VALUE))
def test_a_lone_file_with_no_json_value_holds_no_rows(tmp_path: Path, kind: str) -> None:
    name, payload = NO_VALUE[kind]
    write_compressed(tmp_path / name, payload)
    assert read_json_lines(tmp_path / name) == []
    with pytest.raises(ValueError, match=r"holds no JSON value \(empty, or blank lines only\): "
                                         r"it holds no rows"):
        cio.evaluate_file(tmp_path / name, "y", "yhat")


@pytest.mark.parametrize("payload", [b"", b"\n \n"])
def test_a_bz2_file_with_no_json_value_holds_no_rows(tmp_path: Path, payload: bytes) -> None:
    path = tmp_path / "p.jsonl.bz2"
    write_compressed(path, payload)
    assert read_json_lines(path) == []
    with pytest.raises(ValueError, match=r"p\.jsonl\.bz2' holds no JSON value"):
        cio.evaluate_file(path, "y", "yhat")


def test_files_none_of_which_holds_a_json_value(tmp_path: Path) -> None:
    write_compressed(tmp_path / "a.jsonl.gz", b"")
    write_compressed(tmp_path / "b.jsonl", b"\n\n")
    with pytest.raises(ValueError, match=r"holds no rows: each of its files holds no JSON "
                                         r"value"):
        cio.evaluate_file(tmp_path / "*.jsonl*", "y", "yhat")


def test_a_column_named_json_is_not_taken_for_no_value(tmp_path: Path) -> None:
    rows = [{"json": 1, "yhat": 1}, {"json": 0, "yhat": 1}]
    write_compressed(tmp_path / "a.jsonl.gz", lines(rows))
    write_compressed(tmp_path / "b.jsonl", lines([{"json": "x", "yhat": 0}]))
    with pytest.raises(ValueError) as err:  # text beside numbers: one kind per column
        cio.evaluate_file(tmp_path / "*.jsonl*", "json", "yhat")
    assert "no JSON value" not in str(err.value)
    cm, _ = cio.evaluate_file(tmp_path / "a.jsonl.gz", "json", "yhat")
    np.testing.assert_array_equal(cm.counts, sk_confusion_matrix([1, 0], [1, 1]))
