"""confmat's DuckDB databases never install or load an extension on demand.

DuckDB's defaults (``autoinstall_known_extensions`` / ``autoload_known_extensions``) let a
query that meets a type of an extension that is not loaded fetch that extension from
extensions.duckdb.org. confmat reads with what the Python wheel links statically.

Oracles: DuckDB's own ``current_setting`` and ``duckdb_extensions()``; the counts of a
GeoParquet file against scikit-learn's ``confusion_matrix`` of the values written.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import io as cio
from confmat.inputs.readers import duckdb_connection

SETTINGS = ("autoinstall_known_extensions", "autoload_known_extensions")


@pytest.mark.parametrize("trust", [True, False])
@pytest.mark.parametrize("shared", [True, False])
def test_settings_off_on_confmat_connections(trust: bool, shared: bool) -> None:
    con = duckdb_connection(trust_statistics=trust, shared=shared)
    for name in SETTINGS:
        assert con.execute(f"SELECT current_setting('{name}')").fetchone()[0] is False, name


def test_type_of_an_extension_not_loaded_is_refused_without_download() -> None:
    # INET lives in the inet extension, which the wheel does not link: with DuckDB's defaults
    # the cast installs it from the network (or fails with "Failed to download extension")
    con = duckdb_connection()
    with pytest.raises(duckdb.CatalogException) as err:
        con.execute("SELECT '10.0.0.1'::INET").fetchall()
    assert "download" not in str(err.value).lower()
    assert "inet" in str(err.value).lower()


def test_statically_linked_readers_suffice() -> None:
    con = duckdb_connection()
    modes = dict(con.execute("SELECT extension_name, install_mode FROM duckdb_extensions() "
                             "WHERE loaded").fetchall())
    for ext in ("parquet", "json", "icu"):
        assert modes.get(ext) == "STATICALLY_LINKED", (ext, modes)


def test_geoparquet_read_without_any_extension(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    y, yhat = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    point = struct.pack("<bIdd", 1, 1, 1.0, 2.0)  # WKB POINT(1 2)
    table = pa.table({"y": y, "yhat": yhat, "geom": pa.array([point] * 200, pa.binary())})
    geo = {"version": "1.0.0", "primary_column": "geom",
           "columns": {"geom": {"encoding": "WKB", "geometry_types": ["Point"]}}}
    path = tmp_path / "geo.parquet"
    pq.write_table(table.replace_schema_metadata({b"geo": json.dumps(geo).encode()}), path)
    before = set(duckdb_connection().execute(
        "SELECT extension_name FROM duckdb_extensions() WHERE loaded OR installed").fetchall())
    cm, _ = cio.evaluate_file(path, "y", "yhat")
    np.testing.assert_array_equal(cm.counts, sk_confusion_matrix(y, yhat, labels=[0, 1, 2]))
    after = set(duckdb_connection().execute(
        "SELECT extension_name FROM duckdb_extensions() WHERE loaded OR installed").fetchall())
    assert after == before
