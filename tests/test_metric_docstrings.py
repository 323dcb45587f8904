"""The docstrings of the catalogue metrics say true things about the functions.

Most catalogue functions take only their counts and get a docstring composed from their spec
(``confmat.metrics.common.catalogue_docstring``); the ones with keyword parameters carry a
hand-written one. These tests hold both to what the functions do: the argument they take, the
dtype and shape of what they return, the defaults they state, and the checks they promise.
"""

from __future__ import annotations

import ast
import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.metrics import Stats, evaluate, list_metrics
from confmat.metrics.common import catalogue_docstring

docscrape = pytest.importorskip("numpydoc.docscrape")

SPECS = list(list_metrics())
GENERATED = [s for s in SPECS if s.func.__doc__ == catalogue_docstring(s)]
WRITTEN = [s for s in SPECS if s.func.__doc__ != catalogue_docstring(s)]


def _call(spec, table: np.ndarray) -> np.ndarray:
    s = Stats(table, zero_division=0)
    arg = s.per_class if spec.kind == "per_class" and not spec.uses_table else s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(spec.func(arg))


def test_the_split_covers_the_catalogue() -> None:
    assert len(GENERATED) + len(WRITTEN) == len(SPECS)
    assert GENERATED, "no catalogue metric uses the composed docstring"
    # every metric with keyword parameters documents them by hand
    assert all(len(inspect.signature(s.func).parameters) == 1 for s in GENERATED)


def test_composed_docstring_names_the_argument_the_function_takes() -> None:
    for spec in GENERATED:
        (param,) = inspect.signature(spec.func).parameters
        doc = docscrape.FunctionDoc(spec.func)
        (documented,) = doc["Parameters"]
        assert documented.name == param, spec.name
        wants_counts = spec.kind == "per_class" and not spec.uses_table
        assert documented.type == ("ClassCounts" if wants_counts else "Stats"), spec.name
        assert spec.formula in spec.func.__doc__


tables = st.tuples(
    st.integers(2, 4),  # classes
    st.sampled_from([(), (3,)]),  # batch shape
    st.booleans(),  # weighted
    st.integers(0, 2**32 - 1),
)


@settings(max_examples=25, deadline=None)
@given(tables)
def test_composed_returns_section_matches_dtype_and_shape(case) -> None:
    k, batch, weighted, seed = case
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 9, size=(*batch, k, k))
    if weighted:
        table = table * rng.uniform(0.5, 2.0, size=table.shape)
    for spec in GENERATED:
        value = _call(spec, table)
        want_shape = (*batch, k) if spec.kind == "per_class" else batch
        assert value.shape == want_shape, spec.name
        if spec.is_count:  # "integers for an integer table, floats for a weighted one"
            assert value.dtype.kind == ("f" if weighted else "i"), spec.name
        else:  # "Float64 values"
            assert value.dtype == np.float64, spec.name


def _default(text: str) -> str | None:
    for part in text.split(","):
        part = part.strip()
        if part.startswith("default "):
            return part[len("default "):]
    return None


def test_written_defaults_are_the_signature_and_spec_defaults() -> None:
    for spec in WRITTEN:
        sig = inspect.signature(spec.func)
        doc = docscrape.FunctionDoc(spec.func)
        for p in doc["Parameters"]:
            if p.name not in spec.params:
                continue
            stated = _default(p.type)
            assert stated is not None, (spec.name, p.name)
            value = ast.literal_eval(stated)
            assert value == sig.parameters[p.name].default, (spec.name, p.name)
            assert value == spec.params[p.name], (spec.name, p.name)


def test_written_parameters_that_say_checked_are_checked() -> None:
    table = np.array([[5, 1, 0], [2, 4, 1], [0, 1, 3]])
    promised = 0
    for spec in WRITTEN:
        doc = docscrape.FunctionDoc(spec.func)
        for p in doc["Parameters"]:
            if p.name in spec.params and "hecked" in " ".join(p.desc):
                promised += 1
                for bad in ("nonsense", float("nan")):
                    with pytest.raises((ValueError, TypeError), match=p.name):
                        evaluate(spec.name, Stats(table), **{p.name: bad})
    assert promised >= 10
