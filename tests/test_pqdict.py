"""The compiled decoder of integer and float Parquet columns against pyarrow's reader.

Files of many layouts are written with pyarrow (integer and float types, NaN and infinities, dictionary sizes and so index
bit widths, nulls, required columns, page sizes and row limits, data page v1 / v2, codecs,
dictionaries that overflow into plain pages, no dictionary); every column chunk the decoder takes must give
pyarrow's values and null mask, in any slicing, and the common layouts must be taken.
"""

from __future__ import annotations

import mmap
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import ConfusionMatrix
from confmat import _pqdict as D
from confmat import io as cio

pytest.importorskip("numba")

INT_TYPES = {
    "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
    "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(), "uint64": pa.uint64(),
}
FLOAT_TYPES = {"float": pa.float32(), "double": pa.float64()}
TYPES = {**INT_TYPES, **FLOAT_TYPES}


def _mapped(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        mm = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    return np.frombuffer(mm, np.uint8)


def _values(rng, n, type_name, card, nonfinite):
    if type_name in FLOAT_TYPES:
        dtype = np.float32 if type_name == "float" else np.float64
        pool = rng.normal(0, 1e3, card).astype(dtype)
        if nonfinite:
            pool[: min(3, card)] = np.array([np.nan, np.inf, -np.inf], dtype)[: min(3, card)]
        return pool[rng.integers(0, len(pool), n)]
    info = np.iinfo(np.dtype(type_name))
    lo, hi = int(info.min), int(info.max)
    # distinct values spread over the type's range, extremes included
    dtype = np.dtype(type_name)
    pool = np.unique(np.concatenate([
        np.array([lo, hi], dtype=dtype),
        rng.integers(lo, hi, size=card, dtype=dtype, endpoint=True),
    ]))
    pool = pool[np.linspace(0, len(pool) - 1, min(card, len(pool))).astype(int)]  # ends kept
    return pool[rng.integers(0, len(pool), n)]


@st.composite
def layouts(draw):
    return {
        "n": draw(st.integers(1, 3000)),
        "type": draw(st.sampled_from(sorted(TYPES))),
        "nonfinite": draw(st.sampled_from([False, False, True])),
        "card": draw(st.sampled_from([1, 2, 3, 5, 16, 17, 200, 300])),
        "null_rate": draw(st.sampled_from([0.0, 0.0, 0.02, 0.5, 1.0])),
        "required": draw(st.booleans()),
        "compression": draw(st.sampled_from(["snappy", "snappy", "none", "zstd"])),
        "version": draw(st.sampled_from(["1.0", "2.0"])),
        "page": draw(st.sampled_from([64, 512, 1 << 20])),
        "max_rows": draw(st.sampled_from([7, 100, 20_000])),
        "row_group": draw(st.integers(1, 1200)),
        "dict_limit": draw(st.sampled_from([64, 1 << 20])),
        "use_dictionary": draw(st.sampled_from([True, True, False])),
        "write_batch": draw(st.sampled_from([16, 1024])),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "slices": draw(st.lists(st.integers(1, 700), min_size=1, max_size=8)),
        "narrow": draw(st.booleans()),
    }


@settings(max_examples=120, deadline=None)
@given(layouts())
def test_decoded_chunks_equal_pyarrow(tmp_path_factory, lay):
    rng = np.random.default_rng(lay["seed"])
    n = lay["n"]
    vals = _values(rng, n, lay["type"], lay["card"], lay["nonfinite"])
    nullable = not lay["required"]
    mask = (rng.random(n) < lay["null_rate"]) if nullable else np.zeros(n, bool)
    field = pa.field("c", TYPES[lay["type"]], nullable=nullable)
    table = pa.table({"c": pa.array(vals, type=TYPES[lay["type"]], mask=mask)},
                     schema=pa.schema([field]))
    path = str(tmp_path_factory.mktemp("pq") / "f.parquet")
    pq.write_table(table, path, row_group_size=lay["row_group"], compression=lay["compression"],
                   data_page_version=lay["version"], data_page_size=lay["page"],
                   max_rows_per_page=lay["max_rows"], dictionary_pagesize_limit=lay["dict_limit"],
                   use_dictionary=lay["use_dictionary"], write_batch_size=lay["write_batch"])
    pf = pq.ParquetFile(path)
    data = _mapped(path)
    md = pf.metadata
    plans = [D.plan_chunk(data, md.row_group(g).column(0), pf.schema.column(0), lay["type"],
                          lay["narrow"])
             for g in range(md.num_row_groups)]
    narrow_plain = lay["type"] in ("int8", "int16", "uint8", "uint16") and not lay["narrow"]
    if lay["compression"] in ("snappy", "none") and not narrow_plain:  # all taken
        assert all(p is not None for p in plans), "a common layout fell back to pyarrow"
    taken = [g for g, p in enumerate(plans) if p is not None]
    if not taken:
        return
    # consecutive taken groups through one decoder, in the drawn slice sizes
    run = [taken[0]]
    for g in taken[1:]:
        if g != run[-1] + 1:
            break
        run.append(g)
    col = D.DictColumn(data, [plans[g] for g in run])
    want = pa.concat_arrays([pf.read_row_group(g).column(0).combine_chunks() for g in run])
    want_mask = np.asarray(want.is_null().to_numpy(zero_copy_only=False))
    want_vals = np.asarray(want.fill_null(0).to_numpy(zero_copy_only=False))
    at, k = 0, 0
    total = len(want)
    while at < total:
        size = min(lay["slices"][k % len(lay["slices"])], total - at)
        k += 1
        got, got_mask, finite = col.take(size)
        exp_mask = want_mask[at : at + size]
        keep = ~exp_mask
        if finite:  # the decoder vouches: no NaN or infinity handed out
            assert np.isfinite(got[keep].astype(np.float64)).all()
        if not (lay["type"] in FLOAT_TYPES and lay["nonfinite"]):
            assert finite
        if lay["type"] in FLOAT_TYPES:
            assert got.dtype == want_vals.dtype
        elif not lay["narrow"]:
            assert got.dtype == np.dtype(lay["type"])  # pyarrow's type
        assert got.shape == (size,)
        if got_mask is None:
            assert not exp_mask.any()
        else:
            np.testing.assert_array_equal(got_mask, exp_mask)
        if lay["type"] in FLOAT_TYPES:  # bit for bit, NaN included
            assert got[keep].tobytes() == want_vals[at : at + size][keep].tobytes()
        else:
            assert [int(v) for v in got[keep]] == [int(v) for v in want_vals[at : at + size][keep]]
        at += size
    with pytest.raises(ValueError, match="fewer values"):
        col.take(1)


def test_snappy_kernel_against_pyarrow_codec():
    snappy = D._kernels().snappy
    rng = np.random.default_rng(0)
    codec = pa.Codec("snappy")
    for size in (0, 1, 59, 60, 61, 255, 256, 70_000, 300_000):
        # runs and noise, so both literals and back-references (overlapping ones) appear
        raw = np.repeat(rng.integers(0, 4, size // 50 + 1), 50)[:size].astype(np.uint8)
        noise = rng.random(size) < 0.05
        raw[noise] = rng.integers(0, 256, int(noise.sum()))
        comp = np.frombuffer(codec.compress(raw.tobytes()), np.uint8)
        out = np.empty(size + 8, np.uint8)
        got = snappy(comp, 0, comp.shape[0], out)
        assert got == size and out[:size].tobytes() == raw.tobytes()
        if comp.shape[0] > 2:  # cut short: an error, never a read past the input
            assert snappy(comp, 0, comp.shape[0] - 2, out) < 0 or size == 0
    assert snappy(np.array([5, 0], np.uint8), 0, 2, np.empty(2, np.uint8)) == -2


def test_evaluate_file_same_with_and_without_the_decoder(tmp_path, monkeypatch):
    rng = np.random.default_rng(2)
    n = 50_000
    t = rng.integers(0, 4, n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, 4, n))
    path = tmp_path / "p.parquet"
    table = pa.table({"y": pa.array(t, mask=rng.random(n) < 0.01), "yhat": p,
                      "s": rng.random(n)})
    pq.write_table(table, path, row_group_size=7000)
    results = []
    for enabled in (True, False):
        monkeypatch.setattr(cio, "PARQUET_DICT_DECODER", enabled)
        cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, batch_rows=3000)
        results.append((cm, rep.rows_read, rep.rows_skipped, rep.skipped_row_numbers,
                        rep.batches))
    assert results[0] == results[1]
    keep = ~np.asarray(table["y"].is_null())
    # readers hand out the columns' own types; only evaluate_file narrows labels
    monkeypatch.setattr(cio, "PARQUET_DICT_DECODER", True)
    batch = next(iter(cio.iter_batches(path, ["y", "yhat"], skip_invalid=True)))
    assert batch["yhat"].dtype == np.int64 and batch["y"].dtype == np.int64
    assert results[0][0] == ConfusionMatrix.from_predictions(t[keep], p[keep])


def test_damaged_dictionary_pages_are_errors_or_pyarrow_results(tmp_path):
    """Random damage inside the label column chunks: a clear ValueError, or (when the damage
    still decodes) exactly what pyarrow reads; never a crash."""
    rng = np.random.default_rng(9)
    n = 40_000
    t = rng.integers(0, 3, n)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": t, "yhat": t[::-1].copy()}), path, row_group_size=10_000)
    md = pq.ParquetFile(path).metadata
    col = md.row_group(1).column(0)
    start = col.dictionary_page_offset or col.data_page_offset
    clean = path.read_bytes()
    for trial in range(40):
        data = bytearray(clean)
        for _ in range(1 + trial % 4):
            at = start + int(rng.integers(0, col.total_compressed_size))
            data[at] = int(rng.integers(0, 256))
        bad = tmp_path / f"bad{trial}.parquet"
        bad.write_bytes(bytes(data))
        try:
            cm, _ = cio.evaluate_file(bad, "y", "yhat")
        except ValueError as exc:
            assert "bad" in str(exc)
            continue
        try:
            ref = pq.read_table(bad)
        except (pa.ArrowException, OSError):
            continue  # pyarrow refuses what still decoded here: nothing to compare with
        assert cm == ConfusionMatrix.from_predictions(ref["y"].to_numpy(), ref["yhat"].to_numpy())


@pytest.mark.parametrize("type_name", ["uint32", "int16", "int64"])
def test_chunks_mixing_dictionary_and_plain_pages_share_the_stored_type(tmp_path, type_name):
    # row group 0: two distinct values (dictionary only); row group 1: many (the 64-byte
    # dictionary overflows into PLAIN pages); one decoder over both, narrowed
    rng = np.random.default_rng(8)
    info = np.iinfo(np.dtype(type_name))
    vals = np.concatenate([np.tile(np.array([3, 5], type_name), 500),
                           rng.integers(0, min(int(info.max), 10**6), 1000).astype(type_name)])
    path = tmp_path / "m.parquet"
    pq.write_table(pa.table({"c": pa.array(vals, type=TYPES[type_name])}), path,
                   row_group_size=1000, dictionary_pagesize_limit=64, write_batch_size=16,
                   data_page_size=256)
    pf = pq.ParquetFile(path)
    data = _mapped(path)
    plans = [D.plan_chunk(data, pf.metadata.row_group(g).column(0), pf.schema.column(0),
                          type_name, True) for g in range(2)]
    assert plans[0] is not None and plans[1] is not None
    assert not plans[0].plain and plans[1].plain
    got, mask, _ = D.DictColumn(data, plans).take(2000)
    assert mask is None
    assert [int(v) for v in got] == [int(v) for v in vals]
