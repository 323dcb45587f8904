"""The rules of probabilities live in the input door (``confmat.inputs.probabilities``): every
public path that takes probabilities refuses the same bad input with the same message, naming
its own argument, or handles it as its documentation says (a warning, a note, no refusal).

The expectations are written by hand from the documented contract of each path: which paths
refuse which input, which argument they name, the first bad position and value worked out
from the inputs below. scikit-learn is the oracle of the drop-in's own wording and of the
boundary of its row-sum rule.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat import ConfusionMatrix
from confmat.binned import ScoreHistogram
from confmat.curves.calibration import calibration
from confmat.report import build_report
from confmat.sklearn import brier_score_loss, log_loss, roc_auc_score

Y3 = np.array([0, 1, 2, 2])
PRED3 = np.array([0, 1, 2, 1])
GOOD3 = np.array([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.125, 0.125, 0.75],
                  [0.25, 0.25, 0.5]])


def _with(rows: dict[int, list[float]] | None = None, cell: tuple[int, int, float] | None = None
          ) -> np.ndarray:
    p = GOOD3.copy()
    for i, r in (rows or {}).items():
        p[i] = r
    if cell is not None:
        p[cell[0], cell[1]] = cell[2]
    return p


# each bad input changes one thing of GOOD3; the comment says what a hand check finds
BAD3 = {
    "row_off_one": _with({2: [0.25, 0.25, 0.75]}),     # row 2 sums to 1.25 (exact in binary)
    "negative": _with({1: [-0.1, 0.9, 0.2]}),          # rows sum to 1; -0.1 at (1, 0)
    "above_one": _with({1: [0.25, 1.1, -0.35]}),       # rows sum to 1; 1.1 at (1, 1) first
    "nan": _with(cell=(3, 1, np.nan)),                 # NaN at (3, 1)
    "inf": _with(cell=(0, 2, np.inf)),                 # inf at (0, 2)
    "columns": np.full((4, 2), 0.5),                   # two columns for three classes
}

#: messages of the door's rules, in their one wording (``{arg}``: the path's argument)
UNIT = r"{arg} must be probabilities in \[0, 1\]; found {value} at position {pos}$"
ROWS = r"{arg} rows must be probabilities summing to 1{why}; row 2 sums to 1\.25$"
FINITE = r"{arg} contains {what} at position {pos}; scores must be finite$"
COLUMNS = (r"y_true has 3 classes \[0, 1, 2\] but {arg} has 2 columns; pass labels=\[\.\.\.\] "
           r"naming the class of each column$")
#: a score matrix beside labels known up front (a report's classes, a histogram's labels)
LABEL_COLUMNS = (r"^y_score has 2 columns but the labels are \[0, 1, 2\]; give one score column "
                 r"per class, in label order$")
OVR = " for multi_class='ovr' or 'ovo'"
NOTE = ("no calibration section: the class scores are not probabilities (each row in [0, 1] "
        "summing to 1)")
SK_LOG_COLUMNS = r"y_true and y_prob contain different number of classes: 3 vs 2\."


def _report(y: Any, s: Any) -> Any:
    cm = ConfusionMatrix.from_predictions(y, PRED3 if len(y) == 4 else y)
    return build_report(cm, y_true=y, y_score=s, intervals=False)


PATHS3: dict[str, Callable[[Any], Any]] = {
    "calibration": lambda s: calibration(Y3, s),
    "CalibrationDisplay": lambda s: _display(Y3, s),
    "build_report": lambda s: _report(Y3, s),
    "sklearn.log_loss": lambda s: log_loss(Y3, s),
    "sklearn.brier_score_loss": lambda s: brier_score_loss(Y3, s),
    "roc_auc ovr": lambda s: confmat.roc_auc(Y3, s, multi_class="ovr"),
    "roc_auc ovo": lambda s: confmat.roc_auc(Y3, s, multi_class="ovo"),
    "roc_curve_ovr": lambda s: confmat.roc_curve_ovr(Y3, s),
    "average_precision": lambda s: confmat.average_precision(Y3, s),
    "ScoreHistogram.update": lambda s: ScoreHistogram(labels=[0, 1, 2]).update(Y3, s),
    "sklearn.roc_auc_score": lambda s: roc_auc_score(Y3, s, multi_class="ovr"),
}


def _display(y: Any, s: Any) -> Any:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from confmat.plots import CalibrationDisplay

    return CalibrationDisplay.from_predictions(y, s, n_bins=2, ax=Figure().add_subplot())


def _unit(arg: str, value: str, pos: str) -> str:
    return UNIT.format(arg=arg, value=re.escape(value), pos=re.escape(pos))


def _finite(arg: str, what: str, pos: str) -> str:
    return FINITE.format(arg=arg, what=what, pos=re.escape(pos))


OK = ("accepted", None)
NOTED = ("note", NOTE)
ROW_WARNING = ("warns", "do not sum to one")

#: (bad input, path) -> what the path does; every cell written by hand
EXPECTED3: dict[str, dict[str, tuple[str, str | None]]] = {
    "row_off_one": {
        "calibration": ("raises", ROWS.format(arg="y_prob", why="")),
        "CalibrationDisplay": ("raises", ROWS.format(arg="y_prob", why="")),
        "build_report": NOTED,
        "sklearn.log_loss": ROW_WARNING,
        "sklearn.brier_score_loss": ROW_WARNING,
        "roc_auc ovr": ("raises", ROWS.format(arg="y_score", why=re.escape(OVR))),
        "roc_auc ovo": ("raises", ROWS.format(arg="y_score", why=re.escape(OVR))),
        "roc_curve_ovr": OK,           # one-vs-rest curves need no probabilities
        "average_precision": OK,
        "ScoreHistogram.update": ("raises", ROWS.format(arg="y_score", why="")),
        "sklearn.roc_auc_score": ("raises", "Target scores need to be probabilities for "
                                            "multiclass roc_auc"),
    },
    "negative": {
        "calibration": ("raises", _unit("y_prob", "-0.1", "(1, 0)")),
        "CalibrationDisplay": ("raises", _unit("y_prob", "-0.1", "(1, 0)")),
        "build_report": NOTED,
        "sklearn.log_loss": ("raises", _unit("y_proba", "-0.1", "(1, 0)")),
        "sklearn.brier_score_loss": ("raises", _unit("y_proba", "-0.1", "(1, 0)")),
        "roc_auc ovr": OK,             # rows sum to 1: the AUC ranks, it needs no range
        "roc_auc ovo": OK,
        "roc_curve_ovr": OK,
        "average_precision": OK,
        "ScoreHistogram.update": ("raises", r"y_score has a score -0\.1 outside "
                                            r"score_range=\(0\.0, 1\.0\) at row 1"),
        "sklearn.roc_auc_score": OK,
    },
    "above_one": {
        "calibration": ("raises", _unit("y_prob", "1.1", "(1, 1)")),
        "CalibrationDisplay": ("raises", _unit("y_prob", "1.1", "(1, 1)")),
        "build_report": NOTED,
        "sklearn.log_loss": ("raises", _unit("y_proba", "1.1", "(1, 1)")),
        "sklearn.brier_score_loss": ("raises", _unit("y_proba", "1.1", "(1, 1)")),
        "roc_auc ovr": OK,
        "roc_auc ovo": OK,
        "roc_curve_ovr": OK,
        "average_precision": OK,
        "ScoreHistogram.update": ("raises", r"y_score has a score 1\.1 outside "
                                            r"score_range=\(0\.0, 1\.0\) at row 1"),
        "sklearn.roc_auc_score": OK,
    },
    **{name: {
        "calibration": ("raises", _finite("y_prob", what, pos)),
        "CalibrationDisplay": ("raises", _finite("y_prob", what, pos)),
        "build_report": ("raises", _finite("y_score", what, pos)),
        "sklearn.log_loss": ("raises", _finite("y_proba", what, pos)),
        "sklearn.brier_score_loss": ("raises", _finite("y_proba", what, pos)),
        "roc_auc ovr": ("raises", _finite("y_score", what, pos)),
        "roc_auc ovo": ("raises", _finite("y_score", what, pos)),
        "roc_curve_ovr": ("raises", _finite("y_score", what, pos)),
        "average_precision": ("raises", _finite("y_score", what, pos)),
        "ScoreHistogram.update": ("raises", _finite("y_score", what, pos)),
        "sklearn.roc_auc_score": ("raises", sk),
    } for name, what, pos, sk in (("nan", "NaN", "(3, 1)", r"Input y_score contains NaN\.$"),
                                  ("inf", "an infinite value", "(0, 2)",
                                   r"Input y_score contains infinity\.$"))},
    "columns": {
        "calibration": ("raises", COLUMNS.format(arg="y_prob")),
        "CalibrationDisplay": ("raises", COLUMNS.format(arg="y_prob")),
        "build_report": ("raises", LABEL_COLUMNS),
        "sklearn.log_loss": ("raises", SK_LOG_COLUMNS),
        "sklearn.brier_score_loss": ("raises", SK_LOG_COLUMNS),
        "roc_auc ovr": ("raises", COLUMNS.format(arg="y_score")),
        "roc_auc ovo": ("raises", COLUMNS.format(arg="y_score")),
        "roc_curve_ovr": ("raises", COLUMNS.format(arg="y_score")),
        "average_precision": ("raises", COLUMNS.format(arg="y_score")),
        "ScoreHistogram.update": ("raises", LABEL_COLUMNS),
        "sklearn.roc_auc_score": ("raises", "Number of classes in y_true not equal to the "
                                            "number of columns in 'y_score'"),
    },
}


def _check(run: Callable[[], Any], outcome: str, text: str | None) -> None:
    if outcome == "raises":
        assert text is not None
        with pytest.raises(ValueError, match=text):
            run()
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run()
    said = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    if outcome == "warns":
        assert any(text in s for s in said), said
    else:
        assert not any("sum to one" in s for s in said), said
    if outcome == "note":
        assert result.calibration is None and text in result.notes
    elif outcome == "accepted" and hasattr(result, "calibration"):
        assert result.calibration is not None


def test_the_table_covers_every_input_and_path() -> None:
    assert set(EXPECTED3) == set(BAD3)
    for row in EXPECTED3.values():
        assert set(row) == set(PATHS3)


@pytest.mark.parametrize("path", list(PATHS3))
@pytest.mark.parametrize("bad", list(BAD3))
def test_each_rule_refuses_alike_on_every_path(bad: str, path: str) -> None:
    outcome, text = EXPECTED3[bad][path]
    _check(lambda: PATHS3[path](BAD3[bad]), outcome, text)


@pytest.mark.parametrize("path", list(PATHS3))
def test_good_probabilities_pass_every_path(path: str) -> None:
    _check(lambda: PATHS3[path](GOOD3), "accepted", None)


# binary: one probability per sample
Y2 = np.array([0, 1, 1, 0])
BAD2 = {
    "negative": (np.array([0.25, -0.1, 0.5, 0.5]), "-0.1", "1"),
    "above_one": (np.array([0.25, 0.5, 1.1, 0.5]), "1.1", "2"),
    "nan": (np.array([0.25, 0.5, 0.5, np.nan]), "NaN", "3"),
    "inf": (np.array([np.inf, 0.5, 0.5, 0.25]), "an infinite value", "0"),
}
PATHS2: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "calibration": ("y_prob", lambda s: calibration(Y2, s)),
    "CalibrationDisplay": ("y_prob", lambda s: _display(Y2, s)),
    "build_report": ("y_score", lambda s: _report(Y2, s)),
    "sklearn.log_loss": ("y_proba", lambda s: log_loss(Y2, s)),
    "sklearn.brier_score_loss": ("y_proba", lambda s: brier_score_loss(Y2, s)),
}
NOTE2 = "no calibration section: the scores are not probabilities (some lie outside [0, 1])"


@pytest.mark.parametrize("path", list(PATHS2))
@pytest.mark.parametrize("bad", list(BAD2))
def test_binary_probabilities_refused_alike(bad: str, path: str) -> None:
    s, shown, pos = BAD2[bad]
    arg, run = PATHS2[path]
    if bad in ("nan", "inf"):
        _check(lambda: run(s), "raises", _finite(arg, shown, pos))
    elif path == "build_report":  # a report shows scores outside [0, 1] without calibration
        _check(lambda: run(s), "note", NOTE2)
    else:
        _check(lambda: run(s), "raises", _unit(arg, shown, pos))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([-1, 1]), st.integers(-300, 300))
def test_sklearn_roc_auc_score_refuses_row_sums_as_scikit_learn(side: int, j: int) -> None:
    # row sums within about 3e-10 of scikit-learn's tolerance, |1 - sum| <= 1e-8 + 1e-5 |sum|
    # (numpy.allclose(1, sums)), where a tolerance of 1e-8 + 1e-5 (not scaled by the sum)
    # would decide otherwise: the drop-in refuses exactly the inputs scikit-learn refuses
    s = GOOD3.copy()
    s[1, 1] += side * (1e-8 + 1e-5) + j * 1e-12
    refusals = []
    for f in (skm.roc_auc_score, roc_auc_score):
        try:
            f(Y3, s, multi_class="ovr")
            refusals.append(None)
        except ValueError as exc:
            refusals.append(str(exc))
    assert refusals[0] == refusals[1]


def test_reliability_title_shows_brier_log_loss_and_mce() -> None:
    pytest.importorskip("matplotlib")
    y = np.array([0, 0, 1, 1, 1, 0])
    p = np.array([0.1, 0.4, 0.35, 0.8, 0.9, 0.2])
    d = _display(y, p)
    brier, loss = skm.brier_score_loss(y, p), skm.log_loss(y, p)
    # MCE by hand: bins [0, 0.5] and (0.5, 1]: means 0.2625 (observed 0.25) and 0.85 (1.0)
    assert d.ax_.get_title() == (f"Reliability diagram (Brier {brier:.3f}, log loss "
                                 f"{loss:.3f}, MCE {0.15:.3f})")
