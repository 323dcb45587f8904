"""Damaged files: every read equals the engine's own full read of the same bytes, or is a clean
``ValueError`` naming the file (project issue #11, "Data in").

Hundreds of deterministic damages (seeded byte flips, bursts, truncations, header and footer
edits, footer statistics that lie about the values) of Parquet (snappy, zstd and uncompressed; int and text labels; dictionary and plain
pages), CSV and JSON lines files (plain and compressed), and a few Arrow IPC / Feather files
and ``.npz`` archives. Each damaged file is evaluated by
:func:`confmat.io.evaluate_file` (labels only, and with a score column where the file has one)
and read by the engine alone:

* Parquet, labels alone or with one score column (counted by DuckDB's ``GROUP BY``, the score
  binned in it): DuckDB's own full read, ``SELECT … FROM read_parquet(?)``;
* Parquet with several score columns (streamed by the pyarrow dataset):
  ``pyarrow.parquet.read_table`` (plain strings, no dictionary reading);
* Arrow IPC / Feather: ``pyarrow.ipc.open_file(…).read_all()``, then a full validation;
* ``.npz``: ``numpy.load`` without a memory map;
* CSV / JSON lines: a DuckDB ``SELECT … FROM read_csv(…, header = true)`` /
  ``read_json(…, format = 'newline_delimited')`` (the conventions ``confmat.io`` documents:
  the first line is the header), fetched as Python rows.

The oracle reads the columns the evaluation asks for (a damaged column nobody asked for is
not the evaluation's business) and counts the (true, predicted) pairs of its valid rows with a
plain ``collections.Counter``; a row is skipped when a label is null (NaN counts as missing
for float labels) or the score is null or NaN. Verdicts:

* both read: the pairs, ``rows_read`` and ``rows_read + rows_skipped`` must be equal;
* confmat raises a ``ValueError`` naming the file: accepted (also when the engine reads the
  file: the issue allows refusing, e.g. a score outside [0, 1]);
* the engine's read fails but confmat returns a matrix: a failure (a partial result);
* for Parquet the other engine's full read is recorded too, and the cases where DuckDB and
  pyarrow disagree on the same bytes (one refuses, or they decode other values) are tallied
  and printed (information: each evaluation is checked against the engine that read it);
* any other exception type, a crash or a hang: a failure.

The cases run in child processes (this file with ``--child``) that print one JSON line per
case; a segfault or a hang (``faulthandler`` ends a case after ``CASE_TIMEOUT`` seconds) loses
only that case, which is reported as a failure, and the next child goes on after it.
"""

from __future__ import annotations

import bz2
import gzip
import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

#: seconds one case may take in the child before it is ended as a hang
CASE_TIMEOUT = 20
#: the cases this file must run at least (the issue asks for 200)
MIN_CASES = 200
SEED = 20240611


# ---------------------------------------------------------------------------------- child side
def _key(v: Any) -> list[Any]:
    """A label as JSON: numbers by value (1 and 1.0 are one class, as in Python and numpy;
    an int is kept exact), booleans and text kept apart ("1" and True are other classes)."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        return ["num", repr(v)]
    return [type(v).__name__, str(v)]


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _oracle_engine(case: dict[str, Any]) -> str:
    """The engine that reads a case for confmat: DuckDB counts Parquet with at most one score
    column; several score columns are streamed by the pyarrow dataset."""
    if case["format"] != "parquet":
        return case["format"]
    return "parquet-pyarrow" if len(case["columns"]) > 3 else "parquet-duckdb"


def _oracle(case: dict[str, Any], engine: str | None = None) -> dict[str, Any]:
    """The engine's own full read of the requested columns, counted without confmat."""
    path, cols = case["path"], case["columns"]
    fmt = engine or _oracle_engine(case)
    try:
        if fmt == "parquet-duckdb":
            import duckdb

            con = duckdb.connect()
            sel = ", ".join('"' + c + '"' for c in cols)
            rows = con.execute(f"SELECT {sel} FROM read_parquet(?)", [path]).fetchall()
            con.close()
        elif fmt == "parquet-pyarrow":
            import pyarrow.parquet as pq

            table = pq.read_table(path, columns=cols)
            rows = list(zip(*(table.column(c).to_pylist() for c in cols), strict=True))
        elif fmt == "arrow":
            import pyarrow as pa

            with pa.memory_map(path) as src:
                table = pa.ipc.open_file(src).read_all()
            table.validate(full=True)  # the IPC reader checks only what it must to read
            rows = list(zip(*(table.column(c).to_pylist() for c in cols), strict=True))
        elif fmt == "npy":
            with np.load(path, allow_pickle=False) as arrays:  # an .npz archive
                rows = list(zip(*(arrays[c].tolist() for c in cols), strict=True))
        else:
            import duckdb

            con = duckdb.connect()
            target = path
            if path.endswith(".bz2"):  # DuckDB has no bzip2 codec: decompress it here
                plain = path[:-4] + ".plain"
                with bz2.open(path, "rb") as fh, open(plain, "wb") as out:
                    out.write(fh.read())
                target = plain
            reader = ("read_csv(?, header = true)" if fmt == "csv"
                      else "read_json(?, format = 'newline_delimited')")
            sel = ", ".join('"' + c + '"' for c in cols)
            rows = con.execute(f"SELECT {sel} FROM {reader}", [target]).fetchall()
            con.close()
    except Exception as exc:  # any refusal of the engine is a verdict
        return {"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    pairs: Counter[tuple[str, str]] = Counter()
    valid = 0
    for row in rows:
        if any(_missing(v) for v in row):
            continue
        valid += 1
        pairs[json.dumps(_key(row[0])), json.dumps(_key(row[1]))] += 1
    return {"ok": True, "rows": len(rows), "valid": valid,
            "pairs": sorted([a, b, n] for (a, b), n in pairs.items())}


def _confmat(case: dict[str, Any]) -> dict[str, Any]:
    from confmat import io as cio

    cols = case["columns"]
    try:
        cm, rep = cio.evaluate_file(case["path"], cols[0], cols[1], score_cols=case.get("score"),
                                    skip_invalid=case["skip_invalid"], bins=32,
                                    batch_rows=case["batch_rows"])
    except Exception as exc:  # the verdict is made by the parent
        return {"ok": False, "clean": isinstance(exc, ValueError),
                "type": type(exc).__module__ + "." + type(exc).__qualname__,
                "message": str(exc)[:600]}
    counts = np.asarray(cm.counts)
    pairs = sorted([json.dumps(_key(a)), json.dumps(_key(b)), int(counts[i, j])]
                   for i, a in enumerate(cm.labels) for j, b in enumerate(cm.labels)
                   if counts[i, j])
    out = {"ok": True, "rows_read": rep.rows_read, "rows_skipped": rep.rows_skipped,
           "by_reason": sum(rep.skipped_by_reason.values()), "n": int(counts.sum()),
           "pairs": pairs, "engine": rep.engine}
    if case.get("score"):
        out["histogram_n"] = int(np.asarray(rep.curves.counts).sum())
    return out


#: extra full reads by the engine when confmat's result differs from its first read
ENGINE_REREADS = 4


def _child(cases_file: str) -> None:
    import faulthandler
    import warnings

    warnings.simplefilter("ignore")
    faulthandler.enable()
    import duckdb  # noqa: F401 - load the engines before the first timed case
    import pyarrow.parquet  # noqa: F401

    import confmat.io  # noqa: F401

    cases = json.loads(Path(cases_file).read_text())
    for case in cases:
        print(json.dumps({"id": case["id"], "phase": "start"}), flush=True)
        faulthandler.dump_traceback_later(case.get("timeout", CASE_TIMEOUT), exit=True)
        if case.get("selftest") == "crash":
            faulthandler.disable()  # keep the test log short
            os.kill(os.getpid(), signal.SIGSEGV)
        elif case.get("selftest") == "hang":
            time.sleep(3600)
        oracle = _oracle(case)
        got = _confmat(case)
        out = {"id": case["id"], "oracle": oracle, "confmat": got}
        if _verdict(case, out)[1] is not None and case["format"] in ("csv", "jsonl"):
            # DuckDB's text reader was seen to read some damaged files differently from one
            # run to the next (rows of garbage in one run, an error in the next): read again,
            # and keep every distinct outcome of the engine as its own full read
            reads = [oracle] + [_oracle(case) for _ in range(ENGINE_REREADS)]
            distinct = [r for i, r in enumerate(reads) if r not in reads[:i]]
            if len(distinct) > 1:
                out["engine_reads"] = distinct
                if _verdict(case, out)[1] is not None:
                    # the engine decodes garbage differently each time (runs of NUL bytes of
                    # other lengths in a corrupt gzip stream): confmat, reading through the
                    # same engine, gets one more variant; its own re-reads must then meet one
                    # of the engine's reads
                    mine = [got] + [_confmat(case) for _ in range(ENGINE_REREADS)]
                    out["confmat_reads"] = [r for i, r in enumerate(mine) if r not in mine[:i]]
        if case["format"] == "parquet":  # the other engine, for the record
            other = {"parquet-duckdb": "parquet-pyarrow", "parquet-pyarrow": "parquet-duckdb"}
            out["other"] = _oracle(case, other[_oracle_engine(case)])
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps(out), flush=True)


# --------------------------------------------------------------------------------- base files
def _labels(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, k, n))
    return t, p


def _bases(d: Path) -> list[dict[str, Any]]:
    """The undamaged files: (path, format, columns, score column or None)."""
    import pyarrow as pa
    import pyarrow.feather
    import pyarrow.parquet as pq

    rng = np.random.default_rng(SEED)
    names = np.array(["ant", "bee", "cat", "dog", "NA", ""], dtype=object)
    out = []

    def add(name: str, fmt: str, score: str | list[str] | None, batch_rows: int) -> None:
        out.append({"path": str(d / name), "format": fmt, "columns": ["y", "yhat"],
                    "score": score, "batch_rows": batch_rows})

    n = 1500
    t, p = _labels(rng, n, 4)
    pq.write_table(pa.table({"y": t, "yhat": p}), d / "int_snappy.parquet",
                   row_group_size=400, compression="snappy")
    add("int_snappy.parquet", "parquet", None, 300)
    t, p = _labels(rng, n, 6)
    y = pa.array(names[t].tolist(), mask=rng.random(n) < 0.02)
    pq.write_table(pa.table({"y": y, "yhat": names[p].tolist()}), d / "text_zstd.parquet",
                   row_group_size=500, compression="zstd")
    add("text_zstd.parquet", "parquet", None, 1000)
    t, p = _labels(rng, n, 5)
    pq.write_table(pa.table({"y": names[t].tolist(), "yhat": names[p].tolist()}),
                   d / "text_plain_snappy.parquet", row_group_size=700, compression="snappy",
                   use_dictionary=False)
    add("text_plain_snappy.parquet", "parquet", None, 512)
    t, p = _labels(rng, n, 2)
    s = np.clip(0.4 * t + 0.6 * rng.random(n), 0, 1)
    pq.write_table(pa.table({"y": t, "yhat": p, "s": pa.array(s, mask=rng.random(n) < 0.01)}),
                   d / "score_zstd.parquet", row_group_size=600, compression="zstd",
                   use_dictionary=False)
    add("score_zstd.parquet", "parquet", "s", 256)
    # several score columns: streamed by the pyarrow dataset
    t, p = _labels(rng, n, 2)
    s = np.clip(0.4 * t + 0.6 * rng.random(n), 0, 1)
    pq.write_table(pa.table({"y": t, "yhat": p, "p0": 1 - s,
                             "p1": pa.array(s, mask=rng.random(n) < 0.01)}),
                   d / "scores_snappy.parquet", row_group_size=500, compression="snappy")
    add("scores_snappy.parquet", "parquet", ["p0", "p1"], 300)
    # uncompressed pages: a flip changes values or dictionary indices instead of failing a
    # decompressor, the hard case for "never a shifted or misaligned matrix"
    t, p = _labels(rng, n, 3)
    pq.write_table(pa.table({"y": t, "yhat": p}), d / "int_none.parquet", row_group_size=300,
                   compression="none")
    add("int_none.parquet", "parquet", None, 1000)
    t, p = _labels(rng, n, 6)
    y = pa.array(names[t].tolist(), mask=rng.random(n) < 0.02)
    pq.write_table(pa.table({"y": y, "yhat": names[p].tolist()}), d / "text_none.parquet",
                   row_group_size=500, compression="none")
    add("text_none.parquet", "parquet", None, 200)

    n = 800
    t, p = _labels(rng, n, 4)
    text = "y,yhat\n" + "".join(f"{a},{b}\n" for a, b in zip(t, p, strict=True))
    (d / "int.csv").write_text(text)
    add("int.csv", "csv", None, 300)
    t, p = _labels(rng, n, 2)
    s = np.clip(0.4 * t + 0.6 * rng.random(n), 0, 1).round(4)
    word = np.array(["neg", "pos"])
    text = "y,yhat,s\n" + "".join(f"{word[a]},{word[b]},{c}\n" for a, b, c in zip(t, p, s, strict=True))
    (d / "score.csv").write_text(text)
    add("score.csv", "csv", "s", 300)
    t, p = _labels(rng, n, 4)
    text = "y,yhat\n" + "".join(f"{names[a]},{names[b]}\n" for a, b in zip(t, p, strict=True))
    with gzip.open(d / "text.csv.gz", "wt") as fh:
        fh.write(text)
    add("text.csv.gz", "csv", None, 300)
    with bz2.open(d / "text.csv.bz2", "wt") as fh:
        fh.write(text)
    add("text.csv.bz2", "csv", None, 300)

    t, p = _labels(rng, n, 6)
    text = "".join(json.dumps({"y": names[a], "yhat": names[b]}) + "\n"
                   for a, b in zip(t, p, strict=True))
    (d / "text.jsonl").write_text(text)
    add("text.jsonl", "jsonl", None, 300)
    t, p = _labels(rng, n, 2)
    s = np.clip(0.4 * t + 0.6 * rng.random(n), 0, 1).round(4)
    text = "".join(json.dumps({"y": int(a), "yhat": int(b), "s": float(c)}) + "\n"
                   for a, b, c in zip(t, p, s, strict=True))
    (d / "score.jsonl").write_text(text)
    add("score.jsonl", "jsonl", "s", 300)
    with gzip.open(d / "text.jsonl.gz", "wt") as fh:
        fh.write((d / "text.jsonl").read_text())
    add("text.jsonl.gz", "jsonl", None, 300)

    t, p = _labels(rng, n, 5)
    table = pa.table({"y": pa.array(names[t].tolist(), mask=rng.random(n) < 0.02),
                      "yhat": names[p].tolist()})
    with pa.ipc.new_file(d / "text.arrow", table.schema) as w:
        w.write_table(table, max_chunksize=300)
    add("text.arrow", "arrow", None, 256)
    pa.feather.write_feather(pa.table({"y": t, "yhat": p}), d / "int.feather",
                             compression="lz4", chunksize=400)
    add("int.feather", "arrow", None, 1000)

    t, p = _labels(rng, n, 3)
    np.savez(d / "int.npz", y=t, yhat=p)
    add("int.npz", "npy", None, 300)
    np.savez_compressed(d / "text.npz", y=names[t].astype(str), yhat=names[p].astype(str))
    add("text.npz", "npy", None, 300)
    return out


# ------------------------------------------------------------------------------------ damages
def _flip(rng: np.random.Generator, data: bytes, lo: int = 0, hi: int | None = None) -> bytes:
    b = bytearray(data)
    hi = len(b) if hi is None else hi
    for _ in range(int(rng.integers(1, 5))):
        i = int(rng.integers(lo, hi))
        b[i] ^= int(rng.integers(1, 256))
    return bytes(b)


def _burst(rng: np.random.Generator, data: bytes) -> bytes:
    b = bytearray(data)
    width = int(rng.integers(8, 65))
    i = int(rng.integers(0, max(1, len(b) - width)))
    b[i:i + width] = rng.integers(0, 256, width, dtype=np.uint8).tobytes()
    return bytes(b)


def _truncate(rng: np.random.Generator, data: bytes) -> bytes:
    return data[: int(rng.integers(0, len(data)))]


def _parquet_edit(rng: np.random.Generator, data: bytes, which: int) -> bytes:
    """Header and footer edits: magic numbers, the footer length, the Thrift metadata."""
    flen = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - flen
    b = bytearray(data)
    if which == 0:
        b[0:4] = b"PAR0"
    elif which == 1:
        b[-4:] = b"PARE"
    elif which == 2:
        b[-8:-4] = (flen + int(rng.choice([-7, -1, 1, 3, 1 << 20]))).to_bytes(4, "little",
                                                                               signed=True)
    elif which == 3:
        return _flip(rng, data, start, len(data) - 8)
    elif which == 4:  # the footer cut short but the tail kept
        cut = int(rng.integers(1, flen))
        return data[:start] + data[start + cut:]
    else:  # the schema's column names: the first bytes of the footer
        return _flip(rng, data, start, min(start + 64, len(data) - 8))
    return bytes(b)


def _stats_lie(rng: np.random.Generator, data: bytes, which: int) -> bytes:
    """Footer statistics that lie about the values (the footer stays well-formed): every
    column chunk's encoded maximum, or minimum, replaced by another value of the same width.

    ``which``: 0, the maxima lowered (values above the declared maximum); 1, the maxima of
    some chunks only; 2, the minima raised; 3, the maxima raised far (a declared range much
    wider than the values). Integers and doubles are 8-byte little-endian, text keeps its
    length (pyarrow reads the true statistics to find them)."""
    import io
    import struct

    import pyarrow.parquet as pq

    md = pq.read_metadata(io.BytesIO(data))
    flen = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - flen
    footer = bytearray(data[start:len(data) - 8])
    edits: dict[bytes, bytes] = {}
    for i in range(md.num_row_groups):
        if which == 1 and rng.random() < 0.5:
            continue
        for j in range(md.num_columns):
            st = md.row_group(i).column(j).statistics
            if st is None or not st.has_min_max:
                continue
            old = st.min if which == 2 else st.max
            if isinstance(old, bool):
                continue
            if isinstance(old, int):
                new = {0: old - 2, 1: old - 1, 2: old + 2, 3: old + 100_000}[which]
                edits[struct.pack("<q", old)] = struct.pack("<q", new)
            elif isinstance(old, float):
                new = {0: old / 2, 1: old / 3, 2: old + 0.25, 3: old + 1e6}[which]
                edits[struct.pack("<d", old)] = struct.pack("<d", new)
            else:
                raw = old.encode() if isinstance(old, str) else bytes(old)
                if raw:
                    edits[raw] = (b"a" if which in (0, 1) else b"z") * len(raw)
    for old_raw, new_raw in edits.items():
        footer = footer.replace(old_raw, new_raw)
    return data[:start] + bytes(footer) + data[len(data) - 8:]


def _text_edit(rng: np.random.Generator, data: bytes, fmt: str, which: int) -> bytes:
    """Header and line edits of a CSV or JSON lines file."""
    text = data.decode()
    lines = text.split("\n")
    i = int(rng.integers(1, max(2, len(lines) - 1)))
    if fmt == "csv":
        header = ["yhat,y", "y,y", "y;yhat", "y,yhat,z", "y", '"y","yhat"', "\ufeffy,yhat",
                  "Y,yhat", ""]
        if which < len(header):
            extra = lines[0].split(",")[2:]
            lines[0] = ",".join([header[which], *extra]) if header[which] else ""
        elif which == len(header):
            lines[i] = lines[i] + ","
        elif which == len(header) + 1:
            lines[i] = '"' + lines[i]
        else:
            lines[i] = lines[i] + lines.pop(i + 1) if i + 1 < len(lines) else ""
    else:
        if which == 0:
            lines[0] = lines[0].replace('"y"', '"why"', 1)
        elif which == 1:
            lines[0] = lines[0][: len(lines[0]) // 2]
        elif which == 2:
            lines[0] = lines[0].replace("}", ', "extra": [1, 2]}', 1)
        elif which == 3:
            lines[0] = lines[0].replace('"y": ', '"y": {"a": ', 1).replace(",", "},", 1)
        elif which == 4:
            lines[i] = lines[i].replace('"y": ', '"y": 1.5, "y2": ', 1)
        elif which == 5:
            lines[i] = lines[i] + lines.pop(i + 1) if i + 1 < len(lines) else ""
        elif which == 6:
            lines[i] = lines[i].replace('"yhat"', '"y"', 1)
        else:
            lines.insert(i, "[1, 2]")
    return "\n".join(lines).encode()


def _recompress(path: str, data: bytes) -> bytes:
    if path.endswith(".gz"):
        return gzip.compress(data, mtime=0)
    if path.endswith(".bz2"):
        return bz2.compress(data)
    return data


def _plain(path: str, data: bytes) -> bytes:
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".bz2"):
        return bz2.decompress(data)
    return data


def _cases(d: Path) -> list[dict[str, Any]]:
    rng = np.random.default_rng(SEED + 1)
    lies = np.random.default_rng(SEED + 2)  # its own stream: the other damages stay as they were
    cases = []
    for base in _bases(d):
        path = base["path"]
        data = Path(path).read_bytes()
        compressed = path.endswith((".gz", ".bz2"))
        damages: list[tuple[str, bytes]] = []
        if base["format"] == "arrow":
            damages += [("flip", _flip(rng, data)) for _ in range(10)]
            damages += [("burst", _burst(rng, data)) for _ in range(4)]
            damages += [("truncate", _truncate(rng, data)) for _ in range(3)]
            damages += [("footer flip", _flip(rng, data, len(data) - 400, len(data)))
                        for _ in range(5)]
        elif base["format"] == "npy":
            damages += [("flip", _flip(rng, data)) for _ in range(6)]
            damages += [("burst", _burst(rng, data)) for _ in range(2)]
            damages += [("truncate", _truncate(rng, data)) for _ in range(3)]
        elif base["format"] == "parquet":
            damages += [("flip", _flip(rng, data)) for _ in range(10)]
            damages += [("burst", _burst(rng, data)) for _ in range(5)]
            damages += [("truncate", _truncate(rng, data)) for _ in range(4)]
            damages += [(f"footer{w}", _parquet_edit(rng, data, w)) for w in range(6)]
            damages += [("footer3", _parquet_edit(rng, data, 3)) for _ in range(4)]
            damages += [(f"stats{w}", _stats_lie(lies, data, w)) for w in range(4)]
        else:
            n_edits = 12 if base["format"] == "csv" else 8
            plain = _plain(path, data)
            damages += [("flip", _flip(rng, data)) for _ in range(6 if compressed else 9)]
            damages += [("burst", _burst(rng, data)) for _ in range(2 if compressed else 3)]
            damages += [("truncate", _truncate(rng, data)) for _ in range(3)]
            if compressed:  # damage the text inside an intact stream, too
                damages += [("text flip", _recompress(path, _flip(rng, plain)))
                            for _ in range(3)]
                damages += [(f"edit{w}", _recompress(path, _text_edit(rng, plain, base["format"], w)))
                            for w in range(0, n_edits, 3)]
            else:
                damages += [(f"edit{w}", _text_edit(rng, data, base["format"], w))
                            for w in range(n_edits)]
        stem, dot, ext = Path(path).name.partition(".")
        for j, (kind, damaged) in enumerate(damages):
            out = d / f"{stem}-{j:02d}{dot}{ext}"
            out.write_bytes(damaged)
            case = {**base, "path": str(out), "kind": kind, "id": len(cases),
                    "skip_invalid": len(cases) % 5 != 0}
            if isinstance(base["score"], str) and j % 2:
                case["score"] = None  # the labels alone, too
            if case["score"] is not None:
                scores = [case["score"]] if isinstance(case["score"], str) else case["score"]
                case["columns"] = [*base["columns"], *scores]
            cases.append(case)
    return cases


# ----------------------------------------------------------------------------------- verdicts
def _engines_agree(res: dict[str, Any]) -> bool:
    """Whether DuckDB and pyarrow read a damaged Parquet file alike (both refuse it, or both
    read the same rows and pairs)."""
    a, b = res["oracle"], res["other"]
    if a["ok"] != b["ok"]:
        return False
    return not a["ok"] or (a["rows"], a["valid"], a["pairs"]) == (b["rows"], b["valid"], b["pairs"])


def _verdict(case: dict[str, Any], res: dict[str, Any]) -> tuple[str, str | None]:
    """(tally name, failure text or None). When the engine read the file differently on
    repeated reads (``engine_reads``), confmat must equal one of those reads or fail cleanly
    (when confmat's first read met none of them, one of its re-reads, ``confmat_reads``)."""
    if "engine_reads" in res:
        verdicts = [_verdict(case, {"oracle": o, "confmat": c})
                    for c in res.get("confmat_reads", [res["confmat"]])
                    for o in res["engine_reads"]]
        ok = [v for v in verdicts if v[1] is None]
        if ok:
            return f"engine unstable across reads; confmat {ok[0][0]}", None
        return verdicts[0][0], verdicts[0][1] + " (the engine itself varies across reads)"
    oracle, got = res["oracle"], res["confmat"]
    name = Path(case["path"]).name
    where = f"case {case['id']} ({case['kind']}, {name})"
    if not got["ok"]:
        if not got["clean"]:
            return "other exception", f"{where}: {got['type']}: {got['message']}"
        if name not in got["message"]:
            return "error without the file name", f"{where}: {got['message']}"
        return ("clean error, engine refuses too" if not oracle["ok"]
                else "clean error, engine reads it"), None
    if not oracle["ok"]:
        return "partial result", (f"{where}: the engine refuses the file ({oracle['error']}) "
                                  f"but confmat returned {got}")
    if (got["pairs"] != oracle["pairs"] or got["rows_read"] != oracle["valid"]
            or got["rows_read"] + got["rows_skipped"] != oracle["rows"]
            or got["by_reason"] != got["rows_skipped"] or got["n"] != got["rows_read"]
            or got.get("histogram_n", got["n"]) != got["n"]):
        return "different result", f"{where}: confmat {got} but the engine {oracle}"
    return "equal", None


def _run(cases: list[dict[str, Any]], workdir: Path) -> dict[int, dict[str, Any] | str]:
    """Results by case id; a string for a case whose child crashed or hung."""
    results: dict[int, dict[str, Any] | str] = {}
    todo = list(cases)
    while todo:
        spec = workdir / "cases.json"
        spec.write_text(json.dumps(todo))
        budget = 60 + CASE_TIMEOUT + 2 * len(todo)
        try:
            proc = subprocess.run([sys.executable, __file__, "--child", str(spec)],
                                  capture_output=True, timeout=budget,
                                  env={**os.environ, "PYTHONWARNINGS": "ignore"})
            out, err, code = proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as exc:
            out, err, code = exc.stdout or b"", exc.stderr or b"", "timeout"
        started = None
        for line in out.decode(errors="replace").splitlines():
            msg = json.loads(line)
            if msg.get("phase") == "start":
                started = msg["id"]
            else:
                results[msg["id"]] = msg
                started = None
        done = {c["id"] for c in todo if c["id"] in results}
        if started is None and len(done) == len(todo):
            break
        if started is None:  # the child died before its first case
            raise AssertionError(f"damage child failed (status {code}): {err.decode()[-3000:]}")
        results[started] = (f"crashed or hung (status {code}): "
                            f"{err.decode(errors='replace')[-1500:]}")
        todo = [c for c in todo if c["id"] not in results]
    return results


def test_damaged_files_equal_the_engine_or_fail_cleanly(tmp_path: Path) -> None:
    cases = _cases(tmp_path)
    results = _run(cases, tmp_path)
    tallies: Counter[str] = Counter()
    engines: Counter[str] = Counter()
    failures, notes = [], []
    for case in cases:
        res = results[case["id"]]
        if isinstance(res, str):
            tallies["crash or hang"] += 1
            failures.append(f"case {case['id']} ({case['kind']}, {case['path']}): {res}")
            continue
        tally, failure = _verdict(case, res)
        tallies[tally] += 1
        if failure:
            failures.append(failure)
        name = f"case {case['id']} ({case['kind']}, {Path(case['path']).name})"
        if "engine_reads" in res:
            notes.append(f"{name}: the engine's own read varies across {ENGINE_REREADS + 1} "
                         f"reads ({len(res['engine_reads'])} distinct outcomes)")
        if tally == "clean error, engine reads it":
            notes.append(f"{name}: confmat refuses, {_oracle_engine(case)} reads it: "
                         f"{res['confmat']['message'][:200]}")
        if "other" in res:
            agree = _engines_agree(res)
            engines["duckdb and pyarrow agree" if agree else "duckdb and pyarrow disagree"] += 1
            if not agree:
                o, x = res["oracle"], res["other"]
                notes.append(f"{name}: {_oracle_engine(case)} "
                             f"{'reads it' if o['ok'] else 'refuses: ' + o['error'][:120]}; the "
                             f"other {'reads it' if x['ok'] else 'refuses: ' + x['error'][:120]}"
                             + (" (other values)" if o["ok"] and x["ok"] else ""))
    by_format = Counter(c["format"] for c in cases)
    by_oracle = Counter(_oracle_engine(c) for c in cases)
    print(f"\n{len(cases)} damaged files {dict(by_format)}, oracles {dict(by_oracle)}: "
          f"{dict(tallies)}; Parquet read by both engines: {dict(engines)}")
    print("\n".join(notes))
    assert len(cases) >= MIN_CASES and sum(tallies.values()) == len(cases)
    assert not failures, "\n".join(failures[:20])


def test_the_harness_reports_crashes_and_hangs(tmp_path: Path) -> None:
    """A case that kills its child or never ends is reported, and the cases after it run."""
    good = tmp_path / "ok.csv"
    good.write_text("y,yhat\na,a\na,b\n")
    base = {"path": str(good), "format": "csv", "columns": ["y", "yhat"], "score": None,
            "batch_rows": 10, "skip_invalid": True, "kind": "selftest"}
    cases = [{**base, "id": 0}, {**base, "id": 1, "selftest": "crash"}, {**base, "id": 2},
             {**base, "id": 3, "selftest": "hang", "timeout": 1}, {**base, "id": 4}]
    results = _run(cases, tmp_path)
    assert isinstance(results[1], str) and isinstance(results[3], str)
    assert [_verdict(cases[i], results[i])[0] for i in (0, 2, 4)] == ["equal"] * 3


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child(sys.argv[2])
