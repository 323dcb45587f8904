#!/usr/bin/env bash
# Run the I/O tests on the lowest versions of DuckDB and pyarrow that pyproject.toml declares
# (the floors of the [scale] extra), in a virtual environment outside the repository.
# Usage: bash scripts/check_floors.sh [VENV_DIR]   (default /tmp/confmat-floors-venv)
# Not part of .ci/run: it downloads and installs a second environment (minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-/tmp/confmat-floors-venv}"
pins="$(python - "$root/pyproject.toml" <<'PY'
import re, sys, tomllib
extra = tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["scale"]
for req in extra:
    m = re.fullmatch(r"(duckdb|pyarrow)>=([0-9.]+)", req)
    if m:
        print(f"{m[1]}=={m[2]}")
PY
)"
echo "floors: $pins"
rm -rf "$venv"
python -m venv "$venv"
# shellcheck disable=SC2086
"$venv/bin/pip" install -q -e "$root" $pins fsspec pytest hypothesis pytest-xdist \
    scikit-learn pandas mpmath polars isal fairlearn
"$venv/bin/python" -c "import duckdb, pyarrow, numpy; print('duckdb', duckdb.__version__, \
'pyarrow', pyarrow.__version__, 'numpy', numpy.__version__)"
cd "$root"
"$venv/bin/python" -m pytest -p no:cacheprovider -n 0 -q \
    tests/test_io*.py tests/test_inputs*.py tests/test_cli_files.py tests/test_cli_csv.py \
    tests/test_csv_dialect.py tests/test_groups_io*.py tests/test_arrow_inputs.py
