#!/usr/bin/env bash
# The lowest-versions environment: every floor pyproject.toml declares for the core
# dependencies and the extras the library uses at run time (numpy, scipy, click, rich, jinja2,
# numba, pandas, polars, pyarrow, DuckDB, matplotlib, Dask, isal), each pinned to its floor by
# scripts/floor_pins.py, which reads them from pyproject.toml; the test tools at the newest
# versions pip finds compatible with those pins. Wheels only (nothing compiles). Then the I/O
# tests and the core tests (matrix, registry, counting, curves, inputs, report, CLI) run there.
# Tests that need R or Chromium are not among them.
# Usage: bash scripts/check_floors.sh [VENV_DIR]   (default /tmp/confmat-floors-venv)
# .ci/run calls it (about 5 minutes on 2 cores: 1 to install, 4 to test).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-/tmp/confmat-floors-venv}"
mapfile -t reqs < <(python "$root/scripts/floor_pins.py" "$root/pyproject.toml")
echo "floors and test tools: ${reqs[*]}"
rm -rf "$venv"
python -m venv "$venv"
"$venv/bin/pip" install -q --only-binary=:all: -e "$root" "${reqs[@]}" fsspec
"$venv/bin/pip" check
"$venv/bin/python" - <<'PY'
from importlib.metadata import version
names = ["numpy", "scipy", "click", "rich", "jinja2", "numba", "pandas", "polars", "pyarrow",
         "duckdb", "matplotlib", "dask", "distributed", "isal", "scikit-learn", "fairlearn"]
print("installed:", ", ".join(f"{n} {version(n)}" for n in names))
PY
cd "$root"
# Left out: tests/test_sklearn_*.py, whose oracle is the newest scikit-learn's API (pip picks an
# older one next to these floors), the R / Chromium tests, and `confmat demo` (it trains
# scikit-learn models for about 40 s of CPU; its reports are built by the other report tests).
# numba's compiled kernels of this numba version are cached apart from the main environment's.
NUMBA_CACHE_DIR="$venv/numba-cache" "$venv/bin/python" -m pytest -p no:cacheprovider -n 2 -q \
    tests/test_io*.py tests/test_inputs*.py tests/test_cli_files.py tests/test_cli_csv.py \
    tests/test_csv_dialect.py tests/test_groups_io*.py tests/test_arrow_inputs.py \
    tests/test_smoke.py tests/test_deps.py tests/test_optional_imports.py tests/test_errors.py \
    tests/test_matrix.py tests/test_registry.py tests/test_explain.py tests/test_identities.py \
    tests/test_overflow.py tests/test_kernels.py tests/test_accumulator.py tests/test_binned.py \
    tests/test_curves.py tests/test_pos_label.py tests/test_probability_door.py \
    tests/test_inference.py tests/test_report.py tests/test_plots.py tests/test_dask.py \
    tests/test_cli.py --deselect tests/test_cli.py::test_demo_writes_reports_and_reports_its_runtime
