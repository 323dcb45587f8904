"""``confmat demo``: the experiments of Kneusel (2021) on data that ship with scikit-learn.

No data of the user's and no network access: the breast-cancer set with the classic models of
Kneusel (2021, ch. 7: nearest centroid, 3-NN, decision tree, linear SVM, plus logistic
regression) and the 8 x 8 digits as a stand-in for the MNIST digits of Kneusel (2021, ch. 11),
both even/odd with neural networks of several hidden sizes (as in its Figures 11-1 to 11-3)
and all ten classes (its accuracy matrices). Each experiment writes a self-contained HTML
report and a comparison into the output directory.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from .command import CONTEXT, Command
from .outputs import output_path


def _positive_scores(model: Any, X: Any, pos_index: int) -> np.ndarray | None:
    if hasattr(model, "predict_proba"):
        try:
            return np.asarray(model.predict_proba(X))[:, pos_index]
        except (AttributeError, NotImplementedError):
            pass
    if hasattr(model, "decision_function"):
        d = np.asarray(model.decision_function(X), dtype=np.float64)
        if d.ndim == 1:
            return d if pos_index == 1 else -d
    return None


def _summary(cmp: Any, log: Callable[[str], None]) -> None:
    """One line per model: MCC and accuracy with their intervals, and the AUC when scored
    (multi-class: Hand and Till's)."""
    for row in cmp.table:
        parts = []
        for key in ("mcc", "accuracy"):
            iv = row.get(key + "_interval")
            parts.append(f"{key} {row[key]:.3f}" + (f" [{iv[0]:.3f}, {iv[1]:.3f}]" if iv else ""))
        for key, name in (("roc_auc", "AUC"), ("hand_till_auc", "AUC (Hand and Till)")):
            if row.get(key) is not None:
                parts.append(f"{name} {row[key]:.3f}")
        log(f"    {row['model']:<20} " + ", ".join(parts))


def _write(path: Path, html: str, log: Callable[[str], None]) -> Path:
    path.write_text(html, encoding="utf-8")
    log(f"  wrote {path}")
    return path


def _binary_experiment(name: str, title: str, X: np.ndarray, y: np.ndarray, pos_label: str,
                       models: dict[str, Any], report_model: str, out: Path,
                       log: Callable[[str], None]) -> list[Path]:
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    from ..matrix import ConfusionMatrix
    from ..report import build_comparison, build_report, render_html

    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    scaler = StandardScaler().fit(Xtr)
    Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
    preds: dict[str, np.ndarray] = {}
    scores: dict[str, np.ndarray] = {}
    for mname, model in models.items():
        t0 = time.perf_counter()
        model.fit(Xtr, ytr)
        preds[mname] = model.predict(Xte)
        s = _positive_scores(model, Xte, list(model.classes_).index(pos_label))
        if s is not None:
            scores[mname] = s
        log(f"  trained {mname} ({time.perf_counter() - t0:.1f} s)")
    labels = [pos_label, *sorted(set(yte.tolist()) - {pos_label})]
    src = {"data": f"{title} (scikit-learn), test set of {len(yte)} samples",
           "split": "70/30 stratified, random_state=0"}
    cmp = build_comparison(yte, preds, scores=scores, labels=labels, pos_label=pos_label,
                           title=f"{title}: models compared", source=src)
    _summary(cmp, log)
    cm = ConfusionMatrix.from_predictions(yte, preds[report_model], labels=labels)
    rep = build_report(cm, y_true=yte, y_score=scores.get(report_model),
                       y_pred=preds[report_model], pos_label=pos_label,
                       title=f"{title}: {report_model}", source=src)
    return [_write(out / f"{name}_report.html", render_html(rep), log),
            _write(out / f"{name}_comparison.html", render_html(cmp), log)]


def run_demo(out_dir: str | Path = ".", *, quick: bool = False,
             log: Callable[[str], None] = print) -> list[Path]:
    """Run the three experiments and write their HTML reports into ``out_dir``.

    Parameters
    ----------
    out_dir : str or Path
        Created if needed.
    quick : bool
        Smaller neural networks and fewer of them.
    log : callable
        Receives progress lines.

    Returns
    -------
    list of Path
        The files written: a report and a comparison (HTML) for each of the three experiments.

    Raises
    ------
    ImportError
        scikit-learn is not installed.
    OSError
        ``out_dir`` cannot be created.

    Examples
    --------
    >>> import tempfile
    >>> paths = run_demo(tempfile.mkdtemp(), quick=True, log=lambda line: None)  # doctest: +SKIP
    >>> [p.name for p in paths][:2]  # doctest: +SKIP
    ['breast_cancer_report.html', 'breast_cancer_comparison.html']
    """
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise ImportError("confmat demo needs scikit-learn: pip install 'confmat[all]'") from exc
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OSError(f"cannot create output directory {str(out)!r}: {exc.strerror}") from exc
    written: list[Path] = []
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a scikit-learn dependency
        threadpool_limits = None
    # small models on a small machine: one BLAS thread is several times faster than many
    # threads competing for two cores
    limit = threadpool_limits(1) if threadpool_limits is not None else None
    try:
        _experiments(out, quick, log, written)
    finally:
        if limit is not None:
            limit.restore_original_limits()
    return written


def _experiments(out: Path, quick: bool, log: Callable[[str], None], written: list[Path]) -> None:
    from sklearn.datasets import load_breast_cancer, load_digits
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
    from sklearn.neural_network import MLPClassifier
    from sklearn.svm import LinearSVC
    from sklearn.tree import DecisionTreeClassifier

    from ..matrix import ConfusionMatrix
    from ..report import build_comparison, build_report, render_html

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        log("breast cancer (malignant = positive), the models of Kneusel (2021, ch. 7)")
        bc = load_breast_cancer()
        y = np.where(bc.target == 0, "malignant", "benign")
        written += _binary_experiment(
            "breast_cancer", "Breast cancer", bc.data, y, "malignant",
            {"nearest centroid": NearestCentroid(),
             "3-NN": KNeighborsClassifier(3),
             "decision tree": DecisionTreeClassifier(random_state=0),
             "linear SVM": LinearSVC(random_state=0),
             "logistic regression": LogisticRegression(max_iter=1000)},
            "logistic regression", out, log)

        digits = load_digits()
        X = digits.data / 16.0
        log("digits even/odd (odd = positive), neural networks of several sizes")
        sizes = [(2,), (10,), (100,)] if quick else [(2,), (10,), (100,), (100, 50)]
        nets = {f"MLP {'x'.join(map(str, h))}": MLPClassifier(h, max_iter=300 if not quick else 150,
                                                              random_state=0)
                for h in sizes}
        y_eo = np.where(digits.target % 2 == 1, "odd", "even")
        written += _binary_experiment("digits_even_odd", "Digits even/odd", X, y_eo, "odd", nets,
                                      "MLP 100", out, log)

        log("digits, all 10 classes")
        from sklearn.model_selection import train_test_split

        Xtr, Xte, ytr, yte = train_test_split(X, digits.target, test_size=0.3, random_state=0,
                                              stratify=digits.target)
        models = {"MLP 2": MLPClassifier((2,), max_iter=300, random_state=0),
                  "MLP 100": MLPClassifier((100,), max_iter=300, random_state=0)}
        preds, probas = {}, {}
        for mname, m in models.items():
            m.fit(Xtr, ytr)
            preds[mname] = m.predict(Xte)
            probas[mname] = m.predict_proba(Xte)
            log(f"  trained {mname}")
        labels = list(range(10))
        src = {"data": f"Digits, 10 classes (scikit-learn), test set of {len(yte)} samples"}
        cm = ConfusionMatrix.from_predictions(yte, preds["MLP 100"], labels=labels)
        rep = build_report(cm, y_true=yte, y_score=probas["MLP 100"], y_pred=preds["MLP 100"],
                           title="Digits, 10 classes: MLP 100", source=src)
        written.append(_write(out / "digits_10class_report.html", render_html(rep), log))
        cmp = build_comparison(yte, preds, scores=probas, labels=labels,
                               title="Digits, 10 classes: a 2-node network against a 100-node one",
                               source=src)
        _summary(cmp, log)
        written.append(_write(out / "digits_10class_comparison.html", render_html(cmp), log))


@click.command(cls=Command, context_settings=CONTEXT)
@click.option("-o", "--output-dir", "out_dir", default=".", show_default=True,
              callback=output_path("directory"),
              help="Directory for the reports (created if needed).")
@click.option("--quick", is_flag=True, help="Fewer, smaller models (for a fast look).")
def demo(out_dir: str, quick: bool) -> None:
    """Train classic models on scikit-learn's built-in data and write HTML reports.

    Breast cancer (the models of Kneusel 2021, ch. 7: nearest centroid, 3-NN, decision tree,
    linear SVM, plus logistic regression) and digits in place of the MNIST digits of Kneusel
    (2021, ch. 11): even/odd with neural networks of several sizes (its Figure 11-3) and all
    10 classes. No data of yours and no network access are needed.

    \b
    Examples:
      confmat demo
      confmat demo -o demo_out
    """
    t0 = time.perf_counter()
    paths = run_demo(out_dir, quick=quick, log=lambda m: click.echo(m, err=True))
    for p in paths:
        click.echo(str(p))
    click.echo(f"demo finished in {time.perf_counter() - t0:.1f} s", err=True)
