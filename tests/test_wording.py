"""Words for users cite sources by author and year (Yao et al. 2022, Kneusel 2021), never by the
project's internal names for its source documents ("seed 002") nor as "the book"/"the paper".

The texts checked are what a user reads: the registry's metadata, the interpretation scales, the
PyCM key table, every docstring of the confmat package, the docs pages, the README and the
examples. ``docs/seed_errata.md`` is the one page allowed to name the seeds.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import confmat
from confmat.metrics import list_metrics, pycm_keys
from confmat.metrics.scales import list_scales

FORBIDDEN = re.compile(r"\bseeds? ?0\d|\bthe seeds\b|\bthe book\b|\bthe paper\b|\bbook's\b",
                       re.IGNORECASE)
ROOT = Path(__file__).resolve().parents[1]


def _hits(where: str, text: object) -> list[str]:
    if not isinstance(text, str):
        return []
    return [f"{where}: ...{text[max(0, m.start() - 40):m.end() + 40]!r}..."
            for m in FORBIDDEN.finditer(text)]


def _strings(obj: object) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _strings(v)


def test_the_pattern_catches_what_it_should() -> None:
    for bad in ("seed 002", "Seed000", "the book's matrix", "as in The Paper",
                "in book's chapter", "as seeds 000 and 002 argue", "where the seeds disagree"):
        assert FORBIDDEN.search(bad), bad
    for good in ("Kneusel (2021)", "Yao et al. 2022", "seeded random draws", "seed=0",
                 "the codebook's order", "seed_errata.md"):
        assert not FORBIDDEN.search(good), good


def test_registry_texts_cite_by_author_and_year() -> None:
    found = [h for spec in list_metrics() for s in _strings(spec.describe())
             for h in _hits(f"metric {spec.name}", s)]
    found += [h for entries in pycm_keys().values() for e in entries
              for h in _hits(f"pycm key {e.key}", e.differs)]
    assert not found, "\n".join(found)


def test_scale_texts_cite_by_author_and_year() -> None:
    found = [h for sc in list_scales() for s in _strings(sc.describe())
             for b in [sc.name] for h in _hits(f"scale {b}", s)]
    found += [h for sc in list_scales() for b in sc.bands for h in _hits(f"scale {sc.name}", b.label)]
    assert not found, "\n".join(found)


def _modules() -> list[object]:
    mods = [confmat]
    for info in pkgutil.walk_packages(confmat.__path__, prefix="confmat."):
        if info.name.endswith("__main__"):
            continue
        mods.append(importlib.import_module(info.name))
    return mods


def _docstrings() -> Iterator[tuple[str, str]]:
    for mod in _modules():
        name = mod.__name__  # type: ignore[attr-defined]
        yield name, inspect.getdoc(mod) or ""
        for attr, obj in vars(mod).items():
            if getattr(obj, "__module__", None) != name:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{name}.{attr}", inspect.getdoc(obj) or ""
            if inspect.isclass(obj):
                for meth_name, meth in vars(obj).items():
                    target = meth.fget if isinstance(meth, property) else meth
                    target = getattr(target, "__func__", target)
                    if inspect.isfunction(target) and target.__doc__:
                        yield f"{name}.{attr}.{meth_name}", target.__doc__


def test_docstrings_cite_by_author_and_year() -> None:
    found = [h for where, doc in _docstrings() for h in _hits(where, doc)]
    assert not found, f"{len(found)} docstring(s) name a seed or 'the book/paper':\n" + \
        "\n".join(found)


@pytest.mark.parametrize("path", sorted(
    [p for p in (ROOT / "docs").rglob("*.md") if p.name != "seed_errata.md"]
    + [ROOT / "README.md"] + sorted((ROOT / "examples").glob("*.py"))), ids=lambda p: p.name)
def test_pages_and_examples_cite_by_author_and_year(path: Path) -> None:
    found = [h for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for h in _hits(f"{path.relative_to(ROOT)}:{i}", line)]
    assert not found, "\n".join(found)


#: The deprecated scale name ``seed000`` stays accepted (with a warning) for old code; these
#: lines define and test that alias.
ALIAS_LINES = {("src/confmat/metrics/scales.py", "DEPRECATED_SCALES"),
               ("tests/test_scales.py", "seed000")}


@pytest.mark.parametrize("folder", ["src", "tests", "benchmarks", "scripts", "examples"])
def test_code_and_tests_cite_by_author_and_year(folder: str) -> None:
    """Comments, strings and names in code and tests too (the project speaks of its sources
    by author and year; docs/seed_errata.md alone names the requirement documents)."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "tests/test_wording.py":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(rel == f and (mark in line or mark in line.lower()) for f, mark in ALIAS_LINES):
                continue
            found += _hits(f"{rel}:{i}", line)
    assert not found, "\n".join(found)
