"""The core's conveniences reach the layers above through confmat.hooks (no upward import):
every hook is filled with the right function, a missing one says which module to import, and
the conveniences give the numbers of independent oracles."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from confmat import Accumulator, ConfusionMatrix, hooks

CM = ConfusionMatrix([[61, 2], [8, 58]])


@pytest.mark.parametrize("hook", hooks.HOOKS, ids=lambda h: h.name)
def test_each_hook_holds_its_providers_function(hook: hooks.Hook) -> None:
    provider = importlib.import_module(hook.provider)
    assert hook.resolve() is getattr(provider, hook.attribute)
    assert hook.filled


@pytest.fixture
def emptied(request: pytest.FixtureRequest):
    hook = request.param
    saved = hook.resolve()
    hook.fill(None)
    yield hook
    hook.fill(saved)


@pytest.mark.parametrize(
    ("emptied", "call"),
    [
        (hooks.CONFIDENCE_INTERVAL, lambda: CM.ci("accuracy")),
        (hooks.AT_PREVALENCE, lambda: CM.at_prevalence({0: 0.5, 1: 0.5})),
        (hooks.MATRIX_TEXT, lambda: str(CM)),
        (hooks.MATRIX_HTML, lambda: CM._repr_html_()),
    ],
    indirect=["emptied"],
    ids=["ci", "at_prevalence", "str", "repr_html"],
)
def test_an_empty_hook_names_the_module_to_import(emptied: hooks.Hook, call) -> None:
    with pytest.raises(hooks.HookMissingError, match=emptied.provider.replace(".", r"\.")):
        call()
    assert "ConfusionMatrix(labels=[0, 1], n=129)" in repr(CM)  # a repr never raises


@pytest.mark.parametrize("emptied", [hooks.DASK_CONFUSION_COUNTS], indirect=True)
def test_dask_inputs_without_the_dask_hook(emptied: hooks.Hook) -> None:
    da = pytest.importorskip("dask.array")
    y = da.from_array(np.array([0, 1, 1, 0]), chunks=2)
    with pytest.raises(hooks.HookMissingError, match=r"confmat\.dask"):
        ConfusionMatrix.from_predictions(y, y)


@pytest.mark.parametrize("emptied", [hooks.DASK_ACCUMULATE], indirect=True)
def test_accumulator_dask_update_without_the_dask_hook(emptied: hooks.Hook) -> None:
    da = pytest.importorskip("dask.array")
    y = da.from_array(np.array([0, 1, 1, 0]), chunks=2)
    with pytest.raises(hooks.HookMissingError, match=r"confmat\.dask"):
        Accumulator().update(y, y)


def test_ci_is_the_wilson_interval_of_statsmodels() -> None:
    low, high = CM.ci("accuracy")
    ref = proportion_confint(119, 129, method="wilson")
    np.testing.assert_allclose((low, high), ref, rtol=1e-12)


def test_at_prevalence_rescales_rows_by_hand() -> None:
    # rows keep their proportions and are rescaled to n * p: 129 * 0.5 per row
    out = CM.at_prevalence({0: 0.5, 1: 0.5})
    expected = 64.5 * np.array([[61 / 63, 2 / 63], [8 / 66, 58 / 66]])
    np.testing.assert_allclose(out.counts, expected)


def test_str_is_the_terminal_table() -> None:
    # totals 63 / 66 / 69 / 60 / 129; recall 61/63 = 96.8 %, 58/66 = 87.9 %; accuracy 119/129
    assert str(CM).splitlines() == [
        "true \\ pred   0   1  total     recall",
        "0            61   2     63      96.8%",
        "1             8  58     66      87.9%",
        "-----------  --  --  -----  ---------",
        "total        69  60    129  acc 92.2%",
    ]


def test_repr_html_is_the_notebook_view() -> None:
    html = CM._repr_html_()
    assert html.startswith("<div class='confmat-matrix'>")
    assert "n = 129" in html


def test_a_hook_is_loaded_on_first_use_in_a_fresh_process() -> None:
    """``import confmat`` imports no layer above the core; the first ``cm.ci`` loads the
    inference layer through the root's loader."""
    code = (
        "import sys, confmat\n"
        "assert 'confmat.inference' not in sys.modules and 'scipy' not in sys.modules\n"
        "from confmat import hooks\n"
        "assert not hooks.CONFIDENCE_INTERVAL.filled\n"
        "cm = confmat.ConfusionMatrix([[61, 2], [8, 58]])\n"
        "print(round(cm.ci('accuracy').low, 6))\n"
        "assert hooks.CONFIDENCE_INTERVAL.filled and 'confmat.inference' in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ref = proportion_confint(119, 129, method="wilson")[0]
    assert float(out.stdout) == pytest.approx(ref, abs=1e-6)


def test_hook_rejects_what_is_not_callable() -> None:
    with pytest.raises(TypeError, match="func must be callable"):
        hooks.Hook("x", "y", "z").fill(42)


SHADOWED = [  # (package, public name that is also a submodule's name)
    ("confmat", "explain"),
    ("confmat.inference", "roc_ci"),
    ("confmat.inference", "roc_test"),
    ("confmat.inference", "compare"),
    ("confmat.report", "render_html"),
    ("confmat.report", "render_text"),
    ("confmat.report", "classification_report"),
]


@pytest.mark.parametrize("package,name", SHADOWED)
def test_a_submodule_imported_first_never_replaces_the_public_name(package, name):
    # a fresh interpreter: the submodule is imported before the package's name is used
    code = (f"import importlib, types; importlib.import_module('{package}.{name}'); "
            f"pkg = importlib.import_module('{package}'); obj = getattr(pkg, '{name}'); "
            f"assert not isinstance(obj, types.ModuleType), obj; "
            f"assert obj.__module__ == '{package}.{name}', obj.__module__; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_a_text_report_loads_neither_the_html_renderer_nor_the_comparison() -> None:
    code = (
        "import sys, confmat\n"
        "from confmat.report import build_report, render_text\n"
        "rep = build_report(confmat.ConfusionMatrix([[61, 2], [8, 58]]))\n"
        "assert 'Confusion matrix' in render_text(rep) and 'Confusion matrix' in str(rep)\n"
        "heavy = [m for m in ('jinja2', 'confmat.report.render_html', 'confmat.inference.compare',"
        " 'confmat.inference.roc_ci', 'scipy') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
