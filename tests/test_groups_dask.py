"""``confmat.dask.by_group`` on Dask arrays and DataFrames equals ``confmat.by_group`` on the
computed data (itself checked against fairlearn in test_groups.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

from confmat.dask import by_group as dask_by_group  # noqa: E402
from confmat.groups import by_group  # noqa: E402


def _data(n=500, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    return y, p, rng.choice(["north", "south", "east"], n), rng.integers(0, 2, n), rng.random(n)


def _same(a, b):
    assert a.groups == b.groups and a.labels == b.labels and a.names == b.names
    assert a.sizes.tolist() == b.sizes.tolist()
    np.testing.assert_allclose(a.stack, b.stack, rtol=1e-12, atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in ("accuracy", "balanced_accuracy"):
            np.testing.assert_allclose(a.metric(m), b.metric(m), rtol=1e-12)


def test_arrays_one_and_two_features():
    y, p, site, sex, w = _data()
    ref = by_group(y, p, site, sample_weight=w)
    got = dask_by_group(da.from_array(y, chunks=70), da.from_array(p, chunks=70),
                        da.from_array(site, chunks=70), sample_weight=da.from_array(w, chunks=70),
                        split_every=2)
    _same(got, ref)
    two = np.column_stack([sex, sex * 10])
    _same(dask_by_group(da.from_array(y, chunks=90), da.from_array(p, chunks=90),
                        da.from_array(two, chunks=(90, 1))), by_group(y, p, two))


def test_dataframe_columns():
    y, p, site, sex, _ = _data()
    df = pd.DataFrame({"y": y, "p": p, "site": site, "sex": sex})
    ddf = dd.from_pandas(df, npartitions=4)
    _same(dask_by_group(ddf["y"], ddf["p"], ddf[["site", "sex"]], pos_label=1),
          by_group(y, p, df[["site", "sex"]], pos_label=1))


def test_errors():
    y = da.from_array(np.array([0, 1, 1]), chunks=2)
    with pytest.raises(TypeError, match="groups must be a Dask collection"):
        dask_by_group(y, y, ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"partition 1: .*groups"):
        dask_by_group(y, y, da.from_array(np.array(["a", "b", None], dtype=object), chunks=2))
