"""The confusion-matrix heatmap display."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..matrix import ConfusionMatrix
from .common import Saving, literal_text, new_ax


class ConfusionMatrixDisplay(Saving):
    """Confusion-matrix heatmap: counts, and each row's percentages (the accuracy matrix).

    Parameters
    ----------
    confusion_matrix : ConfusionMatrix or array-like of shape (K, K)
        Rows = true class, columns = predicted class.
    display_labels : sequence, optional
        Tick labels (default: the matrix's labels).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> disp = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0],
    ...                                                ax=Figure().add_subplot())
    >>> disp.confusion_matrix.tolist(), disp.row_percentages.tolist()
    ([[1, 0], [1, 1]], [[100.0, 0.0], [50.0, 50.0]])
    """

    def __init__(self, confusion_matrix: Any, *, display_labels: Sequence[Any] | None = None):
        cm = confusion_matrix if isinstance(confusion_matrix, ConfusionMatrix) \
            else ConfusionMatrix(confusion_matrix)
        self.confusion_matrix = np.asarray(cm.counts)
        self.display_labels = list(display_labels) if display_labels is not None else cm.labels
        self.row_percentages = cm.accuracy_matrix()
        self.figure_ = None
        self.ax_ = None

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None,
                         sample_weight: Any = None, ax: Any = None,
                         **plot_kw: Any) -> ConfusionMatrixDisplay:
        """Count the predictions and draw.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n,)
            True and predicted labels.
        labels : sequence, optional
            Classes and their order (default: those seen, sorted).
        sample_weight : array-like, optional
            Non-negative weight of each sample; the cells then hold sums of weights.
        ax : matplotlib Axes, optional
            Axes to draw on; None makes a new figure.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        ConfusionMatrixDisplay
            The display, drawn.

        Raises
        ------
        ValueError
            Inputs of different lengths or bad labels (from :class:`ConfusionMatrix`).

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay.from_predictions(["a", "b"], ["a", "a"],
        ...                                             ax=Figure().add_subplot())
        >>> d.display_labels
        ['a', 'b']
        """
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, labels: Sequence[Any] | None = None,
                       sample_weight: Any = None, ax: Any = None,
                       **plot_kw: Any) -> ConfusionMatrixDisplay:
        """Predict ``X`` with a fitted classifier, count against ``y`` and draw.

        Parameters
        ----------
        estimator : fitted classifier
            Its ``predict(X)`` gives the predicted labels.
        X, y : array-like
            The samples and their true labels.
        labels, sample_weight, ax, **plot_kw
            As in :meth:`from_predictions`.

        Returns
        -------
        ConfusionMatrixDisplay
            The display, drawn.

        Examples
        --------
        >>> from sklearn.dummy import DummyClassifier
        >>> from matplotlib.figure import Figure
        >>> clf = DummyClassifier(strategy="constant", constant=1).fit([[0], [1]], [0, 1])
        >>> ConfusionMatrixDisplay.from_estimator(clf, [[0], [1]], [0, 1],
        ...                                       ax=Figure().add_subplot()).confusion_matrix.tolist()
        [[0, 1], [0, 1]]
        """
        cm = ConfusionMatrix.from_estimator(estimator, X, y, labels=labels,
                                            sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, cmap: str = "Blues", percentages: bool = True,
             colorbar: bool = True, title: str | None = None) -> ConfusionMatrixDisplay:
        """Draw the heatmap; colour encodes the row percentage so classes of different sizes
        compare fairly, each cell shows its count and (``percentages``) its row percentage.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; None makes a new figure sized to the number of classes.
        cmap : str, default "Blues"
            Matplotlib colour map of the row percentages (0 to 100).
        percentages : bool, default True
            Print each cell's row percentage under its count.
        colorbar : bool, default True
            Draw a colour bar labelled "% of true class".
        title : str, optional
            Axes title.

        Returns
        -------
        ConfusionMatrixDisplay
            ``self``, with ``figure_`` and ``ax_`` set.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay([[3, 1], [0, 4]]).plot(ax=Figure().add_subplot())
        >>> d.ax_.texts[0].get_text()
        '3\\n75.0%'
        """
        k = len(self.display_labels)
        size = max(4.0, min(12.0, 1.0 + 0.7 * k))
        fig, ax = new_ax(ax, (size + 1, size))
        pct = self.row_percentages
        im = ax.imshow(pct, cmap=cmap, vmin=0, vmax=100)
        fs = 10 if k <= 6 else (8 if k <= 12 else 6)
        for i in range(k):
            for j in range(k):
                c = self.confusion_matrix[i, j]
                txt = f"{c:g}" + (f"\n{pct[i, j]:.1f}%" if percentages else "")
                ax.text(j, i, txt, ha="center", va="center", fontsize=fs,
                        color="white" if pct[i, j] > 55 else "black")
        names = [literal_text(v) for v in self.display_labels]
        ax.set_xticks(range(k), names, rotation=45 if max(map(len, names)) > 4 else 0,
                      ha="right" if max(map(len, names)) > 4 else "center")
        ax.set_yticks(range(k), names)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        if title:
            ax.set_title(title)
        if colorbar:
            fig.colorbar(im, ax=ax, label="% of true class")
        self.figure_, self.ax_ = fig, ax
        return self
