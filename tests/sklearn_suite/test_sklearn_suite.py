"""Acceptance: scikit-learn's own tests of the metrics pass against confmat.sklearn.

The test files come from the installed scikit-learn at test time (see ``harness.py``); at
least 99 % of the tests that call a substituted function must pass, and every failure must be
one listed, with its reason, in docs/sklearn.md.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import harness

SUMMARY_PROPERTY = "sklearn_suite_summary"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "sklearn.md"

pytestmark = pytest.mark.skipif(
    harness.sklearn_tests_dir() is None or not harness.sklearn_tests_dir().is_dir(),
    reason="scikit-learn (with its tests) is not installed",
)


def documented_failures() -> set[str]:
    """Test names listed in the failure table of docs/sklearn.md."""
    text = DOCS.read_text()
    return set(re.findall(r"`(test_\w+(?:::\w+)?(?:\[[^\]`]*\])?)`", text))


def test_rewrite_moves_only_provided_names():
    source = "from sklearn.metrics import (\n    f1_score,\n    log_loss,\n)\nx = 1\n"
    text, moved = harness.rewrite(source, {"f1_score"})
    assert moved == ["f1_score"]
    assert "from sklearn.metrics import log_loss\n" in text
    assert "from _confmat_shim import f1_score\n" in text
    assert text.endswith("x = 1\n")


def test_scikit_learn_suite_passes(tmp_path, record_property):
    result = harness.run(tmp_path)
    # the counts belong in CI's log: tests/conftest.py prints this property in pytest's
    # terminal summary (it travels from an xdist worker to the controller with the report)
    lines = [result.summary()] + [f"  FAILED {n}: {why}" for n, why in sorted(result.failures.items())]
    record_property(SUMMARY_PROPERTY, "\n".join(lines))
    assert result.calling >= 300, result.summary()  # the substitution reached the tests
    assert result.pass_rate >= 0.99, result.summary()
    listed = documented_failures()
    unlisted = [n for n in result.failures if n not in listed]
    assert not unlisted, f"failures missing from docs/sklearn.md: {unlisted}"
