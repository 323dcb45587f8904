"""explain(): every registry metric carries every explanatory field."""

from __future__ import annotations

import json

import pytest

import confmat
from confmat import explain, list_metrics

FIELDS = ("name", "full_name", "kind", "family", "formula", "direction", "meaning",
          "prefer_when", "avoid_when", "references")


@pytest.mark.parametrize("name", [s.name for s in list_metrics()])
def test_every_metric_has_every_field(name: str) -> None:
    e = explain(name)
    for f in FIELDS:
        value = getattr(e, f)
        assert value, f"{name}: {f} is empty"
        if isinstance(value, str) and f != "name":
            assert value.strip() == value and len(value) > 2, (name, f)
    lo, hi = e.range
    assert lo < hi, name
    assert all(len(r) > 20 for r in e.references), name
    assert e.higher_is_better is confmat.get_metric(name).higher_is_better
    text = str(e)
    for needle in (name, "formula:", "prefer when:", "avoid when:", "references:"):
        assert needle in text, (name, needle)
    assert json.dumps(e.to_dict(), default=str)


def test_counterparts_are_named() -> None:
    e = explain("recall")
    assert "sklearn.metrics.recall_score" in e.sklearn
    assert "imblearn.metrics.sensitivity_score" in e.sklearn
    assert any("'TPR Macro'" in p and "average='macro'" in p for p in e.pycm)
    assert explain("fbeta").pycm and any("beta=0.5" in p for p in explain("fbeta").pycm)
    assert any("differs" in p for p in explain("yule_q").pycm)


def test_pycm_key_and_alias_lookup() -> None:
    assert explain("TPR Macro").name == "recall"
    assert explain("TPR Macro").asked_as == "TPR Macro"
    assert "TPR Macro" in str(explain("TPR Macro"))
    assert explain("sensitivity").name == "recall"
    assert explain("Kappa 95% CI").name == "kappa_ci_lower"
    with pytest.raises(ValueError, match="did you mean"):
        explain("recal")
    # PyCM's string-valued interpretation keys lead to the metric that has the scale
    from confmat.metrics.scales import list_scales
    assert explain("SOA1(Landis & Koch)").name == "kappa"
    assert explain("PLRI").name == "lr_plus" and "plr" in explain("PLRI").scales
    assert explain("MCCI").name == "class_mcc"
    for sc in list_scales():
        if sc.pycm:
            assert sc.name in explain(sc.pycm).scales


def test_seed_arguments_are_carried() -> None:
    assert "TN" in explain("f1").avoid_when  # F1 ignores true negatives (Kneusel 2021)
    assert "MCC" in explain("mcc").prefer_when or "one metric" in explain("mcc").prefer_when
    assert "[0, 1]" in explain("mcc").notes  # Kneusel (2021)'s error corrected
    assert "shape" in explain("class_auc").avoid_when  # AUC hides the curve shape
    assert explain("kappa").scales[:1] == ("landis_koch",)
    assert "yao2022" in explain("kappa").scales


def test_metric_guide_is_current() -> None:
    """docs/metrics.md is what scripts/gen_metrics_doc.py renders from the registry now."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("gen_metrics_doc",
                                                  root / "scripts" / "gen_metrics_doc.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    fresh = gen.render()
    committed = (root / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert committed == fresh, "docs/metrics.md is stale: run python scripts/gen_metrics_doc.py"
    for name in (s.name for s in list_metrics()):
        assert f"### `{name}`" in fresh
    assert "MCC lies in [0, 1]" in fresh  # Kneusel (2021)'s error is noted


def _pycm_stat_keys() -> dict[str, bool]:
    """PyCM's own keys (the oracle): every key of ``class_stat`` and ``overall_stat`` of a few
    tables, True for the interpretation keys (values that are words, not numbers)."""
    import warnings

    import pycm

    keys: dict[str, bool] = {}
    for table in ([[9, 1, 0], [2, 7, 1], [0, 3, 8]], [[30, 4], [6, 25]], [[5, 5], [4, 6]]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cm = pycm.ConfusionMatrix(matrix={i: dict(enumerate(r)) for i, r in enumerate(table)})
        for key, value in cm.overall_stat.items():
            keys[key] = keys.get(key, False) or (isinstance(value, str) and value != "None")
        for key, per_class in cm.class_stat.items():
            keys[key] = keys.get(key, False) or any(isinstance(v, str) and v != "None"
                                                    for v in per_class.values())
    return keys


def test_explain_accepts_exactly_the_pycm_keys_metrics_pycm_lists(capsys) -> None:
    """One key set: a PyCM key works in ``confmat explain`` if and only if ``confmat metrics
    --pycm`` lists it; PyCM's interpretation keys (read from PyCM itself) are among them."""
    from confmat.cli.app import main

    assert main(["metrics", "--pycm", "--json"]) == 0
    listed = {e["key"]: e for e in json.loads(capsys.readouterr().out)}
    pycm_keys = _pycm_stat_keys()
    words = {k for k, is_words in pycm_keys.items() if is_words}
    assert len(words) == 16, sorted(words)  # PyCM 4.6: SOA1-SOA10, PLRI, NLRI, DPI, AUCI, MCCI, QI
    assert words <= set(listed), sorted(words - set(listed))
    for key in words:  # listed with the scale whose bands are PyCM's words
        assert listed[key]["scale"] in explain(key).scales, key
        assert explain(key).name == listed[key]["metric"], key
    for key in sorted(set(pycm_keys) | set(listed)):
        try:
            explain(key)
            accepted = True
        except ValueError:
            accepted = False
        assert accepted == (key in listed), key


def test_a_key_metrics_pycm_does_not_list_is_refused_with_suggestions() -> None:
    with pytest.raises(ValueError, match=r"^unknown metric 'SOA1\(Landis Koch\)'; did you mean "
                                         r"'SOA1\(Landis & Koch\)'"):
        explain("SOA1(Landis Koch)")
