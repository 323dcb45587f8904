"""Damaged ``.gz`` text files are refused the same way on every read (confmat.inputs.gzip_check).

DuckDB's own gzip reading checks neither the CRC-32 nor the length in a member's trailer, and
decodes a back-reference before the start of the stream into bytes of memory that differ from
read to read. The oracle of what is damaged is Python's zlib/gzip (the reference codec); the
oracle of what a whole file holds is Python's ``csv`` / ``json`` reading of its decompressed
text, counted with a ``Counter``.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import struct
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confmat import io as cio
from confmat.inputs.source import ReadError

NAMES = ["ant", "bee", "cat", "dog"]


def _text(rows: int = 400, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 4, rows)
    p = np.where(rng.random(rows) < 0.7, t, rng.integers(0, 4, rows))
    s = rng.random(rows).round(4)
    lines = [f"{NAMES[a]},{NAMES[b]},{c},{1 - c:.4f},{'g' + str(a % 2)}"
             for a, b, c in zip(t, p, s, strict=True)]
    return ("y,yhat,p1,p0,g\n" + "\n".join(lines) + "\n").encode()


def _pairs_of(text: bytes) -> Counter[tuple[str, str]]:
    rows = list(csv.DictReader(io.StringIO(text.decode())))
    return Counter((r["y"], r["yhat"]) for r in rows)


def _pairs(cm) -> Counter[tuple[str, str]]:
    counts = np.asarray(cm.counts)
    return Counter({(str(a), str(b)): int(counts[i, j]) for i, a in enumerate(cm.labels)
                    for j, b in enumerate(cm.labels) if counts[i, j]})


def _far_back(text: bytes) -> bytes:
    """A gzip file whose deflate stream refers to a preset dictionary it does not carry:
    zlib refuses it ("invalid distance too far back"); DuckDB copies whatever its window
    holds. Its trailer is the true CRC-32 and length of ``text``."""
    co = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=text[:2000])
    raw = co.compress(text) + co.flush()
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + raw + struct.pack("<II", zlib.crc32(text), len(text) & 0xFFFFFFFF)


def _damaged(kind: str, text: bytes) -> bytes:
    data = bytearray(gzip.compress(text, mtime=0))
    if kind == "crc":
        data[-8] ^= 0x5A
    elif kind == "length":
        data[-1] ^= 0x01
    elif kind == "truncated":
        return bytes(data[:-12])
    elif kind == "trailing":
        return bytes(data) + b"not a gzip member"
    elif kind == "far back":
        return _far_back(text)
    return bytes(data)


@pytest.mark.parametrize("kind", ["crc", "length", "truncated", "trailing", "far back"])
@pytest.mark.parametrize("how", ["labels", "scores", "by group", "two score columns", "where"])
def test_a_damaged_gzip_stream_is_one_clean_error(tmp_path: Path, kind: str, how: str) -> None:
    text = _text()
    path = tmp_path / "p.csv.gz"
    path.write_bytes(_damaged(kind, text))
    with pytest.raises((OSError, EOFError, zlib.error)):  # the oracle refuses the bytes
        gzip.decompress(path.read_bytes())
    kwargs: dict = {}
    if how == "scores":
        kwargs = {"score_cols": "p1", "pos_label": "bee", "bins": 16}
    elif how == "by group":
        kwargs = {"group_cols": "g"}
    elif how == "two score columns":  # streamed through DuckDB, not counted by GROUP BY
        path.write_bytes(_damaged(kind, _text().replace(b"cat", b"ant").replace(b"dog", b"bee")))
        kwargs = {"score_cols": ["p0", "p1"]}
    elif how == "where":
        kwargs = {"where": "g = 'g0'"}
    messages = set()
    for _ in range(8):  # the same error on every read
        with pytest.raises(ReadError) as err:
            cio.evaluate_file(path, "y", "yhat", **kwargs)
        messages.add(str(err.value))
    assert len(messages) == 1, messages
    (msg,) = messages
    assert str(path) in msg and "gzip stream is damaged" in msg, msg


def test_several_files_name_the_damaged_one(tmp_path: Path) -> None:
    (tmp_path / "a.csv.gz").write_bytes(gzip.compress(_text(seed=1)))
    (tmp_path / "b.csv.gz").write_bytes(_damaged("crc", _text(seed=2)))
    with pytest.raises(ReadError, match=r"file '.*b\.csv\.gz'.*gzip stream is damaged"):
        cio.evaluate_file(tmp_path, "y", "yhat")


def test_json_lines_gz_is_checked_too(tmp_path: Path) -> None:
    text = "".join(json.dumps({"y": a, "yhat": b}) + "\n"
                   for a, b in zip(NAMES * 50, NAMES[::-1] * 50, strict=True)).encode()
    path = tmp_path / "p.jsonl.gz"
    path.write_bytes(_damaged("crc", text))
    with pytest.raises(ReadError, match="gzip stream is damaged"):
        cio.evaluate_file(path, "y", "yhat")


def test_whole_streams_read_as_their_text(tmp_path: Path) -> None:
    """Several members one after the other are one whole stream (as gzip and DuckDB read
    them); the matrix is that of the decompressed text."""
    a, b = _text(seed=3), _text(seed=4)
    path = tmp_path / "p.csv.gz"
    path.write_bytes(gzip.compress(a) + gzip.compress(b.split(b"\n", 1)[1]))
    plain = gzip.decompress(path.read_bytes())
    cm, rep = cio.evaluate_file(path, "y", "yhat")
    assert _pairs(cm) == _pairs_of(plain)
    assert rep.rows_read == plain.count(b"\n") - 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 255)), min_size=1,
                      max_size=3))
def test_any_flip_is_refused_or_read_as_the_true_text(tmp_path: Path,
                                                      flips: list[tuple[int, int]]) -> None:
    """Whatever byte is flipped, confmat refuses the file cleanly or returns the matrix of
    the text that Python's gzip decodes from the same bytes (never DuckDB's garbage)."""
    data = bytearray(gzip.compress(_text(rows=300, seed=5), mtime=0))
    for at, x in flips:
        data[at % len(data)] ^= x
    path = tmp_path / "f.csv.gz"
    path.write_bytes(bytes(data))
    try:
        plain: bytes | None = gzip.decompress(bytes(data))
    except (OSError, EOFError, zlib.error):
        plain = None
    try:
        cm, _ = cio.evaluate_file(path, "y", "yhat")
    except ValueError as exc:
        assert str(path) in str(exc)
        return
    assert plain is not None, "confmat read a stream that zlib refuses"
    assert _pairs(cm) == _pairs_of(plain)


@pytest.mark.parametrize("inflater", ["zlib", "isal"])
@pytest.mark.parametrize("kind", ["crc", "length", "truncated", "trailing", "far back", None])
def test_both_inflaters_judge_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   inflater: str, kind: str | None) -> None:
    """The check with Python's zlib (the fallback) and with ISA-L's inflater (when installed)
    refuses exactly the streams Python's gzip refuses."""
    from confmat.inputs import gzip_check

    module = zlib if inflater == "zlib" else pytest.importorskip("isal.isal_zlib")
    monkeypatch.setattr(gzip_check, "inflate_module", lambda: module)
    data = _damaged(kind, _text()) if kind else gzip.compress(_text(), mtime=0)
    path = tmp_path / "p.csv.gz"
    path.write_bytes(data)
    try:
        gzip.decompress(data)
        python_refuses = False
    except (OSError, EOFError, zlib.error):
        python_refuses = True
    assert (gzip_check.gzip_damage(str(path)) is not None) == python_refuses
    assert python_refuses == (kind is not None)
