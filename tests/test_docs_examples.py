"""Every ```python block of README.md and docs/*.md runs, and the results it shows are true.

One test per block (id ``file:line``). The blocks of one file run in order in one namespace
(a later block may use what an earlier one built), which starts from that file's example data
(``EXAMPLE_DATA`` below: the ``y_true``, ``score``, ``proba`` ... that a reader supplies) in a
temporary directory holding the files the examples read (``preds.parquet``, ``preds.csv`` ...).

Shown results are checked:

* ``expr  # -> VALUE`` (comment lines right after the statement may hold the ``# -> VALUE``
  too): VALUE is a Python literal; a number is compared to the digits shown (``0.1364``
  means within 5e-5), a list of two numbers against an interval's ``[low, high]``, a tuple
  element by element;
* a python block followed directly by a plain ``` block: that block is what ``str()`` of the
  block's last expression prints (a pandas frame, for instance).

A block is not run only when the doc says so and why, with the HTML comment
``<!-- docs-test: skip (reason) -->`` on the line before its fence, or listed in ``NOT_RUN``
with its reason (none today: the Spark block of docs/scaling.md runs on a stand-in for
Spark's DataFrame whose ``groupBy(...).count().collect()`` pandas computes).
"""

from __future__ import annotations

import ast
import functools
import math
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP_RE = re.compile(r"<!--\s*docs-test:\s*skip\s*\((?P<reason>[^)]+)\)\s*-->")
RESULT_RE = re.compile(r"#\s*->\s*(?P<value>.*)$")

#: blocks of files outside this test's ownership that cannot run here: (file, first code
#: line) -> reason. Reported, not hidden.
NOT_RUN: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Block:
    """One fenced python block of a doc."""

    path: Path
    line: int  # 1-based line of the opening fence
    code: str
    skip: str | None  # reason, when the doc marks the block as not run
    output: str | None  # a plain ``` block right after it

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    @property
    def id(self) -> str:
        return f"{self.rel}:{self.line}"


def collect_blocks(path: Path) -> list[Block]:
    """The python blocks of a markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            code = "\n".join(lines[start + 1:j])
            skip = None
            if start > 0 and (m := SKIP_RE.search(lines[start - 1])):
                skip = m.group("reason")
            first = next((c for c in code.splitlines() if c.strip()), "")
            skip = skip or NOT_RUN.get((path.relative_to(ROOT).as_posix(), first))
            # a plain block right after (blank lines between) is the printed output
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            output = None
            if k < len(lines) and lines[k].strip() == "```":
                m_end = k + 1
                while lines[m_end].strip() != "```":
                    m_end += 1
                output = "\n".join(lines[k + 1:m_end])
                j = m_end
            blocks.append(Block(path, start + 1, code, skip, output))
            i = j + 1
        else:
            i += 1
    return blocks


ALL_BLOCKS = [b for p in DOC_FILES for b in collect_blocks(p)]


# ---------------------------------------------------------------------------------------------
# The example data a reader brings: one setup per doc file, run in a temporary directory.

def _binary(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.clip(0.35 * y + rng.random(n) * 0.65, 0.0, 1.0)
    return y, np.round(score, 3)


def _three_class(n: int = 300, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    logits = rng.normal(size=(n, 3)) + 1.5 * np.eye(3)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return np.array(["bus", "opel", "saab"])[y], proba


def _write_files(tmp: Path) -> None:
    """The prediction files the examples read (columns y, yhat, p, w, split)."""
    import duckdb
    import pandas as pd

    y, p = _binary(1000, seed=3)
    yhat = (p >= 0.5).astype(int)
    df = pd.DataFrame({"y": y, "yhat": yhat, "p": p, "w": 1.0,
                       "split": np.where(np.arange(len(y)) % 5 == 0, "test", "train")})
    df.to_parquet(tmp / "preds.parquet")
    df.to_csv(tmp / "preds.csv", index=False)
    df.to_json(tmp / "preds.jsonl.gz", orient="records", lines=True, compression="gzip")
    con = duckdb.connect(str(tmp / "warehouse.duckdb"))
    # text labels, NA for a missing one, zstd-compressed (DuckDB writes it; no zstandard needed)
    con.execute(
        "copy (select case when y = 1 then 'sick' else 'healthy' end as y, "
        "case when yhat = 1 then 'sick' else 'healthy' end as yhat, p, w "
        "from read_parquet(?) union all select 'NA', 'sick', 0.5, 1.0) "
        "to '" + str(tmp / "preds.csv.zst") + "' (format csv, header, compression zstd)",
        [str(tmp / "preds.parquet")])
    con.execute("create table preds as select * from read_parquet(?)", [str(tmp / "preds.parquet")])
    con.close()


def _common() -> dict[str, Any]:
    import confmat

    rng = np.random.default_rng(7)
    names = np.array(["bus", "opel"])
    y_true = names[rng.integers(0, 2, 200)]
    flip = lambda a, q: np.where(rng.random(a.size) < q, np.where(a == "bus", "opel", "bus"), a)  # noqa: E731
    y, score = _binary()
    y_multi, proba = _three_class()
    s_a = np.round(np.where(y_true == "opel", 0.3, 0.0) + rng.random(200) * 0.7, 3)
    s_b = np.round(np.where(y_true == "opel", 0.2, 0.0) + rng.random(200) * 0.8, 3)
    return {
        "np": np, "confmat": confmat,
        "y_true": y_true, "y_pred": flip(y_true, 0.15),
        "pred_a": flip(y_true, 0.1), "pred_b": flip(y_true, 0.2),
        "score_a": s_a, "score_b": s_b,
        "table": [[61, 8], [2, 58]],
        "cm_a": confmat.ConfusionMatrix([[5, 1], [2, 7]], labels=["bus", "opel"]),
        "cm_b": confmat.ConfusionMatrix([[3, 0], [1, 4]], labels=["bus", "opel"]),
        "y": y, "score": score, "y_multi": y_multi, "proba": proba,
    }


def _readme() -> dict[str, Any]:
    import dask.dataframe as dd
    import pandas as pd

    ns = _common()
    y, s = ns["y"], ns["score"]
    ns["chunks"] = [(y[i:i + 100], (s[i:i + 100] >= 0.5).astype(int), s[i:i + 100])
                    for i in range(0, y.size, 100)]
    ns["ddf"] = dd.from_pandas(pd.DataFrame({"y": ns["y_true"], "yhat": ns["y_pred"]}),
                               npartitions=2)
    return ns


def _curves() -> dict[str, Any]:
    import confmat

    ns = _common()
    y, s = ns["y"], ns["score"]
    rng = np.random.default_rng(11)
    ns["chunks"] = [(y[i:i + 100], s[i:i + 100]) for i in range(0, y.size, 100)]
    ns["h_worker1"] = confmat.ScoreHistogram().update(y[:200], s[:200])
    ns["h_worker2"] = confmat.ScoreHistogram().update(y[200:], s[200:])
    ns["s2"], ns["s100"], ns["s500"] = (np.clip(s + rng.normal(0, q, s.size), 0, 1)
                                        for q in (0.3, 0.1, 0.05))
    return ns


def _inference() -> dict[str, Any]:
    ns = _common()
    ns["pred_nc"], ns["pred_knn"], ns["pred_rf"] = ns["y_pred"], ns["pred_a"], ns["pred_b"]
    return ns


def _groups() -> dict[str, Any]:
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 600
    df = pd.DataFrame({"sex": rng.choice(["f", "m"], n),
                       "age_band": rng.choice(["20-30", "30-40", "40-50"], n)})
    y_true = rng.integers(0, 2, n)
    return {"np": np, "df": df, "y_true": y_true,
            "y_pred": np.where(rng.random(n) < 0.2, 1 - y_true, y_true)}


def _report() -> dict[str, Any]:
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, cross_validate

    ns = _common()
    y = ns["y"]
    ns["y_true"], ns["y_pred"] = y, (ns["score"] >= 0.5).astype(int)
    ns["proba"] = np.column_stack([1 - ns["score"], ns["score"]])
    ns["pred_a"], ns["pred_b"] = ns["y_pred"], (ns["score"] >= 0.6).astype(int)
    ns["score_a"], ns["score_b"] = ns["score"], np.sqrt(ns["score"])
    X, yc = make_classification(n_samples=120, random_state=0)
    ns.update(X=X, y=yc, clf=LogisticRegression(max_iter=200), grid={"C": [0.1, 1.0]},
              cross_validate=cross_validate, GridSearchCV=GridSearchCV)
    return ns


def _calibration() -> dict[str, Any]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.linear_model import LogisticRegression

    ns = _common()
    ns["y_prob"] = ns["score"]
    ns["y_true"] = ns["y"]
    model = LogisticRegression(max_iter=500).fit(ns["proba"], ns["y_multi"])
    ns["model"] = model
    _, ns["ax"] = plt.subplots()
    return ns


def _scaling() -> dict[str, Any]:
    import duckdb

    ns = _readme()
    ns["duckdb"] = duckdb
    other = ns["confmat"].Accumulator()
    other.update(ns["y"][:10], ns["y"][:10], scores=ns["score"][:10])
    ns["other_acc"] = other
    ns["query"] = "select y, yhat, count(*) as n from read_parquet('preds.parquet') group by all"
    ns["df"] = _SparkLike(ns["y"], (ns["score"] >= 0.5).astype(int))
    return ns


class _SparkLike:
    """A stand-in for the Spark DataFrame of docs/scaling.md (pyspark is not a dependency):
    ``df.groupBy(*cols).count().collect()`` gives Spark's rows (mappings with a ``count``),
    computed by pandas, so the block's confmat half runs on what Spark would hand it."""

    def __init__(self, y: np.ndarray, yhat: np.ndarray) -> None:
        import pandas as pd

        self._frame = pd.DataFrame({"y": y, "yhat": yhat})
        self._keys: list[str] = []

    def groupBy(self, *cols: str) -> _SparkLike:  # Spark's name
        out = _SparkLike.__new__(_SparkLike)
        out._frame, out._keys = self._frame, list(cols)
        return out

    def count(self) -> _SparkLike:
        return self

    def collect(self) -> list[dict[str, Any]]:
        sizes = self._frame.groupby(self._keys).size()
        return [dict(zip(self._keys, key, strict=True), count=int(n))
                for key, n in sizes.items()]


def _sklearn() -> dict[str, Any]:
    ns = _common()
    return ns


SETUPS: dict[str, Callable[[], dict[str, Any]]] = {
    "README.md": _readme, "docs/curves.md": _curves, "docs/inference.md": _inference,
    "docs/groups.md": _groups, "docs/report.md": _report, "docs/calibration.md": _calibration,
    "docs/scaling.md": _scaling, "docs/sklearn.md": _sklearn, "docs/index.md": dict,
}


# ---------------------------------------------------------------------------------------------
# Running a block and checking what it shows

def _expected(text: str) -> Any:
    """The longest prefix of ``text`` that is a Python literal."""
    text = text.strip()
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    raise AssertionError(f"no literal in the shown result {text!r}")


def check_shown(actual: Any, expected: Any, shown: str, where: str) -> None:
    """``actual`` is what the doc shows as ``expected``, each number to the digits shown."""
    decimals = iter(len(d) for d in re.findall(r"-?\d+(?:\.(\d*))?", shown))
    _compare(actual, expected, decimals, f"{where}: shown as {shown!r}")


def _compare(actual: Any, expected: Any, decimals: Any, where: str) -> None:
    is_ci = hasattr(actual, "low") and hasattr(actual, "high")
    if is_ci and isinstance(expected, list) and len(expected) == 2:
        _compare((actual.low, actual.high), tuple(expected), decimals, where)  # [low, high]
        return
    if is_ci and isinstance(expected, tuple) and len(expected) == 2:
        _compare((actual.estimate, (actual.low, actual.high)), expected, decimals, where)
        return
    if isinstance(expected, dict):
        assert list(actual.keys()) == list(expected.keys()), f"{where}: keys of {actual!r}"
        for k, e in expected.items():
            _compare(actual[k], e, decimals, where)
        return
    if isinstance(expected, (tuple, list)):
        seq = list(actual)
        assert len(seq) == len(expected), f"{where}: {actual!r}"
        for a, e in zip(seq, expected, strict=True):
            _compare(a, e, decimals, where)
        return
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        dec = next(decimals)
        if isinstance(expected, int) and isinstance(actual, (int, np.integer)):
            assert actual == expected, f"{where}: {actual!r}"
            return
        tol = 0.5 * 10.0 ** -dec * (1 + 1e-9)
        assert math.isclose(float(actual), float(expected), abs_tol=tol), \
            f"{where}: the value is {float(actual)!r}"
        return
    assert actual == expected, f"{where}: the value is {actual!r}"


def run_block(block: Block, ns: dict[str, Any], check: bool = True) -> None:
    """Execute the block statement by statement in ``ns`` and check what it shows (``check``)."""
    tree = ast.parse(block.code)
    lines = block.code.splitlines()
    body = tree.body
    last_value: Any = None
    for k, stmt in enumerate(body):
        end = stmt.end_lineno or stmt.lineno
        nxt = body[k + 1].lineno if k + 1 < len(body) else len(lines) + 1
        # the comment of the statement's lines, and comment-only lines up to the next statement
        shown = None
        for ln in range(stmt.lineno, nxt):
            src = lines[ln - 1]
            if ln > end and not src.strip().startswith("#"):
                continue
            if (m := RESULT_RE.search(src)) and "#" in src:
                shown = m.group("value")
                break
        where = f"{block.id} line {block.line + stmt.lineno}"
        if isinstance(stmt, ast.Expr):
            value = eval(compile(ast.Expression(stmt.value), where, "eval"), ns)
            last_value = value
            if shown is not None and check:
                check_shown(value, _expected(shown), shown, where)
        else:
            assert shown is None, f"{where}: a shown result on a statement that is not an expression"
            exec(compile(ast.Module([stmt], type_ignores=[]), where, "exec"), ns)
            last_value = None
    if block.output is not None and check:
        assert last_value is not None, f"{block.id}: an output block after a block whose last " \
                                       "statement is not an expression"
        got = [ln.rstrip() for ln in str(last_value).splitlines()]
        want = [ln.rstrip() for ln in block.output.splitlines()]
        assert got == want, f"{block.id}: prints\n" + "\n".join(got) + "\nnot\n" + "\n".join(want)


@functools.cache
def _workdir(tmp_root: str) -> Path:
    d = Path(tmp_root) / "docs_examples"
    d.mkdir(exist_ok=True)
    _write_files(d)
    return d


_NAMESPACES: dict[tuple[str, int], dict[str, Any] | BaseException] = {}


def namespace_before(block: Block, tmp_root: str) -> dict[str, Any]:
    """The namespace of the block's file after every earlier block of that file ran."""
    same = [b for b in ALL_BLOCKS if b.path == block.path]
    idx = same.index(block)
    key = (block.rel, idx)
    if key not in _NAMESPACES:
        if idx == 0:
            ns: dict[str, Any] = dict(SETUPS.get(block.rel, _common)())
        else:
            prev = same[idx - 1]
            ns = dict(namespace_before(prev, tmp_root))
            if prev.skip is None:
                run_block(prev, ns, check=False)  # its own test checks what it shows
        _NAMESPACES[key] = ns
    return dict(_NAMESPACES[key])  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _workdir(str(tmp_path_factory.mktemp("docs")))


def test_blocks_were_found() -> None:
    # the collector must see the blocks of every file that has some
    files = {b.rel for b in ALL_BLOCKS}
    assert {"README.md", "docs/curves.md", "docs/groups.md", "docs/inference.md"} <= files
    assert len(ALL_BLOCKS) >= 25


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=[b.id for b in ALL_BLOCKS])
def test_doc_block(block: Block, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if block.skip is not None:
        pytest.skip(f"not run: {block.skip}")
    monkeypatch.chdir(workdir)
    ns = namespace_before(block, str(workdir))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # examples may warn (undefined metrics); not the point
        os.environ.setdefault("MPLBACKEND", "Agg")
        run_block(block, ns)
