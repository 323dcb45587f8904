"""Evaluate predictions where they are stored: files of any size and database relations.

A confusion matrix is a sum, so a source of any size is evaluated in bounded memory, either by
the engine itself (``GROUP BY true, pred`` in DuckDB) or batch by batch from the ordered Arrow
record batches an engine streams (:mod:`confmat.inputs.files` says which engine reads which
format). Nothing is decoded by confmat itself.

Row accounting. A row is *skipped* when one of its requested values is missing: a null true
label, a null prediction, a null or NaN score, a null or NaN weight (the reasons are kept apart,
in that order of precedence). By default a skipped row is an error naming the source, the
column and the 1-based row number; with ``skip_invalid=True`` it is left out and counted in
``FileReport.skipped_by_reason`` (the first row numbers in ``skipped_row_numbers``; when DuckDB
counted the rows, a second pass that stops at the tenth finds them). After a read
``rows_read + rows_skipped`` equals the number of rows the source declares (Parquet and Arrow
metadata, ``.npy`` shape) or, for CSV, JSON lines and SQL, the number the engine counted; a
mismatch is an error, and so is a Parquet footer that disagrees with itself (its row count
against its row groups', a row group's against its column chunks'). A source an engine cannot
read whole (damaged, truncated, malformed lines, ragged CSV rows) is an error naming it, never
a partial matrix; so is a value the engine read but confmat cannot take (text and numbers
mixed in a label column, a score outside its range): a ``ValueError`` naming the source.

Row numbers are 1-based data rows: the header line of a CSV file is not counted, so data row
``r`` is on line ``r + 1``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .inputs.encode import py_scalar
from .inputs.files import (
    FORMATS,
    ReadError,
    Source,
    detect_format,
    engine_error,
    engine_exceptions,
    open_source,
    relation_source,
)
from .inputs.sql_counts import count_groups

__all__ = [
    "FORMATS",
    "BatchReader",
    "FileReport",
    "ReadError",
    "detect_format",
    "evaluate_file",
    "evaluate_sql",
    "iter_batches",
    "list_columns",
    "read_columns",
]

#: How many skipped row numbers a read remembers.
MAX_SKIPPED_NUMBERS = 10
#: Why a row is skipped, in order of precedence.
REASONS = ("null true label", "null prediction", "null or NaN score", "null or NaN weight")


def list_columns(path: str | os.PathLike[str], *, format: str | None = None) -> list[str]:
    """Column names of a prediction file.

    Parameters
    ----------
    path : str or os.PathLike
        A file, a directory or a glob of files in one of :data:`FORMATS`.
    format : str, optional
        Overrides the extension.

    Returns
    -------
    list of str
        For a 2-D ``.npy`` array, ``"0"``, ``"1"``, ...; for a structured one or an ``.npz``
        archive, its field or array names.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,1\\n")
    >>> list_columns(path)
    ['y', 'yhat']
    """
    return list(open_source(path, format=format).columns)


def _check_columns(columns: Any) -> list[str]:
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, Sequence) or not columns:
        raise ValueError(f"columns must be a non-empty sequence of column names, got {columns!r}")
    for c in columns:
        if not isinstance(c, str):
            raise TypeError(f"column names must be strings, got {c!r}")
    return list(columns)


def _check_batch_rows(batch_rows: Any) -> int:
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, int | np.integer):
        raise TypeError(f"batch_rows must be an int, got {type(batch_rows).__name__}")
    if batch_rows < 1:
        raise ValueError(f"batch_rows must be at least 1, got {batch_rows}")
    return int(batch_rows)


def _check_na_values(na_values: Any) -> list[str] | None:
    if na_values is None:
        return None
    if isinstance(na_values, str):
        na_values = [na_values]
    out = list(na_values)
    for v in out:
        if not isinstance(v, str):
            raise TypeError(f"na_values must be strings, got {v!r}")
    return out


# --------------------------------------------------------------------------- batch cleaning
@dataclass
class _Roles:
    """Which requested column plays which part: its skip reason (index into REASONS)."""

    reason: dict[str, int]

    @classmethod
    def of(cls, true_col: str | None, pred_col: str | None, score_cols: Sequence[str],
           weight_col: str | None, other: Sequence[str] = ()) -> _Roles:
        reason: dict[str, int] = {}
        for c in other:
            reason.setdefault(c, 0)
        if true_col is not None:
            reason[true_col] = 0
        if pred_col is not None and pred_col not in reason:
            reason[pred_col] = 1
        for c in score_cols:
            reason.setdefault(c, 2)
        if weight_col is not None:
            reason.setdefault(weight_col, 3)
        return cls(reason)


class _Cleaner:
    """Finds the missing values of each Arrow batch, raises or drops them, and keeps the row
    accounting (one place for every streamed source)."""

    def __init__(self, name: str, roles: _Roles, skip_invalid: bool,
                 na_values: list[str] | None) -> None:
        self.name = name
        self.roles = roles
        self.skip_invalid = skip_invalid
        self.na_values = na_values
        self.rows_read = 0
        self.rows_skipped = 0
        self.by_reason = dict.fromkeys(REASONS, 0)
        self.skipped_row_numbers: list[int] = []

    @property
    def rows_total(self) -> int:
        return self.rows_read + self.rows_skipped

    def _missing(self, arr: Any) -> Any:
        """Boolean Arrow mask of the missing values of one column, or None if there are none."""
        import pyarrow as pa
        import pyarrow.compute as pc

        mask = arr.is_null() if arr.null_count else None
        typ = arr.type
        if pa.types.is_floating(typ):
            nan = pc.is_nan(arr)
            if pc.any(nan).as_py():
                mask = nan if mask is None else pc.or_(mask, nan)
        if self.na_values:
            if pa.types.is_dictionary(typ):
                hit = pc.take(pc.is_in(arr.dictionary, value_set=pa.array(self.na_values)),
                              arr.indices)
            elif pa.types.is_string(typ) or pa.types.is_large_string(typ):
                hit = pc.is_in(arr, value_set=pa.array(self.na_values))
            else:
                hit = None
            if hit is not None and pc.any(hit).as_py():
                mask = hit if mask is None else pc.or_(mask, hit)
        if mask is not None:
            mask = pc.fill_null(mask, True)
            if not pc.any(mask).as_py():
                return None
        return mask

    def masks(self, batch: Any) -> list[tuple[int, str, Any]]:
        """(reason, column, mask) of the columns of a batch that miss values, by precedence."""
        out = []
        for col, why in self.roles.reason.items():
            m = self._missing(batch.column(batch.schema.get_field_index(col)))
            if m is not None:
                out.append((why, col, m))
        out.sort(key=lambda r: r[0])
        return out

    def first_missing(self, masks: list[tuple[int, str, Any]]) -> tuple[int, int, str]:
        """(row within the batch, reason, column) of the first missing value."""
        return min((int(np.flatnonzero(m.to_numpy(zero_copy_only=False))[0]), why, col)
                   for why, col, m in masks)

    def error(self, row: int, why: int, col: str) -> ValueError:
        return ValueError(
            f"{self.name}, row {row}: {REASONS[why]} (column {col!r} is missing a value); "
            "pass skip_invalid=True to skip such rows and count them"
        )

    def clean(self, batch: Any) -> Any:
        """The batch without its invalid rows (or an error naming the first one)."""
        import pyarrow.compute as pc

        start = self.rows_total
        n = batch.num_rows
        reason_masks = self.masks(batch)
        if not reason_masks:
            self.rows_read += n
            return batch
        if not self.skip_invalid:
            row, why, col = self.first_missing(reason_masks)
            raise self.error(start + row + 1, why, col)
        taken = np.zeros(n, dtype=bool)
        for why, _col, m in reason_masks:
            mm = np.asarray(m.to_numpy(zero_copy_only=False), dtype=bool) & ~taken
            self.by_reason[REASONS[why]] += int(mm.sum())
            taken |= mm
        k = int(taken.sum())
        if len(self.skipped_row_numbers) < MAX_SKIPPED_NUMBERS:
            rows = np.flatnonzero(taken)[: MAX_SKIPPED_NUMBERS - len(self.skipped_row_numbers)]
            self.skipped_row_numbers.extend(int(start + r + 1) for r in rows)
        self.rows_skipped += k
        self.rows_read += n - k
        return batch.filter(pc.invert(_arrow_bool(taken)))


def _arrow_bool(a: np.ndarray) -> Any:
    import pyarrow as pa

    return pa.array(a, type=pa.bool_())


def _reconcile(source: Source, done: int) -> None:
    if source.rows is not None and done != source.rows:
        raise ReadError(
            f"{source.name} cannot be read whole: it declares {source.rows} rows but "
            f"{done} were read"
        )


def _numpy(arr: Any) -> np.ndarray:
    """An Arrow column as numpy (decoded; for :func:`iter_batches`)."""
    return np.asarray(arr.to_numpy(zero_copy_only=False))


# --------------------------------------------------------------------------- batch reader
class BatchReader:
    """Iterate the batches of :func:`iter_batches`; the row accounting is read afterwards.

    Attributes
    ----------
    rows_read, rows_skipped : int
        Rows handed out and rows left out (``skip_invalid=True``) so far.
    skipped_by_reason : dict
        Skipped rows per reason (see :data:`REASONS`).
    total_rows : int or None
        The number of rows the source declares, when it declares one.
    """

    def __init__(self, path: Any, columns: Sequence[str], *, format: str | None = None,
                 batch_rows: int = 1_000_000, skip_invalid: bool = False,
                 column_types: Mapping[str, str] | None = None,
                 na_values: Sequence[str] | None = None,
                 roles: _Roles | None = None, source: Source | None = None) -> None:
        self.columns = _check_columns(columns)
        self.batch_rows = _check_batch_rows(batch_rows)
        self.skip_invalid = bool(skip_invalid)
        na = _check_na_values(na_values)
        self.source = source if source is not None else open_source(
            path, format=format, column_types=column_types, na_values=na)
        self.source.check_columns(self.columns)
        self.path = os.fspath(path) if isinstance(path, str | os.PathLike) else self.source.name
        self.format = self.source.format
        self.total_rows = self.source.rows
        roles = roles or _Roles.of(None, None, (), None, other=self.columns)
        # DuckDB applied na_values already while parsing CSV / JSON lines
        self._roles = roles
        self._na = na if self.source.streams_raw else None
        self._clean = _Cleaner(self.source.name, roles, self.skip_invalid, self._na)

    @property
    def rows_read(self) -> int:
        return self._clean.rows_read

    @property
    def rows_skipped(self) -> int:
        return self._clean.rows_skipped

    @property
    def rows_total(self) -> int:
        return self._clean.rows_total

    @property
    def skipped_by_reason(self) -> dict[str, int]:
        return {k: v for k, v in self._clean.by_reason.items() if v}

    @property
    def skipped_row_numbers(self) -> list[int]:
        return list(self._clean.skipped_row_numbers)

    def arrow_batches(self) -> Iterator[Any]:
        """Cleaned ``pyarrow.RecordBatch`` es (text columns may be dictionary-encoded); each
        iteration reads the source again from its start."""
        self._clean = _Cleaner(self.source.name, self._roles, self.skip_invalid, self._na)
        for batch in self.source.batches(self.columns, self.batch_rows):
            clean = self._clean.clean(batch)
            if clean.num_rows:
                yield clean
        _reconcile(self.source, self.rows_total)

    def __iter__(self) -> Iterator[dict[str, np.ndarray]]:
        for batch in self.arrow_batches():
            yield {c: _numpy(batch.column(batch.schema.get_field_index(c)))
                   for c in dict.fromkeys(self.columns)}


def iter_batches(
    path: str | os.PathLike[str],
    columns: Sequence[str],
    *,
    format: str | None = None,
    batch_rows: int = 1_000_000,
    skip_invalid: bool = False,
    column_types: Mapping[str, str] | None = None,
    na_values: Sequence[str] | None = None,
) -> BatchReader:
    """Stream some columns of a file as numpy arrays, one record batch at a time.

    Parameters
    ----------
    path : str or os.PathLike
        A file, a directory (a Parquet dataset, hive partitions included) or a glob. Formats:
        CSV / TSV (also ``.gz``, ``.zst``, ``.bz2``), Parquet, JSON lines (also ``.gz``,
        ``.zst``), Arrow IPC / Feather, ``.npy`` / ``.npz``; chosen from the extension.
    columns : sequence of str
        Columns to read. A missing or duplicated column is a ``ValueError`` naming it.
    format : str, optional
        Overrides the extension: one of :data:`FORMATS`.
    batch_rows : int, default 1_000_000
        Rows per batch at most; memory use is bounded by a few batches.
    skip_invalid : bool, default False
        Skip rows with a missing value instead of raising; they are counted in
        ``rows_skipped`` and ``skipped_by_reason``.
    column_types : mapping, optional
        Force a type (``"string"``, ``"int64"``, ``"uint64"``, ``"float64"``, ``"bool"``) for
        columns of a CSV or JSON lines file, whose types are otherwise inferred by the engine.
    na_values : sequence of str, optional
        Text values that mean "missing". By default only an empty CSV field and a JSON
        ``null`` are missing: strings such as ``"NA"``, ``"null"`` or ``"NaN"`` are class names.

    Returns
    -------
    BatchReader
        Iterate it for ``dict[str, np.ndarray]`` batches; then read ``rows_read`` and
        ``rows_skipped``.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,1\\n0,1\\n")
    >>> reader = iter_batches(path, ["y", "yhat"])
    >>> [b["yhat"].tolist() for b in reader], reader.rows_read
    ([[1, 1]], 2)
    """
    return BatchReader(path, columns, format=format, batch_rows=batch_rows,
                       skip_invalid=skip_invalid, column_types=column_types, na_values=na_values)


def read_columns(
    path: str | os.PathLike[str], columns: Sequence[str], **kw: Any
) -> dict[str, np.ndarray]:
    """Read whole columns of a file into memory (the batches of :func:`iter_batches` joined).

    Takes the keyword arguments of :func:`iter_batches`.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\na,b\\nb,b\\n")
    >>> read_columns(path, ["y"])["y"].tolist()
    ['a', 'b']
    """
    import pyarrow as pa

    reader = iter_batches(path, columns, **kw)
    batches = list(reader.arrow_batches())
    out: dict[str, np.ndarray] = {}
    for c in dict.fromkeys(reader.columns):
        parts = [b.column(b.schema.get_field_index(c)) for b in batches]
        if not parts:
            out[c] = np.empty(0)
            continue
        if any(pa.types.is_dictionary(p.type) for p in parts):
            parts = [p.dictionary_decode() if pa.types.is_dictionary(p.type) else p
                     for p in parts]
        out[c] = _numpy(pa.chunked_array(parts))
    return out


# --------------------------------------------------------------------------- evaluation
@dataclass
class FileReport:
    """What an evaluation read: every row of the source is ``rows_read`` (evaluated) or
    ``rows_skipped`` (counted per reason in ``skipped_by_reason``)."""

    path: str
    format: str
    rows_read: int = 0
    rows_skipped: int = 0
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    skipped_row_numbers: list[int] = field(default_factory=list)
    batches: int = 0
    engine: str = ""
    curves: Any = None

    @property
    def rows_total(self) -> int:
        return self.rows_read + self.rows_skipped


def _score_list(score_cols: Any) -> list[str]:
    if score_cols is None:
        return []
    if isinstance(score_cols, str):
        return [score_cols]
    return _check_columns(score_cols)


def evaluate_file(
    path: str | os.PathLike[str],
    true_col: str,
    pred_col: str,
    *,
    score_cols: str | Sequence[str] | None = None,
    weight_col: str | None = None,
    labels: Sequence[Any] | None = None,
    skip_invalid: bool = False,
    na_values: Sequence[str] | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    format: str | None = None,
    batch_rows: int = 1_000_000,
    bins: int = 10_000,
    column_types: Mapping[str, str] | None = None,
) -> tuple[Any, FileReport]:
    """Evaluate a prediction file of any size in bounded memory.

    Parameters
    ----------
    path : str or os.PathLike
        A file, a directory or a glob (see :func:`iter_batches` for the formats).
    true_col, pred_col : str
        Columns of true and predicted labels.
    score_cols : str or sequence of str, optional
        Score columns: one (the positive-class score of a binary problem) or one per class in
        label order. Binned curves are then accumulated too and returned as ``report.curves``
        (a :class:`confmat.binned.ScoreHistogram`).
    weight_col : str, optional
        Column of sample weights.
    labels : sequence, optional
        Fixed classes: a label outside them is an error naming it. By default the sorted union
        of the labels seen.
    skip_invalid : bool, default False
        Skip rows with a missing value and count them (per reason) instead of raising.
    na_values : sequence of str, optional
        Text values that mean "missing" (by default none: ``"NA"`` is a class name).
    progress : callable, optional
        Called after each batch as ``progress(rows_done, total_rows)``; ``total_rows`` is None
        when the source does not declare it. When the engine counts the source at once
        (``report.engine == "duckdb GROUP BY"``) it is called once, at the end, with the rows
        counted as both arguments.
    format, column_types, batch_rows
        As in :func:`iter_batches`.
    bins : int, default 10_000
        Score bins of the curves.

    Returns
    -------
    (ConfusionMatrix, FileReport)
        The matrix has ``n == report.rows_read`` (the sum of weights when weighted).

    Raises
    ------
    ValueError
        A missing or duplicated column, a missing value without ``skip_invalid``, a label
        outside ``labels``, or a file the engine cannot read whole (:class:`ReadError`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\nsick,sick\\nwell,sick\\nwell,well\\n")
    >>> cm, report = evaluate_file(path, "y", "yhat")
    >>> cm.counts.tolist(), report.rows_read
    ([[1, 0], [1, 1]], 3)
    """
    na = _check_na_values(na_values)
    source = open_source(path, format=format, column_types=column_types, na_values=na)
    return _evaluate(source, os.fspath(path), true_col, pred_col, score_cols=score_cols,
                     weight_col=weight_col, labels=labels, skip_invalid=skip_invalid,
                     na_values=na, progress=progress, batch_rows=batch_rows, bins=bins)


def evaluate_sql(
    source: Any,
    query: str | None = None,
    *,
    true_col: str | None = None,
    pred_col: str | None = None,
    score_cols: str | Sequence[str] | None = None,
    weight_col: str | None = None,
    labels: Sequence[Any] | None = None,
    skip_invalid: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
    batch_rows: int = 1_000_000,
    bins: int = 10_000,
) -> tuple[Any, FileReport]:
    """Evaluate a DuckDB relation, or a SQL query over a DuckDB connection, where it lives.

    Without scores, or with one score column, the counting runs inside DuckDB (``GROUP BY
    true, pred`` and the score's bin); with several score columns the engine streams ordered
    Arrow batches into the score histogram.

    Parameters
    ----------
    source : duckdb.DuckDBPyConnection or duckdb.DuckDBPyRelation
        A connection (then ``query`` is required) or a relation (then ``query`` must be None).
    query : str, optional
        A ``SELECT`` over the connection, e.g. ``"select y, yhat, p from preds where split =
        'test'"``.
    true_col, pred_col : str, optional
        Columns of true and predicted labels; by default the first and the second column of
        the result.
    score_cols, weight_col, labels, skip_invalid, progress, batch_rows, bins
        As in :func:`evaluate_file`.

    Returns
    -------
    (ConfusionMatrix, FileReport)

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("create table preds as select * from (values (1, 1), (0, 1), (0, 0)) t(y, yhat)")
    >>> cm, report = evaluate_sql(con, "select y, yhat from preds")
    >>> cm.counts.tolist(), report.engine
    ([[1, 1], [0, 1]], 'duckdb GROUP BY')
    """
    rel, name = _relation(source, query)
    src = relation_source(rel, name)
    cols = src.columns
    if true_col is None or pred_col is None:
        if len(cols) < 2:
            raise ValueError(f"{name} has {len(cols)} column(s); true and predicted labels "
                             "need two (or pass true_col= and pred_col=)")
        true_col = cols[0] if true_col is None else true_col
        pred_col = cols[1] if pred_col is None else pred_col
    return _evaluate(src, name, true_col, pred_col, score_cols=score_cols,
                     weight_col=weight_col, labels=labels, skip_invalid=skip_invalid,
                     na_values=None, progress=progress, batch_rows=batch_rows, bins=bins)


def _relation(source: Any, query: str | None) -> tuple[Any, str]:
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is installed with confmat[scale]
        raise ImportError("evaluate_sql needs duckdb: pip install duckdb") from exc
    if isinstance(source, duckdb.DuckDBPyConnection):
        if not isinstance(query, str):
            raise TypeError("query must be a SQL string when source is a DuckDB connection, "
                            f"got {type(query).__name__}")
        try:
            statements = duckdb.extract_statements(query)
            kinds = [s.type for s in statements]
            if kinds != [duckdb.StatementType.SELECT]:
                # checked before running it: the query must not change the database
                found = ", ".join(k.name for k in kinds) or "no statement"
                raise ValueError(f"query must be one SELECT statement, got {found}: {query!r}")
            rel = source.sql(query)
        except duckdb.Error as exc:
            raise ValueError(f"query {query!r} failed: {exc}") from exc
        return rel, f"the query {query!r}"
    if isinstance(source, duckdb.DuckDBPyRelation):
        if query is not None:
            raise TypeError("query must be None when source is a DuckDB relation")
        return source, "the DuckDB relation"
    raise TypeError("source must be a duckdb connection or relation, got "
                    f"{type(source).__name__}")


def _evaluate(source: Source, path: str, true_col: str, pred_col: str, *, score_cols: Any,
              weight_col: str | None, labels: Any, skip_invalid: bool,
              na_values: list[str] | None, progress: Any, batch_rows: int,
              bins: int) -> tuple[Any, FileReport]:
    scores = _score_list(score_cols)
    cols = _check_columns([true_col, pred_col, *scores]
                          + ([weight_col] if weight_col is not None else []))
    source.check_columns(cols)
    batch_rows = _check_batch_rows(batch_rows)
    report = FileReport(path=path, format=source.format)
    if source.relation is not None and len(scores) <= 1:
        report.engine = "duckdb GROUP BY"
        cm = _evaluate_grouped(source, true_col, pred_col, weight_col, labels, skip_invalid,
                               report, scores[0] if scores else None, bins)
        if progress is not None:
            progress(report.rows_total, report.rows_total)
        return cm, report
    # Parquet has a relation (counted by DuckDB) but is streamed by the pyarrow dataset
    report.engine = "pyarrow dataset" if (
        source.dataset is not None or source.make_dataset is not None) else (
        "duckdb stream" if source.relation is not None else "numpy")
    return _evaluate_stream(source, path, true_col, pred_col, scores, weight_col, labels,
                            skip_invalid, na_values, progress, batch_rows, bins, report)


def _evaluate_stream(source: Source, path: str, true_col: str, pred_col: str,
                     scores: list[str], weight_col: str | None, labels: Any,
                     skip_invalid: bool, na_values: list[str] | None, progress: Any,
                     batch_rows: int, bins: int, report: FileReport) -> tuple[Any, FileReport]:
    from .accumulator import Accumulator

    roles = _Roles.of(true_col, pred_col, scores, weight_col)
    reader = BatchReader(path, [true_col, pred_col, *scores]
                         + ([weight_col] if weight_col is not None else []),
                         batch_rows=batch_rows, skip_invalid=skip_invalid, na_values=na_values,
                         roles=roles, source=source)
    acc = Accumulator(labels, scores=bool(scores) or None, bins=bins)
    done = 0
    for batch in reader.arrow_batches():

        def col(name: str, b: Any = batch) -> Any:
            return b.column(b.schema.get_field_index(name))

        s = None
        if scores:
            s = (_numpy(col(scores[0])) if len(scores) == 1
                 else np.column_stack([_numpy(col(c)) for c in scores]))
        w = None if weight_col is None else _numpy(col(weight_col))
        first, last = done + 1, reader.rows_total
        try:
            acc.update(col(true_col), col(pred_col), scores=s, sample_weight=w)
        except (ValueError, TypeError) as exc:
            raise _content_error(source, f"rows {first}..{last}", exc) from exc
        done = reader.rows_total
        report.batches += 1
        if progress is not None:
            progress(reader.rows_total, reader.total_rows)
    if progress is not None and reader.rows_total != done:
        progress(reader.rows_total, reader.total_rows)
    report.rows_read = reader.rows_read
    report.rows_skipped = reader.rows_skipped
    report.skipped_by_reason = reader.skipped_by_reason
    report.skipped_row_numbers = reader.skipped_row_numbers
    if reader.rows_read == 0:
        raise ValueError(
            f"{source.name} has no valid rows to evaluate ({reader.rows_skipped} skipped)")
    if scores:
        report.curves = acc.curves()
    return acc.result(), report


def _evaluate_grouped(source: Source, true_col: str, pred_col: str, weight_col: str | None,
                      labels: Any, skip_invalid: bool, report: FileReport,
                      score_col: str | None = None, bins: int = 10_000) -> Any:
    """The pairs (and score bins) counted by the engine in one ``GROUP BY``; the row
    accounting read off the groups. A row the errors must name is found by a second pass
    over the rows, streamed in order by the same engine (only on the error path)."""
    from .accumulator import Accumulator
    from .inputs.encode import encode_pair, normalize_labels

    if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins!r}")
    try:
        g = count_groups(source.relation, true_col, pred_col, weight_col=weight_col,
                         score_col=score_col, bins=int(bins))
    except engine_exceptions() as exc:
        raise engine_error(source.name, exc) from exc
    t, p, n = g["true"], g["pred"], g["count"]
    null_t = _is_null(t)
    null_p = _is_null(p) & ~null_t
    ok = ~(null_t | null_p)
    by_reason = {REASONS[0]: int(n[null_t].sum()), REASONS[1]: int(n[null_p].sum())}
    if score_col is not None:
        null_s = np.isnan(g["bin"]) & ok
        by_reason[REASONS[2]] = int(n[null_s].sum())
        ok &= ~null_s
    if weight_col is not None:
        by_reason[REASONS[3]] = int(g["bad_weight"][ok].sum())
        # a group whose every row lacks its weight holds no valid row: its labels, bin and
        # weights are not seen (as when streaming, where such rows are dropped first)
        ok &= n > g["bad_weight"]
    skipped = sum(by_reason.values())
    total = int(n.sum())
    scan = _RowScan(source, true_col, pred_col, score_col, weight_col)
    if skipped:
        found = _scan_missing(source, true_col, pred_col, weight_col, score_col,
                              1 if not skip_invalid else min(skipped, MAX_SKIPPED_NUMBERS))
        if not found:
            raise ReadError(f"{source.name} cannot be read whole: the engine's count and its "
                            "rows disagree on missing values")
        if not skip_invalid:
            raise found[0][1]
        report.skipped_row_numbers = [row for row, _ in found]
    if weight_col is not None:
        lo, hi = g["min_weight"][ok], g["max_weight"][ok]
        if (lo < 0).any() or (hi == np.inf).any():
            hit = scan.first(lambda v: (_floats(v[weight_col]) < 0)
                             | (_floats(v[weight_col]) == np.inf))
            bad = float(lo.min()) if (lo < 0).any() else np.inf
            where = source.name if hit is None else f"{source.name}, row {hit[0]}"
            if hit is not None:
                bad = float(_floats([hit[1][weight_col]])[0])
            raise ValueError(f"{where}: column {weight_col!r} (sample_weight) holds "
                             f"{bad!r}; weights must be finite and non-negative")
        counts: np.ndarray = g["weight"][ok]
    else:
        counts = n[ok]
    report.rows_skipped = skipped
    report.rows_read = total - skipped
    report.skipped_by_reason = {k: v for k, v in by_reason.items() if v}
    report.batches = 1
    if report.rows_read == 0:
        raise ValueError(f"{source.name} has no valid rows to evaluate ({skipped} skipped)")
    tv, pv = t[ok], p[ok]
    book = None if labels is None else normalize_labels(labels)
    try:
        tc, pc, out_labels, has_other = encode_pair(tv, pv, book)
    except (ValueError, TypeError) as exc:
        raise _content_error(source, None, exc) from exc
    if has_other:
        k = len(out_labels)
        bad_t = tv[tc == k]
        bad, col = (bad_t[0], true_col) if bad_t.size else (pv[pc == k][0], pred_col)
        found_label = scan.first_label(lambda a, b: _outside(a, b, out_labels))
        where = source.name
        if found_label is not None:
            row, bad, col = found_label
            where = f"{source.name}, row {row}"
        raise ValueError(f"{where}: label {py_scalar(bad)!r} (column {col!r}) is not in the fixed "
                         f"labels {out_labels}")
    if score_col is not None:
        report.curves = _grouped_histogram(source, scan, score_col, g["bin"][ok], tc, counts,
                                           out_labels, int(bins), labels is None)
    # the table itself is added up where every engine's GROUP BY is: Accumulator.update_grouped
    acc = Accumulator(book)
    rows = n[ok] if weight_col is None else n[ok] - g["bad_weight"][ok]
    try:
        acc.update_grouped(tv, pv, rows, weights=None if weight_col is None else counts)
    except (ValueError, TypeError) as exc:
        raise _content_error(source, None, exc) from exc
    return acc.result()


def _outside(t: np.ndarray, p: np.ndarray, book: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the true and predicted labels outside a fixed code book."""
    from .inputs.encode import encode_pair

    tc, pc, _, _ = encode_pair(t, p, book)
    return tc == len(book), pc == len(book)


def _grouped_histogram(source: Source, scan: _RowScan, score_col: str, b: np.ndarray,
                       codes: np.ndarray, counts: np.ndarray, labels: list[Any], bins: int,
                       seen: bool) -> Any:
    """The score histogram of the engine's bin groups (binary problems: one score column)."""
    from .binned import ScoreHistogram

    if len(labels) < 2:
        raise ValueError(f"{source.name}: the score histogram needs at least two classes but "
                         f"only {labels} were seen; pass labels=")
    if len(labels) > 2:
        third = scan.third_label() if seen else None
        if third is None:
            raise ValueError(f"{source.name}: one score column serves a binary problem, but "
                             f"the labels are {labels}; give one score column per class")
        row, label, col = third
        raise ValueError(f"{source.name}, row {row}: label {py_scalar(label)!r} (column {col!r}) is "
                         "a third class, but one score column serves a binary problem (the "
                         f"labels are {labels}); give one score column per class")
    outside = (b < 0) | (b >= bins)
    if outside.any():
        hit = scan.first(lambda v: (_floats(v[score_col]) < 0.0) | (_floats(v[score_col]) > 1.0))
        where = source.name if hit is None else f"{source.name}, row {hit[0]}"
        value = "" if hit is None else f" {float(_floats([hit[1][score_col]])[0])!r}"
        raise ValueError(f"{where}: column {score_col!r} holds a score{value} outside "
                         "score_range=(0.0, 1.0); scores must be probabilities")
    hist = ScoreHistogram(labels, bins=bins)
    hist.update_grouped(codes, b.astype(np.int64), counts)
    return hist


def _floats(values: Any) -> np.ndarray:
    """Values as the engine's ``::DOUBLE`` reads them (a score column inferred as text, e.g.
    one starting with ``inf``, is cast by the counting query too)."""
    return np.asarray(values).astype(np.float64)


class _RowScan:
    """The valid rows of a source (no missing value in the requested columns), streamed in
    order by the engine that counted them, to name the first row where something holds."""

    def __init__(self, source: Source, true_col: str, pred_col: str, score_col: str | None,
                 weight_col: str | None) -> None:
        self.source = source
        self.true_col, self.pred_col = true_col, pred_col
        scores = [score_col] if score_col else []
        self.cols = list(dict.fromkeys(
            [true_col, pred_col, *scores] + ([weight_col] if weight_col else [])))
        self.roles = _Roles.of(true_col, pred_col, scores, weight_col)

    def valid(self) -> Iterator[tuple[int, np.ndarray, dict[str, np.ndarray]]]:
        """(rows before the batch, indices of its valid rows, their values by column)."""
        cleaner = _Cleaner(self.source.name, self.roles, False, None)
        done = 0
        for batch in self.source.batches(self.cols, 1 << 16, counted=True):
            bad = np.zeros(batch.num_rows, dtype=bool)
            for _why, _col, m in cleaner.masks(batch):
                bad |= np.asarray(m.to_numpy(zero_copy_only=False), dtype=bool)
            idx = np.flatnonzero(~bad)
            if idx.size:
                yield done, idx, {c: _numpy(batch.column(batch.schema.get_field_index(c)))[idx]
                                  for c in self.cols}
            done += batch.num_rows

    def first(self, test: Callable[[dict[str, np.ndarray]], np.ndarray]
              ) -> tuple[int, dict[str, Any]] | None:
        """(1-based row, its values) of the first valid row where ``test`` holds."""
        try:
            for done, idx, values in self.valid():
                with np.errstate(invalid="ignore"):
                    hit = np.flatnonzero(np.asarray(test(values), dtype=bool))
                if hit.size:
                    i = int(hit[0])
                    return done + int(idx[i]) + 1, {c: v[i] for c, v in values.items()}
        except (ValueError, TypeError):  # the row is a courtesy: the error stands without it
            return None
        return None

    def first_label(self, test: Callable[[np.ndarray, np.ndarray],
                                          tuple[np.ndarray, np.ndarray]]
                    ) -> tuple[int, Any, str] | None:
        """(1-based row, label, column) of the first valid row whose true (then predicted)
        label passes ``test``, which gives a mask for each."""
        try:
            for done, idx, values in self.valid():
                t, p = values[self.true_col], values[self.pred_col]
                mt, mp = (np.asarray(m, dtype=bool) for m in test(t, p))
                hit = np.flatnonzero(mt | mp)
                if hit.size:
                    i = int(hit[0])
                    label, col = (t[i], self.true_col) if mt[i] else (p[i], self.pred_col)
                    return done + int(idx[i]) + 1, label, col
        except (ValueError, TypeError):
            return None
        return None

    def third_label(self) -> tuple[int, Any, str] | None:
        """(1-based row, label, column) of the first valid row holding a third class (labels
        in order of appearance, the true label of a row before its prediction)."""
        from .inputs.encode import encode_pair

        seen: dict[Any, None] = {}
        try:
            for done, idx, values in self.valid():
                t, p = values[self.true_col], values[self.pred_col]
                tc, pc, book, _ = encode_pair(t, p, None)
                firsts: dict[int, tuple[int, int]] = {}
                for order, codes in enumerate((tc, pc)):
                    uniq, at = np.unique(codes, return_index=True)
                    for c, i in zip(uniq.tolist(), at.tolist(), strict=True):
                        firsts[c] = min(firsts.get(c, (i, order)), (i, order))
                for c, (i, order) in sorted(firsts.items(), key=lambda kv: kv[1]):
                    label = py_scalar(book[c])
                    if label in seen:
                        continue
                    seen[label] = None
                    if len(seen) > 2:
                        col = self.true_col if order == 0 else self.pred_col
                        return done + int(idx[i]) + 1, label, col
        except (ValueError, TypeError):
            return None
        return None


def _content_error(source: Source, rows: str | None, exc: Exception) -> ValueError:
    """A problem with the values of a source, as the ``ValueError`` naming it: what a file
    holds is a value, whatever the type of the in-memory check that found it."""
    where = source.name if rows is None else f"{source.name}, {rows}"
    hint = ""
    if isinstance(exc, TypeError) and source.format in ("csv", "tsv", "jsonl"):
        hint = " (the engine inferred the column types; column_types= can set them)"
    return ValueError(f"{where}: {exc}{hint}")


def _is_null(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "O":
        return np.fromiter((v is None or (isinstance(v, float) and v != v) for v in a.tolist()),
                           bool, a.size)
    if a.dtype.kind == "f":
        return np.isnan(a)
    return np.zeros(a.shape, dtype=bool)


def _scan_missing(source: Source, true_col: str, pred_col: str, weight_col: str | None,
                  score_col: str | None, limit: int) -> list[tuple[int, ValueError]]:
    """The first ``limit`` rows with a missing value, with the error naming each, found by
    streaming the columns in order from the engine that counted them (only when the counts
    show such rows)."""
    scores = [score_col] if score_col else []
    cols = [true_col, pred_col, *scores] + ([weight_col] if weight_col else [])
    cleaner = _Cleaner(source.name, _Roles.of(true_col, pred_col, scores, weight_col), False,
                       None)
    out: list[tuple[int, ValueError]] = []
    done = 0
    for batch in source.batches(cols, 1 << 18, counted=True):
        masks = cleaner.masks(batch)
        if masks:
            hit = np.zeros(batch.num_rows, dtype=bool)
            for _why, _col, m in masks:
                hit |= np.asarray(m.to_numpy(zero_copy_only=False), dtype=bool)
            for r in np.flatnonzero(hit)[: limit - len(out)].tolist():
                why, col = min((why, col) for why, col, m in masks if m[r].as_py())
                out.append((done + r + 1, cleaner.error(done + r + 1, why, col)))
            if len(out) >= limit:
                break
        done += batch.num_rows
    return out
