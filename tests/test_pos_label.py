"""One pos_label rule for every score-taking entry point (issue #12, section 1).

The rule (confmat.inputs.targets.resolve_pos_label): labels {0, 1}, {-1, 1} or {False, True}
make 1 (True) the positive class; any other labels need ``pos_label`` and the error lists the
labels found; an explicit ``pos_label`` must occur in ``y_true``.

``ENTRY_POINTS`` is a plain list of (name, callable): each callable takes
``(y_true, y_score, pos_label)`` and returns the ROC AUC it computed. New entry points (the
report, the plots, the command line) are added as more rows. Oracle: scikit-learn's
``roc_auc_score(y_true == pos, y_score)``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import confmat
from confmat.binned import ScoreHistogram
from confmat.inference import score_metric
from confmat.report import build_report

BINS = 20  # scores are drawn on the grid k / BINS, so the binned AUC is exact
#: numpy's trapezoidal rule (named trapz before numpy 2.0: the floor environment has numpy 1.24)
trapezoid = getattr(np, "trapezoid", None) or np.trapz  # noqa: NPY201


def _roc_curve_area(y, s, pl):
    fpr, tpr, _ = confmat.roc_curve(y, s, pos_label=pl)
    return float(trapezoid(tpr, fpr))


def _sweep_area(y, s, pl):
    sw = confmat.threshold_sweep(y, s, pos_label=pl)
    tpr = np.r_[0.0, sw.metric("tpr")]
    fpr = np.r_[0.0, sw.metric("fpr")]
    return float(trapezoid(tpr, fpr))


def _best_threshold_area(y, s, pl):
    choice = confmat.best_threshold(y, s, pos_label=pl)
    assert choice.confusion_matrix.labels[1] == (1 if pl is None else pl)
    return _sweep_area(y, s, pl)  # the choice itself carries no area


def _pr_curve_area(y, s, pl):
    confmat.precision_recall_curve(y, s, pos_label=pl)
    confmat.average_precision(y, s, pos_label=pl)
    return confmat.roc_auc(y, s, pos_label=pl)


def _histogram_auc(y, s, pl):
    return ScoreHistogram(bins=BINS, pos_label=pl).update(y, s).roc_auc()


def _delong_auc(y, s, pl):
    return confmat.delong(y, s, 1.0 - np.asarray(s), pos_label=pl).auc_a


def _paired_bootstrap_auc(y, s, pl):
    r = confmat.paired_bootstrap(y, s, 1.0 - np.asarray(s), "roc_auc", pos_label=pl,
                                 n_resamples=200, random_state=0)
    return r.estimate_a


def _compare_auc(y, s, pl):
    cmp = confmat.compare({"m": s, "flip": 1.0 - np.asarray(s)}, y, ["roc_auc"],
                          pos_label=pl, n_resamples=200, random_state=0)
    return cmp.intervals["m"]["roc_auc"].estimate


def _report_auc(y, s, pl):
    labels = sorted(set(y.tolist()))
    y_pred = np.asarray(labels)[(s >= 0.5).astype(int)]
    cm = confmat.ConfusionMatrix.from_predictions(y, y_pred)
    rep = build_report(cm, y_true=y, y_score=s, pos_label=pl, intervals=False)
    return rep.curves[0].auc


def _plot_auc(y, s, pl):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from confmat.plots import RocCurveDisplay

    try:
        return RocCurveDisplay.from_predictions(y, s, pos_label=pl).roc_auc
    finally:
        plt.close("all")


def _cli_auc(y, s, pl, tmp=[]):  # noqa: B006 - one temporary folder for the module
    """``confmat report FILE --score s [--pos-label X] -f json``; exit status 2 (bad input)
    becomes the ValueError the library raised, with the CLI's message."""
    import contextlib
    import io
    import json
    import tempfile

    from confmat.cli import main

    if not tmp:
        tmp.append(tempfile.mkdtemp())
    labels = sorted(set(y.tolist()))
    y_pred = np.asarray(labels)[(s >= 0.5).astype(int)]
    path = f"{tmp[0]}/preds.csv"
    with open(path, "w") as fh:
        fh.write("y,yhat,s\n")
        fh.writelines(f"{a},{b},{c!r}\n" for a, b, c in zip(y.tolist(), y_pred.tolist(),
                                                          s.tolist(), strict=True))
    args = ["report", path, "--true", "y", "--pred", "yhat", "--score", "s", "-f", "json",
            "--no-intervals"]
    if pl is not None:
        args += ["--pos-label", str(pl)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    if status == 2:
        assert "Traceback" not in err.getvalue()
        raise ValueError(err.getvalue())
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())["curves"][0]["auc"]


ENTRY_POINTS = [
    ("roc_curve", _roc_curve_area),
    ("roc_auc", lambda y, s, pl: confmat.roc_auc(y, s, pos_label=pl)),
    ("precision_recall_curve", _pr_curve_area),
    ("threshold_sweep", _sweep_area),
    ("best_threshold", _best_threshold_area),
    ("ScoreHistogram", _histogram_auc),
    ("score_ci", lambda y, s, pl: confmat.score_ci(y, s, pos_label=pl).estimate),
    ("score_metric", lambda y, s, pl: score_metric(y, s, pos_label=pl)),
    ("delong", _delong_auc),
    ("paired_bootstrap", _paired_bootstrap_auc),
    ("compare", _compare_auc),
    ("build_report", _report_auc),
    ("RocCurveDisplay", _plot_auc),
    ("cli report", _cli_auc),
]

# name -> (the two labels, the positive class implied without pos_label or None)
LABEL_SETS = {
    "ints01": ([0, 1], 1),
    "ints-11": ([-1, 1], 1),
    "bools": ([False, True], True),
    "ints12": ([1, 2], None),
    "strings": (["healthy", "sick"], None),
}


def _data(labels, seed, n=60):
    rng = np.random.default_rng(seed)
    idx = np.r_[0, 1, rng.integers(0, 2, n - 2)]  # both classes present
    y = np.asarray(labels)[idx]
    s = np.clip(np.round((rng.normal(0.4 + 0.25 * idx, 0.2)) * BINS), 0, BINS - 1) / BINS
    return y, s


def _ids(rows):
    return [r[0] for r in rows]


@pytest.mark.parametrize("labels_name", list(LABEL_SETS))
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=_ids(ENTRY_POINTS))
@pytest.mark.parametrize("seed", [0, 1])
def test_explicit_pos_label_gives_sklearn_auc(entry, labels_name, seed):
    _, func = entry
    labels, _ = LABEL_SETS[labels_name]
    y, s = _data(labels, seed)
    for pos in labels:
        got = func(y, s, pos)
        assert got == pytest.approx(roc_auc_score(y == pos, s), abs=1e-12), pos


@pytest.mark.parametrize("labels_name", list(LABEL_SETS))
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=_ids(ENTRY_POINTS))
def test_without_pos_label_one_rule(entry, labels_name):
    _, func = entry
    labels, default = LABEL_SETS[labels_name]
    y, s = _data(labels, 7)
    if default is not None:
        assert func(y, s, None) == pytest.approx(roc_auc_score(y == default, s), abs=1e-12)
        return
    found = re.escape(str(sorted(labels)))
    # the command line names its options where the library names its arguments
    with pytest.raises(ValueError, match=rf"y_true takes values {found} and pos_label is not "
                                         rf"specified|the --true column 'y' of file '[^']*' takes "
                                         rf"values {found} "
                                         r"and --pos-label is not specified"):
        func(y, s, None)


@pytest.mark.parametrize("labels_name", list(LABEL_SETS))
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=_ids(ENTRY_POINTS))
def test_unknown_pos_label_is_named(entry, labels_name):
    _, func = entry
    labels, _ = LABEL_SETS[labels_name]
    y, s = _data(labels, 3)
    # the library names pos_label='absent'; the command line names its option (and, for a
    # label column that is not text, the column's type the value could not be read as)
    with pytest.raises(ValueError, match=r"pos_label='absent' is not one of the labels in "
                                         r"y_true|--pos-label 'absent' (is not one of the "
                                         r"labels|does not match the label column)"):
        func(y, s, "absent")


@pytest.mark.parametrize("y, pos_label, want", [
    ([0, 1, 1, 0], True, "pass pos_label=1"),
    ([1, 2, 2, 1], True, "pass pos_label=1"),
    ([False, True, True, False], 1, "pass pos_label=True"),
])
def test_a_pos_label_of_another_kind_is_named(y, pos_label, want):
    # True == 1 in Python, but a boolean is not the class 1 (confmat never mixes label kinds)
    s = [0.1, 0.8, 0.6, 0.3]
    with pytest.raises(ValueError, match=rf"pos_label={pos_label!r} is a \w+.*{want}"):
        confmat.roc_auc(y, s, pos_label=pos_label)
    with pytest.raises(ValueError, match=rf"{want}"):
        ScoreHistogram(bins=10, pos_label=pos_label).update(y, s)


def test_a_pos_label_of_the_same_number_names_the_class():
    # 2.0 is the class 2: accepted, and the class keeps its own name (scikit-learn's AUC of
    # class 2 against class 1: 1.0 here, every 2 scored above every 1)
    y, s = [1, 2, 2, 1], [0.1, 0.8, 0.6, 0.3]
    assert confmat.roc_auc(y, s, pos_label=2.0) == roc_auc_score(np.array(y) == 2, s) == 1.0
    from confmat.inputs.targets import resolve_pos_label
    out = resolve_pos_label([1, 2], 2.0)
    assert out == 2 and type(out) is int
