"""Out-of-core readers: every row accounted for, results equal to the in-memory computation.

Oracles: pandas or pyarrow reading the same file whole, and ``ConfusionMatrix.from_predictions``
/ scikit-learn on the in-memory data. Formats one by one are in ``test_io_formats.py``, damaged
files in ``test_io_damage.py``.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import ConfusionMatrix
from confmat import io as cio


def _frame(n: int, seed: int, k: int = 4, strings: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, k, n))
    df = pd.DataFrame({"y": t, "yhat": p, "score": rng.random(n), "w": rng.random(n) + 0.1})
    if strings:
        names = np.array(["ant", "bee", "cat", "dog", "eel"])
        df["y"], df["yhat"] = names[t], names[p]
    return df


# ------------------------------------------------------------------ property tests
@settings(max_examples=25)
@given(
    n=st.integers(1, 3000),
    row_group=st.integers(1, 700),
    batch_rows=st.integers(1, 1000),
    seed=st.integers(0, 2**32 - 1),
    strings=st.booleans(),
)
def test_parquet_random_row_groups_equals_in_memory(n, row_group, batch_rows, seed, strings):
    df = _frame(n, seed, strings=strings)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.parquet")
        pq.write_table(pa.Table.from_pandas(df), path, row_group_size=row_group)
        cm, report = cio.evaluate_file(path, "y", "yhat", batch_rows=batch_rows)
        cmw, _ = cio.evaluate_file(path, "y", "yhat", weight_col="w", batch_rows=batch_rows)
        back = pd.read_parquet(path)
    want = ConfusionMatrix.from_predictions(back["y"], back["yhat"])
    assert report.rows_read == n and report.rows_skipped == 0
    assert cm.labels == want.labels
    np.testing.assert_array_equal(cm.counts, want.counts)
    np.testing.assert_array_equal(cm.counts, sk_confusion_matrix(df["y"], df["yhat"], labels=cm.labels))
    for name in ("accuracy", "mcc", "kappa", "balanced_accuracy"):
        assert abs(cm.metric(name, zero_division=0.0) - want.metric(name, zero_division=0.0)) <= 1e-12
    wantw = sk_confusion_matrix(df["y"], df["yhat"], labels=cm.labels, sample_weight=df["w"])
    np.testing.assert_allclose(cmw.counts, wantw, rtol=1e-12, atol=1e-9)


@settings(max_examples=15)
@given(
    n=st.integers(1, 2000),
    batch_rows=st.integers(1, 800),
    seed=st.integers(0, 2**32 - 1),
    fmt=st.sampled_from(["csv", "tsv", "jsonl", "npy", "npy2d"]),
)
def test_text_and_npy_formats_read_back_exactly(n, batch_rows, seed, fmt):
    df = _frame(n, seed, strings=fmt in ("csv", "jsonl"))
    with tempfile.TemporaryDirectory() as d:
        if fmt == "csv":
            path = os.path.join(d, "p.csv")
            df.to_csv(path, index=False)
        elif fmt == "tsv":
            path = os.path.join(d, "p.tsv")
            df.to_csv(path, sep="\t", index=False)
        elif fmt == "jsonl":
            path = os.path.join(d, "p.ndjson")
            df.to_json(path, orient="records", lines=True)
            df = pd.read_json(path, lines=True)  # the file holds 10 significant digits
        elif fmt == "npy":
            path = os.path.join(d, "p.npy")
            np.save(path, df[["y", "yhat", "score"]].to_records(index=False))
        else:
            path = os.path.join(d, "p.npy")
            np.save(path, df[["y", "yhat"]].to_numpy())
            df = df.rename(columns={"y": "0", "yhat": "1"})
        cols = ["0", "1"] if fmt == "npy2d" else ["y", "yhat", "score"]
        assert set(cols) <= set(cio.list_columns(path))
        reader = cio.iter_batches(path, cols, batch_rows=batch_rows)
        got = {c: [] for c in cols}
        for batch in reader:
            for c in cols:
                got[c].append(batch[c])
        assert reader.rows_read == n and reader.rows_skipped == 0
        for c in cols:
            arr = np.concatenate(got[c])
            if arr.dtype.kind == "f":
                np.testing.assert_allclose(arr, df[c].to_numpy(), rtol=1e-15)
            else:
                assert arr.tolist() == df[c].tolist()
        cm, _ = cio.evaluate_file(path, cols[0], cols[1], batch_rows=batch_rows)
    assert cm == ConfusionMatrix.from_predictions(df[cols[0]], df[cols[1]])


# ------------------------------------------------------------------ faults and bad input
def test_truncated_parquet_is_a_clear_error(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pandas(_frame(5000, 1)), path, row_group_size=500)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(ValueError, match=r"t\.parquet' cannot be read whole: .*(magic bytes|corrupt)"):
        cio.evaluate_file(path, "y", "yhat")
    with pytest.raises(ValueError, match=r"t\.parquet' cannot be read whole"):
        cio.list_columns(path)


def test_corrupted_parquet_page_is_an_error_never_a_short_result(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(
        pa.Table.from_pandas(_frame(20_000, 2)), path, row_group_size=2000, compression="snappy"
    )
    data = bytearray(path.read_bytes())
    mid = len(data) // 2
    data[mid : mid + 400] = np.random.default_rng(2).integers(0, 256, 400, dtype=np.uint8).tobytes()
    path.write_bytes(bytes(data))
    try:
        cm, report = cio.evaluate_file(path, "y", "yhat")
    except ValueError as exc:
        assert "c.parquet" in str(exc)
        with pytest.raises(Exception):  # noqa: B017 - the engine refuses it too
            pq.read_table(path, columns=["y", "yhat"])
    else:  # the damage hit bytes that do not change the decoded columns
        back = pq.read_table(path, columns=["y", "yhat"]).to_pandas()
        assert cm.n == report.rows_read == 20_000
        assert cm == ConfusionMatrix.from_predictions(back["y"], back["yhat"])


def test_ragged_csv_row_is_an_error_naming_its_line(tmp_path):
    path = tmp_path / "r.csv"
    lines = ["y,yhat"] + [f"{i % 3},{(i + 1) % 3}" for i in range(50_000)]
    lines[30_001] = "1,2,2"  # data row 30001, line 30002, has three fields
    path.write_text("\n".join(lines) + "\n")
    pattern = r"r\.csv' cannot be read whole: .*Line: 30002.*1,2,2.*Columns: 2 Found: 3"
    with pytest.raises(ValueError, match=pattern):
        cio.evaluate_file(path, "y", "yhat", batch_rows=4096)
    # a file the engine cannot read whole is never a partial matrix, skip_invalid or not
    with pytest.raises(ValueError, match=pattern):
        cio.evaluate_file(path, "y", "yhat", skip_invalid=True, batch_rows=4096)
    with pytest.raises(ValueError, match=pattern):
        list(cio.iter_batches(path, ["y", "yhat"], batch_rows=4096))


def test_missing_values_are_errors_or_counted_skips(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("y,yhat,score\na,b,0.5\na,,0.1\nb,b,\nb,a,0.7\n,,0.2\n")
    # counted inside DuckDB (no scores)
    with pytest.raises(ValueError, match=r"m\.csv', row 2: null prediction \(column 'yhat'"):
        cio.evaluate_file(path, "y", "yhat")
    cm, report = cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
    assert report.engine == "duckdb GROUP BY"
    assert (report.rows_read, report.rows_skipped, report.skipped_row_numbers) == (3, 2, [2, 5])
    assert report.skipped_by_reason == {"null true label": 1, "null prediction": 1}
    assert cm == ConfusionMatrix.from_predictions(["a", "b", "b"], ["b", "b", "a"])
    # one score column, binned in the same GROUP BY: the score's NaN or null is a third
    # reason; several score columns are streamed, with the same accounting
    two = tmp_path / "m2.csv"
    two.write_text("y,yhat,s0,score\na,b,0.5,0.5\na,,0.9,0.1\nb,b,,\nb,a,0.3,0.7\n,,0.8,0.2\n")
    for file, scores, engine in [(path, "score", "duckdb GROUP BY"),
                                 (two, ["s0", "score"], "duckdb stream")]:
        with pytest.raises(ValueError, match=r"m2?\.csv', row 2: null prediction"):
            cio.evaluate_file(file, "y", "yhat", score_cols=scores, labels=["a", "b"])
        cm, report = cio.evaluate_file(file, "y", "yhat", score_cols=scores, labels=["a", "b"],
                                       skip_invalid=True, batch_rows=2)
        assert report.engine == engine
        assert (report.rows_read, report.rows_skipped, report.skipped_row_numbers) == (
            2, 3, [2, 3, 5])
        assert report.skipped_by_reason == {"null true label": 1, "null prediction": 1,
                                            "null or NaN score": 1}
        assert cm == ConfusionMatrix.from_predictions(["a", "b"], ["b", "a"], labels=["a", "b"])
        assert report.curves.counts.sum() == 2
    reader = cio.iter_batches(path, ["y", "score"], skip_invalid=True)
    list(reader)
    assert (reader.rows_read, reader.rows_skipped, reader.skipped_row_numbers) == (3, 2, [3, 5])
    assert reader.skipped_by_reason == {"null true label": 2}  # read alone, columns are labels


def test_missing_label_column_lists_available(tmp_path):
    path = tmp_path / "p.parquet"
    pq.write_table(pa.Table.from_pandas(_frame(10, 3)), path)
    with pytest.raises(ValueError, match=r"p\.parquet.*no column 'label'.*\['y', 'yhat', 'score', 'w'\]"):
        cio.evaluate_file(path, "label", "yhat")
    csv = tmp_path / "p.csv"
    _frame(10, 3).to_csv(csv, index=False)
    with pytest.raises(ValueError, match="no columns 'a', 'b'"):
        cio.iter_batches(csv, ["a", "b"])


def test_bad_jsonl_line_is_an_error_and_absent_keys_are_skips(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"y": 1, "yhat": 1}\n{"y": 2, "yhat":\n\n{"y": 2}\n{"y": 2, "yhat": 1}\n')
    for skip in (False, True):  # a malformed line is never skipped: no partial matrix
        with pytest.raises(ValueError, match=r"p\.jsonl' cannot be read whole: .*Malformed JSON.*line 3"):
            cio.evaluate_file(path, "y", "yhat", skip_invalid=skip)
    path.write_text('{"y": 1, "yhat": 1}\n\n{"y": 2}\n{"yhat": 2}\n{"y": 2, "yhat": 1}\n')
    with pytest.raises(ValueError, match=r"p\.jsonl', row 2: null prediction"):
        cio.evaluate_file(path, "y", "yhat")
    cm, report = cio.evaluate_file(path, "y", "yhat", skip_invalid=True)
    assert (report.rows_read, report.rows_skipped) == (2, 2)
    assert report.skipped_row_numbers == [2, 3]  # records; the blank line is no row
    assert report.skipped_by_reason == {"null prediction": 1, "null true label": 1}
    assert cm == ConfusionMatrix.from_predictions([1, 2], [1, 1])


def test_nan_in_npy_and_truncated_npy(tmp_path):
    arr = np.array([[0.0, 1.0], [1.0, np.nan], [1.0, 1.0]])
    path = tmp_path / "a.npy"
    np.save(path, arr)
    with pytest.raises(ValueError, match=r"a\.npy', row 2: null prediction \(column '1'"):
        cio.evaluate_file(path, "0", "1")
    cm, report = cio.evaluate_file(path, "0", "1", skip_invalid=True)
    assert report.rows_skipped == 1 and cm.n == 2
    assert report.skipped_by_reason == {"null prediction": 1} and report.engine == "numpy"
    big = tmp_path / "big.npy"  # the sum overflows to inf, yet there is no NaN
    np.save(big, np.array([[1e308, 1e308], [1e308, -1e308], [-1e308, 1e308]]))
    cm, report = cio.evaluate_file(big, "0", "1")
    assert report.rows_read == 3 and cm == ConfusionMatrix.from_predictions(
        [1e308, 1e308, -1e308], [1e308, -1e308, 1e308]
    )
    np.save(path, np.arange(1000.0).reshape(500, 2))
    data = path.read_bytes()
    path.write_bytes(data[:-100])
    with pytest.raises(ValueError, match=r"a\.npy' cannot be read whole: .*truncated"):
        cio.list_columns(path)


def test_unknown_label_with_fixed_labels_names_it(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y,yhat,s,s0\ncat,cat,0.1,0.9\n,eel,0.5,0.5\ndog,bird,0.7,0.3\n"
                    "bird,dog,0.2,0.8\n")
    # counted by the engine (no score, or one): the first valid row holding it is named
    for kw in ({}, {"score_cols": "s"}):
        with pytest.raises(ValueError, match=r"p\.csv', row 3: label 'bird' \(column 'yhat'\) "
                                             r"is not in the fixed labels \['cat', 'dog'\]"):
            cio.evaluate_file(path, "y", "yhat", labels=["cat", "dog"], skip_invalid=True, **kw)
    # streamed (several score columns): the row itself too, as when counted
    with pytest.raises(ValueError, match=r"p\.csv', row 3: label 'bird' \(column 'yhat'\) "
                                         r"is not in the fixed labels \['cat', 'dog'\]"):
        cio.evaluate_file(path, "y", "yhat", score_cols=["s0", "s"], labels=["cat", "dog"],
                          skip_invalid=True)
    # labels= naming no class of y_true is an error (a label of the file lies outside them)
    for kw in ({}, {"score_cols": "s"}, {"score_cols": ["s0", "s"]}):
        with pytest.raises(ValueError, match=r"p\.csv'.*not in the fixed labels"):
            cio.evaluate_file(path, "y", "yhat", labels=["bird", "eel"], skip_invalid=True, **kw)


def test_rows_skipped_for_their_weight_lend_no_label_and_no_score(tmp_path):
    """A row left out for its missing weight is not seen at all, counted by the engine or
    streamed: its label is no class, its score (even outside [0, 1]) no error."""
    path = tmp_path / "w.csv"
    path.write_text("y,yhat,s,s0,w\ncat,cat,0.2,0.8,1\neel,cat,1.5,-0.5,\ndog,cat,0.7,0.3,2\n"
                    "dog,dog,0.4,0.6,0.5\neel,eel,0.1,0.9,nan\n")
    for scores, engine in [(None, "duckdb GROUP BY"), ("s", "duckdb GROUP BY"),
                           (["s0", "s"], "duckdb stream")]:
        # one score column of text labels names its class (never the second by sorted order)
        cm, rep = cio.evaluate_file(path, "y", "yhat", weight_col="w", score_cols=scores,
                                    skip_invalid=True, batch_rows=3,
                                    pos_label="dog" if scores == "s" else None)
        assert rep.engine == engine and cm.labels == ["cat", "dog"]
        assert rep.skipped_by_reason == {"null or NaN weight": 2}
        assert rep.skipped_row_numbers == [2, 5] and rep.rows_read == 3
        assert cm == ConfusionMatrix.from_predictions(["cat", "dog", "dog"], ["cat", "cat", "dog"],
                                                      sample_weight=[1.0, 2.0, 0.5])
    # a negative weight is an error naming its row
    path.write_text("y,yhat,w\ncat,cat,1\ndog,cat,2\ndog,dog,-0.5\n")
    with pytest.raises(ValueError, match=r"w\.csv', row 3: column 'w' \(sample_weight\) holds -0\.5"):
        cio.evaluate_file(path, "y", "yhat", weight_col="w")


def test_formats_and_arguments_are_checked(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("y,yhat\n1,1\n")
    with pytest.raises(ValueError, match="cannot tell the format"):
        cio.list_columns(path)
    assert cio.list_columns(path, format="csv") == ["y", "yhat"]
    with pytest.raises(ValueError, match="format must be one of"):
        cio.list_columns(path, format="xlsx")
    with pytest.raises(TypeError, match="format must be a string"):
        cio.list_columns(path, format=3)
    with pytest.raises(ValueError, match="does not exist"):
        cio.list_columns(tmp_path / "nope.csv")
    with pytest.raises(TypeError, match=r"path must be a str or os\.PathLike"):
        cio.list_columns(3)
    with pytest.raises(ValueError, match="batch_rows must be at least 1, got 0"):
        cio.iter_batches(path, ["y"], format="csv", batch_rows=0)
    with pytest.raises(TypeError, match="batch_rows must be an int, got float"):
        cio.evaluate_file(path, "y", "yhat", format="csv", batch_rows=2.0)
    with pytest.raises(ValueError, match="columns must be a non-empty sequence"):
        cio.iter_batches(path, [], format="csv")
    with pytest.raises(TypeError, match="column names must be strings"):
        cio.iter_batches(path, ["y", 1], format="csv")
    with pytest.raises(TypeError, match="na_values must be strings"):
        cio.evaluate_file(path, "y", "yhat", format="csv", na_values=[None])
    with pytest.raises(ValueError, match=r"column_types\['y'\] must be one of"):
        cio.evaluate_file(path, "y", "yhat", format="csv", column_types={"y": "text"})
    with pytest.raises(TypeError, match="column_types must be a mapping"):
        cio.evaluate_file(path, "y", "yhat", format="csv", column_types=["y"])
    empty = tmp_path / "e.csv"
    empty.write_text("")
    with pytest.raises(ValueError, match=r"e\.csv' is empty"):
        cio.list_columns(empty)
    header = tmp_path / "h.csv"
    header.write_text("y,yhat\n")
    with pytest.raises(ValueError, match=r"h\.csv' has no valid rows to evaluate "
                                         r"\(0 skipped: it holds no data rows\)"):
        cio.evaluate_file(header, "y", "yhat")
    onlynull = tmp_path / "n.csv"
    onlynull.write_text("y,yhat\n,1\n2,\n")
    with pytest.raises(ValueError, match=r"n\.csv' has no valid rows to evaluate "
                       r"\(2 skipped: null true label 1, null prediction 1\)"):
        cio.evaluate_file(onlynull, "y", "yhat", skip_invalid=True)


def test_progress_and_read_columns(tmp_path):
    df = _frame(2500, 4)
    path = tmp_path / "p.parquet"
    pq.write_table(pa.Table.from_pandas(df), path, row_group_size=1000)
    calls = []
    # counted by the engine at once: one call with the rows the footer declares
    _cm, report = cio.evaluate_file(path, "y", "yhat", batch_rows=1000, progress=lambda a, b: calls.append((a, b)))
    assert calls == [(2500, 2500)] and report.batches == 1 and report.engine == "duckdb GROUP BY"
    # streamed (several score columns): one call per batch
    two = tmp_path / "two.parquet"
    pq.write_table(pa.table({"y": df["y"] % 2, "yhat": df["yhat"] % 2, "p0": 1 - df["score"],
                             "p1": df["score"]}), two, row_group_size=1000)
    calls.clear()
    _cm, report = cio.evaluate_file(two, "y", "yhat", score_cols=["p0", "p1"], batch_rows=1000,
                                    progress=lambda a, b: calls.append((a, b)))
    assert calls == [(1000, 2500), (2000, 2500), (2500, 2500)] and report.batches == 3
    assert report.engine == "pyarrow dataset"
    cols = cio.read_columns(path, ["y", "score"], batch_rows=300)
    np.testing.assert_array_equal(cols["y"], df["y"].to_numpy())
    np.testing.assert_array_equal(cols["score"], df["score"].to_numpy())
    csv = tmp_path / "p.csv"
    df.to_csv(csv, index=False)
    calls.clear()  # counted by the engine at once: one call with the engine's count
    cio.evaluate_file(csv, "y", "yhat", progress=lambda a, b: calls.append((a, b)))
    assert calls == [(2500, 2500)]


def test_column_types_force_text_labels(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y,yhat\n1,1\n2,1\n")
    cols = cio.read_columns(path, ["y", "yhat"], column_types={"y": "string", "yhat": "string"})
    assert cols["y"].tolist() == ["1", "2"]
    cm, _ = cio.evaluate_file(path, "y", "yhat", column_types={"y": "string", "yhat": "string"})
    assert cm.labels == ["1", "2"]
    with pytest.raises(ValueError, match="column_types applies to CSV and JSON lines"):
        pq.write_table(pa.table({"y": [1]}), tmp_path / "p.parquet")
        cio.read_columns(tmp_path / "p.parquet", ["y"], column_types={"y": "string"})


def test_duckdb_example_matches_pandas(tmp_path):
    import importlib.util

    pytest.importorskip("duckdb")
    spec = importlib.util.spec_from_file_location(
        "duckdb_parquet", os.path.join(os.path.dirname(__file__), "..", "examples", "duckdb_parquet.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(5)
    n = 3000
    names = np.array(["bus", "car", "van", "opel"], dtype=object)
    t = names[rng.integers(0, 4, n)]
    p = names[rng.integers(0, 4, n)]
    t[rng.random(n) < 0.01] = None  # NULL labels are left out and reported
    path = str(tmp_path / "preds.parquet")
    pq.write_table(pa.table({"y": t, "yhat": p}), path, row_group_size=700)
    cm, left_out = mod.confusion_matrix_from_parquet(path, "y", "yhat")
    df = pd.read_parquet(path).dropna()
    assert left_out == n - len(df)
    assert cm == ConfusionMatrix.from_predictions(df["y"], df["yhat"])
    shown = mod.main([path, "y", "yhat"])
    assert shown == cm


def test_evaluate_file_with_scores_matches_one_shot_histogram(tmp_path):
    from confmat.binned import ScoreHistogram

    rng = np.random.default_rng(9)
    n = 5000
    t = rng.integers(0, 3, n)
    probs = rng.dirichlet(np.ones(3), n)
    df = pd.DataFrame({"y": t, "yhat": probs.argmax(axis=1), "p0": probs[:, 0], "p1": probs[:, 1], "p2": probs[:, 2]})
    path = tmp_path / "m.parquet"
    pq.write_table(pa.Table.from_pandas(df), path, row_group_size=999)
    cm, report = cio.evaluate_file(path, "y", "yhat", score_cols=["p0", "p1", "p2"], labels=[0, 1, 2], bins=100, batch_rows=777)
    want = ScoreHistogram([0, 1, 2], bins=100).update(t, probs)
    assert report.curves == want and cm == ConfusionMatrix.from_predictions(t, df["yhat"])
    b = tmp_path / "b.csv"
    pd.DataFrame({"y": t % 2, "yhat": t % 2, "s": probs[:, 0]}).to_csv(b, index=False)
    _, rep = cio.evaluate_file(b, "y", "yhat", score_cols="s", bins=50, batch_rows=500)
    assert rep.curves == ScoreHistogram([0, 1], bins=50).update(t % 2, probs[:, 0])


def test_csv_type_conflict_in_a_later_block_names_value_and_line(tmp_path):
    path = tmp_path / "late.csv"
    rows = ["y,yhat"] + ["1,0"] * 400_000 + ["cat,1"]
    path.write_text("\n".join(rows) + "\n")
    pattern = r"late\.csv' cannot be read whole: .*Line: 400002 .*cat,1.*column \"y\".*\"cat\""
    with pytest.raises(ValueError, match=pattern):
        cio.evaluate_file(path, "y", "yhat", batch_rows=1000)
    with pytest.raises(ValueError, match=pattern):  # streamed too (scores)
        cio.evaluate_file(path, "y", "yhat", score_cols="yhat", batch_rows=100_000)
    cols = cio.read_columns(path, ["y"], column_types={"y": "string"})
    assert cols["y"][-1] == "cat" and len(cols["y"]) == 400_001


def test_gzip_csv_and_early_break(tmp_path):
    import gzip

    path = tmp_path / "p.csv.gz"
    df = _frame(3000, 8, strings=True)
    with gzip.open(path, "wt") as fh:
        df.to_csv(fh, index=False)
    cm, report = cio.evaluate_file(path, "y", "yhat")
    assert report.format == "csv" and cm == ConfusionMatrix.from_predictions(df["y"], df["yhat"])
    pq_path = tmp_path / "p.parquet"
    pq.write_table(pa.Table.from_pandas(df), pq_path, row_group_size=100)
    for p in (pq_path, path):
        reader = cio.iter_batches(p, ["y"], batch_rows=100)
        for _ in reader:  # stopping early...
            break
        assert sum(len(b["y"]) for b in reader) == 3000 == reader.rows_read  # ...and again
        assert reader.rows_read == 3000 and reader.rows_skipped == 0


# ------------------------------------------------------------------ row groups, nulls, batches
def _table_with_nulls(n: int, seed: int, k: int, null_rate: float) -> pa.Table:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, k, n))
    score = np.clip(0.3 * (t == k - 1) + 0.7 * rng.random(n), 0.0, 1.0)
    score[rng.random(n) < null_rate] = np.nan  # NaN and null scores are both skipped
    return pa.table({
        "y": pa.array(t, mask=rng.random(n) < null_rate),
        "yhat": pa.array(p, mask=rng.random(n) < null_rate),
        "score": pa.array(score, mask=rng.random(n) < null_rate),
    })


@pytest.mark.parametrize("with_scores", [False, True], ids=["labels", "labels and scores"])
@settings(max_examples=12)
@given(
    n=st.integers(100, 4000),
    row_group=st.integers(1, 600),
    batch_rows=st.integers(1, 800),
    seed=st.integers(0, 2**32 - 1),
    null_rate=st.sampled_from([0.05, 0.002]),
)
def test_random_nulls_are_counted_by_reason_and_the_rest_equals_in_memory(
    n, row_group, batch_rows, seed, null_rate, with_scores
):
    """Each set of columns has its own examples, with nulls in most of them (drawn as
    arguments, 15 of 25 examples under the CI profile had no null: 11 of null rate 0 and 4
    of one row; 2 had nulls without a score column)."""
    k = 2 if with_scores else 5
    table = _table_with_nulls(n, seed, k, null_rate)
    kw = {"batch_rows": batch_rows, "skip_invalid": True}
    if with_scores:
        kw.update(score_cols="score", bins=64)
    seen: list[tuple[int, int | None]] = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.parquet")
        pq.write_table(table, path, row_group_size=row_group)
        try:
            cm, rep = cio.evaluate_file(path, "y", "yhat", progress=lambda a, b: seen.append((a, b)),
                                        **kw)
        except ValueError as exc:
            error = str(exc)
        else:
            error = None
    df = table.to_pandas()
    cols = ["y", "yhat", "score"] if with_scores else ["y", "yhat"]
    valid = df[cols].notna().all(axis=1)
    if error is not None:
        # the only errors: no valid row, or a histogram whose first rows show one class
        assert "no valid rows" in error or "needs at least two classes" in error, error
        return
    kept = df[valid]
    want = sk_confusion_matrix(kept["y"].astype(int), kept["yhat"].astype(int), labels=cm.labels)
    np.testing.assert_array_equal(cm.counts, want)
    skipped = (np.flatnonzero(~valid.to_numpy()) + 1).tolist()
    assert (rep.rows_read, rep.rows_skipped) == (int(valid.sum()), n - int(valid.sum()))
    assert rep.skipped_row_numbers == skipped[: cio.MAX_SKIPPED_NUMBERS]
    # reasons by precedence: the true label, then the prediction, then the score
    null_t = df["y"].isna()
    null_p = df["yhat"].isna() & ~null_t
    want_reasons = {"null true label": int(null_t.sum()), "null prediction": int(null_p.sum())}
    if with_scores:
        want_reasons["null or NaN score"] = int((df["score"].isna() & ~null_t & ~null_p).sum())
    assert rep.skipped_by_reason == {k: v for k, v in want_reasons.items() if v}
    dones = [a for a, _ in seen]
    assert dones == sorted(dones) and dones[-1] == n and {b for _, b in seen} == {n}
    if with_scores:
        from confmat.binned import ScoreHistogram

        want_h = ScoreHistogram(cm.labels, bins=64).update(kept["y"].astype(int),
                                                           kept["score"].to_numpy())
        np.testing.assert_array_equal(rep.curves.counts, want_h.counts)


def test_row_group_errors_name_rows_and_labels(tmp_path):
    rng = np.random.default_rng(5)
    n = 20_000
    t = rng.integers(0, 3, n)
    # a null in a late row group, and a label outside the fixed labels in another
    y = pa.array(t, mask=np.arange(n) == 15_123)
    path = tmp_path / "e.parquet"
    pq.write_table(pa.table({"y": y, "yhat": t}), path, row_group_size=1000)
    with pytest.raises(ValueError, match=r"e\.parquet', row 15124: null true label \(column 'y'"):
        cio.evaluate_file(path, "y", "yhat", batch_rows=300)
    t2 = t.copy()
    t2[17_500] = 7
    pq.write_table(pa.table({"y": t2, "yhat": t}), path, row_group_size=1000)
    # counted by the engine: the row itself is named
    with pytest.raises(ValueError, match=r"e\.parquet', row 17501: label 7 \(column 'y'\) is not in the fixed labels \[0, 1, 2\]"):
        cio.evaluate_file(path, "y", "yhat", batch_rows=300, labels=[0, 1, 2])
    # streamed: batches of 300 never span row groups of 1000: 300, 300, 300, 100 per group;
    # data row 17501 is in the second batch of group 17 (rows 17301..17600), chunk 17 * 4 + 2
    s = rng.random(n)
    pq.write_table(pa.table({"y": t2, "yhat": t, "p0": s / 2, "p1": s / 2, "p2": 1 - s}), path,
                   row_group_size=1000)
    # (the accumulator's chunk counter is not named: "chunk 70" means nothing in the file;
    # the row itself is, found in that batch)
    with pytest.raises(ValueError, match=r"e\.parquet', row 17501: label 7 \(column 'y'\) is not in the fixed labels \[0, 1, 2\]") as err:
        cio.evaluate_file(path, "y", "yhat", score_cols=["p0", "p1", "p2"], batch_rows=300,
                          labels=[0, 1, 2])
    assert "chunk" not in str(err.value)
    # one score column beside a third true class and no pos_label: the message of the
    # streamed path (below), the labels of the whole file
    y3 = np.where(np.arange(n) < 12_000, t % 2, t)
    first = int(np.flatnonzero(y3 == 2)[0]) + 1
    pq.write_table(pa.table({"y": y3, "yhat": y3, "s": s, "s0": 1 - s}), path,
                   row_group_size=1000)
    with pytest.raises(ValueError, match=r"e\.parquet': 1 score column \['s'\] but the labels are \[0, 1, 2\]; give one score column per class, in label order, or pos_label"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", batch_rows=1000)
    # a third class predicted beside a truth of {0, 1} (whose scores are those of 1): the
    # one rule for predictions beside scores, naming the first row that holds it
    pq.write_table(pa.table({"y": t % 2, "yhat": y3, "s": s}), path, row_group_size=1000)
    with pytest.raises(ValueError, match=rf"e\.parquet': column 'yhat' holds label 2 \(first in data row {first}\), which is not one of the classes of column 'y' \[0, 1\]"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", batch_rows=1000)
    pq.write_table(pa.table({"y": y3, "yhat": y3, "s": s, "s0": 1 - s}), path,
                   row_group_size=1000)
    # streamed, the labels of the whole file are read first (the curves must not depend on
    # where batches are cut), so the mismatch is the file's
    with pytest.raises(ValueError, match=r"e\.parquet': 2 score columns \['s0', 's'\] but the labels are \[0, 1, 2\]; give one score column per class"):
        cio.evaluate_file(path, "y", "yhat", score_cols=["s0", "s"], batch_rows=1000)


def test_first_row_groups_all_invalid(tmp_path):
    n = 5000
    t = np.arange(n) % 2
    mask = np.arange(n) < 2500  # the first five row groups hold no valid row
    path = tmp_path / "f.parquet"
    table = pa.table({"y": pa.array(t, mask=mask), "yhat": t, "s": np.linspace(0, 1, n)})
    pq.write_table(table, path, row_group_size=500)
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, score_cols="s", bins=16)
    assert cm == ConfusionMatrix.from_predictions(t[2500:], t[2500:]) and rep.rows_skipped == 2500
    assert rep.skipped_row_numbers == list(range(1, 11))
    assert rep.skipped_by_reason == {"null true label": 2500}
    assert rep.curves.counts.sum() == 2500


@pytest.mark.parametrize("use_dictionary", [True, False])
def test_text_labels_in_parquet_evaluate_like_pandas(tmp_path, use_dictionary):
    rng = np.random.default_rng(12)
    n = 30_000
    names = np.array(["cat", "dög", "", "x" * 70, "nul\x00", "eel", "猫", "NA"], dtype=object)
    t = rng.integers(0, len(names), n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, len(names), n))
    y = pa.array(names[t].tolist(), mask=rng.random(n) < 0.01)
    path = tmp_path / "text.parquet"
    order = np.argsort(t >= 3, kind="stable")
    table = pa.table({"y": y, "yhat": names[p].tolist()}).take(pa.array(order))
    pq.write_table(table, path, row_group_size=4000, use_dictionary=use_dictionary)
    cm, rep = cio.evaluate_file(path, "y", "yhat", skip_invalid=True, batch_rows=2500)
    df = pq.read_table(path).to_pandas()
    kept = df.dropna()
    # a plain-Python oracle: scikit-learn turns labels into numpy strings, which drop a
    # trailing NUL character
    labels = cm.labels
    pos = {v: i for i, v in enumerate(labels)}
    want = np.zeros((len(labels), len(labels)), np.int64)
    for a, b in zip(kept["y"].tolist(), kept["yhat"].tolist(), strict=True):
        want[pos[a], pos[b]] += 1
    np.testing.assert_array_equal(cm.counts, want)
    assert "nul\x00" in labels and "nul" not in labels and "" in labels and "NA" in labels
    assert sorted(labels) == sorted(set(kept["y"]) | set(kept["yhat"]))
    assert rep.rows_skipped == int(df["y"].isna().sum()) == rep.skipped_by_reason["null true label"]
    batch = next(iter(cio.iter_batches(path, ["yhat"])))  # readers hand out Python strings
    assert batch["yhat"].dtype == object and batch["yhat"][0] in set(names)


@pytest.mark.parametrize(("old", "new"), [(9, 3), (9, 5), (9, 6), (9, 8), (0, 2), (0, -3), (9, 100)])
def test_parquet_whose_statistics_lie_is_counted_from_its_values(tmp_path, old, new):
    """A footer whose min / max statistics disagree with the values (every 8-byte ``old`` in
    the footer rewritten as ``new``): DuckDB's default plan trusts them (it raised a
    "statistics ... are corrupt" error on some of these files, and once aborted the process
    on the next query), so confmat counts without statistics propagation: the matrix equals
    the pairs pyarrow reads from the same bytes."""
    import struct

    import duckdb

    path = tmp_path / "lie.parquet"
    src = tmp_path / "src.parquet"
    duckdb.sql("COPY (SELECT (i % 10)::BIGINT AS t, ((i * 7) % 10)::BIGINT AS p FROM "
               f"range(20000) r(i)) TO '{src}' (FORMAT parquet, ROW_GROUP_SIZE 10000)")
    b = bytearray(src.read_bytes())
    footer_len = struct.unpack("<i", bytes(b[-8:-4]))[0]
    start = len(b) - 8 - footer_len
    pat, rep = struct.pack("<q", old), struct.pack("<q", new)
    hits = [i for i in range(start, len(b) - 8) if bytes(b[i:i + 8]) == pat]
    assert hits, "the footer holds no statistic to rewrite"
    for i in hits:
        b[i:i + 8] = rep
    path.write_bytes(bytes(b))
    table = pq.read_table(path)  # the engine's own full read of the damaged bytes
    t, p = table["t"].to_numpy(), table["p"].to_numpy()
    cm, report = cio.evaluate_file(path, "t", "p")
    assert report.rows_read == len(t) == 20000
    np.testing.assert_array_equal(cm.counts, sk_confusion_matrix(t, p, labels=cm.labels))


def test_column_types_on_json_lines(tmp_path):
    """column_types= on JSON lines (it raised DuckDB's TypeError 'unexpected keyword argument
    dtype'): forced types, the others as DuckDB samples them; on several files, a forced
    column may hold numbers in one file and text in another. Oracle: the json module, each
    label as its text (JSON numbers as Python writes them)."""
    import json as json_mod
    from collections import Counter

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"y": "01", "yhat": 1, "s": 0.5}\n{"y": "2", "yhat": 2, "s": 0.25}\n')
    b.write_text('{"y": 1, "yhat": "1", "s": 0.5}\n{"y": 3, "yhat": 2, "s": 0.75}\n')

    def oracle(*paths):
        rows = [json_mod.loads(line) for p in paths for line in p.read_text().splitlines()]
        return Counter((str(r["y"]), str(r["yhat"])) for r in rows)

    text = {"y": "string", "yhat": "string"}
    for source, paths in ((a, [a]), (tmp_path / "*.jsonl", [a, b])):
        cm, rep = cio.evaluate_file(source, "y", "yhat", column_types=text)
        got = Counter({(x, y): int(cm.counts[i, j]) for i, x in enumerate(cm.labels)
                       for j, y in enumerate(cm.labels) if cm.counts[i, j]})
        assert got == oracle(*paths) and rep.rows_read == sum(oracle(*paths).values())
    cols = cio.read_columns(a, ["yhat", "s"], column_types={"s": "string"})
    assert cols["yhat"].tolist() == [1, 2] and cols["s"].tolist() == ["0.5", "0.25"]
    for path in (a, tmp_path / "c.csv"):
        (tmp_path / "c.csv").write_text("y,yhat\n1,1\n")
        with pytest.raises(ValueError, match=r"column_types names \['zz'\], which .* does not "
                                             r"have \(its columns: \['y', 'yhat'"):
            cio.evaluate_file(path, "y", "yhat", column_types={"zz": "string", "y": "string"})
    with pytest.raises(ValueError, match=r"column 'y' is VARCHAR in .* but BIGINT"):
        cio.evaluate_file(tmp_path / "*.jsonl", "y", "yhat")  # without the hint: refused


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_files=st.integers(2, 4), shuffle=st.booleans(),
       text=st.booleans(), null_rate=st.sampled_from([0.0, 0.1]))
def test_several_json_lines_files(tmp_path_factory, seed, n_files, shuffle, text, null_rate):
    """Several JSON lines files, alike (read by one pinned read_json) or with their keys in
    another order (read by name): the counts of the json module's reading, every row
    accounted for."""
    import json as json_mod
    from collections import Counter

    rng = np.random.default_rng(seed)
    d = tmp_path_factory.mktemp("jsonl")
    pairs: Counter = Counter()
    rows_total = nulls = 0
    for j in range(n_files):
        keys = ["y", "yhat", "s"]
        if shuffle and j:
            keys = [keys[i] for i in rng.permutation(3)]
        lines = []
        for _ in range(int(rng.integers(5, 40))):
            rec = {"y": int(rng.integers(0, 3)), "yhat": int(rng.integers(0, 3)),
                   "s": float(rng.random())}
            if text:
                rec["y"], rec["yhat"] = f"c{rec['y']}", f"c{rec['yhat']}"
            if rng.random() < null_rate:
                rec["y"] = None
            lines.append(json_mod.dumps({k: rec[k] for k in keys}))
            rows_total += 1
            if rec["y"] is None:
                nulls += 1
            else:
                pairs[(str(rec["y"]), str(rec["yhat"]))] += 1
        (d / f"{j}.jsonl").write_text("\n".join(lines) + "\n")
    cm, rep = cio.evaluate_file(d / "*.jsonl", "y", "yhat", skip_invalid=True)
    got = Counter({(str(a), str(b)): int(cm.counts[i, k]) for i, a in enumerate(cm.labels)
                   for k, b in enumerate(cm.labels) if cm.counts[i, k]})
    assert got == pairs
    assert rep.rows_read + rep.rows_skipped == rows_total
    assert rep.skipped_by_reason == ({"null true label": nulls} if nulls else {})
