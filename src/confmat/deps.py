"""The one place that knows confmat's optional dependencies.

Two questions are asked of an optional library, and they are answered differently:

* *Is this input one of its objects?* Asked of every input, so it must cost nothing: a
  library that is not imported yet cannot have made the object, so :func:`loaded` (a look into
  ``sys.modules``, the approach of narwhals' ``dependencies`` module) answers without
  importing anything. :func:`is_dask_collection` and :func:`module_of` are built on it.
* *Can a feature use it?* :func:`installed` says whether the library could be imported,
  :func:`optional` imports it or returns None, :func:`require` imports it or raises an
  ``ImportError`` that says what to install.

numba is loaded by :func:`numba_module` alone, so that one policy holds for every compiled
kernel: the environment variable ``CONFMAT_DISABLE_NUMBA`` (any non-empty value) turns numba
off and every kernel falls back to numpy with the same numbers; kernels are compiled on first
use, never at import, and cached on disk (:data:`NUMBA_CACHE`). Write a kernel module as a
function that builds the kernels, decorated with :func:`numba_kernels`, and compile each kernel
with :func:`njit`.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

__all__ = [
    "DISABLE_NUMBA_ENV",
    "NUMBA_CACHE",
    "OPTIONAL",
    "imported",
    "installed",
    "is_dask_collection",
    "loaded",
    "module_of",
    "njit",
    "numba_disabled",
    "numba_kernels",
    "numba_module",
    "optional",
    "require",
]

T = TypeVar("T")

#: The optional libraries confmat knows, each with the pip command that installs it.
OPTIONAL: dict[str, str] = {
    "pandas": "pip install pandas",
    "polars": "pip install polars",
    "pyarrow": "pip install pyarrow",
    "duckdb": "pip install duckdb",
    "dask": "pip install 'dask[dataframe]'",
    "numba": "pip install numba",
    # only its UndefinedMetricWarning class, reused by confmat.sklearn when installed
    "sklearn": "pip install scikit-learn",
    # Intel's ISA-L inflater (zlib's interface, about 2.5x faster): the check of .gz files
    "isal": "pip install isal",
}
#: Environment variable that turns numba off (any non-empty value) for every kernel.
DISABLE_NUMBA_ENV = "CONFMAT_DISABLE_NUMBA"
#: Kernels are cached on disk (numba's ``cache=True``): a new process loads them in
#: milliseconds instead of compiling them again. Kernels are module-level names (or globals
#: set by their builder), which is what numba's cache needs to find them again.
NUMBA_CACHE = True


def _check_name(name: str) -> None:
    if name.partition(".")[0] not in OPTIONAL:
        raise ValueError(
            f"name must be one of the optional libraries {sorted(OPTIONAL)} (or one of their "
            f"modules), got {name!r}"
        )


def loaded(name: str) -> ModuleType | None:
    """The module ``name`` if it is already imported, else None; never imports it.

    An object of a library that was never imported cannot exist, so this is the cheap test
    used before asking whether an input belongs to pandas, polars, pyarrow or Dask.

    Parameters
    ----------
    name : str
        The library (``'pandas'``, ``'polars'``, ``'pyarrow'``, ``'duckdb'``, ``'dask'``,
        ``'numba'``) or one of its modules (``'dask.dataframe'``).

    Returns
    -------
    module or None

    Raises
    ------
    ValueError
        If ``name`` is not one of the optional libraries or their modules.

    Examples
    --------
    >>> loaded("dask") is None or loaded("dask").__name__ == "dask"
    True
    >>> loaded("numpy")
    Traceback (most recent call last):
    ...
    ValueError: name must be one of the optional libraries ['dask', 'duckdb', 'isal', 'numba', 'pandas', 'polars', 'pyarrow', 'sklearn'] (or one of their modules), got 'numpy'
    """
    _check_name(name)
    return sys.modules.get(name)


def imported(name: str) -> ModuleType:
    """The module ``name``, which must already be imported: for code that holds one of its
    objects (a pyarrow array proves that pyarrow is imported).

    Parameters
    ----------
    name : {'pandas', 'polars', 'pyarrow', 'duckdb', 'dask', 'numba'}
        The library.

    Returns
    -------
    module

    Raises
    ------
    ValueError
        If ``name`` is not one of the optional libraries.
    RuntimeError
        If it is not imported (the caller's assumption is wrong).

    Examples
    --------
    >>> import pandas
    >>> imported("pandas") is pandas
    True
    """
    if loaded(name) is None:
        raise RuntimeError(f"{name} is not imported, but an object of it was expected")
    return importlib.import_module(name)  # waits if another thread is still initialising it


@functools.cache
def installed(name: str) -> bool:
    """True when the library ``name`` can be imported (found on the path; not imported).

    Parameters
    ----------
    name : str
        The library (``'pandas'``, ``'polars'``, ``'pyarrow'``, ``'duckdb'``, ``'dask'``,
        ``'numba'``) or one of its modules (``'pyarrow.compute'``: finding a module imports
        its parent package).

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``name`` is not one of the optional libraries.

    Examples
    --------
    >>> installed("pandas") in (True, False)
    True
    """
    _check_name(name)
    if name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a module of a library that is not installed
        return False


def optional(name: str) -> ModuleType | None:
    """Import the library ``name`` if it is installed, else return None.

    Parameters
    ----------
    name : str
        The library or one of its modules (as for :func:`installed`).

    Returns
    -------
    module or None

    Raises
    ------
    ValueError
        If ``name`` is not one of the optional libraries.

    Examples
    --------
    >>> pd = optional("pandas")
    >>> pd is None or pd.__name__ == "pandas"
    True
    """
    if not installed(name):
        return None
    try:
        # import_module, not sys.modules: a module another thread is still initialising is
        # waited for instead of returned half-built
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover - installed but broken
        return None


def require(name: str, feature: str) -> ModuleType:
    """Import the library ``name`` for ``feature``, or raise an ImportError saying how to
    install it.

    Parameters
    ----------
    name : str
        The library or one of its modules (``'pyarrow.compute'``; the message names the
        library).
    feature : str
        What needs it, for the message (e.g. ``"counting Dask collections"``).

    Returns
    -------
    module

    Raises
    ------
    ImportError
        If the library is not installed.
    ValueError
        If ``name`` is not one of the optional libraries.

    Examples
    --------
    >>> import numpy as np
    >>> require("pandas", "this example").__name__ if installed("pandas") else "pandas"
    'pandas'
    """
    module = optional(name)
    if module is None:
        top = name.partition(".")[0]
        raise ImportError(f"{feature} needs {top}, which is not installed: {OPTIONAL[top]}")
    return module


def module_of(x: Any) -> str:
    """The top-level package of the type of ``x`` (``'pandas'`` for a pandas Series).

    This is how an input's library is recognised without importing any library.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    str

    Examples
    --------
    >>> import numpy as np
    >>> module_of(np.arange(3))
    'numpy'
    >>> module_of([1, 2])
    'builtins'
    """
    return type(x).__module__.partition(".")[0]


def is_dask_collection(x: Any) -> bool:
    """True for a Dask array, DataFrame or Series (anything with a Dask task graph).

    Never imports Dask: without ``dask`` in ``sys.modules`` no Dask collection can exist.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_dask_collection([0, 1, 1])
    False
    >>> class Lazy:  # duck-typed like a Dask collection
    ...     def __dask_graph__(self): return {}
    ...     def compute(self): return []
    >>> is_dask_collection(Lazy()) == (loaded("dask") is not None)
    True
    """
    if "dask" not in sys.modules:
        return False
    return hasattr(x, "__dask_graph__") and hasattr(x, "compute")


# ----------------------------------------------------------------------------------- numba
def numba_disabled() -> bool:
    """True when the environment variable ``CONFMAT_DISABLE_NUMBA`` is set (non-empty).

    Returns
    -------
    bool

    Examples
    --------
    >>> import os
    >>> numba_disabled() == bool(os.environ.get("CONFMAT_DISABLE_NUMBA"))
    True
    """
    return bool(os.environ.get(DISABLE_NUMBA_ENV))


def numba_module() -> ModuleType | None:
    """numba, imported now, or None when it is disabled (``CONFMAT_DISABLE_NUMBA``) or not
    installed. Every compiled kernel of confmat is loaded through this function.

    Returns
    -------
    module or None

    Examples
    --------
    >>> nb = numba_module()
    >>> nb is None or nb.__name__ == "numba"
    True
    """
    if numba_disabled():
        return None
    return optional("numba")


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit`` with confmat's cache policy (``cache=NUMBA_CACHE`` unless given).

    Call it only inside a builder decorated with :func:`numba_kernels`, or in a module that is
    imported only when :func:`numba_module` returned numba.

    Parameters
    ----------
    **options
        Options of ``numba.njit`` (``parallel``, ``nogil``, ``boundscheck``, ...).

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    ImportError
        If numba is disabled or not installed.

    Examples
    --------
    >>> if numba_module() is not None:
    ...     add = njit(nogil=True, cache=False)(lambda a, b: a + b)
    ...     assert add(2, 3) == 5
    """
    numba = numba_module()
    if numba is None:
        raise ImportError(
            f"compiled kernels need numba, which is disabled ({DISABLE_NUMBA_ENV}) or not "
            f"installed: {OPTIONAL['numba']}"
        )
    options.setdefault("cache", NUMBA_CACHE)
    return numba.njit(**options)


def numba_kernels(build: Callable[[], T]) -> Callable[[], T | None]:
    """Decorator for a function that compiles a module's kernels: the kernels are built once,
    on first call, and the call returns None when numba is disabled or not installed (the
    caller then takes its numpy path).

    Parameters
    ----------
    build : callable
        Takes no argument, compiles the kernels (with :func:`njit`) and returns them.

    Returns
    -------
    callable
        Returns ``build()``'s result, computed once, or None without numba.

    Examples
    --------
    >>> @numba_kernels
    ... def kernels():
    ...     return {"double": njit(cache=False)(lambda x: 2 * x)}
    >>> k = kernels()
    >>> k is None or k["double"](21) == 42
    True
    """

    @functools.cache
    def load() -> T | None:
        if numba_module() is None:
            return None
        return build()

    functools.update_wrapper(load, build)
    return load
