"""Interpretation scales: PyCM's labels as the oracle for the bands, the bands of Yao et al. (2022) by hand,
and the errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pycm
import pytest

import confmat
from confmat.metrics.scales import PYCM_ALSO, get_scale, interpret, list_scales


def _pycm_objects(n: int = 200, seed: int = 3):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = int(rng.integers(2, 7))
        t = rng.integers(0, 15, (k, k))
        if i % 3 == 0:
            t = t + np.diag(rng.integers(5, 60, k))  # push agreement up through every band
        if i % 5 == 0:
            t[:, rng.integers(k)] = 0
        if t.sum() == 0:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append(pycm.ConfusionMatrix(matrix=t.tolist()))
    return out


PYCM_OBJECTS = _pycm_objects()

# the numeric PyCM statistic each interpretation key reads
SOURCE = {
    "SOA1(Landis & Koch)": "Kappa", "SOA2(Fleiss)": "Kappa", "SOA3(Altman)": "Kappa",
    "SOA4(Cicchetti)": "Kappa", "SOA5(Cramer)": "Cramer V", "SOA6(Matthews)": "Overall MCC",
    "SOA7(Lambda A)": "Lambda A", "SOA8(Lambda B)": "Lambda B",
    "SOA9(Krippendorff Alpha)": "Krippendorff Alpha", "SOA10(Pearson C)": "Pearson C",
    "PLRI": "PLR", "NLRI": "NLR", "DPI": "DP", "AUCI": "AUC", "MCCI": "MCC", "QI": "Q",
}


def _scales_by_pycm_key():
    out = {s.pycm: s for s in list_scales() if s.pycm}
    for key, (name, _) in PYCM_ALSO.items():
        out[key] = get_scale(get_scale_metric(name), name)
    return out


def get_scale_metric(scale_name: str) -> str:
    return next(s for s in list_scales() if s.name == scale_name).metrics[0]


def test_every_pycm_interpretation_key_has_a_scale() -> None:
    string_keys = set()
    for cm in PYCM_OBJECTS:
        string_keys |= {k for k, v in cm.overall_stat.items()
                        if isinstance(v, str) and v != "None"}
        string_keys |= {k for k, d in cm.class_stat.items()
                        if any(isinstance(v, str) and v != "None" for v in d.values())}
    assert len(string_keys) == 16
    assert string_keys <= set(SOURCE), string_keys - set(SOURCE)
    assert set(SOURCE) <= set(_scales_by_pycm_key())


@pytest.mark.parametrize("key", sorted(SOURCE))
def test_bands_agree_with_pycm_labels(key: str) -> None:
    scale = _scales_by_pycm_key()[key]
    metric = scale.metrics[0] if key not in ("MCCI", "SOA8(Lambda B)") else {
        "MCCI": "class_mcc", "SOA8(Lambda B)": "lambda_b"}[key]
    compared = 0
    for cm in PYCM_OBJECTS:
        if key in cm.overall_stat:
            pairs = [(cm.overall_stat[SOURCE[key]], cm.overall_stat[key])]
        else:
            pairs = [(cm.class_stat[SOURCE[key]][c], cm.class_stat[key][c]) for c in cm.classes]
        for value, label in pairs:
            if label == "None" or not isinstance(value, int | float):
                continue
            got = interpret(metric, value, scale.name)
            assert got.label == label, (key, value, got.label, label)
            compared += 1
    assert compared >= 100, compared


def test_yao2022_kappa_bands_by_hand() -> None:
    # Yao et al. (2022) print kappa 0.8452 (binary) and 0.6768 (three classes) and the bands
    # 0.21-0.40 acceptable, 0.41-0.60 moderate, 0.61-0.80 high, > 0.81 almost perfect
    assert interpret("kappa", 0.8452, "yao2022").label.startswith("Almost perfect")
    assert interpret("kappa", 0.6768, "yao2022").label.startswith("High")
    assert interpret("kappa", 0.30, "yao2022").label.startswith("Acceptable")
    assert interpret("kappa", 0.405, "yao2022").label.startswith("Acceptable")  # gap closed up
    assert interpret("kappa", 0.5, "yao2022").label.startswith("Moderate")
    assert "not named" in interpret("kappa", 0.1, "yao2022").label
    cm = confmat.ConfusionMatrix([[64, 0, 0], [3, 42, 17], [5, 17, 47]])  # Yao et al.'s table
    res = cm.interpret("kappa", "yao2022")
    assert res.label.startswith("High") and res.scale == "yao2022" and "Yao" in res.reference


@pytest.mark.parametrize("value", [-0.5, 0.1, 0.21, 0.405, 0.5, 0.6768, 0.805, 0.8452, 1.0])
def test_old_scale_name_warns_and_gives_the_same_band(value: float) -> None:
    new = interpret("kappa", value, "yao2022")
    with pytest.warns(DeprecationWarning, match="'seed000' is deprecated.*scale='yao2022'"):
        old = interpret("kappa", value, "seed000")
    assert old == new
    with pytest.warns(DeprecationWarning, match="yao2022"):
        sc = get_scale("kappa", "Seed000")
    assert sc is get_scale("kappa", "yao2022")
    assert "seed000" not in [s.name for s in list_scales("kappa")]


def test_band_edges() -> None:
    assert interpret("kappa", 0.2).label == "Fair"  # lower edge closed
    assert interpret("kappa", 0.19999).label == "Slight"
    assert interpret("kappa", 1.0).label == "Almost Perfect"
    assert interpret("kappa", -0.3).label == "Poor"
    assert interpret("kappa", 1.5).label == "outside the scale's bands"
    assert interpret("kappa", float("nan")).label == "undefined"
    assert interpret("lambda_a", 1.0).label == "Perfect"
    assert interpret("lambda_a", 0.0).label == "outside the scale's bands"  # as PyCM


def test_cm_interpret_overall_per_class_and_average() -> None:
    cm = confmat.ConfusionMatrix([[30, 5], [4, 40]], labels=["yes", "no"])
    k = cm.interpret("kappa")
    assert k.scale == "landis_koch" and k.metric == "kappa"
    assert k.value == pytest.approx(cm.metric("kappa"))
    per = cm.interpret("class_mcc")
    assert [p.class_label for p in per] == ["yes", "no"]
    assert cm.interpret("class_auc", average="macro").class_label is None
    assert "landis_koch" in str(k) and "Landis" in str(k)
    assert cm.interpret("cohen_kappa", "Landis & Koch").label == k.label  # alias and spelling


def test_unknown_scale_lists_the_choices() -> None:
    cm = confmat.ConfusionMatrix([[3, 1], [1, 3]])
    with pytest.raises(ValueError, match=r"unknown scale 'nope' for 'kappa'; available: "
                                         r"landis_koch, fleiss, altman, cicchetti, yao2022"):
        cm.interpret("kappa", "nope")
    with pytest.raises(ValueError, match="'recall' has no interpretation scale"):
        cm.interpret("recall")
    with pytest.raises(TypeError, match="scale must be a string"):
        cm.interpret("kappa", 3)
    with pytest.raises(ValueError, match="unknown metric"):
        cm.interpret("kapa_x")


def test_scales_are_data() -> None:
    for s in list_scales():
        assert s.reference and s.title and s.bands and s.metrics
        lows = [b.low for b in s.bands]
        assert lows == sorted(lows), s.name
        for m in s.metrics:
            confmat.get_metric(m)
        d = s.describe()
        assert d["bands"] and d["name"] == s.name
    assert not math.isnan(get_scale("mcc").bands[0].high)
