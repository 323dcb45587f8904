"""Packages whose public names are imported on first use (PEP 562), without the trap of a
submodule that shares a public name.

``confmat.explain`` is a function and ``confmat/explain.py`` a module; ``confmat.inference.roc_ci``
a function in ``inference/roc_ci.py``. When such a submodule is first imported by someone else,
Python's import system binds the *module* to the package attribute of the same name, and a
plain module ``__getattr__`` is never asked again: ``confmat.explain`` would silently become a
module. :func:`lazy_package` turns the package into a module of a small subclass whose
``__setattr__`` refuses to let a submodule replace an exported name; the name is then resolved
(and cached) by the package's ``__getattr__`` on first use, as intended.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["lazy_package"]


class _LazyPackage(ModuleType):
    """A package module whose exported names a submodule import cannot overwrite."""

    _lazy_exports: dict[str, str]

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in self.__dict__.get("_lazy_exports", {}):
            return  # the import system binding the submodule ``name``: the export wins
        super().__setattr__(name, value)


def lazy_package(name: str, exports: dict[str, str],
                 submodules: frozenset[str] = frozenset()) -> tuple[Any, Any]:
    """Make the package ``name`` import each public name from its module on first use.

    Parameters
    ----------
    name : str
        The package's ``__name__``.
    exports : dict of str to str
        Public name -> the module defining it, relative to the package (``".roc_ci"``) or
        absolute.
    submodules : frozenset of str, optional
        Subpackages reachable as attributes (``confmat.groups``), imported on first access.

    Returns
    -------
    (callable, callable)
        The package's ``__getattr__`` and ``__dir__`` (assign them at module level).

    Raises
    ------
    AttributeError
        From the returned ``__getattr__``, for a name the package does not export.

    Examples
    --------
    >>> import confmat.inference.roc_ci  # the submodule first ...
    >>> import confmat.inference
    >>> confmat.inference.roc_ci.__name__  # ... and the package still gives the function
    'roc_ci'
    """
    package = sys.modules[name]
    for attr in exports:  # submodules the package's own imports have bound so far
        if isinstance(package.__dict__.get(attr), ModuleType):
            del package.__dict__[attr]
    package.__class__ = _LazyPackage
    package.__dict__["_lazy_exports"] = exports

    def __getattr__(attr: str) -> Any:
        module = exports.get(attr)
        if module is not None:
            value = getattr(import_module(module, name), attr)
            package.__dict__[attr] = value
            return value
        if attr in submodules:
            return import_module(f"{name}.{attr}")
        raise AttributeError(f"module {name!r} has no attribute {attr!r}")

    def __dir__() -> list[str]:
        return sorted(set(package.__dict__) | set(exports) | submodules)

    return __getattr__, __dir__
