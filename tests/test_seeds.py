"""The worked numbers of the published sources (Yao et al. 2022, Kneusel 2021, blog posts on
scikit-learn's metrics), as plain unit tests.

Every expected number below is printed in a source (quoted with its place) or, where the source is
wrong, worked by hand in the test; ``docs/seed_errata.md`` lists each disagreement. Printed
numbers are compared at the source's own rounding: a value printed with d decimals must be within
half a unit of its last place.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn import metrics as skm

import confmat
from confmat import ConfusionMatrix


def printed(value: float, shown: float, decimals: int = 4) -> bool:
    """``value`` rounds to ``shown`` at the source's precision (half a unit in the last place)."""
    return abs(value - shown) <= 0.5 * 10.0**-decimals + 1e-12


def assert_printed(values, shown, decimals: int = 4) -> None:
    values = np.atleast_1d(np.asarray(values, dtype=np.float64)).ravel()
    shown = np.atleast_1d(np.asarray(shown, dtype=np.float64)).ravel()
    assert values.shape == shown.shape
    for v, s in zip(values.tolist(), shown.tolist(), strict=True):
        assert printed(v, s, decimals), f"{v} does not round to the printed {s}"


# ================================================================ Yao, Yang & Li (2022)
PAPER_2 = [[61, 2], [8, 58]]
PAPER_3 = [[64, 0, 0], [3, 42, 17], [5, 17, 47]]


def _yao_exact_float(c) -> float:
    """The generalised MCC of Yao et al. (2022) (section 3.2.2) worked with exact integers:
    ((prod_i C_ii)^(K-1) - prod_{i!=j} C_ij) / sqrt(prod_i prod_{j!=i} (C_ii + C_ij) *
    prod_j prod_{i!=j} (C_jj + C_ij))."""
    k = len(c)
    t = math.prod(c[i][i] for i in range(k)) ** (k - 1)
    f = math.prod(c[i][j] for i in range(k) for j in range(k) if i != j)
    a = math.prod(c[i][i] + c[i][j] for i in range(k) for j in range(k) if i != j)
    p = math.prod(c[j][j] + c[i][j] for j in range(k) for i in range(k) if i != j)
    num = t - f
    return math.copysign(math.sqrt(Fraction(num * num, a * p)), num)


class TestPaperBinary:
    """Yao et al. (2022), the 2 x 2 matrix of section 2.2 and every figure printed for it."""

    cm = ConfusionMatrix(PAPER_2)

    def test_accuracy(self):
        assert_printed(self.cm.metric("accuracy"), 0.9225)

    def test_recall_precision_f1(self):
        assert_printed(self.cm.metric("recall"), [0.9683, 0.8788])
        assert_printed(self.cm.metric("precision"), [0.8841, 0.9667])
        assert_printed(self.cm.metric("f1"), [0.9242, 0.9206])

    def test_gmean(self):
        # "Gmean_binary = np.sqrt(Recall_binary[0]*Recall_binary[1])" -> 0.9224
        assert_printed(self.cm.metric("gmean"), 0.9224)
        # the binary G-mean is sqrt(TPR * TNR) of either class
        assert_printed(self.cm.metric("class_gmean"), [0.9224, 0.9224])

    def test_mcc_and_generalised_mcc(self):
        assert_printed(self.cm.metric("mcc"), 0.8489)
        # "将二分类混淆矩阵代入函数中验证 ... 同为 0.8489"
        assert_printed(self.cm.metric("mcc_yao2022"), 0.8489)
        assert_printed(self.cm.metric("class_mcc"), [0.8489, 0.8489])

    def test_kappa(self):
        assert_printed(self.cm.metric("kappa"), 0.8452)


class TestPaperThreeClass:
    """Yao et al. (2022), the 3 x 3 matrix and every figure printed for it."""

    cm = ConfusionMatrix(PAPER_3)

    def test_accuracy(self):
        assert_printed(self.cm.metric("accuracy"), 0.7846)

    def test_per_class(self):
        assert_printed(self.cm.metric("recall"), [1, 0.6774, 0.6812])
        assert_printed(self.cm.metric("precision"), [0.8889, 0.7119, 0.7344])
        assert_printed(self.cm.metric("f1"), [0.9412, 0.6942, 0.7068])

    def test_f1_averages(self):
        assert_printed(self.cm.metric("f1", "micro"), 0.7846)
        assert_printed(self.cm.metric("f1", "macro"), 0.7807)
        assert_printed(self.cm.metric("f1", "weighted"), 0.7797)

    def test_gmean(self):
        assert_printed(self.cm.metric("gmean"), 0.7727)

    def test_generalised_mcc(self):
        assert_printed(self.cm.metric("mcc_yao2022"), 0.4520)
        # and to full precision against the formula worked with exact integers
        assert self.cm.metric("mcc_yao2022") == pytest.approx(_yao_exact_float(PAPER_3), rel=1e-12)
        # it is not the R_K statistic scikit-learn calls MCC
        assert not printed(self.cm.metric("mcc"), 0.4520)

    def test_kappa(self):
        assert_printed(self.cm.metric("kappa"), 0.6768)

    def test_from_predictions_reproduces_the_matrix(self):
        i, j = np.indices((3, 3))
        t = np.repeat(i.ravel(), np.ravel(PAPER_3))
        p = np.repeat(j.ravel(), np.ravel(PAPER_3))
        assert ConfusionMatrix.from_predictions(t, p) == self.cm


def test_paper_mcc_range_claim():
    """Yao et al. (2022) say MCC = -1 when TP = TN = 0 (every sample wrong): true for two classes."""
    assert ConfusionMatrix([[0, 5], [7, 0]]).metric("mcc") == pytest.approx(-1.0)
    # ... and MCC = 0 when every sample is predicted positive (a zero denominator)
    assert ConfusionMatrix([[5, 0], [7, 0]]).metric("mcc") == 0.0


# ================================================================ Kneusel (2021), ch. 11
# Table 11-4, printed with predicted rows and actual columns, class 1 first
TABLE_11_4 = [[312, 133], [6, 645]]

# Table 11-5: TP, TN, FP, FN, then TPR, TNR, PPV, NPV, FPR, FNR; Table 11-6: F1, MCC,
# kappa, informedness, markedness (class 1 = the digit five is positive)
TABLE_11_5 = {
    "Nearest Centroid": ((760, 909, 101, 132), (0.8520, 0.9000, 0.8827, 0.8732, 0.1000, 0.1480)),
    "3-NN": ((878, 994, 16, 14), (0.9843, 0.9842, 0.9821, 0.9861, 0.0158, 0.0157)),
    "Naive Bayes": ((612, 976, 34, 280), (0.6851, 0.9663, 0.9474, 0.7771, 0.0337, 0.3139)),
    "RF 500": ((884, 1003, 7, 8), (0.9910, 0.9931, 0.9921, 0.9921, 0.0069, 0.0090)),
    "LinearSVM": ((853, 986, 24, 39), (0.9563, 0.9762, 0.9726, 0.9620, 0.0238, 0.0437)),
}
TABLE_11_6 = {
    "Nearest Centroid": (0.8671, 0.7540, 0.7535, 0.7520, 0.7559),
    "3-NN": (0.9832, 0.9683, 0.9683, 0.9685, 0.9682),
    "Naive Bayes": (0.7958, 0.6875, 0.6631, 0.6524, 0.7244),
    "RF 500": (0.9916, 0.9842, 0.9842, 0.9841, 0.9842),
    "LinearSVM": (0.9644, 0.9335, 0.9334, 0.9325, 0.9346),
}
BASIC = ("recall", "specificity", "precision", "npv", "fpr", "fnr")
ADVANCED = ("f1", "class_mcc", "kappa", "informedness", "markedness")


def _book_2x2(tp, tn, fp, fn) -> ConfusionMatrix:
    return ConfusionMatrix([[tp, fn], [fp, tn]], labels=["five", "three"])


def _value(cm: ConfusionMatrix, name: str) -> float:
    if confmat.get_metric(name).kind == "overall":
        return cm.metric(name)
    return cm.metric(name, pos_label="five")


def test_table_11_4_pred_rows():
    cm = ConfusionMatrix(TABLE_11_4, labels=[1, 0], orientation="pred_rows")
    assert cm.counts.tolist() == [[312, 6], [133, 645]]
    assert_printed(cm.metric("recall", pos_label=1), 0.9811)
    assert_printed(cm.metric("precision", pos_label=1), 0.7011)
    assert_printed(cm.metric("npv", pos_label=1), 0.9908)
    # printed TNR = 0.8398 is a typo: TN / (TN + FP) = 645 / 778 = 0.8290 (erratum)
    assert cm.metric("specificity", pos_label=1) == pytest.approx(645 / 778)
    assert_printed(cm.metric("specificity", pos_label=1), 0.8290)
    assert not printed(cm.metric("specificity", pos_label=1), 0.8398)


@pytest.mark.parametrize("model", list(TABLE_11_5))
def test_table_11_5_basic_metrics(model):
    counts, shown = TABLE_11_5[model]
    cm = _book_2x2(*counts)
    tp, fn = counts[0], counts[3]
    for name, value in zip(BASIC, shown, strict=True):
        ours = _value(cm, name)
        if model == "Naive Bayes" and name == "recall":
            # erratum: Kneusel prints 0.6851, but 612 / (612 + 280) = 0.6861; its own
            # FNR (0.3139) and informedness (0.6524) agree with 0.6861
            assert ours == pytest.approx(tp / (tp + fn))
            assert_printed(ours, 0.6861)
            assert not printed(ours, value)
            assert_printed(1 - ours, shown[5])
            continue
        assert_printed(ours, value)


@pytest.mark.parametrize("model", list(TABLE_11_6))
def test_table_11_6_advanced_metrics(model):
    counts, _ = TABLE_11_5[model]
    cm = _book_2x2(*counts)
    for name, value in zip(ADVANCED, TABLE_11_6[model], strict=True):
        assert_printed(_value(cm, name), value)
    # the multi-class R_K equals the binary MCC for two classes
    assert cm.metric("mcc") == pytest.approx(_value(cm, "class_mcc"), rel=1e-12)
    # Kneusel (2021): MCC is the geometric mean of informedness and markedness
    bm, mk = _value(cm, "informedness"), _value(cm, "markedness")
    assert _value(cm, "class_mcc") == pytest.approx(math.sqrt(bm * mk), rel=1e-12)


TABLE_11_8 = np.array([
    [943, 0, 6, 9, 0, 10, 7, 1, 4, 0],
    [0, 1102, 14, 5, 1, 1, 3, 1, 8, 0],
    [16, 15, 862, 36, 18, 1, 17, 24, 41, 2],
    [3, 1, 10, 937, 0, 20, 3, 13, 17, 6],
    [2, 8, 4, 2, 879, 0, 14, 1, 6, 66],
    [19, 3, 3, 53, 13, 719, 17, 3, 44, 18],
    [14, 3, 4, 2, 21, 15, 894, 1, 4, 0],
    [3, 21, 32, 7, 10, 1, 0, 902, 1, 51],
    [17, 14, 11, 72, 11, 46, 21, 9, 749, 24],
    [10, 11, 1, 13, 42, 5, 2, 31, 10, 884],
])

TABLE_11_9 = np.array([
    [96.2, 0.0, 0.6, 0.9, 0.0, 1.1, 0.7, 0.1, 0.4, 0.0],
    [0.0, 97.1, 1.4, 0.5, 0.1, 0.1, 0.3, 0.1, 0.8, 0.0],
    [1.6, 1.3, 83.5, 3.6, 1.8, 0.1, 1.8, 2.3, 4.2, 0.2],
    [0.3, 0.1, 1.0, 92.8, 0.0, 2.2, 0.3, 1.3, 1.7, 0.6],
    [0.2, 0.7, 0.4, 0.2, 89.5, 0.0, 1.5, 0.1, 0.6, 6.5],
    [1.9, 0.3, 0.3, 5.2, 1.3, 80.6, 1.8, 0.3, 4.5, 1.8],
    [1.4, 0.3, 0.4, 0.2, 2.1, 1.7, 93.3, 0.1, 0.4, 0.0],
    [0.3, 1.9, 3.1, 0.7, 1.0, 0.1, 0.0, 87.7, 0.1, 5.1],
    [1.7, 1.2, 1.1, 7.1, 1.1, 5.2, 2.2, 0.9, 76.9, 2.4],
    [1.0, 1.0, 0.1, 1.3, 4.3, 0.6, 0.2, 3.0, 1.0, 87.6],
])


class TestBookTenClasses:
    cm = ConfusionMatrix(TABLE_11_8)

    def test_accuracy_matrix_diagonal_is_table_11_9(self):
        acc = self.cm.accuracy_matrix()
        assert_printed(np.diag(acc), np.diag(TABLE_11_9), decimals=1)
        assert_printed(self.cm.metric("class_accuracy") * 100, np.diag(TABLE_11_9), decimals=1)

    def test_accuracy_matrix_is_row_percentages(self):
        acc = self.cm.accuracy_matrix()
        expected = 100 * skm.confusion_matrix(*_expand(TABLE_11_8), normalize="true")
        np.testing.assert_allclose(acc, expected, rtol=1e-12)
        np.testing.assert_allclose(acc.sum(axis=1), 100.0)

    def test_printed_off_diagonal_comes_from_the_books_broadcasting_bug(self):
        """Erratum: Kneusel's ``cmat / cmat.sum(axis=1)`` divides column j by the total of
        ROW j; the printed Table 11-9 is exactly that, so its rows do not sum to 100 %."""
        rows = TABLE_11_8.sum(axis=1)
        book = np.array([[100 * TABLE_11_8[i, j] / rows[j] for j in range(10)] for i in range(10)])
        assert_printed(book, TABLE_11_9, decimals=1)
        ours = self.cm.accuracy_matrix()
        off = ~np.eye(10, dtype=bool)
        wrong = np.abs(np.round(ours, 1) - TABLE_11_9) > 0.05
        assert wrong[off].sum() > 20  # the correct matrix differs from the printed one ...
        assert not wrong[~off].any()  # ... everywhere but on the diagonal
        assert np.abs(TABLE_11_9.sum(axis=1) - 100).max() > 1  # printed rows don't sum to 100

    def test_weighted_accuracy_table_11_13(self):
        assert_printed(self.cm.metric("weighted_accuracy") * 100, 88.71, decimals=2)
        # Kneusel's weighted_mean_acc worked by hand
        n, c = TABLE_11_8.sum(), TABLE_11_8.sum(axis=1)
        assert self.cm.metric("weighted_accuracy") * 100 == pytest.approx(
            ((c / n) * (100 * np.diag(TABLE_11_8) / c)).sum()
        )

    def test_mcc_table_11_14(self):
        assert_printed(self.cm.metric("mcc"), 0.8747)
        assert self.cm.metric("mcc") == pytest.approx(
            skm.matthews_corrcoef(*_expand(TABLE_11_8)), rel=1e-12
        )


def test_tables_11_11_and_11_12_weighted_accuracy():
    """Three classes of 4,004 / 6,502 / 8,080 samples with accuracies 88.1 / 76.6 / 65.2 %."""
    freq = np.array([4004.0, 6502.0, 8080.0])
    acc = np.array([88.1, 76.6, 65.2]) / 100
    diag = freq * acc
    table = np.diag(diag)
    table[0, 1], table[1, 2], table[2, 0] = freq - diag  # misses anywhere off the diagonal
    cm = ConfusionMatrix(table)
    assert cm.n == pytest.approx(18586)
    assert_printed(cm.metric("prevalence"), [0.2154, 0.3498, 0.4347])
    assert_printed(cm.metric("weighted_accuracy") * 100, 74.1, decimals=1)


# ================================================================ multi-class F1 (blog)
SEED3_Y_TRUE = [int(v) for v in
                "0 1 3 2 3 0 2 2 3 3 3 0 1 4 4 0 1 3 2 2 1 3 2 0 2 4 1 0 1 0 4 3 3 3 2 1 0 3 0".split()]
SEED3_Y_PRED = [int(v) for v in
                "0 1 3 0 2 0 2 2 1 2 3 0 0 4 4 0 1 4 2 2 0 3 2 1 2 4 3 1 1 3 4 3 0 2 2 3 2 2 1".split()]


def test_three_class_blog_example_pred_rows():
    """The worked 3-class example: rows are predicted classes (precision sums rows)."""
    cm = ConfusionMatrix([[23, 3, 2], [4, 25, 6], [5, 2, 30]], labels=["C1", "C2", "C3"],
                         orientation="pred_rows")
    assert cm.metric("accuracy") == pytest.approx(78 / 100)
    assert_printed(cm.metric("precision", pos_label="C1"), 0.821, decimals=3)
    assert_printed(cm.metric("recall", pos_label="C1"), 0.719, decimals=3)
    assert_printed(cm.metric("specificity", pos_label="C1"), 0.93, decimals=2)
    assert cm.metric("specificity", pos_label="C1") == pytest.approx(63 / 68)
    assert_printed(cm.metric("f1", pos_label="C1"), 0.767, decimals=3)


def test_seed3_five_class_example():
    cm = ConfusionMatrix.from_predictions(SEED3_Y_TRUE, SEED3_Y_PRED)
    # the seed counts confusion[y_predict[i]][y_true[i]]: predicted rows
    seed_table = np.zeros((5, 5))
    for t, p in zip(SEED3_Y_TRUE, SEED3_Y_PRED, strict=True):
        seed_table[p][t] += 1
    assert ConfusionMatrix(seed_table.astype(int), orientation="pred_rows") == cm
    assert cm.metric("accuracy") == pytest.approx(0.5641025641025641, rel=1e-15)
    np.testing.assert_allclose(
        cm.metric("precision"), [0.5, 0.42857143, 0.58333333, 0.57142857, 0.8], atol=5e-9
    )
    np.testing.assert_allclose(
        cm.metric("recall"), [0.44444444, 0.42857143, 0.875, 0.36363636, 1.0], atol=5e-9
    )
    np.testing.assert_allclose(
        cm.metric("f1"), [0.47058824, 0.42857143, 0.7, 0.44444444, 0.88888889], atol=5e-9
    )


def test_seed3_classification_report_matches_sklearn():
    names = ["C1", "C2", "C3", "C4", "C5"]
    ours = confmat.classification_report(SEED3_Y_TRUE, SEED3_Y_PRED, target_names=names)
    assert ours == skm.classification_report(SEED3_Y_TRUE, SEED3_Y_PRED, target_names=names)


# ================================================================ scikit-learn kappa and report (blog)
def test_seed4_confusion_matrix():
    cm = ConfusionMatrix.from_predictions([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    assert cm.counts.tolist() == [[2, 0, 0], [0, 0, 1], [1, 0, 2]]


def test_seed4_normalize_all_and_binary_counts():
    cm = ConfusionMatrix.from_predictions([0, 0, 0, 1, 1, 1, 1, 1], [0, 1, 0, 1, 0, 1, 0, 1])
    assert cm.normalize("all").tolist() == [[0.25, 0.125], [0.25, 0.375]]
    # tn, fp, fn, tp = confusion_matrix(...).ravel() -> 2 1 2 3
    assert cm.counts.ravel().tolist() == [2, 1, 2, 3]
    assert cm.one_vs_rest()[1].ravel().tolist() == [2, 1, 2, 3]
    assert cm.binary(1).counts.tolist() == [[3, 2], [1, 2]]  # [[TP, FN], [FP, TN]]


def test_seed4_kappa_example():
    cm = ConfusionMatrix.from_predictions([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    assert cm.metric("kappa") == pytest.approx(0.4285714285714286, rel=1e-15)
    # its hand computation: p_o = 2/3, p_e = 15/36, kappa = 3/7
    assert cm.metric("kappa") == pytest.approx(float(Fraction(3, 7)), rel=1e-15)


def test_seed4_teachers_kappa():
    """Two teachers grading 87 essays. The seed's sums give rows 20/45/22 and columns
    20/39/28: p_o = 60/87 = 0.6897 (printed truncated as 0.689), but p_e = 2771/7569 = 0.3661, not the printed
    0.455, so kappa = 0.5104, not 0.4293578 (erratum; the printed kappa follows from the
    printed p_o and p_e)."""
    table = [[10, 2, 8], [5, 35, 5], [5, 2, 15]]
    cm = ConfusionMatrix(table)
    assert cm.stats().rows.tolist() == [20, 45, 22]
    assert cm.stats().cols.tolist() == [20, 39, 28]
    po = Fraction(60, 87)
    pe = Fraction(20 * 20 + 45 * 39 + 22 * 28, 87 * 87)
    assert math.floor(float(po) * 1000) / 1000 == 0.689  # truncated, not rounded
    assert not printed(float(pe), 0.455, decimals=3)
    kappa = (po - pe) / (1 - pe)
    assert cm.metric("kappa") == pytest.approx(float(kappa), rel=1e-14)
    assert_printed(cm.metric("kappa"), 0.5104)
    assert (0.689 - 0.455) / (1 - 0.455) == pytest.approx(0.4293578, abs=5e-8)


SEED4_REPORT = """\
              precision    recall  f1-score   support

     class 0       0.67      1.00      0.80         2
     class 1       0.00      0.00      0.00         1
     class 2       1.00      0.50      0.67         2

    accuracy                           0.60         5
   macro avg       0.56      0.50      0.49         5
weighted avg       0.67      0.60      0.59         5
"""

SEED4_REPORT_LABELS = """\
              precision    recall  f1-score   support

           1       0.00      0.00      0.00         1
           2       1.00      0.50      0.67         2

   micro avg       0.50      0.33      0.40         3
   macro avg       0.50      0.25      0.33         3
weighted avg       0.67      0.33      0.44         3
"""


def test_seed4_classification_report_target_names():
    y_true, y_pred = [0, 1, 2, 2, 0], [0, 0, 2, 1, 0]
    names = ["class 0", "class 1", "class 2"]
    text = confmat.classification_report(y_true, y_pred, target_names=names)
    assert text == SEED4_REPORT


def test_seed4_classification_report_labels_subset_micro_avg():
    y_true, y_pred = [0, 1, 2, 2, 0], [0, 0, 2, 1, 0]
    text = confmat.classification_report(y_true, y_pred, labels=[1, 2], zero_division=0)
    assert text == SEED4_REPORT_LABELS


def test_seed4_hamming_loss():
    assert confmat.hamming_loss([2, 2, 3, 4], [1, 2, 3, 4]) == 0.25
    assert confmat.hamming_loss(np.array([[0, 1], [1, 1]]), np.zeros((2, 2))) == 0.75


def _expand(table):
    table = np.asarray(table)
    i, j = np.indices(table.shape)
    return np.repeat(i.ravel(), table.ravel()), np.repeat(j.ravel(), table.ravel())
