"""Reading files and building data frames load pyarrow, DuckDB and pandas through
``confmat.deps``: without the library the user gets the deps message (what needs it, and the
pip command), never a bare ``ModuleNotFoundError`` from deep inside a reader.

Each case runs in a fresh interpreter where the library is hidden (``sys.modules[name] =
None`` makes every import of it fail, as for a library that is not installed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from confmat import deps


def run_without(hidden: tuple[str, ...], code: str) -> str:
    """Run ``code`` with the libraries ``hidden``; return the ImportError message it raised."""
    prelude = "import sys\n" + "".join(f"sys.modules[{h!r}] = None\n" for h in hidden)
    probe = prelude + textwrap.dedent(code) + textwrap.dedent("""
        try:
            main()
        except ImportError as exc:
            print("IMPORTERROR", type(exc).__name__, exc)
        else:
            print("NO ERROR")
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_require_on_a_module_of_a_missing_library_names_the_library(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a library that does not exist stands in for one that is not installed
    monkeypatch.setitem(deps.OPTIONAL, "confmat_absent_lib", "pip install confmat-absent-lib")
    assert deps.installed("confmat_absent_lib.sub") is False
    assert deps.optional("confmat_absent_lib.sub") is None
    with pytest.raises(ImportError) as info:
        deps.require("confmat_absent_lib.sub", "this feature")
    assert str(info.value) == ("this feature needs confmat_absent_lib, which is not installed: "
                               "pip install confmat-absent-lib")


def test_require_on_a_module_of_an_installed_library_imports_it() -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.compute

    assert deps.require("pyarrow.compute", "a test") is pyarrow.compute


def test_npy_file_without_pyarrow_says_what_to_install(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "p.npz")
    np.savez(path, y=np.array([0, 1, 1]), yhat=np.array([0, 1, 0]))
    line = run_without(("pyarrow",), f"""
        from confmat.io import evaluate_file
        def main():
            evaluate_file({path!r}, "y", "yhat")
    """)
    assert line == ("IMPORTERROR ImportError streaming Arrow batches needs pyarrow, which is "
                    "not installed: pip install pyarrow")


def test_read_columns_without_pyarrow_says_what_to_install(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "p.npz")
    np.savez(path, y=np.array([0, 1, 1]))
    line = run_without(("pyarrow",), f"""
        from confmat.io import read_columns
        def main():
            read_columns({path!r}, ["y"])
    """)
    assert line == ("IMPORTERROR ImportError read_columns needs pyarrow, which is not "
                    "installed: pip install pyarrow")


def test_csv_file_without_duckdb_says_what_to_install(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "p.csv")
    with open(path, "w") as fh:
        fh.write("y,yhat\n1,0\n")
    line = run_without(("duckdb",), f"""
        from confmat.io import evaluate_file
        def main():
            evaluate_file({path!r}, "y", "yhat")
    """)
    assert line == ("IMPORTERROR ImportError reading CSV, TSV, JSON lines and Parquet files "
                    "needs duckdb, which is not installed: pip install duckdb")


def test_evaluate_sql_without_duckdb_says_what_to_install() -> None:
    line = run_without(("duckdb",), """
        from confmat.io import evaluate_sql
        def main():
            evaluate_sql(object(), "select 1")
    """)
    assert line == ("IMPORTERROR ImportError evaluate_sql needs duckdb, which is not "
                    "installed: pip install duckdb")


def test_comparison_frames_without_pandas_say_what_to_install() -> None:
    for method in ("to_frame", "pairwise_frame"):
        line = run_without(("pandas",), f"""
            from confmat.inference import compare
            def main():
                cmp = compare({{"a": [0, 1, 1, 1], "b": [0, 0, 1, 1]}}, [0, 0, 1, 1],
                              ["accuracy"], n_resamples=200, random_state=0)
                cmp.{method}()
        """)
        assert line == (f"IMPORTERROR ImportError Comparison.{method} needs pandas, which is "
                        "not installed: pip install pandas")
