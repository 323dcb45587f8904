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
    with pytest.raises(ValueError, match=r"model 'b'.*one value per sample"):
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
