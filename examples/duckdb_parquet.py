"""Evaluate predictions stored in Parquet with a SQL ``GROUP BY`` in DuckDB.

The confusion matrix is a ``GROUP BY true, pred`` count: any SQL engine computes it next to the
data and only the K x K result travels. DuckDB scans the Parquet files in parallel and out of
core; confmat turns the grouped rows into a :class:`confmat.ConfusionMatrix` with
:meth:`confmat.Accumulator.update_grouped` and computes every metric from it.

Run ``python examples/duckdb_parquet.py [FILE_OR_GLOB.parquet TRUE_COL PRED_COL]``; without
arguments it writes a small demo file to a temporary directory first.
"""

from __future__ import annotations

import os
import sys
import tempfile

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import confmat

SQL = """
SELECT {t} AS y, {p} AS yhat, count(*) AS n
FROM read_parquet(?)
WHERE {t} IS NOT NULL AND {p} IS NOT NULL
GROUP BY ALL
"""


def _quote(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def confusion_matrix_from_parquet(
    path: str, true_col: str, pred_col: str, *, con: duckdb.DuckDBPyConnection | None = None
) -> tuple[confmat.ConfusionMatrix, int]:
    """The confusion matrix of two columns of Parquet file(s) (a path or a glob), counted by DuckDB.

    Returns the matrix and the number of rows left out because a label was NULL (SQL's
    ``count(*)`` of the whole file minus ``n``), so that every row is accounted for.
    """
    con = con or duckdb.connect()
    t, p = _quote(true_col), _quote(pred_col)
    grouped = con.execute(SQL.format(t=t, p=p), [path]).fetchnumpy()
    total = con.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()[0]
    acc = confmat.Accumulator()
    acc.update_grouped(grouped["y"], grouped["yhat"], grouped["n"])
    cm = acc.result()
    return cm, int(total - cm.n)


def write_demo(path: str, n: int = 200_000, seed: int = 0) -> None:
    """A small demo file: three vehicle classes, 85% of predictions right, row groups of 50k."""
    rng = np.random.default_rng(seed)
    names = np.array(["bus", "car", "van"])
    t = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.85, t, rng.integers(0, 3, n))
    pq.write_table(pa.table({"label": names[t], "prediction": names[p]}), path, row_group_size=50_000)


def main(argv: list[str] | None = None) -> confmat.ConfusionMatrix:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        path, true_col, pred_col = argv
    else:
        path = os.path.join(tempfile.mkdtemp(prefix="confmat_duckdb_"), "predictions.parquet")
        write_demo(path)
        true_col, pred_col = "label", "prediction"
    cm, left_out = confusion_matrix_from_parquet(path, true_col, pred_col)
    print(f"{path}: {cm.n:,} rows counted by DuckDB, {left_out} left out (NULL label)")
    print(cm)
    for name in ("accuracy", "balanced_accuracy", "mcc", "kappa"):
        print(f"{name:>18}: {cm.metric(name):.4f}")
    print(f"{'macro F1':>18}: {cm.metric('f1', average='macro'):.4f}")
    return cm


if __name__ == "__main__":
    main()
