"""Prediction files and typed-in matrices read for the commands, through :mod:`confmat.io`
(with a progress bar on stderr for large files)."""

from __future__ import annotations

import ast
import math
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .common import PROGRESS_BYTES, InputError, check_file
from .typed import coerce


def _progress_reader(path: str, columns: list[str], show: bool | None, roles: Any,
                     **kw: Any) -> dict[str, np.ndarray]:
    """Read columns through :mod:`confmat.io`, with a rich progress bar on stderr; ``roles``
    (:class:`confmat.io.rows.Roles`) names the part each column plays in the messages about
    missing values. ``"__rows__"`` holds the 1-based data row of each value kept."""
    from .. import io as cio
    from ..io.rows import FILTERED

    reader = cio.BatchReader(path, columns, roles=roles, **kw)
    if show is None:
        show = sys.stderr.isatty() and _size(path) > PROGRESS_BYTES
    parts: dict[str, list[np.ndarray]] = {c: [] for c in reader.columns}
    rows: list[np.ndarray] = []
    progress = _make_progress(path, reader.total_rows) if show else None
    try:
        for batch in reader:
            for c, v in batch.items():
                parts[c].append(v)
            rows.append(reader.last_row_numbers())
            if progress is not None:
                progress[0].update(progress[1], completed=reader.rows_total)
    finally:
        if progress is not None:
            progress[0].stop()
    if reader.rows_read == 0:
        raise InputError(_no_rows(path, reader))
    out = {}
    for c, vs in parts.items():
        if all(v.dtype.kind == vs[0].dtype.kind for v in vs):
            out[c] = np.concatenate(vs)
        else:
            out[c] = np.concatenate([v.astype(object) for v in vs])
    out["__rows__"] = np.concatenate(rows)
    out["__source__"] = reader.source.name  # type: ignore[assignment]
    filtered = reader.skipped_by_reason.get(FILTERED, 0)
    if reader.rows_skipped - filtered:
        out["__skipped__"] = np.array([reader.rows_skipped - filtered])
    if filtered:
        out["__filtered__"] = np.array([filtered])
    out["__skipped_by__"] = {k: v for k, v in reader.skipped_by_reason.items()  # type: ignore[assignment]
                             if k != FILTERED}
    return out


def evaluate_stream(path: str, true: str, pred: str, weight: str | None, labels: list[str],
                     pos_label: str | None, show: bool | None, skip_invalid: bool,
                     fmt_in: str | None, score_cols: list[str] | None = None,
                     bins: int = 10_000, where: str | None = None,
                     group_cols: list[str] | None = None,
                     column_types: dict[str, str] | None = None) -> tuple[Any, Any, Any]:
    """One bounded-memory pass through :func:`confmat.io.evaluate_file` (row groups of a Parquet
    file on every core), with ``--labels`` / ``--pos-label`` read in the type of the true labels.

    Parameters
    ----------
    path : str
        The prediction file.
    true, pred : str
        Columns of true and predicted labels.
    weight : str or None
        Column of sample weights (must be numeric).
    labels : list of str
        ``--labels`` (may be empty: then the sorted union of the labels seen).
    pos_label : str or None
        ``--pos-label``.
    show : bool or None
        Show a progress bar on stderr; None shows one for a file over
        :data:`~confmat.cli.common.PROGRESS_BYTES` when stderr is a terminal.
    skip_invalid : bool
        Skip and count rows with a missing value instead of stopping.
    fmt_in : str or None
        ``--input-format``.
    score_cols : list of str, optional
        Score columns (see :func:`confmat.io.evaluate_file`).
    bins : int, default 10_000
        Score bins of the curves.
    where : str, optional
        ``--where``: the row filter (see :func:`confmat.io.evaluate_file`).
    group_cols : list of str, optional
        ``--by``: evaluate by group (one ``GROUP BY``, see :func:`confmat.io.evaluate_file`).
    column_types : dict of str to str, optional
        ``--column-type``: the types of CSV / JSON lines columns (``column_types=`` of
        :func:`confmat.io.evaluate_file`).

    Returns
    -------
    (ConfusionMatrix or GroupedEvaluation, label or None, FileReport)
        The matrix (with ``group_cols`` the evaluation by group), ``--pos-label`` in the type
        of the true labels (None when not given) and the read's report.

    Raises
    ------
    InputError
        A missing or unreadable file, a file without rows, ``--labels`` / ``--pos-label``
        values not of the label column's type, or a non-numeric weight column.
    ValueError
        The library's refusals (:func:`confmat.io.evaluate_file`), a ``--pos-label`` that is
        not one of the classes counted among them.
    """
    from .. import io as cio

    check_file(path, datasets=True)
    lab, pos0 = typed_options(path, true, labels, pos_label, fmt_in, skip_invalid, where,
                              column_types=column_types)
    if weight is not None:
        w0 = next(iter(cio.iter_batches(path, [weight], batch_rows=1000, format=fmt_in,
                                        skip_invalid=True, where=where,
                                        column_types=column_types)),
                  {weight: np.zeros(0)})[weight]
        if w0.dtype.kind not in "iuf":
            raise InputError(f"column {weight!r} of {path!r} must be numeric, got values like "
                             f"{w0[:3].tolist()}")
    if show is None:
        show = sys.stderr.isatty() and _size(path) > PROGRESS_BYTES
    bar = _make_progress(path, None) if show else None

    def tick(done: int, total: int | None) -> None:
        if bar is not None:
            bar[0].update(bar[1], completed=done, total=total)

    try:
        cm, frep = cio.evaluate_file(path, true, pred, score_cols=score_cols, weight_col=weight,
                                     labels=lab, skip_invalid=skip_invalid, progress=tick,
                                     format=fmt_in, bins=bins, where=where, pos_label=pos0,
                                     group_cols=group_cols, column_types=column_types)
    finally:
        if bar is not None:
            bar[0].stop()
    # in the type of the labels of the whole file (its first rows may not show them all)
    pos = (coerce([pos_label], np.asarray(cm.labels), "--pos-label")[0]
           if pos_label is not None else None)
    return cm, pos, frep


def typed_options(path: str, true: str, labels: list[str], pos_label: str | None,
                  fmt_in: str | None, skip_invalid: bool, where: str | None, *,
                  type_only: bool = False, column_types: dict[str, str] | None = None
                  ) -> tuple[list[Any] | None, Any]:
    """``--labels`` and ``--pos-label`` read in the type of the file's true labels (its first
    rows): ``--labels 0,1`` are the integers of an integer column. A text of the wrong type
    stops here, before the pass over the file; the library checks that the class is one of
    the matrix's.

    Parameters
    ----------
    path, true : str
        The file and its column of true labels.
    labels : list of str
        ``--labels`` (may be empty).
    pos_label : str or None
        ``--pos-label``.
    fmt_in, skip_invalid, where
        As the command's ``--input-format``, ``--skip-invalid`` and ``--where``.
    type_only : bool, default False
        Only learn the type: the first rows are read skipping missing values, and a file
        without a row gives ``(None, None)``; the read that follows names the first missing
        value of the file in file order, whatever column it is in (a group column's before a
        later null label).
    column_types : dict of str to str, optional
        ``--column-type`` (the label column's type may be one of them).

    Returns
    -------
    labels : list or None
    pos_label : label or None

    Raises
    ------
    InputError
        A file without rows (the message says why each row was left out), or a text that
        is not of the column's type (:func:`coerce`).
    """
    from .. import io as cio

    # without --skip-invalid a null label in the first rows is the library's error naming
    # its row
    probe = cio.iter_batches(path, [true], batch_rows=1000, format=fmt_in,
                             skip_invalid=skip_invalid or type_only, where=where,
                             column_types=column_types)
    first = next(iter(probe), None)
    if first is None and type_only:
        return None, None
    if first is None:
        raise InputError(_no_rows(path, probe))
    y0 = first[true]
    lab = coerce(labels, y0, "--labels value") if labels else None
    pos0 = coerce([pos_label], y0, "--pos-label")[0] if pos_label is not None else None
    return lab, pos0


def _no_rows(path: str, reader: Any) -> str:
    """The message of a read that kept no row: why each row was left out."""
    from ..io.rows import FILTERED

    why = [f"{n} by --where" if reason == FILTERED else f"{n} for a {reason}"
           for reason, n in reader.skipped_by_reason.items()]
    return (f"file {path!r} has no rows to evaluate" + (
        f": every row was left out ({', '.join(why)})" if why else ""))


def _size(path: str) -> int:
    """Bytes of a file; 0 for a directory or a glob (no progress bar by default)."""
    try:
        return os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return 0


def _make_progress(path: str, total: int | None) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("reading {task.description}"), BarColumn(),
                        TextColumn("{task.completed:,} rows"), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=False)
    progress.start()
    return progress, progress.add_task(Path(path).name, total=total)




def read_predictions(path: str, true: str, preds: list[str], scores: list[str],
                      weight: str | None, progress: bool | None, skip_invalid: bool,
                      fmt_in: str | None, extra: list[str] | None = None,
                      where: str | None = None,
                      column_types: dict[str, str] | None = None) -> dict[str, Any]:
    """Read the columns a command needs, whole (with a progress bar for large files).

    Parameters
    ----------
    path : str
        The prediction file.
    true : str
        Column of true labels.
    preds : list of str
        Columns of predicted labels (one per model).
    scores : list of str
        Score columns (must be numeric).
    weight : str or None
        Column of sample weights (must be numeric).
    progress : bool or None
        Show a progress bar on stderr; None decides from the file size and the terminal.
    skip_invalid : bool
        Skip and count rows with a missing value instead of stopping.
    fmt_in : str or None
        ``--input-format``.
    extra : list of str, optional
        The ``--by`` columns, read as they are; a missing value is counted under the reason
        naming its column (:func:`confmat.io.rows.null_group_reason`).
    where : str, optional
        ``--where``: the row filter (see :func:`confmat.io.evaluate_file`).
    column_types : dict of str to str, optional
        ``--column-type``: the types of CSV / JSON lines columns.

    Returns
    -------
    dict
        One numpy array per column, ``"__rows__"``: the 1-based data row of each value,
        ``"__source__"``: the file as its reader names it in messages (``"file 'p.csv'"``),
        ``"__skipped__"``: the number of rows skipped for a missing value, ``"__skipped_by__"``:
        those rows per reason, and ``"__filtered__"``: the number left out by ``where``.

    Raises
    ------
    InputError
        A missing or unreadable file, no row to evaluate, a non-numeric score or weight
        column, or a weight the library refuses (named by its data row).
    """
    from ..io.rows import Roles

    check_file(path, datasets=True)
    cols = list(dict.fromkeys([true, *preds, *scores, *([weight] if weight else []),
                               *(extra or [])]))
    roles = Roles.of(true, preds[0] if preds else None, scores, weight, groups=extra or ())
    for c in preds[1:]:
        roles.reason.setdefault(c, 1)  # every model's predictions: "null prediction"
    data: dict[str, Any] = _progress_reader(path, cols, progress, roles,
                                           skip_invalid=skip_invalid, format=fmt_in,
                                           where=where, column_types=column_types)
    skipped = int(data.pop("__skipped__", [0])[0])
    filtered = int(data.pop("__filtered__", [0])[0])
    rows = data["__rows__"]
    for c in scores + ([weight] if weight else []):
        if data[c].dtype.kind not in "iuf":
            raise InputError(f"column {c!r} of {path!r} must be numeric: "
                             f"{first_non_numeric(data[c], rows)}")
    from ..io.errors import check_score_column, check_weight_column

    try:  # the library's checks, a refused value named by its data row
        for c in scores:
            check_score_column(data["__source__"], c, data[c], rows)
        if weight:
            check_weight_column(data["__source__"], weight, data[weight], rows)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    data["__skipped__"] = skipped
    data["__filtered__"] = filtered
    return data


def skipped_note(n: int, reasons: dict[str, int]) -> str:
    """The note of a report on the rows ``--skip-invalid`` left out, with their reasons.

    Parameters
    ----------
    n : int
        Rows skipped for a missing value.
    reasons : dict of str to int
        Those rows per reason (:attr:`confmat.io.FileReport.skipped_by_reason` without the
        rows ``--where`` left out).

    Returns
    -------
    str

    Examples
    --------
    >>> skipped_note(3, {"null true label": 1, "null in group column 'sex'": 2})
    "3 invalid rows were skipped (--skip-invalid): 1 null true label, 2 null in group column 'sex'"
    """
    why = ", ".join(f"{v} {k}" for k, v in reasons.items() if v)
    return f"{n} invalid rows were skipped (--skip-invalid)" + (f": {why}" if why else "")


def first_non_numeric(values: np.ndarray, rows: np.ndarray | None = None) -> str:
    """Where a column that should hold numbers first does not: the value and its data row.

    Parameters
    ----------
    values : ndarray
        The column as read (strings or objects).
    rows : ndarray of int, optional
        The 1-based data row of each value (rows skipped by ``--skip-invalid`` or left out by
        ``--where`` leave gaps); by default the values are data rows 1, 2, ...

    Returns
    -------
    str

    Examples
    --------
    >>> first_non_numeric(np.array(["0.1", "high"], dtype=object), np.array([1, 5]))
    "value 'high' in data row 5 (rows counted from 1 after the header)"
    >>> first_non_numeric(np.array(["0.1", "0.9", "high", "low"], dtype=object))
    "value 'high' in data row 3 (rows counted from 1 after the header)"
    >>> first_non_numeric(np.array(["0.1", "inf"], dtype=object))
    "value 'inf' in data row 2 (rows counted from 1 after the header) is not a finite number"
    """
    for i, v in enumerate(values.tolist()):
        row = i + 1 if rows is None else int(rows[i])
        where = f"in data row {row} (rows counted from 1 after the header)"
        if isinstance(v, bool):
            return f"value {v!r} {where}"
        try:
            x = float(v)
        except (TypeError, ValueError):
            return f"value {v!r} {where}"
        if not math.isfinite(x):  # "inf", "Infinity", "nan": text to the CSV engine
            return f"value {v!r} {where} is not a finite number"
    return f"values of type {values.dtype.name}, e.g. {values[:3].tolist()}"


def parse_matrix(text: str, column_types: dict[str, str] | None = None
                 ) -> tuple[np.ndarray, list[Any] | None]:
    """A matrix typed as a Python/JSON list of lists, or a CSV file of counts.

    The file's header holds the predicted labels; an optional first text column the true
    labels (the same, in the same order).

    Parameters
    ----------
    text : str
        ``"[[61,2],[8,58]]"``, or the path of a CSV file of counts.
    column_types : dict of str to str, optional
        ``--column-type``: the types of the file's columns (a first column of integer
        labels read as text is the true labels rather than counts).

    Returns
    -------
    (ndarray, list or None)
        The square table of counts, and the labels of a file (None for a typed-in matrix).

    Raises
    ------
    InputError
        If the text is not a square list of lists of numbers, or the file is not a square
        table of numeric counts; ``column_types`` with a typed-in matrix.

    Examples
    --------
    >>> table, labels = parse_matrix("[[61, 2], [8, 58]]")
    >>> table.tolist(), labels
    ([[61, 2], [8, 58]], None)
    """
    if os.path.exists(text):
        return _matrix_from_file(text, column_types)
    if column_types:
        raise InputError("--column-type applies to a CSV file of counts, not to a typed-in "
                         "matrix")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        hint = " (no such file either)" if not text.lstrip().startswith("[") else ""
        raise InputError(
            f"bad matrix {text!r}: expected rows of counts like \"[[61,2],[8,58]]\" or a CSV "
            f"file of counts{hint}"
        ) from None
    if not isinstance(value, list | tuple) or not value or not all(
            isinstance(r, list | tuple) for r in value):
        raise InputError(f"bad matrix {text!r}: expected a list of rows, e.g. [[61,2],[8,58]]")
    lengths = {len(r) for r in value}
    if len(lengths) != 1 or lengths != {len(value)}:
        raise InputError(
            f"bad matrix {text!r}: it must be square (K rows of K counts); got {len(value)} rows "
            f"of lengths {[len(r) for r in value]}"
        )
    for r in value:
        for v in r:
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise InputError(f"bad matrix {text!r}: entry {v!r} is not a number")
    from ..matrix.tables import check_table

    # the table's door: np.asarray would widen a count past int64 to a rounded float64
    return check_table(value), None


def _matrix_from_file(path: str, column_types: dict[str, str] | None = None
                      ) -> tuple[np.ndarray, list[Any] | None]:
    """A CSV of counts: header = predicted labels; an optional first text column = true labels."""
    from .. import io as cio

    check_file(path)
    cols = cio.list_columns(path)
    reader = cio.iter_batches(path, cols, skip_invalid=True, column_types=column_types)
    parts = list(reader)
    if reader.rows_skipped:
        raise InputError(f"bad matrix file {path!r}: data row {reader.skipped_row_numbers[0]} "
                         "has an empty cell; every cell must hold a count")
    data = {c: np.concatenate([b[c] for b in parts]) if parts else np.empty(0) for c in cols}
    row_labels = None
    if cols and data[cols[0]].dtype.kind not in "iuf":
        row_labels = [str(v) for v in data[cols[0]].tolist()]
        cols = cols[1:]
    for c in cols:
        if data[c].dtype.kind not in "iuf":
            raise InputError(f"bad matrix file {path!r}: column {c!r} holds non-numeric values")
    table = np.column_stack([data[c] for c in cols]) if cols else np.empty((0, 0))
    if table.shape[0] != table.shape[1]:
        raise InputError(f"bad matrix file {path!r}: {table.shape[0]} rows but {table.shape[1]} "
                         "count columns; the table must be square")
    if row_labels is not None and row_labels != list(cols):
        raise InputError(f"bad matrix file {path!r}: row labels {row_labels} differ from the "
                         f"column labels {list(cols)}")
    labels: list[Any] = list(cols)
    if all(c.lstrip("-").isdigit() for c in labels):
        labels = [int(c) for c in labels]
    return table, labels
