#!/usr/bin/env bash
# Build the documentation site (mkdocs.yml) with warnings as errors, into a throw-away folder.
# Needs the docs extra: pip install -e ".[docs]".
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
mkdocs build --strict -d "$(mktemp -d)"
