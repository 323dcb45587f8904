"""The Vehicle experiment of Yao, Yang & Li (2022), reproduced with confmat (examples/paper_vehicle.py).

The authors' printed numbers are the oracle for what reproduces (the binary experiment), and
scikit-learn is the oracle for confmat's numbers on the same predictions. The three-class
network does not train to the authors' optimum with today's scikit-learn / SciPy: that
difference is asserted to stay small and documented in docs/curves.md.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CONFMAT_VEHICLE_CSV", ROOT / ".." / "shared" / "data" / "vehicle.csv"))

pytestmark = pytest.mark.skipif(
    not DATA.exists(), reason=f"UCI Vehicle data not found at {DATA} (set CONFMAT_VEHICLE_CSV)"
)


@pytest.fixture(scope="module")
def paper():
    spec = importlib.util.spec_from_file_location("paper_vehicle", ROOT / "examples" / "paper_vehicle.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def binary(paper):
    return paper.binary_experiment(DATA)


@pytest.fixture(scope="module")
def multi(paper):
    return paper.multiclass_experiment(DATA)


def test_data_selection_follows_the_paper(paper):
    X, y = paper.load_vehicle(DATA)
    assert X.shape == (647, 18)  # "前三个类别包括 647 条样本"
    assert np.bincount(y).tolist() == [218, 212, 217]
    assert (np.diff(y) >= 0).all() and y[:430].max() == 1 and y[430] == 2  # first 430: bus+opel


def test_binary_confusion_matrix_is_the_papers(binary):
    assert binary.cm.counts.tolist() == [[61, 2], [8, 58]]
    assert round(binary.cm.metric("accuracy"), 4) == 0.9225
    assert binary.cm.metric("recall").round(4).tolist() == [0.9683, 0.8788]
    assert binary.cm.metric("precision").round(4).tolist() == [0.8841, 0.9667]
    assert round(binary.cm.metric("mcc"), 4) == 0.8489


def test_binary_aucs_are_the_papers(binary):
    import confmat

    for k in (0, 1):
        assert round(binary.auc[k], 4) == 0.9733
        fpr, tpr, _ = skm.roc_curve(binary.y_test, binary.proba[:, k], pos_label=k)
        assert binary.auc[k] == pytest.approx(skm.auc(fpr, tpr), abs=1e-12)
    assert confmat.roc_auc(binary.y_test, binary.proba[:, 1]) == pytest.approx(
        skm.roc_auc_score(binary.y_test, binary.proba[:, 1]), abs=1e-12
    )


def test_three_class_split_matches_and_model_is_close_to_the_paper(multi, paper):
    counts = multi.cm.counts
    paper_cm = np.array(paper.PAPER["multi_matrix"])
    # the split reproduces: same test-set class sizes, bus row identical
    assert counts.sum(axis=1).tolist() == paper_cm.sum(axis=1).tolist() == [64, 62, 69]
    assert counts[0].tolist() == [64, 0, 0]
    # the trained network differs slightly, and with the SciPy / NumPy build (documented in
    # docs/curves.md): at most three samples per cell on the builds seen so far
    assert np.abs(counts - paper_cm).max() <= 3
    for k, printed in paper.PAPER["multi_auc"].items():
        assert abs(multi.auc[k] - printed) < 0.01
        fpr, tpr, _ = skm.roc_curve(multi.y_test, multi.proba[:, k], pos_label=k)
        assert multi.auc[k] == pytest.approx(skm.auc(fpr, tpr), abs=1e-12)


def test_example_script_prints_the_comparison(paper, binary, capsys, monkeypatch):
    # main() with the network already trained by the fixture (training again is slow)
    monkeypatch.setattr(paper, "binary_experiment", lambda path: binary)
    monkeypatch.setattr(paper, "multiclass_experiment", lambda path: binary)
    assert paper.main(["paper_vehicle.py", str(DATA)]) == 0
    out = capsys.readouterr().out
    assert "[[61  2]" in out and "AUC class 0: 0.9733   Yao et al.: 0.9733" in out
