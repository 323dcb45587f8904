"""Print the pip requirements of the lowest-versions environment (scripts/check_floors.sh).

Every ``name>=X`` of the core dependencies and of the extras the library uses at run time
becomes ``name==X``, so that the environment holds exactly the floors pyproject.toml declares
(no second list of versions to keep in sync). The test tools the floor tests import are named
here without versions: their specifiers are read from the ``test`` extra, and pip picks the
newest versions compatible with the pinned floors. scikit-learn is one of them although the
``all`` extra lists it: confmat uses only its ``UndefinedMetricWarning`` class, while the tests
use it as their oracle, and an old oracle would test scikit-learn rather than confmat.

Usage: ``python scripts/floor_pins.py pyproject.toml`` prints one requirement a line.
"""

from __future__ import annotations

import re
import sys

import tomllib

#: extras whose libraries confmat imports at run time (their floors are pinned)
RUNTIME_EXTRAS = ("plot", "fast", "pandas", "scale", "all")
#: test tools the floor tests import (their specifiers come from the test extra)
TEST_TOOLS = (
    "pytest", "pytest-xdist", "hypothesis", "mpmath", "fairlearn", "pycm", "statsmodels",
    "scikit-learn",
)
#: test tools pinned lower than the test extra because newer ones need newer core libraries:
#: fairlearn 0.10 and later require numpy >= 1.24.4 and pandas >= 2.0.3
LOWER = {"fairlearn": "fairlearn<0.10"}

REQ = re.compile(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(.*)")


def split(req: str) -> tuple[str, str, str]:
    """Return the name, the extras in brackets (or "") and the version specifier of ``req``."""
    m = REQ.fullmatch(req.strip())
    if m is None:
        raise ValueError(f"requirement must be 'name[extras]specifier', got {req!r}")
    return m[1].lower(), m[2] or "", m[3].strip()


def pins(project: dict) -> list[str]:
    """The floors of the core dependencies and the run-time extras, each pinned with ``==``
    (the test tools among them excepted: see :func:`test_tools`)."""
    extras = project["optional-dependencies"]
    reqs = list(project["dependencies"])
    for extra in RUNTIME_EXTRAS:
        reqs += extras[extra]
    out: dict[str, str] = {}
    for req in reqs:
        name, brackets, spec = split(req)
        if name in TEST_TOOLS:
            continue
        m = re.fullmatch(r">=\s*([0-9][0-9.]*)", spec)
        if m is None:
            raise ValueError(f"a run-time requirement must read 'name>=X', got {req!r}")
        pinned = f"{name}{brackets}=={m[1]}"
        if out.setdefault(name, pinned) != pinned:
            raise ValueError(f"two floors for {name}: {out[name]!r} and {pinned!r}")
    return list(out.values())


def test_tools(project: dict) -> list[str]:
    """The test tools of :data:`TEST_TOOLS`, specified as the ``test`` extra or :data:`LOWER` says."""
    declared = {split(req)[0]: req for req in project["optional-dependencies"]["test"]}
    return [LOWER.get(name) or declared.get(name, name) for name in TEST_TOOLS]


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        project = tomllib.load(f)["project"]
    print("\n".join(pins(project) + test_tools(project)))
