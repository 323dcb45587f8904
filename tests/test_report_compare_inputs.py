"""A comparison's bad inputs name the model they are about; identical models compare cleanly.

Oracles: the inputs are built by hand so that exactly one model is at fault; McNemar's test
with no discordant pair worked by hand (b = c = 0: statistic 0, exact p-value 1; McNemar
1947); scikit-learn's ``accuracy_score``.
"""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from confmat.report import (
    build_comparison,
    render_csv,
    render_html,
    render_json,
    render_markdown,
    render_text,
)

Y = [0, 1, 1, 0, 1, 0, 1, 1]


@pytest.mark.parametrize(("truth", "other"), [
    (Y, [str(v) for v in Y]),            # strings that look like the numbers
    ([str(v) for v in Y], Y),
    ([bool(v) for v in Y], Y),            # True == 1 in Python, not a label of the same kind
])
def test_labels_of_another_kind_name_the_model(truth, other) -> None:
    with pytest.raises(TypeError, match=r"model 'b'.*mixes label types"):
        build_comparison(truth, {"a": truth, "b": other}, intervals=False)


def test_predictions_outside_labels_name_both_models_and_labels() -> None:
    b = [2, 1, 1, 0, 1, 0, 1, 1]  # class 2 is not in labels: its sample would leave b's table
    with pytest.raises(ValueError, match=r"models 'a' and 'b' leave different samples out of "
                                         r"labels=\[0, 1\] \(0 and 1 samples") as err:
        build_comparison(Y, {"a": Y, "b": b}, labels=[0, 1], intervals=False)
    assert "different y_true" not in str(err.value)


def test_scores_of_one_model_that_do_not_fit_name_it() -> None:
    s = np.linspace(0, 1, len(Y))
    with pytest.raises(ValueError, match=r"^while evaluating model 'b': y_true and y_score have "
                                         r"different lengths: 8 and 7$"):
        build_comparison(Y, {"a": Y, "b": Y}, scores={"a": s, "b": s[:-1]}, intervals=False)
    with pytest.raises(ValueError, match=r"model 'b'.*NaN"):
        build_comparison(Y, {"a": Y, "b": Y}, scores={"a": s, "b": np.r_[np.nan, s[1:]]},
                         intervals=False)


def test_models_must_be_a_mapping() -> None:
    with pytest.raises(TypeError, match="models must be a mapping"):
        build_comparison(Y, [("a", Y), ("b", Y)])


@pytest.mark.parametrize("pred", [Y, [1 - v for v in Y]])  # perfect, and always wrong
def test_identical_models_compare_with_mcnemar_b_c_zero(pred) -> None:
    s = np.where(np.asarray(pred) == 1, 0.8, 0.2)
    cmp = build_comparison(Y, {"a": pred, "b": list(pred)}, scores={"a": s, "b": s.copy()},
                           n_resamples=200)
    (t,) = [t for t in cmp.tests if t["metric"] == "accuracy"]
    assert (t["difference"], t["statistic"], t["pvalue"]) == (0.0, 0.0, 1.0)
    acc = accuracy_score(Y, pred)
    assert [r["accuracy"] for r in cmp.table] == [acc, acc]
    d = json.loads(render_json(cmp))
    assert d["comparison"]["pairwise"][0]["pvalue"] == 1.0
    rows = list(csv.DictReader(io.StringIO(render_csv(cmp))))
    assert {float(r["value"]) for r in rows if r["section"] == "test"} == {1.0}
    for text in (render_text(cmp), render_markdown(cmp), render_html(cmp)):
        assert f"{acc:.4f}" in text


def test_model_names_with_the_same_text_are_an_error() -> None:
    # 1 and "1" are two keys of the mapping but one name in every table: a model was lost
    with pytest.raises(ValueError, match=r"model names must be unique as text: \[1, '1'\]"):
        build_comparison(Y, {1: Y, "1": [0] * len(Y)}, intervals=False, metrics=["accuracy"])


def test_a_label_subset_counts_the_same_samples_in_the_table_the_tests_and_the_reports():
    """labels= a subset that leaves the same samples out of every model (a true class outside
    it that no model predicts): the side-by-side table, McNemar's test and each model's report
    are all on the samples inside labels (the printed tables' samples). Oracles: scikit-learn
    and statsmodels on those samples."""
    from sklearn.metrics import accuracy_score, matthews_corrcoef
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < .7, y, rng.integers(0, 2, 300))
    a[a == 2] = 0
    b = np.where(rng.random(300) < .6, y, rng.integers(0, 2, 300))
    b[b == 2] = 1
    cmp = build_comparison(y, {"a": a, "b": b}, labels=[0, 1], intervals=False,
                           metrics=["accuracy", "mcc"])
    keep = np.isin(y, [0, 1])
    assert 0 < keep.sum() < len(y)
    for row, rep, pred in zip(cmp.table, cmp.reports, (a, b), strict=True):
        expected = accuracy_score(y[keep], pred[keep])
        assert row["accuracy"] == pytest.approx(expected, abs=1e-12)
        assert rep.overall_value("accuracy") == pytest.approx(expected, abs=1e-12)
        assert row["mcc"] == pytest.approx(matthews_corrcoef(y[keep], pred[keep]), abs=1e-12)
    right_a, right_b = a[keep] == y[keep], b[keep] == y[keep]
    table = [[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
             [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]]
    assert cmp.tests[0]["pvalue"] == pytest.approx(
        mcnemar(table, exact=False, correction=True).pvalue, rel=1e-12)


def test_models_leaving_out_different_samples_of_equal_counts_are_refused():
    """Each model leaves one sample of true class 0 out (a prediction outside labels), but not
    the same one: the class supports agree, the samples do not."""
    with pytest.raises(ValueError, match=r"models 'a' and 'b' leave different samples out"):
        build_comparison([0, 0, 1, 1], {"a": [2, 0, 1, 1], "b": [0, 2, 1, 1]}, labels=[0, 1],
                         intervals=False, metrics=["accuracy"])
