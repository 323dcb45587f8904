"""Reproduce the Vehicle experiment of Yao, Yang & Li (2022), sections 2.1 and 4.

Yao et al. keep the bus, opel and saab rows of the UCI Vehicle Silhouettes data, sorted by class
in file order (bus = class 0, opel = 1, saab = 2), min-max scales every feature column, and:

* binary: the first 430 rows (bus + opel), ``train_test_split(test_size=0.3, random_state=8)``,
  ``MLPClassifier(solver="lbfgs", hidden_layer_sizes=(5, 5), activation="logistic",
  max_iter=30, random_state=0)``;
* three classes: all 647 rows, the same split, ``hidden_layer_sizes=(8, 6)``, ``max_iter=200``.

It prints the confusion matrices and the one-vs-rest ROC AUCs computed with confmat next to the
values printed by Yao et al. (2022). Run ``python examples/paper_vehicle.py [path/to/vehicle.csv]``;
by default the data is read from ``../shared/data/vehicle.csv`` relative to the repository root
(or from the ``CONFMAT_VEHICLE_CSV`` environment variable).

With today's scikit-learn the binary experiment reproduces the published figures exactly; the
three-class network trains to a slightly different optimum (see docs/curves.md).
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import confmat

PAPER = {
    "binary_matrix": [[61, 2], [8, 58]],
    "binary_auc": {0: 0.9733, 1: 0.9733},
    "multi_matrix": [[64, 0, 0], [3, 42, 17], [5, 17, 47]],
    "multi_auc": {0: 0.9948, 1: 0.8789, 2: 0.8862},
}
CLASSES = {"bus": 0, "opel": 1, "saab": 2}


def default_data_path() -> Path:
    env = os.environ.get("CONFMAT_VEHICLE_CSV")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "vehicle.csv"


def load_vehicle(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """The data of Yao et al. (2022): bus/opel/saab rows sorted by class (stable, file order kept)."""
    import pandas as pd

    df = pd.read_csv(path)
    names = df.iloc[:, 18].astype(str).str.strip()
    keep = names.isin(list(CLASSES))
    X = df.loc[keep].iloc[:, :18].to_numpy(dtype=np.float64)
    y = names[keep].map(CLASSES).to_numpy(dtype=np.int64)
    order = np.argsort(y, kind="stable")
    return X[order], y[order]


def min_max(X: np.ndarray) -> np.ndarray:
    lo = X.min(axis=0)
    return (X - lo) / (X.max(axis=0) - lo)


@dataclass
class Result:
    y_test: np.ndarray
    proba: np.ndarray
    cm: confmat.ConfusionMatrix
    auc: dict[int, float]


def _run(X: np.ndarray, y: np.ndarray, hidden: tuple[int, int], max_iter: int) -> Result:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.model_selection import train_test_split
    from sklearn.neural_network import MLPClassifier

    X_train, X_test, y_train, y_test = train_test_split(
        min_max(X), y, test_size=0.3, random_state=8
    )
    clf = MLPClassifier(
        solver="lbfgs",
        hidden_layer_sizes=hidden,
        activation="logistic",
        max_iter=max_iter,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X_train, y_train)
    proba = clf.predict_proba(X_test)
    cm = confmat.ConfusionMatrix.from_predictions(y_test, clf.predict(X_test))
    # Yao et al.: roc_curve(y, proba[:, k], pos_label=k) then auc(fpr, tpr), for every class k
    ovr = confmat.roc_curve_ovr(y_test, proba, labels=clf.classes_)
    auc = {int(k): ovr.curves[int(k)].auc for k in clf.classes_}
    return Result(y_test, proba, cm, auc)


def binary_experiment(path: str | Path | None = None) -> Result:
    X, y = load_vehicle(path or default_data_path())
    return _run(X[:430], y[:430], (5, 5), 30)


def multiclass_experiment(path: str | Path | None = None) -> Result:
    X, y = load_vehicle(path or default_data_path())
    return _run(X, y, (8, 6), 200)


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else default_data_path()
    if not path.exists():
        print(f"vehicle data not found at {path}", file=sys.stderr)
        return 2
    for title, run, key in (
        ("binary (bus vs opel)", binary_experiment, "binary"),
        ("three classes (bus, opel, saab)", multiclass_experiment, "multi"),
    ):
        res = run(path)
        print(f"== {title}: confusion matrix (rows true, columns predicted)")
        print(res.cm.counts)
        print(f"   Yao et al.: {PAPER[key + '_matrix']}")
        print(f"   accuracy {res.cm.metric('accuracy'):.4f}")
        for k, a in res.auc.items():
            print(f"   AUC class {k}: {a:.4f}   Yao et al.: {PAPER[key + '_auc'][k]:.4f}")
        if key == "multi":
            for mc in ("ovr", "ovo"):
                print(f"   macro {mc} AUC: {confmat.roc_auc(res.y_test, res.proba, multi_class=mc):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
