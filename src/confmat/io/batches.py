"""Stream the columns of a file batch by batch (:class:`BatchReader`), or read them whole."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..deps import require
from ..inputs.files import Source, open_source, where_source
from .rows import (
    Cleaner,
    Roles,
    check_batch_rows,
    check_columns,
    check_na_values,
    reconcile,
    to_numpy,
)


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



# --------------------------------------------------------------------------- batch reader
class BatchReader:
    """Iterate the batches of :func:`iter_batches`; the row accounting is read afterwards.

    Attributes
    ----------
    rows_read, rows_skipped : int
        Rows handed out and rows left out (``skip_invalid=True``, ``where=``) so far.
    skipped_by_reason : dict
        Skipped rows per reason (see :data:`REASONS`; ``"user filter"`` for ``where=``).
    total_rows : int or None
        The number of rows the source declares, when it declares one.

    Parameters
    ----------
    path : str or os.PathLike
        The source (see :func:`iter_batches`).
    columns : sequence of str
        Columns to read.
    format, batch_rows, skip_invalid, column_types, na_values, where
        As in :func:`iter_batches`.
    roles : Roles, optional
        Which column plays which part (the skip reason of its missing values); by default
        every column counts as a label column.
    source : Source, optional
        An already opened source (then ``path`` only names it).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,1\\n,0\\n")
    >>> reader = BatchReader(path, ["y", "yhat"], skip_invalid=True)
    >>> [b["y"].tolist() for b in reader], reader.rows_skipped, reader.skipped_row_numbers
    ([[1]], 1, [2])
    """

    def __init__(self, path: Any, columns: Sequence[str], *, format: str | None = None,
                 batch_rows: int = 1_000_000, skip_invalid: bool = False,
                 column_types: Mapping[str, str] | None = None,
                 na_values: Sequence[str] | None = None,
                 roles: Roles | None = None, source: Source | None = None,
                 where: str | None = None) -> None:
        self.columns = check_columns(columns)
        self.batch_rows = check_batch_rows(batch_rows)
        self.skip_invalid = bool(skip_invalid)
        na = check_na_values(na_values)
        self.source = source if source is not None else open_source(
            path, format=format, column_types=column_types, na_values=na)
        if where is not None:
            self.source = where_source(self.source, where)
        self.source.check_columns(self.columns)
        self.path = os.fspath(path) if isinstance(path, str | os.PathLike) else self.source.name
        self.format = self.source.format
        self.total_rows = self.source.rows
        roles = roles or Roles.of(None, None, (), None, other=self.columns)
        # DuckDB applied na_values already while parsing CSV / JSON lines
        self._roles = roles
        self._na = na if self.source.streams_raw else None
        self._clean = Cleaner(self.source.name, roles, self.skip_invalid, self._na)

    @property
    def rows_read(self) -> int:
        """int: Rows handed out so far."""
        return self._clean.rows_read

    @property
    def rows_skipped(self) -> int:
        """int: Rows left out so far (``skip_invalid=True``)."""
        return self._clean.rows_skipped

    @property
    def rows_total(self) -> int:
        """int: Rows seen so far, read or skipped."""
        return self._clean.rows_total

    @property
    def skipped_by_reason(self) -> dict[str, int]:
        """dict of str to int: Skipped rows per reason (:data:`REASONS`), only reasons that
        occurred."""
        return {k: v for k, v in self._clean.by_reason.items() if v}

    @property
    def skipped_row_numbers(self) -> list[int]:
        """list of int: The first 1-based numbers of skipped rows (at most
        :data:`MAX_SKIPPED_NUMBERS`)."""
        return list(self._clean.skipped_row_numbers)

    def last_row_numbers(self) -> np.ndarray:
        """The 1-based data rows of the source held by the batch last handed out: a value at
        position ``i`` of that batch is on data row ``last_row_numbers()[i]`` of the source,
        whatever rows ``skip_invalid`` or ``where`` left out before it (for messages that
        name a row).

        Returns
        -------
        ndarray of int64

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
        >>> _ = open(path, "w").write("y,yhat\\n1,1\\n,0\\n0,0\\n")
        >>> reader = BatchReader(path, ["y", "yhat"], skip_invalid=True)
        >>> [(b["y"].tolist(), reader.last_row_numbers().tolist()) for b in reader]
        [([1, 0], [1, 3])]
        """
        return self._clean.last_row_numbers()

    def arrow_batches(self) -> Iterator[Any]:
        """Cleaned ``pyarrow.RecordBatch`` es (text columns may be dictionary-encoded); each
        iteration reads the source again from its start.

        Returns
        -------
        iterator of pyarrow.RecordBatch
            The batches without their skipped rows.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
        >>> _ = open(path, "w").write("y,yhat\\n1,1\\n0,1\\n")
        >>> [b.num_rows for b in BatchReader(path, ["y"]).arrow_batches()]
        [2]
        """
        self._clean = Cleaner(self.source.name, self._roles, self.skip_invalid, self._na)
        for batch in self.source.batches(self.columns, self.batch_rows):
            clean = self._clean.clean(batch)
            if clean.num_rows:
                yield clean
        reconcile(self.source, self.rows_total)

    def __iter__(self) -> Iterator[dict[str, np.ndarray]]:
        for batch in self.arrow_batches():
            yield {c: to_numpy(batch.column(batch.schema.get_field_index(c)))
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
    where: str | None = None,
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
        columns of a CSV or JSON lines file, whose types are otherwise inferred by the engine,
        and for the hive partition columns of a directory (``g=1/``; Parquet too), whose text
        values DuckDB otherwise reads as integers when they all are (docs/scaling.md).
    na_values : sequence of str, optional
        Text values that mean "missing". By default only an empty CSV field and a JSON
        ``null`` are missing: strings such as ``"NA"``, ``"null"`` or ``"NaN"`` are class names.
    where : str, optional
        A row filter, a SQL boolean expression over the file's columns evaluated by DuckDB;
        the rows it leaves out are not handed out, not checked for missing values, and
        counted in ``rows_skipped`` under ``skipped_by_reason["user filter"]`` (see
        :func:`confmat.io.evaluate_file`).

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
                       skip_invalid=skip_invalid, column_types=column_types, na_values=na_values,
                       where=where)


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

    Parameters
    ----------
    path : str or os.PathLike
        The source (see :func:`iter_batches`).
    columns : sequence of str
        Columns to read.
    **kw
        ``format``, ``batch_rows``, ``skip_invalid``, ``column_types``, ``na_values``,
        ``where``.

    Returns
    -------
    dict of str to numpy.ndarray
        One array per column (text decoded).
    """
    pa = require("pyarrow", "read_columns")
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
        out[c] = to_numpy(pa.chunked_array(parts))
    return out


