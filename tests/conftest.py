"""Shared hypothesis strategies and helpers for the foundation tests.

The strategies draw label vectors the way users meet them: a few classes out of a pool of ints,
strings or bools, some classes never seen, a single class, optional ``labels=`` lists that add
absent classes, reorder or select a subset, and optional sample weights.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "confmat",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
# CI draws the same examples every run (a landing must not depend on luck); local runs keep
# exploring new ones and remember failures in .hypothesis/
settings.register_profile("ci", parent=settings.get_profile("confmat"), derandomize=True,
                          database=None)
settings.load_profile("ci" if os.environ.get("CI") else "confmat")

#: examples per differential family ("hundreds of random inputs")
N_EXAMPLES = 200

POOLS: dict[str, list[Any]] = {
    "int": [-3, 0, 1, 2, 5, 7, 11, 40],
    "str": ["bus", "opel", "saab", "van", "car", "a", "b", "zz"],
    "bool": [False, True],
    "float": [-2.0, 0.0, 1.0, 3.0, 8.0, 100.0],  # integral: sklearn rejects "continuous"
}


@dataclass
class Case:
    """One drawn evaluation: label vectors, optional labels= list and optional weights."""

    kind: str
    y_true: list[Any]
    y_pred: list[Any]
    labels: list[Any] | None
    sample_weight: list[float] | None

    @property
    def seen(self) -> list[Any]:
        return sorted(set(self.y_true) | set(self.y_pred))


@st.composite
def cases(
    draw: Any,
    kinds: tuple[str, ...] = ("int", "str", "bool"),
    *,
    labels: str = "any",
    weights: bool = True,
    max_size: int = 40,
    max_classes: int = 8,
) -> Case:
    """Draw a :class:`Case`.

    ``labels``: "none" (never a labels list), "any" (None, a superset with absent classes, a
    permutation, or a subset), "full" (None or a list containing every seen label).
    """
    kind = draw(st.sampled_from(kinds))
    pool = POOLS[kind]
    k = draw(st.integers(1, min(len(pool), max_classes)))
    classes = draw(st.permutations(pool))[:k]
    n = draw(st.integers(1, max_size))
    y_true = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    # bias towards correct predictions so that diagonals are not all tiny
    correct = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    others = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    y_pred = [t if c else o for t, c, o in zip(y_true, correct, others, strict=True)]
    seen = sorted(set(y_true) | set(y_pred))
    lab: list[Any] | None = None
    if labels != "none":
        choice = draw(st.sampled_from(["none", "superset", "permuted", "subset"]))
        if labels == "full" and choice == "subset":
            choice = "superset"
        if choice == "superset":
            extra = [v for v in pool if v not in seen]
            add = draw(st.lists(st.sampled_from(extra), unique=True)) if extra else []
            lab = draw(st.permutations(seen + add))
        elif choice == "permuted":
            lab = draw(st.permutations(seen))
        elif choice == "subset":
            lab = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))
    sw: list[float] | None = None
    if weights and draw(st.booleans()):
        sw = draw(
            st.lists(
                st.one_of(st.integers(0, 3).map(float), st.floats(0.0, 10.0, allow_nan=False)),
                min_size=n,
                max_size=n,
            )
        )
        if not any(w > 0 for w in sw):
            sw[0] = 1.0
    return Case(kind, y_true, y_pred, lab, sw)


@st.composite
def count_tables(draw: Any, k_min: int = 2, k_max: int = 8, high: int = 30) -> np.ndarray:
    """A K x K integer table, sometimes with all-zero rows and/or columns."""
    k = draw(st.integers(k_min, k_max))
    cells = draw(st.lists(st.integers(0, high), min_size=k * k, max_size=k * k))
    table = np.array(cells, dtype=np.int64).reshape(k, k)
    zero_rows = draw(st.lists(st.integers(0, k - 1), max_size=k - 1, unique=True))
    zero_cols = draw(st.lists(st.integers(0, k - 1), max_size=k - 1, unique=True))
    table[zero_rows, :] = 0
    table[:, zero_cols] = 0
    if table.sum() == 0:
        table[0, 0] = 1
    return table


def expand(table: Any) -> tuple[np.ndarray, np.ndarray]:
    """Label vectors (row index, column index) reproducing an integer table exactly."""
    table = np.asarray(table, dtype=np.int64)
    i, j = np.indices(table.shape)
    return np.repeat(i.ravel(), table.ravel()), np.repeat(j.ravel(), table.ravel())


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` with every warning silenced (sklearn's and ours)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def sk_or_error(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Result of a scikit-learn call, or the ValueError it raised."""
    try:
        return quiet(fn, *args, **kwargs)
    except ValueError as exc:
        return exc


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20221017)


# --- CI's log: summaries a test records with ``record_property`` (e.g. the scikit-learn suite's
# pass counts) are printed at the end of the run; reports carry them from xdist workers.
_LOGGED_PROPERTIES = ("sklearn_suite_summary",)
_logged: list[str] = []


def pytest_runtest_logreport(report: Any) -> None:
    if report.when != "call":
        return
    for key, value in getattr(report, "user_properties", ()):
        if key in _LOGGED_PROPERTIES:
            _logged.append(f"{report.nodeid}\n{value}")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _logged:
        terminalreporter.section("recorded summaries")
        for text in _logged:
            terminalreporter.write_line(text)
