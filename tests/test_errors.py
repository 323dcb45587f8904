"""One test per bad input: the error type, and a message that names the argument at fault."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confmat
from confmat import ConfusionMatrix

from_predictions = ConfusionMatrix.from_predictions


# ----------------------------------------------------------------------------- label vectors
def test_mixed_label_types_that_cannot_be_ordered():
    with pytest.raises(TypeError, match="y_true"):
        from_predictions([1, "a"], [1, 1])


def test_mixed_label_types_in_numpy_object_array():
    with pytest.raises(TypeError, match="y_pred"):
        from_predictions([1, 2], np.array([1, "a"], dtype=object))


def test_y_true_and_y_pred_of_different_kinds():
    with pytest.raises(TypeError, match="y_true with y_pred mixes label types"):
        from_predictions([1, 2, 1], ["a", "b", "a"])


def test_nan_label_in_float_array():
    with pytest.raises(ValueError, match=r"y_true.*NaN"):
        from_predictions(np.array([1.0, np.nan, 2.0]), np.array([1.0, 2.0, 2.0]))


def test_nan_label_in_list():
    with pytest.raises(ValueError, match=r"y_pred.*missing"):
        from_predictions(["a", "b"], ["a", float("nan")])


def test_none_label():
    with pytest.raises(ValueError, match=r"y_true.*missing"):
        from_predictions(["a", None], ["a", "b"])


def test_none_label_in_pandas_series():
    with pytest.raises(ValueError, match=r"y_pred.*missing"):
        from_predictions(pd.Series(["a", "b"]), pd.Series(["a", None]))


def test_none_instead_of_labels():
    with pytest.raises(TypeError, match="y_true"):
        from_predictions(None, [1, 2])


def test_single_string_instead_of_labels():
    with pytest.raises(TypeError, match="y_pred"):
        from_predictions(["a", "b"], "ab")


def test_length_mismatch():
    with pytest.raises(ValueError, match=r"y_true and y_pred have different lengths: 3 and 2"):
        from_predictions([1, 2, 3], [1, 2])


def test_two_dimensional_y():
    with pytest.raises(ValueError, match="y_true must be 1-D"):
        from_predictions(np.zeros((3, 2), dtype=int), np.zeros(3, dtype=int))


def test_column_vector_y():
    with pytest.raises(ValueError, match=r"y_pred must be 1-D.*column"):
        from_predictions(np.zeros(3, dtype=int), np.zeros((3, 1), dtype=int))


def test_empty_input():
    with pytest.raises(ValueError, match="y_true and y_pred are empty"):
        from_predictions([], [])


# ----------------------------------------------------------------------------- labels=
def test_labels_with_duplicates_from_predictions():
    with pytest.raises(ValueError, match="labels contains duplicates"):
        from_predictions([1, 2], [1, 2], labels=[1, 2, 1])


def test_labels_with_duplicates_constructor():
    with pytest.raises(ValueError, match="labels contains duplicates"):
        ConfusionMatrix([[1, 0], [0, 1]], labels=["a", "a"])


def test_labels_wrong_length():
    with pytest.raises(ValueError, match="labels has 3 entries but the table has 2 classes"):
        ConfusionMatrix([[1, 0], [0, 1]], labels=["a", "b", "c"])


def test_labels_empty():
    with pytest.raises(ValueError, match="labels must not be empty"):
        from_predictions([1, 2], [1, 2], labels=[])


def test_labels_with_missing_value():
    with pytest.raises(ValueError, match="labels contains a missing label"):
        from_predictions(["a", "b"], ["a", "b"], labels=["a", None])


def test_labels_of_another_kind_than_the_data():
    with pytest.raises(TypeError, match="labels"):
        from_predictions(["a", "b"], ["a", "b"], labels=[0, 1])


# ----------------------------------------------------------------------------- counts
def test_negative_counts():
    with pytest.raises(ValueError, match=r"counts must be non-negative.*row 1, column 0"):
        ConfusionMatrix([[1, 0], [-2, 1]])


def test_nan_counts():
    with pytest.raises(ValueError, match="counts contains NaN"):
        ConfusionMatrix([[1.0, np.nan], [0.0, 1.0]])


def test_infinite_counts():
    with pytest.raises(ValueError, match="counts contains NaN or infinite"):
        ConfusionMatrix([[1.0, np.inf], [0.0, 1.0]])


def test_non_square_counts():
    with pytest.raises(ValueError, match=r"counts must be a square K x K table, got shape \(2, 3\)"):
        ConfusionMatrix([[1, 0, 2], [0, 1, 2]])


def test_one_dimensional_counts():
    with pytest.raises(ValueError, match="counts must be a square"):
        ConfusionMatrix([1, 2, 3])


def test_empty_counts():
    with pytest.raises(ValueError, match="counts must have at least one class"):
        ConfusionMatrix(np.zeros((0, 0)))


def test_non_numeric_counts():
    with pytest.raises(TypeError, match="counts must be a numeric array"):
        ConfusionMatrix([["a", "b"], ["c", "d"]])


def test_boolean_counts():
    with pytest.raises(TypeError, match="counts must be a numeric array"):
        ConfusionMatrix(np.eye(2, dtype=bool))


def test_bad_orientation():
    with pytest.raises(ValueError, match="orientation must be 'true_rows' or 'pred_rows'"):
        ConfusionMatrix([[1, 0], [0, 1]], orientation="columns")


# ----------------------------------------------------------------------------- metric()
CM = ConfusionMatrix([[5, 1], [2, 4]], labels=["a", "b"])


def test_unknown_metric_name_suggests_close_match():
    with pytest.raises(ValueError, match="unknown metric 'precison'; did you mean 'precision'"):
        CM.metric("precison")


def test_unknown_metric_name_without_close_match():
    with pytest.raises(ValueError, match=r"unknown metric 'qwertyuiop' \(confmat.list_metrics"):
        CM.metric("qwertyuiop")


def test_metric_name_not_a_string():
    with pytest.raises(TypeError, match="metric name must be a string"):
        CM.metric(3)


def test_unknown_average():
    with pytest.raises(ValueError, match="average must be None, 'micro', 'macro' or 'weighted'"):
        CM.metric("recall", average="binary")


def test_average_on_overall_metric():
    with pytest.raises(ValueError, match="'accuracy' is an overall metric; average='macro'"):
        CM.metric("accuracy", average="macro")


@pytest.mark.parametrize("beta", [0, -1.0, float("nan"), float("inf"), "2"])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta must be a positive finite number"):
        CM.metric("fbeta", beta=beta)


@pytest.mark.parametrize("zero_division", ["zero", 2, -1, True, None])
def test_bad_zero_division(zero_division):
    with pytest.raises(ValueError, match="zero_division must be one of"):
        CM.metric("precision", zero_division=zero_division)


def test_bad_zero_division_in_classification_report():
    with pytest.raises(ValueError, match="zero_division"):
        confmat.classification_report([0, 1], [0, 1], zero_division="skip")


def test_unexpected_metric_parameter():
    with pytest.raises(TypeError, match=r"metric 'recall' got unexpected parameter\(s\) \['beta'\]"):
        CM.metric("recall", beta=2.0)


def test_bad_kappa_weights():
    with pytest.raises(ValueError, match="weights must be None, 'linear' or 'quadratic'"):
        CM.metric("kappa", weights="cubic")


def test_bad_balanced_accuracy_adjusted():
    with pytest.raises(TypeError, match="adjusted must be True or False"):
        CM.metric("balanced_accuracy", adjusted="yes")


def test_pos_label_not_a_label():
    with pytest.raises(ValueError, match="pos_label 'c' is not one of the labels"):
        CM.metric("recall", pos_label="c")


def test_pos_label_with_average():
    with pytest.raises(ValueError, match="pos_label or average"):
        CM.metric("recall", average="macro", pos_label="a")


def test_pos_label_on_overall_metric():
    with pytest.raises(ValueError, match="pos_label applies to per-class metrics"):
        CM.metric("accuracy", pos_label="a")


# ----------------------------------------------------------------------------- normalize
@pytest.mark.parametrize("normalize", ["rows", None, True])
def test_bad_normalize(normalize):
    with pytest.raises(ValueError, match="normalize must be 'true', 'pred' or 'all'"):
        CM.normalize(normalize)


def test_bad_zero_one_loss_normalize():
    with pytest.raises(TypeError, match="normalize must be True or False"):
        CM.metric("zero_one_loss", normalize="true")


# ----------------------------------------------------------------------------- algebra
def test_merging_matrices_with_different_labels():
    other = ConfusionMatrix([[5, 1], [2, 4]], labels=["a", "c"])
    with pytest.raises(ValueError, match="different labels"):
        CM + other


def test_merging_with_something_else():
    with pytest.raises(TypeError, match="cannot add ConfusionMatrix and list"):
        CM.__add__([[1, 0], [0, 1]])


def test_binary_unknown_pos_label():
    with pytest.raises(ValueError, match="pos_label 'z'"):
        CM.binary("z")


def test_relabel_unknown_label():
    with pytest.raises(ValueError, match=r"mapping names labels not in the matrix: \['z'\]"):
        CM.relabel({"z": "y"})


def test_relabel_to_duplicates():
    with pytest.raises(ValueError, match="labels contains duplicates"):
        CM.relabel({"a": "b"})


def test_merge_classes_unknown_member():
    with pytest.raises(ValueError, match="groups 'z' is not one of the labels"):
        CM.merge_classes({"ab": ["a", "z"]})


def test_merge_classes_member_in_two_groups():
    cm = ConfusionMatrix(np.ones((3, 3), dtype=int), labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="label 'a' appears in more than one group"):
        cm.merge_classes({"x": ["a", "b"], "y": ["a", "c"]})


def test_merge_classes_empty_group():
    with pytest.raises(ValueError, match="group 'x' has no members"):
        CM.merge_classes({"x": []})


# ----------------------------------------------------------------------------- serialisation
def test_from_dict_not_a_mapping():
    with pytest.raises(TypeError, match="data must be a mapping"):
        ConfusionMatrix.from_dict([1, 2])


def test_from_dict_wrong_schema():
    d = CM.to_dict()
    d["schema"] = "pycm"
    with pytest.raises(ValueError, match="data is not a confmat confusion matrix"):
        ConfusionMatrix.from_dict(d)


def test_from_dict_wrong_version():
    d = CM.to_dict()
    d["version"] = 99
    with pytest.raises(ValueError, match="unsupported schema version 99"):
        ConfusionMatrix.from_dict(d)


def test_from_dict_missing_field():
    d = CM.to_dict()
    del d["counts"]
    with pytest.raises(ValueError, match="data is missing the 'counts' field"):
        ConfusionMatrix.from_dict(d)


def test_from_dict_inconsistent_outside_table():
    cm = from_predictions([1, 2, 3], [1, 2, 3], labels=[1, 2])
    d = cm.to_dict()
    d["outside"][0][0] += 1
    with pytest.raises(ValueError, match="'outside' table does not match 'counts'"):
        ConfusionMatrix.from_dict(d)


def test_from_json_not_json():
    with pytest.raises(ValueError, match="text is not valid JSON"):
        ConfusionMatrix.from_json("{not json")


# ----------------------------------------------------------------------------- sample_weight
def test_negative_sample_weight():
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        from_predictions([1, 2], [1, 2], sample_weight=[1.0, -1.0])


def test_nan_sample_weight():
    with pytest.raises(ValueError, match="sample_weight contains NaN"):
        from_predictions([1, 2], [1, 2], sample_weight=[1.0, np.nan])


def test_sample_weight_wrong_length():
    with pytest.raises(ValueError, match="sample_weight has 3 entries but there are 2 samples"):
        from_predictions([1, 2], [1, 2], sample_weight=[1.0, 1.0, 1.0])


def test_sample_weight_not_numeric():
    with pytest.raises(TypeError, match="sample_weight must be numeric"):
        from_predictions([1, 2], [1, 2], sample_weight=["a", "b"])


def test_sample_weight_all_zero():
    with pytest.raises(ValueError, match="sample_weight must contain at least one non-zero"):
        from_predictions([1, 2], [1, 2], sample_weight=[0.0, 0.0])


def test_sample_weight_two_dimensional():
    with pytest.raises(ValueError, match="sample_weight must be 1-D"):
        from_predictions([1, 2], [1, 2], sample_weight=np.ones((2, 2)))


# ----------------------------------------------------------------------------- other front doors
def test_classification_report_bad_digits():
    with pytest.raises(ValueError, match="digits must be a non-negative integer"):
        confmat.classification_report([0, 1], [0, 1], digits=-1)


def test_classification_report_target_names_wrong_length():
    with pytest.raises(ValueError, match="does not match size of target_names"):
        confmat.classification_report([0, 1], [0, 1], target_names=["a"])


def test_hamming_loss_indicator_shapes_differ():
    with pytest.raises(ValueError, match="y_true and y_pred have different shapes"):
        confmat.hamming_loss(np.zeros((2, 3)), np.zeros((2, 2)))


def test_hamming_loss_indicator_not_binary():
    with pytest.raises(ValueError, match="y_true must contain only 0 and 1"):
        confmat.hamming_loss(np.array([[0, 2], [1, 0]]), np.zeros((2, 2)))


def test_multilabel_confusion_matrix_bad_column_labels():
    with pytest.raises(ValueError, match=r"labels must be column indices in \[0, 2\)"):
        confmat.multilabel_confusion_matrix(np.eye(2), np.eye(2), labels=[0, 5])


def test_from_estimator_without_predict():
    with pytest.raises(TypeError, match="estimator must have a predict method"):
        ConfusionMatrix.from_estimator(object(), [[0]], [0])
