"""The pROC oracle: run R code with pROC (Robin et al. 2011) through ``Rscript`` on data made in
the test, and read its numbers back.

Not a test file. Data goes to R as raw little-endian float64 files (``readBin``: exact, no
decimal round trip) and results come back as text written with ``sprintf("%.17g")``, which
Python's ``float`` reads back to the same double. Each named array becomes an R numeric vector
of the same name; the R code fills the list ``out`` with numeric vectors (``NA`` reads as nan).

Use the ``proc`` fixture (import it into the test module): it gives :func:`run_r` when
``Rscript`` and pROC are present; otherwise the test is skipped, or FAILS when the environment
variable ``CI`` is set (CI must never silently lose the pROC comparisons).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

_EPILOGUE = r"""
.lines <- vapply(names(out), function(k) {
  v <- as.numeric(out[[k]])
  paste0(k, "\t", paste(ifelse(is.na(v), "NA", sprintf("%.17g", v)), collapse = ","))
}, character(1))
writeLines(.lines, file.path(.dir, "out.txt"))
"""


@functools.lru_cache(maxsize=1)
def proc_available() -> str | None:
    """None when Rscript and pROC work, else the reason why not."""
    if shutil.which("Rscript") is None:
        return "Rscript is not on PATH (apt-get install -y r-cran-proc)"
    try:
        res = subprocess.run(["Rscript", "-e", "suppressMessages(library(pROC))"],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:  # pragma: no cover - broken install
        return f"Rscript failed: {exc}"
    if res.returncode != 0:
        return f"pROC is not installed in R: {res.stderr.strip()[:200]}"
    return None


def run_r(code: str, timeout: float = 600, **data: Any) -> dict[str, np.ndarray]:
    """Run ``code`` in Rscript with pROC loaded and the arrays of ``data`` defined.

    Parameters
    ----------
    code : str
        R code; it must assign ``out <- list(name = numeric vector, ...)``.
    timeout : float
        Seconds before the R process is killed.
    **data : array-like
        Numeric arrays, passed to R as float64 vectors of the same names.

    Returns
    -------
    dict of str to ndarray
        The elements of ``out`` as float64 arrays.
    """
    with tempfile.TemporaryDirectory(prefix="proc_oracle_") as tmp:
        d = Path(tmp)
        lines = ["suppressMessages(library(pROC))", f'.dir <- "{d.as_posix()}"']
        for name, arr in data.items():
            a = np.ascontiguousarray(np.asarray(arr, dtype="<f8").ravel())
            a.tofile(d / f"{name}.bin")
            lines.append(f'{name} <- readBin(file.path(.dir, "{name}.bin"), "double", '
                         f'n = {a.size}, size = 8, endian = "little")')
        script = "\n".join(lines) + "\n" + code + "\n" + _EPILOGUE
        (d / "script.R").write_text(script)
        res = subprocess.run(["Rscript", str(d / "script.R")], capture_output=True, text=True,
                             timeout=timeout)
        if res.returncode != 0:
            raise RuntimeError(f"Rscript failed:\n{res.stderr[-3000:]}")
        out: dict[str, np.ndarray] = {}
        for line in (d / "out.txt").read_text().splitlines():
            key, _, values = line.partition("\t")
            out[key] = np.array([float("nan") if v == "NA" else float(v)
                                 for v in values.split(",") if v != ""])
        return out


@functools.cache
def r_package_missing(package: str) -> bool:
    """True when R cannot load ``package`` (Rscript itself being there)."""
    res = subprocess.run(["Rscript", "-e", f"stopifnot(requireNamespace('{package}', "
                          "quietly = TRUE))"], capture_output=True, text=True, timeout=120)
    return res.returncode != 0


def require_r_package(package: str, debian: str) -> None:
    """Skip the calling test (fail it under ``CI``) when R lacks ``package``.

    Parameters
    ----------
    package : str
        The R package, e.g. ``'MASS'``.
    debian : str
        Its Debian package, for the message.
    """
    if r_package_missing(package):
        why = f"R package {package} is missing (apt-get install -y {debian})"
        if os.environ.get("CI"):
            pytest.fail(f"the pROC oracle is required under CI: {why}")
        pytest.skip(why)


@pytest.fixture(scope="session")
def proc() -> Any:
    """:func:`run_r`, or skip (fail under ``CI``) when Rscript or pROC is missing."""
    why = proc_available()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the pROC oracle is required under CI: {why}")
        pytest.skip(why)
    return run_r
