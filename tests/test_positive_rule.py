"""One positive-class rule for one score column, on every entry point that reads one
(docs/scaling.md, "The positive class of one score column"): labels found in the data follow
scikit-learn's ``roc_curve`` ({0, 1}, {-1, 1}, {False, True} score 1 / True, any other two
labels need ``pos_label``); labels the caller gives keep their order (the column scores the
second unless ``pos_label`` says otherwise).

Before: ``io.evaluate_file(..., score_cols="p")``, ``io.evaluate_sql``, grouped evaluation
through ``io``, ``Accumulator.update(scores=)`` and ``confmat.dask.score_histogram`` scored the
second label in sorted order without a word (with ``['cancer', 'healthy']``: the wrong class),
while ``ScoreHistogram(bins=...)``, ``build_report`` and the command line refused.

Oracles, none of them confmat: scikit-learn's ``roc_curve`` says which label pairs need
``pos_label`` (it refuses exactly those); ``roc_auc_score(y == pos, q)`` on the scores rounded
down to their bin's lower edge ``j / B`` (the histogram's documented tie rule) gives the AUC;
numpy's ``bincount`` of those bins gives the histogram's counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve

import confmat
from confmat import io as cio
from confmat.binned import ScoreHistogram
from confmat.cli.app import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
duckdb = pytest.importorskip("duckdb")
da = pytest.importorskip("dask.array")

B = 20
TEXT = ["cancer", "healthy"]


def _data(pair: list[Any], seed: int = 0, n: int = 90) -> tuple[np.ndarray, ...]:
    """Labels of ``pair`` (both in every third of the rows, so that every chunk of a stream
    shows both), predictions, scores with three decimals, and two groups."""
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2, n)
    t[[0, 1, n // 3, n // 3 + 1, 2 * n // 3, 2 * n // 3 + 1]] = [0, 1, 0, 1, 0, 1]
    values = np.array(pair, dtype=object)
    y = values[t]
    yhat = values[np.where(rng.random(n) < 0.7, t, 1 - t)]
    p = np.round(np.clip(rng.normal(0.4 + 0.2 * t, 0.2), 0.0, 1.0), 3)
    g = rng.choice(["f", "m"], n)
    return y, yhat, p, g


def _column(v: np.ndarray) -> Any:
    """An Arrow column of the labels' own type (text, integers or booleans)."""
    first = v[0]
    kind = (pa.bool_() if isinstance(first, bool | np.bool_) else
            pa.int64() if isinstance(first, int | np.integer) else pa.string())
    return pa.array(v.tolist(), type=kind)


def _table(y: np.ndarray, yhat: np.ndarray, p: np.ndarray, g: np.ndarray) -> Any:
    return pa.table({"y": _column(y), "yhat": _column(yhat), "p": pa.array(p, pa.float64()),
                     "g": pa.array(g.tolist())})


def _file(tmp: Path, suffix: str, data: tuple[np.ndarray, ...]) -> Path:
    path = tmp / f"p{suffix}"
    table = _table(*data)
    if suffix == ".parquet":
        pq.write_table(table, path, row_group_size=31)
    elif suffix == ".arrow":
        feather.write_feather(table, str(path))
    else:
        table.to_pandas().to_csv(path, index=False)
    return path


def _io(suffix: str, engine: str, **extra: Any) -> Callable[..., Any]:
    def run(tmp: Path, data: tuple[np.ndarray, ...], **kw: Any) -> Any:
        _, rep = cio.evaluate_file(_file(tmp, suffix, data), "y", "yhat", score_cols="p",
                                   bins=B, **extra, **kw)
        assert rep.engine == engine
        return rep.curves
    return run


def _sql(tmp: Path, data: tuple[np.ndarray, ...], **kw: Any) -> Any:
    path = _file(tmp, ".parquet", data)
    rel = duckdb.connect().sql(f"select * from read_parquet('{path}')")
    _, rep = cio.evaluate_sql(rel, true_col="y", pred_col="yhat", score_cols="p", bins=B, **kw)
    return rep.curves


def _accumulator(tmp: Path, data: tuple[np.ndarray, ...], *, labels: Any = None,
                 **kw: Any) -> Any:
    y, yhat, p, _ = data
    acc = confmat.Accumulator(labels, bins=B, **kw)
    for part in np.array_split(np.arange(len(y)), 3):
        acc.update(y[part].tolist(), yhat[part].tolist(), scores=p[part])
    return acc.curves()


def _accumulator_dask(tmp: Path, data: tuple[np.ndarray, ...], *, labels: Any = None,
                      **kw: Any) -> Any:
    y, yhat, p, _ = data
    acc = confmat.Accumulator(labels, bins=B, **kw)
    acc.update(da.from_array(np.array(y.tolist()), chunks=31),
               da.from_array(np.array(yhat.tolist()), chunks=31),
               scores=da.from_array(p, chunks=31))
    return acc.curves()


def _dask(tmp: Path, data: tuple[np.ndarray, ...], **kw: Any) -> Any:
    y, _, p, _ = data
    return confmat.dask.score_histogram(da.from_array(np.array(y.tolist()), chunks=31),
                                        da.from_array(p, chunks=31), bins=B, **kw)


ENTRIES: dict[str, Callable[..., Any]] = {
    "csv (GROUP BY)": _io(".csv", "duckdb GROUP BY"),
    "parquet (GROUP BY)": _io(".parquet", "duckdb GROUP BY"),
    "arrow (streamed)": _io(".arrow", "pyarrow dataset"),
    "csv by group": _io(".csv", "duckdb GROUP BY", group_cols="g"),
    "evaluate_sql": _sql,
    "Accumulator": _accumulator,
    "Accumulator on Dask": _accumulator_dask,
    "dask.score_histogram": _dask,
}
FILES = {"csv (GROUP BY)", "parquet (GROUP BY)", "arrow (streamed)", "csv by group"}


def _bins(p: np.ndarray) -> np.ndarray:
    """The bin of each score by the documented edges j / B (the last bin closed)."""
    edges = np.arange(B + 1) / B
    return np.clip(np.searchsorted(edges, p, side="right") - 1, 0, B - 1)


def _check_scores_of(hist: Any, y: np.ndarray, p: np.ndarray, pos: Any) -> None:
    """``hist`` holds the scores of ``pos`` against the other class, by the oracles."""
    assert hist.is_binary and hist.labels[1] == pos
    assert type(hist.labels[1]) is type(pos)
    is_pos = np.array([v == pos and type(v) is type(pos) for v in y.tolist()])
    b = _bins(p)
    np.testing.assert_array_equal(hist.counts[1, 0], np.bincount(b[is_pos], minlength=B))
    np.testing.assert_array_equal(hist.counts[0, 0], np.bincount(b[~is_pos], minlength=B))
    q = _bins(p) / B
    assert hist.roc_auc() == pytest.approx(roc_auc_score(is_pos, q), abs=1e-12)


@pytest.mark.parametrize("entry", ENTRIES)
def test_text_labels_found_need_pos_label_everywhere(entry, tmp_path):
    """The same refusal as ``ScoreHistogram(bins=...)`` and ``build_report``: it names
    ``pos_label`` and the two labels (and the column of a file)."""
    with pytest.raises(ValueError) as info:
        ENTRIES[entry](tmp_path, _data(TEXT))
    msg = str(info.value)
    assert "takes values ['cancer', 'healthy'] and pos_label is not specified" in msg, msg
    assert "pass pos_label explicitly" in msg, msg
    if entry in FILES:
        assert f"column 'y' of file '{tmp_path}" in msg, msg
    # scikit-learn refuses the same labels
    y, _, p, _ = _data(TEXT)
    with pytest.raises(ValueError, match="pos_label"):
        roc_curve(y.tolist(), p)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("pos", TEXT)
def test_pos_label_names_the_class(entry, pos, tmp_path):
    data = _data(TEXT)
    y, _, p, _ = data
    hist = ENTRIES[entry](tmp_path, data, pos_label=pos)
    _check_scores_of(hist, y, p, pos)
    assert hist == ScoreHistogram(TEXT, bins=B, pos_label=pos).update(y.tolist(), p)


LABELS_GIVEN: dict[str, Callable[..., Any]] = {
    name: ENTRIES[name] for name in
    ("csv (GROUP BY)", "arrow (streamed)", "evaluate_sql", "Accumulator",
     "Accumulator on Dask", "dask.score_histogram")
}


@pytest.mark.parametrize("entry", LABELS_GIVEN)
@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_labels_given_keep_their_order(entry, order, tmp_path):
    """The caller chose the order: the column scores the second label."""
    data = _data(TEXT)
    y, _, p, _ = data
    hist = LABELS_GIVEN[entry](tmp_path, data, labels=order)
    _check_scores_of(hist, y, p, order[1])
    # and pos_label still names either class
    hist = LABELS_GIVEN[entry](tmp_path, data, labels=order, pos_label=order[0])
    _check_scores_of(hist, y, p, order[0])


def test_accumulator_score_labels_keep_their_order():
    y, yhat, p, _ = _data(TEXT)
    acc = confmat.Accumulator(bins=B, score_labels=TEXT[::-1])
    acc.update(y.tolist(), yhat.tolist(), scores=p)
    _check_scores_of(acc.curves(), y, p, TEXT[0])


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("pair", [[0, 1], [-1, 1], [False, True]], ids=["0-1", "-1-1", "bool"])
def test_implied_positive_class_is_accepted(entry, pair, tmp_path):
    data = _data(pair)
    y, _, p, _ = data
    _check_scores_of(ENTRIES[entry](tmp_path, data), y, p, pair[1])


PAIRS = st.one_of(
    st.lists(st.sampled_from([-1, 0, 1, 2, 5]), min_size=2, max_size=2, unique=True),
    st.lists(st.sampled_from(["cancer", "healthy", "neg", "pos", "a", "b"]), min_size=2,
             max_size=2, unique=True),
    st.just([False, True]),
)
HYPOTHESIS_ENTRIES = ["parquet (GROUP BY)", "arrow (streamed)", "Accumulator",
                      "dask.score_histogram"]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pair=PAIRS, pick=st.sampled_from([None, 0, 1]), seed=st.integers(0, 2**16),
       entry=st.sampled_from(HYPOTHESIS_ENTRIES))
def test_rule_is_scikit_learn_s(tmp_path_factory, pair, pick, seed, entry):
    """Random label pairs and a random ``pos_label``: confmat refuses exactly where
    scikit-learn's ``roc_curve`` does, and otherwise scores its positive class."""
    pair = sorted(pair)
    data = _data(pair, seed)
    y, _, p, _ = data
    pos = None if pick is None else pair[pick]
    kw = {} if pos is None else {"pos_label": pos}
    try:
        roc_curve(y.tolist(), p, pos_label=pos)
        expected = pos if pos is not None else (True if pair == [False, True] else 1)
    except ValueError:
        expected = None
    tmp = tmp_path_factory.mktemp("rule")
    if expected is None:
        with pytest.raises(ValueError, match=r"pos_label is not specified") as info:
            ENTRIES[entry](tmp, data, **kw)
        assert f"takes values {pair}" in str(info.value)
        return
    _check_scores_of(ENTRIES[entry](tmp, data, **kw), y, p, expected)


# --- the command line: the same rule, in its words ------------------------------------------

def _cli(path: Path, *args: str) -> int:
    code = main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--no-intervals", "-f", "json", *args])
    return code


@pytest.mark.parametrize("bins", [[], ["--bins", str(B)]], ids=["whole", "bins"])
@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_cli_labels_given_score_the_second(order, bins, tmp_path, capsys):
    data = _data(TEXT)
    y, _, p, _ = data
    path = _file(tmp_path, ".csv", data)
    assert _cli(path, "--labels", ",".join(order), *bins) == 0
    curve = json.loads(capsys.readouterr().out)["curves"][0]
    assert curve["pos_label"] == order[1]
    q = _bins(p) / B if bins else p
    assert curve["auc"] == pytest.approx(roc_auc_score(y == order[1], q), abs=1e-12)


def test_cli_by_group_binned_needs_pos_label(tmp_path, capsys):
    """``report --by --score --bins`` scored the second label; it refuses as read whole."""
    path = _file(tmp_path, ".csv", _data(TEXT))
    code = main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--by", "g", "--group-metrics", "roc_auc", "--bins", "10"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert (f"the --true column 'y' of file '{path}' takes values ['cancer', 'healthy'] and "
            "--pos-label is not specified") in err, err


# --- the Accumulator's pos_label: state and merges ------------------------------------------

def test_accumulator_pos_label_survives_json_before_any_score():
    """A state written before its first scores keeps the class they will be read as."""
    y, yhat, p, _ = _data(TEXT)
    acc = confmat.Accumulator(bins=B, pos_label="cancer")
    d = acc.to_dict()
    assert d["version"] == 2 and d["pos_label"] == "cancer"
    back = confmat.Accumulator.from_json(json.dumps(d))
    back.update(y.tolist(), yhat.tolist(), scores=p)
    _check_scores_of(back.curves(), y, p, "cancer")
    again = confmat.Accumulator.from_dict(back.to_dict())
    assert again.curves() == back.curves() and again.pos_label == "cancer"
    # without pos_label the state is written as before (version 1, no such field)
    plain = confmat.Accumulator(bins=B).to_dict()
    assert plain["version"] == 1 and "pos_label" not in plain
    with pytest.raises(ValueError, match="missing the 'pos_label' field"):
        confmat.Accumulator.from_dict({k: v for k, v in d.items() if k != "pos_label"})
    with pytest.raises(ValueError, match="field 'pos_label'"):
        confmat.Accumulator.from_dict({**plain, "pos_label": "cancer"})
    # a pos_label that is not the class of the state's histogram is refused
    scored = back.to_dict()
    with pytest.raises(ValueError, match="field 'pos_label' is 'healthy'"):
        confmat.Accumulator.from_dict({**scored, "pos_label": "healthy"})


def test_accumulator_merges_refuse_another_positive_class():
    y, yhat, p, _ = _data(TEXT)
    by_order = confmat.Accumulator(TEXT, bins=B)  # scores 'healthy'
    by_order.update(y.tolist(), yhat.tolist(), scores=p)
    cancer = confmat.Accumulator(bins=B, pos_label="cancer")
    healthy = confmat.Accumulator(bins=B, pos_label="healthy")
    for a, b in [(cancer, healthy), (healthy, cancer), (cancer, by_order), (by_order, cancer)]:
        with pytest.raises(ValueError, match="pos_label='cancer'"):
            a.copy().merge(b)
    merged = healthy.copy().merge(by_order)
    assert merged.pos_label == "healthy" and merged.curves() == by_order.curves()
    assert (by_order + healthy).pos_label == "healthy"


def test_accumulator_pos_label_is_the_class_of_one_column():
    y, yhat, p, _ = _data(TEXT)
    acc = confmat.Accumulator(bins=B, pos_label="cancer")
    with pytest.raises(ValueError, match=r"chunk 1: pos_label='cancer' names the class of one "
                                         r"score column"):
        acc.update(y.tolist(), yhat.tolist(), scores=np.column_stack([1 - p, p]))
    with pytest.raises(ValueError, match=r"pos_label='cancer' declares a binary positive class"):
        confmat.Accumulator(bins=B, pos_label="cancer").update(
            ["cancer", "healthy", "other"], ["cancer", "healthy", "other"],
            scores=[0.2, 0.5, 0.7])
    with pytest.raises(ValueError, match=r"pos_label='x' is not one of the labels in labels"):
        confmat.Accumulator(TEXT, pos_label="x")


# --- the in-memory entry points with labels= and one score vector per model ----------------
# by_group, build_comparison and compare read one score vector by the same rule: labels found
# follow scikit-learn (text labels need pos_label), labels given score the second of two.
# Before, all three refused text labels given in labels= without pos_label, while
# io.evaluate_file(labels=..., score_cols="p", group_cols="g") scored labels[1] on the same data.
# Oracles: scikit-learn's roc_auc_score on the class named by the rule, per group through
# fairlearn's MetricFrame.

def _by_group_auc(y: np.ndarray, yhat: np.ndarray, p: np.ndarray, g: np.ndarray,
                  **kw: Any) -> np.ndarray:
    from confmat.groups import by_group

    return by_group(y, yhat, {"g": g}, scores=p, **kw).metric("roc_auc")


def _comparison_auc(y: np.ndarray, yhat: np.ndarray, p: np.ndarray, g: np.ndarray,
                    **kw: Any) -> np.ndarray:
    from confmat.report import build_comparison

    cmp = build_comparison(y, {"m": yhat, "n": yhat}, scores={"m": p, "n": p},
                           intervals=False, n_resamples=100, **kw)
    return np.array([row["roc_auc"] for row in cmp.table])


def _compare_auc(y: np.ndarray, yhat: np.ndarray, p: np.ndarray, g: np.ndarray,
                 **kw: Any) -> np.ndarray:
    from confmat.inference import compare

    r = compare({"m": {"pred": yhat, "score": p}, "n": p}, y, ["accuracy", "roc_auc"],
                n_resamples=100, **kw)
    return np.array([r.auc["m"], r.auc["n"]])


IN_MEMORY = [pytest.param(_by_group_auc, id="by_group"),
             pytest.param(_comparison_auc, id="build_comparison"),
             pytest.param(_compare_auc, id="compare")]


def _expected_auc(entry: Callable[..., Any], y: np.ndarray, p: np.ndarray, g: np.ndarray,
                  pos: Any) -> np.ndarray:
    """scikit-learn's AUC of ``pos``: per group (fairlearn's MetricFrame) for by_group, else
    one value per compared model (both models have the same scores)."""
    if entry is _by_group_auc:
        from fairlearn.metrics import MetricFrame

        frame = MetricFrame(metrics=roc_auc_score, y_true=y == pos, y_pred=p,
                            sensitive_features=g)
        return np.asarray(frame.by_group.sort_index(), dtype=float)
    return np.full(2, roc_auc_score(y == pos, p))


@pytest.mark.parametrize("entry", IN_MEMORY)
def test_in_memory_text_labels_found_need_pos_label(entry):
    y, yhat, p, g = _data(TEXT)
    with pytest.raises(ValueError, match=r"takes values \['cancer', 'healthy'\] and pos_label "
                                         "is not specified"):
        entry(y, yhat, p, g)


@pytest.mark.parametrize("entry", IN_MEMORY)
@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_in_memory_labels_given_score_the_second(entry, order):
    y, yhat, p, g = _data(TEXT)
    got = entry(y, yhat, p, g, labels=order)
    np.testing.assert_allclose(got, _expected_auc(entry, y, p, g, order[1]), atol=1e-12)


@pytest.mark.parametrize("entry", IN_MEMORY)
@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_in_memory_pos_label_overrides_labels_given(entry, order):
    y, yhat, p, g = _data(TEXT)
    got = entry(y, yhat, p, g, labels=order, pos_label=order[0])
    np.testing.assert_allclose(got, _expected_auc(entry, y, p, g, order[0]), atol=1e-12)


@pytest.mark.parametrize("entry", IN_MEMORY)
def test_in_memory_zero_one_found_and_given_reversed(entry):
    """{0, 1} found scores 1 (scikit-learn's rule); given as [1, 0] (the positive class
    first, as a 2x2 table is often written) it still scores 1: labels that imply their
    positive class keep it in any order; only pos_label names another."""
    y, yhat, p, g = _data([0, 1])
    y, yhat = y.astype(int), yhat.astype(int)
    np.testing.assert_allclose(entry(y, yhat, p, g), _expected_auc(entry, y, p, g, 1),
                               atol=1e-12)
    np.testing.assert_allclose(entry(y, yhat, p, g, labels=[1, 0]),
                               _expected_auc(entry, y, p, g, 1), atol=1e-12)
    np.testing.assert_allclose(entry(y, yhat, p, g, labels=[1, 0], pos_label=0),
                               _expected_auc(entry, y, p, g, 0), atol=1e-12)


@pytest.mark.parametrize("book", [[1, 0], [0, 1]])
def test_labels_given_reversed_keep_the_implied_class_on_the_histogram_paths(tmp_path, book):
    """evaluate_file and Accumulator with labels=[1, 0] score 1, as scikit-learn's roc_curve
    (which never reads a positive class from an order) does on the same scores."""
    y, yhat, p, _ = _data([0, 1])
    y, yhat = y.astype(int), yhat.astype(int)
    want = roc_auc_score(y == 1, _bins(p) / B)
    _, rep = cio.evaluate_file(_file(tmp_path, ".csv", (y, yhat, p, _)), "y", "yhat",
                               score_cols="p", labels=book, bins=B)
    assert rep.curves.roc_auc() == pytest.approx(want, abs=1e-12)
    acc = confmat.Accumulator(labels=book, bins=B)
    acc.update(y, yhat, scores=p)
    assert acc.curves().roc_auc() == pytest.approx(want, abs=1e-12)


def test_by_group_agrees_with_evaluate_file_on_labels_given(tmp_path):
    """The brief's case: the same data by the file path and in memory score the same class
    (the file path bins the scores: within the histogram's documented bound of the exact AUC,
    checked against the exact AUC of scikit-learn on the binned scores)."""
    data = _data(TEXT)
    y, yhat, p, g = data
    ev, _ = cio.evaluate_file(_file(tmp_path, ".csv", data), "y", "yhat", score_cols="p",
                              group_cols="g", labels=TEXT[::-1], bins=B)
    mem = _by_group_auc(y, yhat, p, g, labels=TEXT[::-1])
    want = _expected_auc(_by_group_auc, y, _bins(p) / B, g, TEXT[0])
    np.testing.assert_allclose(ev.metric("roc_auc"), want, atol=1e-12)
    np.testing.assert_allclose(mem, _expected_auc(_by_group_auc, y, p, g, TEXT[0]), atol=1e-12)


def test_by_group_labels_given_do_not_name_the_binary_measures_class():
    """Decision (docs/groups.md): labels given name the class of the scores only; the binary
    measures keep pos_label (scikit-learn's and fairlearn's ``labels`` never imply it)."""
    from confmat.groups import by_group

    y, yhat, p, g = _data(TEXT)
    ev = by_group(y, yhat, {"g": g}, scores=p, labels=TEXT)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        _ = ev.pos_label
    assert by_group(y, yhat, {"g": g}, scores=p, labels=TEXT, pos_label="cancer"
                    ).pos_label == "cancer"


# --- the command line: report --by and compare with --labels --------------------------------

@pytest.mark.parametrize("bins", [[], ["--bins", "10"]], ids=["whole", "bins"])
@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_cli_by_group_labels_given_score_the_second(order, bins, tmp_path, capsys):
    from fairlearn.metrics import MetricFrame

    data = _data(TEXT)
    y, _, p, g = data
    path = _file(tmp_path, ".csv", data)
    code = main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--by", "g", "--group-metrics", "roc_auc", "--no-intervals", "-f", "json",
                 "--labels", ",".join(order), *bins])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)["rows"]
    got = {r["group"]: r["roc_auc"] for r in rows}
    q = np.floor(p * 10) / 10 if bins else p
    want = MetricFrame(metrics=roc_auc_score, y_true=y == order[1], y_pred=q,
                       sensitive_features=g).by_group
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-12), (key, got)


def _two_files(tmp: Path, data: tuple[np.ndarray, ...]) -> tuple[Path, Path]:
    a = _file(tmp / "a", ".csv", data) if (tmp / "a").mkdir() is None else None
    b = _file(tmp / "b", ".csv", data) if (tmp / "b").mkdir() is None else None
    assert a is not None and b is not None
    return a, b


@pytest.mark.parametrize("order", [TEXT, TEXT[::-1]], ids=["sorted", "reversed"])
def test_cli_compare_labels_given_score_the_second(order, tmp_path, capsys):
    data = _data(TEXT)
    y, _, p, _ = data
    a, b = _two_files(tmp_path, data)
    code = main(["compare", str(a), str(b), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--labels", ",".join(order), "--no-intervals", "-f", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    table = json.loads(out)["table"]
    assert [r["roc_auc"] for r in table] == pytest.approx([roc_auc_score(y == order[1], p)] * 2,
                                                          abs=1e-12)


@pytest.mark.parametrize("cmd", ["by", "compare"])
def test_cli_without_labels_refuses_as_report_does(cmd, tmp_path, capsys):
    data = _data(TEXT)
    a, b = _two_files(tmp_path, data)
    assert _cli(a) == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    args = (["report", str(a), "--by", "g"] if cmd == "by" else ["compare", str(a), str(b)])
    code = main([*args, "--true", "y", "--pred", "yhat", "--score", "p", "--no-intervals"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert said in err, (said, err)
