"""Differential tests: every registry metric with a PyCM counterpart against PyCM 4.6.

The list of metrics comes from the registry (``spec.pycm``), never from this file. PyCM is
built from the same random K x K table (K from 2 to 8, with all-zero rows and columns) and
compared per class (``class_stat[key][label]``) and overall (``overall_stat[key]``).

PyCM reports the string ``"None"`` where a statistic is undefined. There we check confmat's
documented policy instead: with ``zero_division=np.nan`` the value is NaN, except for the
Matthews correlation coefficients, which Yao et al. (2022) and Kneusel (2021) argue should be 0 when the
denominator vanishes.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np
import pycm
import pytest
from hypothesis import given, settings

from confmat import ConfusionMatrix, list_metrics
from confmat.metrics import UndefinedMetricWarning
from conftest import N_EXAMPLES, count_tables, quiet

#: metrics whose zero denominator gives 0 by design (Yao et al. 2022, Kneusel 2021), not zero_division
ZERO_WHEN_UNDEFINED = {"mcc", "class_mcc"}

SPECS = [s for s in list_metrics() if s.pycm]


def _pycm(table: np.ndarray) -> pycm.ConfusionMatrix:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pycm.ConfusionMatrix(matrix=table.tolist())


def _pycm_value(cm: pycm.ConfusionMatrix, spec) -> object:
    """PyCM's value for ``spec``: a dict class -> value for per-class keys, else a scalar."""
    if spec.kind == "per_class":
        return cm.class_stat[spec.pycm]
    if spec.pycm in cm.overall_stat:
        return cm.overall_stat[spec.pycm]
    # a few overall quantities (e.g. POP) are stored per class with one value for every class
    values = set(cm.class_stat[spec.pycm].values())
    assert len(values) == 1, spec.pycm
    return values.pop()


def _check_value(spec, ours: float, theirs: object, where: str) -> None:
    if isinstance(theirs, str):
        if theirs != "None":
            return  # a qualitative PyCM answer (e.g. an interpretation label): nothing to compare
        if spec.name in ZERO_WHEN_UNDEFINED:
            assert ours == 0.0, (spec.name, where, ours)
        else:
            assert math.isnan(ours), (spec.name, where, ours)
        return
    if not isinstance(theirs, numbers.Real) or isinstance(theirs, bool):
        return  # intervals, tuples and the like are compared elsewhere
    theirs = float(theirs)
    if math.isnan(theirs) or math.isinf(theirs):
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (spec.name, where)
        return
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12), (spec.name, where, ours, theirs)


def test_registry_declares_pycm_counterparts() -> None:
    """The iteration below is not vacuous: the registry names PyCM keys that exist."""
    keys = {s.pycm for s in SPECS}
    assert {"TPR", "PPV", "F1", "Overall MCC", "Kappa", "Overall ACC"} <= keys
    probe = _pycm(np.array([[3, 1], [2, 4]]))
    for spec in SPECS:
        where = probe.class_stat if spec.kind == "per_class" else {
            **probe.overall_stat, **probe.class_stat
        }
        assert spec.pycm in where, f"{spec.name}: PyCM has no statistic {spec.pycm!r}"


@settings(max_examples=N_EXAMPLES)
@given(count_tables(2, 8))
def test_every_pycm_metric_matches(table: np.ndarray) -> None:
    cm = ConfusionMatrix(table)
    theirs = _pycm(table)
    classes = theirs.classes
    assert classes == list(range(table.shape[0]))
    for spec in SPECS:
        ours = quiet(cm.metric, spec.name, zero_division="nan")
        expected = _pycm_value(theirs, spec)
        if spec.kind == "per_class":
            ours = np.asarray(ours, dtype=np.float64)
            assert ours.shape == (len(classes),), spec.name
            for i, label in enumerate(classes):
                _check_value(spec, float(ours[i]), expected[label], f"class {label}")
        else:
            _check_value(spec, float(ours), expected, "overall")


@settings(max_examples=N_EXAMPLES // 2)
@given(count_tables(2, 6))
def test_undefined_values_follow_zero_division(table: np.ndarray) -> None:
    """Where PyCM is undefined, 'warn' gives 0 with a warning, 0/1 give that value."""
    cm = ConfusionMatrix(table)
    theirs = _pycm(table)
    simple = {"recall", "precision", "specificity", "npv", "f1", "jaccard", "fpr", "fnr", "fdr",
              "for", "prevalence"}
    for spec in SPECS:
        if spec.name not in simple:
            continue
        undefined = [i for i, c in enumerate(theirs.classes)
                     if theirs.class_stat[spec.pycm][c] == "None"]
        if not undefined:
            continue
        with pytest.warns(UndefinedMetricWarning):
            warned = cm.metric(spec.name)
        for zd in (0, 1):
            values = cm.metric(spec.name, zero_division=zd)
            assert values[undefined].tolist() == [float(zd)] * len(undefined), spec.name
        assert warned[undefined].tolist() == [0.0] * len(undefined), spec.name


def test_paper_matrix_against_pycm() -> None:
    """The three-class matrix of Yao et al. (2022): one fixed, readable instance of the comparison."""
    table = np.array([[64, 0, 0], [3, 42, 17], [5, 17, 47]])
    theirs = _pycm(table)
    cm = ConfusionMatrix(table)
    assert cm.metric("kappa") == pytest.approx(theirs.overall_stat["Kappa"], rel=1e-12)
    assert cm.metric("mcc") == pytest.approx(theirs.overall_stat["Overall MCC"], rel=1e-12)
    np.testing.assert_allclose(
        cm.metric("class_mcc"), [theirs.class_stat["MCC"][c] for c in range(3)], rtol=1e-12
    )
