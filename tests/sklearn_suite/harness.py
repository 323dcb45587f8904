"""Run scikit-learn's own metric tests against :mod:`confmat.sklearn`.

The test files ``sklearn/metrics/tests/test_classification.py`` and ``test_ranking.py`` are
read from the *installed* scikit-learn at test time (never copied into this repository). Only
the public names they import from ``sklearn.metrics`` that :mod:`confmat.sklearn` provides are
rewritten to come from a shim that forwards to :mod:`confmat.sklearn` and notes that it was
called; everything else (scikit-learn's private helpers, datasets, estimators) stays
scikit-learn's. The rewritten files run in a subprocess pytest with scikit-learn's conftest
(``-p sklearn.conftest``) and a JUnit XML report; each test case carries the property
``confmat_called`` (did the test call a substituted function?).

Run ``python tests/sklearn_suite/harness.py`` to print the counts and every failure.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

FILES = ("test_classification.py", "test_ranking.py")
SRC = Path(__file__).resolve().parents[2] / "src"

SHIM = '''"""Forwards the substituted names to confmat.sklearn and notes each call."""
import functools

import confmat.sklearn as _target

CALLED = [False]


def _wrap(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        CALLED[0] = True
        return func(*args, **kwargs)

    return wrapper


for _name in _target.__all__:
    globals()[_name] = _wrap(getattr(_target, _name))
'''

CONFTEST = '''import pytest

import _confmat_shim


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _confmat_shim.CALLED[0] = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    if call.when == "teardown":  # before the report is made: it copies the properties
        item.user_properties.append(("confmat_called", str(_confmat_shim.CALLED[0])))
    yield
'''


def sklearn_tests_dir() -> Path | None:
    """The installed scikit-learn's ``metrics/tests`` directory, or None."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "metrics" / "tests"


def provided() -> set[str]:
    """The public names :mod:`confmat.sklearn` provides."""
    sys.path.insert(0, str(SRC))
    try:
        import confmat.sklearn as target
    finally:
        sys.path.pop(0)
    return set(target.__all__)


def rewrite(source: str, names: set[str]) -> tuple[str, list[str]]:
    """Point the ``from sklearn.metrics import ...`` names in ``names`` at the shim."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = []
    moved: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "sklearn.metrics":
            ours = [a for a in node.names if a.name in names]
            if not ours:
                continue
            rest = [a for a in node.names if a.name not in names]
            new = ""
            if rest:
                new += "from sklearn.metrics import " + ", ".join(
                    a.name + (f" as {a.asname}" if a.asname else "") for a in rest) + "\n"
            new += "from _confmat_shim import " + ", ".join(
                a.name + (f" as {a.asname}" if a.asname else "") for a in ours) + "\n"
            moved += [a.name for a in ours]
            edits.append((node.lineno, node.end_lineno, new))
    for start, end, new in sorted(edits, reverse=True):
        lines[start - 1:end] = [new]
    return "".join(lines), moved


@dataclass
class Outcome:
    """Counts of one run: every test, those that called a substituted function, and why the
    failing ones failed."""

    total: int = 0
    calling: int = 0
    passed: int = 0
    skipped: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    other_failures: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return len(self.failures)

    @property
    def pass_rate(self) -> float:
        run = self.passed + self.failed
        return self.passed / run if run else 0.0

    def summary(self) -> str:
        return (
            f"scikit-learn suite against confmat.sklearn: {self.total} tests, "
            f"{self.calling} call the substituted functions: {self.passed} passed, "
            f"{self.failed} failed, {self.skipped} skipped; pass rate {self.pass_rate:.2%}"
        )


def run(workdir: Path, timeout: float = 900) -> Outcome:
    """Rewrite the test files into ``workdir``, run them, and count."""
    tests = sklearn_tests_dir()
    if tests is None:
        raise RuntimeError("scikit-learn is not installed")
    names = provided()
    for fname in FILES:
        text, _ = rewrite((tests / fname).read_text(), names)
        (workdir / fname).write_text(text)
    (workdir / "_confmat_shim.py").write_text(SHIM)
    (workdir / "conftest.py").write_text(CONFTEST)
    xml = workdir / "report.xml"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(workdir), env.get("PYTHONPATH", "")])
    cmd = [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "sklearn.conftest",
        "-p", "no:xdist", "-p", "no:randomly", "-o", "addopts=", "-q", "--tb=line",
        f"--junitxml={xml}", "--rootdir", str(workdir), *FILES,
    ]
    subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout)
    return parse(xml)


def parse(xml: Path) -> Outcome:
    """Count the JUnit XML report of a run."""
    out = Outcome()
    for case in ET.parse(xml).getroot().iter("testcase"):
        out.total += 1
        name = f"{case.get('classname')}::{case.get('name')}"
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        called = props.get("confmat_called") == "True"
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        reason = "" if bad is None else (bad.get("message") or "").strip().splitlines()[0:1]
        reason_text = reason[0][:300] if reason else ""
        if case.find("skipped") is not None and bad is None:
            if called:
                out.skipped += 1
            continue
        if not called:
            if bad is not None:
                out.other_failures[name] = reason_text
            continue
        out.calling += 1
        if bad is None:
            out.passed += 1
        else:
            out.failures[name] = reason_text
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        result = run(Path(tmp))
    print(result.summary())
    for test, why in sorted(result.failures.items()):
        print(f"FAILED {test}: {why}")
    for test, why in sorted(result.other_failures.items()):
        print(f"FAILED (no substituted call) {test}: {why}")
