"""Every public definition of confmat carries numpydoc sections (docs/architecture.md).

numpydoc's own validator (numpydoc.validate) reads each public function, class and method that a
module defines (names imported from elsewhere are checked where they are defined) and the test
fails on these codes:

- GL08: no docstring;
- PR01 / PR02: a parameter not documented / a documented parameter that does not exist;
- RT01: no Returns (or Yields) section, except for properties and callables annotated ``-> None``;
- EX01: no Examples section, only for the names a package exports in ``__all__``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

import confmat  # noqa: E402

ALWAYS = ("GL08", "PR01", "PR02")


def _modules() -> list[str]:
    names = ["confmat"]
    for info in pkgutil.walk_packages(confmat.__path__, "confmat."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return sorted(names)


def _exported() -> set[str]:
    """Qualified names (module.qualname) of everything a package exports in ``__all__``."""
    out: set[str] = set()
    for name in _modules():
        mod = importlib.import_module(name)
        if not hasattr(mod, "__path__"):
            continue
        for attr in getattr(mod, "__all__", ()):
            obj = getattr(mod, attr, None)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                out.add(f"{obj.__module__}.{obj.__qualname__}")
    return out


def _returns_none(obj: Any) -> bool:
    try:
        ann = inspect.signature(obj).return_annotation
    except (TypeError, ValueError):
        return False
    return ann is None or ann == "None"


def _public_members(modname: str) -> list[tuple[str, Any, bool]]:
    """(qualified name, object, is_property) of public definitions made in ``modname``."""
    mod = importlib.import_module(modname)
    out: list[tuple[str, Any, bool]] = []
    for name, obj in vars(mod).items():
        if name.startswith("_"):
            continue
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if getattr(obj, "__module__", None) != modname:
            continue
        out.append((f"{modname}.{name}", obj, False))
        if inspect.isclass(obj):
            for mname, member in vars(obj).items():
                if mname.startswith("_"):
                    continue
                qual = f"{modname}.{name}.{mname}"
                if isinstance(member, property):
                    out.append((qual, member, True))
                elif isinstance(member, (staticmethod, classmethod)):
                    out.append((qual, member.__func__, False))
                elif inspect.isfunction(member):
                    out.append((qual, member, False))
    return out


def problems(qualname: str, obj: Any, is_property: bool, exported: bool) -> list[str]:
    """The numpydoc codes this test enforces that ``obj`` violates, as readable strings."""
    if is_property:
        return [] if (obj.fget is not None and obj.fget.__doc__) else [f"{qualname}: GL08 no docstring"]
    try:
        report = numpydoc_validate.validate(qualname)
    except Exception as exc:  # pragma: no cover - shows which object the validator cannot read
        return [f"{qualname}: validator failed: {exc!r}"]
    wanted = set(ALWAYS)
    if not inspect.isclass(obj) and not _returns_none(obj):
        wanted.add("RT01")
    if exported:
        wanted.add("EX01")
    return [f"{qualname}: {code} {msg}" for code, msg in report["errors"] if code in wanted]


@pytest.mark.parametrize("modname", _modules())
def test_module_docstrings(modname: str) -> None:
    exported = _exported()
    found: list[str] = []
    for qualname, obj, is_prop in _public_members(modname):
        found += problems(qualname, obj, is_prop, qualname in exported)
    assert not found, "\n".join(found)


def _undocumented(x: int, y: int = 2) -> int:
    """Add two numbers.

    Parameters
    ----------
    x : int
        The first.

    Returns
    -------
    int
        The sum.
    """
    return x + y


def test_checker_reports_a_missing_parameter() -> None:
    found = problems(f"{__name__}._undocumented", _undocumented, False, exported=True)
    codes = {line.split(": ")[1].split()[0] for line in found}
    assert codes == {"PR01", "EX01"}
