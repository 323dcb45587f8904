"""Dask inputs counted on a real LocalCluster (two worker processes started by the test).

Oracles: the one-shot in-memory computation on the same (numpy) data and scikit-learn.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import Accumulator, ConfusionMatrix
from confmat.binned import ScoreHistogram

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning"),
    # one pytest-xdist worker runs them all, so the module-scoped cluster is started once
    pytest.mark.xdist_group("dask_cluster"),
]


@pytest.fixture(scope="module")
def client():
    """One cluster for the whole module: two worker processes, one thread each."""
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
        memory_limit="1GiB",
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def _random_chunks(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(n - 1, rng.integers(0, 6)), replace=False))
    return tuple(int(x) for x in np.diff(np.concatenate([[0], cuts, [n]])))


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 400), k=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
       strings=st.booleans())
def test_dask_array_random_chunks_equals_one_shot(client, n, k, seed, strings):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    p = rng.integers(0, k, n)
    if strings:
        names = np.array(["ant", "bee", "cat", "dog", "eel", "fox"])
        t, p = names[t], names[p]
    dt = da.from_array(t, chunks=(_random_chunks(rng, n),))
    dp = da.from_array(p, chunks=(_random_chunks(rng, n),))  # different chunking on purpose
    got = ConfusionMatrix.from_predictions(dt, dp)
    want = ConfusionMatrix.from_predictions(t, p)
    assert got.labels == want.labels
    np.testing.assert_array_equal(got.counts, want.counts)
    np.testing.assert_array_equal(got.counts, sk_confusion_matrix(t, p, labels=want.labels))
    for name in ("accuracy", "mcc", "kappa"):
        assert abs(got.metric(name, zero_division=0.0) - want.metric(name, zero_division=0.0)) <= 1e-12


def test_dataframe_columns_with_string_labels_weights_and_subset(client):
    rng = np.random.default_rng(7)
    n = 5000
    names = np.array(["bus", "car", "opel", "saab", "van"])
    df = pd.DataFrame({
        "t": names[rng.integers(0, 5, n)],
        "p": names[rng.integers(0, 5, n)],
        "w": rng.random(n),
    })
    ddf = dd.from_pandas(df, npartitions=9)
    got = ConfusionMatrix.from_predictions(ddf.t, ddf.p)
    assert got == ConfusionMatrix.from_predictions(df.t, df.p)
    gotw = ConfusionMatrix.from_predictions(ddf.t, ddf.p, sample_weight=ddf.w)
    np.testing.assert_allclose(
        gotw.counts, sk_confusion_matrix(df.t, df.p, labels=gotw.labels, sample_weight=df.w),
        rtol=1e-12,
    )
    sub = ["van", "bus", "zebra"]
    got_sub = ConfusionMatrix.from_predictions(ddf.t, ddf.p, labels=sub)
    want_sub = ConfusionMatrix.from_predictions(df.t, df.p, labels=sub)
    assert got_sub == want_sub and got_sub.n_outside == want_sub.n_outside


def test_accumulator_and_curves_accept_dask(client):
    rng = np.random.default_rng(3)
    n = 6000
    t = rng.integers(0, 2, n)
    s = np.clip(0.4 * t + 0.6 * rng.random(n), 0, 1)
    p = (s >= 0.5).astype(np.int64)
    dt, dp, ds = (da.from_array(x, chunks=1100) for x in (t, p, s))
    acc = Accumulator(labels=[0, 1])
    acc.update(dt, dp, scores=ds)
    acc.update(t[:10], p[:10], scores=s[:10])  # numpy chunks mix with Dask ones
    want = ConfusionMatrix.from_predictions(np.r_[t, t[:10]], np.r_[p, p[:10]])
    assert acc.result() == want
    ref = ScoreHistogram([0, 1]).update(np.r_[t, t[:10]], np.r_[s, s[:10]])
    assert acc.curves() == ref
    from confmat.dask import score_histogram

    h = score_histogram(dt, ds)
    assert h == ScoreHistogram([0, 1]).update(t, s)
    assert h.roc_auc() == ScoreHistogram([0, 1]).update(t, s).roc_auc()
    # multiclass scores as DataFrame columns, class set found by the extra label pass
    y3 = rng.integers(0, 3, n)
    probs = rng.dirichlet(np.ones(3), n)
    df = pd.DataFrame({"y": y3, "yhat": probs.argmax(axis=1), "p0": probs[:, 0],
                       "p1": probs[:, 1], "p2": probs[:, 2]})
    ddf = dd.from_pandas(df, npartitions=4)
    acc3 = Accumulator()
    acc3.update(ddf.y, ddf.yhat, scores=ddf[["p0", "p1", "p2"]])
    assert acc3.curves() == ScoreHistogram([0, 1, 2]).update(y3, probs)
    assert acc3.result() == ConfusionMatrix.from_predictions(y3, df.yhat)


def test_fixed_labels_error_names_label_and_chunk(client):
    acc = Accumulator(labels=[0, 1])
    acc.update([0, 1], [1, 1])
    with pytest.raises(ValueError, match=r"chunk 2 has label 7"):
        acc.update(da.from_array(np.array([0, 7, 1]), chunks=2), da.from_array(np.array([0, 1, 1]), chunks=2))


def test_bad_dask_inputs(client):
    with pytest.raises(ValueError, match="different lengths"):
        ConfusionMatrix.from_predictions(da.zeros(10, chunks=3), da.zeros(11, chunks=3))
    with pytest.raises(TypeError, match="Dask collection"):
        ConfusionMatrix.from_predictions(da.zeros(4, chunks=2), da.zeros(4, chunks=2),
                                         sample_weight=np.ones(4))
    bad = da.from_array(np.array([0.0, 1.0, np.nan, 1.0]), chunks=2)
    with pytest.raises(ValueError, match=r"^partition 1: y_true contains NaN"):
        ConfusionMatrix.from_predictions(bad, da.zeros(4, chunks=2))
    with pytest.raises(ValueError, match="1-D"):
        ConfusionMatrix.from_predictions(da.zeros((4, 2), chunks=2), da.zeros((4, 2), chunks=2))


def test_partial_result_is_refused(client, monkeypatch):
    """The length guard: a reduction that lost a partition raises instead of returning."""
    import dask

    import confmat.dask as cdask

    def lossy_merge(span, *parts):
        out = parts[0]
        for part in parts[1:-1]:  # drops the last partial state of every group
            out.merge(part)
        return out

    monkeypatch.setattr(cdask, "_merge", lossy_merge)
    x = da.from_array(np.arange(100) % 3, chunks=10)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(RuntimeError, match="refusing to return a partial"):
            ConfusionMatrix.from_predictions(x, x)


def _slow_count(block: np.ndarray) -> np.ndarray:
    time.sleep(0.3)
    return block


def test_killed_worker_gives_full_result_or_error(client):
    """Kill a worker process mid-computation: the result is either complete or an exception."""
    n = 24_000
    rng = np.random.default_rng(11)
    t = rng.integers(0, 3, n)
    p = rng.integers(0, 3, n)
    dt = da.from_array(t, chunks=2000).map_blocks(_slow_count, dtype=t.dtype)
    dp = da.from_array(p, chunks=2000)
    pids = list(client.run(os.getpid).values())
    done = threading.Event()
    killed_while_running = []

    def kill_one() -> None:
        time.sleep(1.0)
        killed_while_running.append(not done.is_set())
        os.kill(pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        got = ConfusionMatrix.from_predictions(dt, dp)
    except Exception as exc:  # the scheduler gave up: a clear error, never a partial matrix
        assert "KilledWorker" in type(exc).__name__ or "worker" in str(exc).lower()
    else:  # the scheduler recomputed the lost tasks on the surviving / restarted worker
        assert got.n == n
        assert got == ConfusionMatrix.from_predictions(t, p)
    finally:
        done.set()
        killer.join()
    assert killed_while_running == [True]
    assert pids[0] not in client.run(os.getpid).values()  # it really died (the nanny restarts it)
