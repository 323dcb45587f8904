"""confmat.deps: optional libraries are recognised without importing them, and numba is
loaded by one function that honours CONFMAT_DISABLE_NUMBA."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from confmat import deps


def run(code: str, **env: str) -> None:
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_counting_a_list_imports_no_optional_library() -> None:
    run(
        "import sys, confmat\n"
        "cm = confmat.ConfusionMatrix.from_predictions(['a', 'b', 'a'], ['a', 'a', 'a'])\n"
        "acc = confmat.Accumulator(); acc.update([1, 2], [1, 1])\n"
        "str(cm)\n"
        "heavy = [m for m in ('dask', 'polars', 'numba') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )


def test_is_dask_collection() -> None:
    da = pytest.importorskip("dask.array")
    assert deps.is_dask_collection(da.zeros(3, chunks=1))
    assert not deps.is_dask_collection(np.zeros(3))
    assert not deps.is_dask_collection([0, 1])


def test_module_of_names_the_library() -> None:
    pd = pytest.importorskip("pandas")
    assert deps.module_of(pd.Series([1])) == "pandas"
    assert deps.module_of(np.zeros(1)) == "numpy"


def test_require_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deps, "optional", lambda name: None)
    with pytest.raises(ImportError, match=r"counting Dask collections needs dask.*pip install"):
        deps.require("dask", "counting Dask collections")


def test_unknown_library_is_refused() -> None:
    with pytest.raises(ValueError, match="optional libraries"):
        deps.loaded("tensorflow")


def test_disabling_numba_turns_off_every_kernel_loaded_through_deps() -> None:
    run(
        "import sys\n"
        "from confmat import deps\n"
        "from confmat.counting.kernels import load_kernels\n"
        "from confmat.metrics.agreement import _aickin_kernel\n"
        "assert deps.numba_disabled() and deps.numba_module() is None\n"
        "assert load_kernels() is None and _aickin_kernel() is None\n"
        "from confmat.curves.rank import rank_kernel\n"
        "assert rank_kernel() is None\n"
        "import numpy as np\n"
        "from sklearn.metrics import roc_auc_score\n"
        "from confmat import ScoreHistogram\n"
        "y = np.arange(1 << 17) % 2\n"
        "s = (np.arange(1 << 17) % 1000) / 1000\n"
        "h = ScoreHistogram(bins=1000).update(y, s)\n"  # long enough for the binning kernel
        "assert abs(h.roc_auc() - roc_auc_score(y, s)) < 1e-12\n"  # scores on the bin grid
        "assert 'numba' not in sys.modules\n",
        CONFMAT_DISABLE_NUMBA="1",
    )


def test_njit_applies_the_cache_policy() -> None:
    numba = pytest.importorskip("numba")
    if deps.numba_disabled():
        pytest.skip("numba disabled")
    seen = {}
    real_njit = numba.njit

    def fake_njit(**options):
        seen.update(options)
        return real_njit(**{**options, "cache": False})

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(numba, "njit", fake_njit)
        add = deps.njit(nogil=True)(lambda a, b: a + b)
    assert add(2, 3) == 5
    assert seen == {"nogil": True, "cache": deps.NUMBA_CACHE}
