"""A source of ordered Arrow record batches (:class:`Source`) and the errors of the engines that
read them: everything an engine raises while reading becomes a :class:`ReadError` naming the
source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..deps import optional, require
from ..words import entry, say
from .sql_counts import SMALL_KEY_TYPES, WIDE_INTEGERS, quote


class ReadError(ValueError):
    """An engine could not read a source whole (damaged, truncated or malformed).

    A subclass of ``ValueError``: code that catches ``ValueError`` for bad input catches it.

    Examples
    --------
    >>> err = engine_error("file 'p.csv'", OSError("unexpected end of file"))
    >>> isinstance(err, ReadError), isinstance(err, ValueError)
    (True, True)
    >>> str(err)
    "file 'p.csv' cannot be read whole: unexpected end of file"
    """


def engine_error(what: str, exc: BaseException) -> ReadError:
    """The one message for a source an engine refused: names the source and the reason.

    Parameters
    ----------
    what : str
        The source, as the message names it (``"file 'p.csv'"``).
    exc : BaseException
        The engine's exception; the first three lines of its text are the reason (its type
        name when it has no text).

    Returns
    -------
    ReadError
        The error to raise (``raise engine_error(...) from exc``).

    Examples
    --------
    >>> str(engine_error("file 'p.parquet'", EOFError()))
    "file 'p.parquet' cannot be read whole: EOFError"
    """
    text = str(exc).strip().splitlines()
    reason = " ".join(line.strip() for line in text[:3]) or type(exc).__name__
    return ReadError(f"{what} cannot be read whole: {reason}")


def engine_exceptions() -> tuple[type[BaseException], ...]:
    """The exception types an engine (pyarrow, DuckDB, numpy) raises on a source it cannot
    read, for an ``except`` clause that turns them into :class:`ReadError`.

    Returns
    -------
    tuple of type
        ``OSError``, ``ValueError``, ``TypeError``, ``NotImplementedError``, ``KeyError``,
        ``IndexError``, ``EOFError``, ``RuntimeError`` and, when DuckDB is installed,
        ``duckdb.Error``.

    Examples
    --------
    >>> OSError in engine_exceptions()
    True
    """
    out: list[type[BaseException]] = [OSError, ValueError, TypeError, NotImplementedError,
                                      KeyError, IndexError, EOFError, RuntimeError]
    duckdb = optional("duckdb")
    if duckdb is not None:
        out.append(duckdb.Error)
    return tuple(out)



#: Integer types DuckDB unifies exactly (to the narrowest type holding both ranges; HUGEINT
#: when a signed type meets UBIGINT).
INTEGER_TYPES = frozenset(SMALL_KEY_TYPES).union(WIDE_INTEGERS) - {"BOOLEAN"}
#: Floating-point types (FLOAT widens to DOUBLE exactly).
FLOAT_TYPES = frozenset({"FLOAT", "DOUBLE"})
#: The entry of :func:`mixed_column_types` for files that lack a column.
MISSING = "(missing)"


def mixed_column_types(types: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The columns that do not have one type in every file.

    Parameters
    ----------
    types : dict of str to dict of str to str
        Each file's columns and types (:func:`file_column_types`).

    Returns
    -------
    dict of str to dict of str to str
        For each such column, each type it has (or :data:`MISSING` when a file lacks it) and
        the first file (in order) that gives it that type.

    Examples
    --------
    >>> mixed_column_types({"a": {"y": "TINYINT", "s": "DOUBLE"},
    ...                     "b": {"y": "UBIGINT", "s": "DOUBLE"}, "c": {"y": "TINYINT"}})
    {'y': {'TINYINT': 'a', 'UBIGINT': 'b'}, 's': {'DOUBLE': 'a', '(missing)': 'c'}}
    """
    seen: dict[str, dict[str, str]] = {}
    for fname, cols in types.items():
        for column, typ in cols.items():
            seen.setdefault(column, {}).setdefault(typ, fname)
    for fname, cols in types.items():
        for column in seen:
            if column not in cols:
                seen[column].setdefault(MISSING, fname)
    return {c: kinds for c, kinds in seen.items() if len(kinds) > 1}


def check_column_kinds(name: str, mixed: Mapping[str, Mapping[str, str]],
                       wanted: Sequence[str], *, typed: bool = True) -> None:
    """Refuse a wanted column that the files of one source give different kinds of value.

    Integers of different widths are unified exactly, and so are floats; any other mix (an
    integer column in one file and a float or text column in another, a file without the
    column) would be read with one file's type: a float label cast to an integer is
    rounded, text cast to an integer merges ``"1"`` and ``"01"``, an integer cast to text
    merges with a text label, so it is an error.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    mixed : mapping of str to mapping of str to str
        The columns whose types differ (:func:`mixed_column_types`).
    wanted : sequence of str
        The columns that will be read.
    typed : bool, default True
        Whether the files store their types (Parquet): the message then asks for files
        written with one type; otherwise (CSV, JSON lines, whose types DuckDB infers) for
        ``column_types=`` (in the caller's words, :func:`confmat.words.entry`).

    Raises
    ------
    ValueError
        Naming the column, two of its types and a file with each.

    Examples
    --------
    >>> check_column_kinds("file 'ds'", {"y": {"TINYINT": "a", "UBIGINT": "b"}}, ["y"])
    >>> check_column_kinds("file 'ds'", {"y": {"BIGINT": "a", "DOUBLE": "b"}}, ["y"])
    Traceback (most recent call last):
    ...
    ValueError: file 'ds': column 'y' is BIGINT in 'a' but DOUBLE in 'b'; the files of one source must hold one kind of value in a column (integers of any width are unified, and floats of any width): write them with one type
    """
    for column in dict.fromkeys(wanted):
        kinds = mixed.get(column)
        if not kinds:
            continue
        if MISSING in kinds:
            present = next(f for t, f in kinds.items() if t != MISSING)
            raise ValueError(f"{name}: column {column!r} is missing from {kinds[MISSING]!r} "
                             f"(it is in {present!r}); every file of one source needs the "
                             "columns that are read")
        if set(kinds) <= INTEGER_TYPES or set(kinds) <= FLOAT_TYPES:
            continue
        def family(typ: str) -> str:
            return "int" if typ in INTEGER_TYPES else "float" if typ in FLOAT_TYPES else typ

        (t1, f1), *rest = kinds.items()
        t2, f2 = next((t, f) for t, f in rest if family(t) != family(t1))
        fix = ("write them with one type" if typed else
               f"read them with one type, e.g. {entry('column_types', column, 'string')}")
        raise ValueError(f"{name}: column {column!r} is {t1} in {f1!r} but {t2} in {f2!r}; "
                         "the files of one source must hold one kind of value in a column "
                         f"(integers of any width are unified, and floats of any width): {fix}")


#: The column a ``where=`` filter adds to a source's relation: whether the row is kept
#: (``coalesce((where), false)``: a row the filter does not hold for, or holds NULL for, is
#: left out and counted as filtered).
FILTER_COLUMN = "__confmat_where__"


# ------------------------------------------------------------------------------ sources

def real_format_hint() -> str:
    """The hint that ends a message about a file read in the wrong format, in the caller's
    words (``name its real format`` in Python: the ``format`` argument).

    Returns
    -------
    str

    Examples
    --------
    >>> real_format_hint()
    'name its real format'
    """
    return say("name its real format", "format", "give its real format with {}")


@dataclass
class Source:
    """Columns of a file or relation, readable as ordered Arrow record batches.

    Built by the readers (:func:`confmat.inputs.files.open_source`,
    :func:`confmat.inputs.files.relation_source`); one of ``relation``, ``dataset`` (or
    ``make_dataset``) and ``arrays`` holds the data.

    Parameters
    ----------
    name : str
        The source as error messages name it (``"file 'p.csv'"``).
    format : str
        The reader format (``'csv'``, ``'parquet'``, ``'sql'``, ...).
    columns : list of str
        The column names, in order.
    rows : int, optional
        The number of rows the source itself declares (Parquet and Arrow metadata, ``.npy``
        shape), or None when only reading counts them (CSV, JSON lines, SQL).
    relation : duckdb.DuckDBPyRelation, optional
        A DuckDB relation over the source when DuckDB reads it, so the counting can be pushed
        into the engine.
    dataset : pyarrow.dataset.Dataset, optional
        The pyarrow dataset that streams the source.
    arrays : mapping of str to ndarray, optional
        The columns of a ``.npy`` / ``.npz`` file.
    keep : list, optional
        Objects that must live as long as the source (a DuckDB connection, an open file).
    footers : list of (str, pyarrow.parquet.FileMetaData), optional
        Each Parquet file's path and footer, checked by :meth:`check_footers`.
    make_dataset : callable, optional
        Opens the pyarrow dataset on first streaming (returns a :class:`Source` whose
        ``dataset`` and ``footers`` are taken).
    key_ranges : mapping of str to (int, int), optional
        For a ``relation`` on confmat's own DuckDB connection: the range of values the source
        declares for its integer columns (Parquet footer statistics, untrusted; empty when it
        declares none), which lets :func:`confmat.inputs.sql_counts.count_groups` try one-byte
        grouping keys. None for a user's relation.
    connection : duckdb.DuckDBPyConnection, optional
        confmat's own connection that ``relation`` reads on (None for a user's relation).
    mixed_types : mapping of str to mapping of str to str, optional
        For a source of several files: the columns the files give different types (see
        :func:`mixed_column_types`); :meth:`check_columns` refuses a wanted one unless its
        types are integers only or floats only, which the relation unifies exactly.
    filtered : bool, default False
        Whether ``relation`` carries the :data:`FILTER_COLUMN` of a ``where=`` filter
        (:func:`where_source`); :meth:`batches` then streams it with the wanted columns.
    where : str, optional
        That filter, as the user wrote it (for :meth:`read_error`).
    unfiltered : duckdb.DuckDBPyRelation, optional
        The relation before the filter was added (for :meth:`read_error`).
    checks : list, optional
        Checks of the bytes the engine decodes, run beside its read
        (:class:`confmat.inputs.gzip_check.GzipCheck` of ``.gz`` files): :meth:`start_checks`
        and :meth:`finish_checks`.

    Examples
    --------
    >>> import numpy as np
    >>> src = Source("demo", "npy", ["y"], rows=3, arrays={"y": np.array([0, 1, 1])})
    >>> [b.num_rows for b in src.batches(["y"], batch_rows=2)]
    [2, 1]
    """

    name: str
    format: str
    columns: list[str]
    rows: int | None = None
    relation: Any = None
    dataset: Any = None
    arrays: Mapping[str, np.ndarray] | None = None
    keep: list[Any] = field(default_factory=list)
    footers: list[tuple[str, Any]] = field(default_factory=list)
    #: Opens the pyarrow dataset on first streaming (Parquet is counted by DuckDB; only
    #: streaming needs pyarrow, whose import and footer checks then happen once).
    make_dataset: Callable[[], Source] | None = None
    key_ranges: Mapping[str, tuple[int, int]] | None = None
    connection: Any = None
    mixed_types: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    filtered: bool = False
    where: str | None = None
    unfiltered: Any = None
    checks: list[Any] = field(default_factory=list)

    def start_checks(self) -> None:
        """Start the checks of the source's bytes (``checks``), to run while an engine reads
        it; a read calls :meth:`finish_checks` before it hands out its result."""
        for check in self.checks:
            check.start()

    def finish_checks(self) -> None:
        """Wait for the checks of the source's bytes (run here if they were not started).

        Raises
        ------
        ReadError
            If one of them finds the bytes damaged (a gzip stream that does not inflate or
            whose CRC-32 does not match): the engine's result, or its own error, would then
            not be the file's.
        """
        for check in self.checks:
            check.result()

    @property
    def streams_raw(self) -> bool:
        """Whether :meth:`batches` hands out values as stored (pyarrow or numpy), rather than
        through the DuckDB relation (which already read ``na_values`` as NULL)."""
        return self.relation is None or self.dataset is not None or self.make_dataset is not None

    def stream_source(self) -> None:
        """Open the pyarrow dataset (``make_dataset``) if it is not open yet; once only."""
        if self.dataset is None and self.make_dataset is not None:
            opened = self.make_dataset()
            self.dataset, self.footers = opened.dataset, opened.footers
            self.make_dataset = None

    def read_error(self, exc: BaseException) -> ValueError:
        """The error for an engine's failure while it ran a query over this source.

        With a ``where=`` filter, a failure may be the filter's own, found only when DuckDB
        evaluates it on the values (a cast of text to a number, an integer division by zero):
        the source is then read once more, every column and no filter, and if that read
        succeeds the filter is named (a ``ValueError`` quoting it and DuckDB's reason), not
        the file. Otherwise the source cannot be read whole (:func:`engine_error`).

        Parameters
        ----------
        exc : BaseException
            The engine's exception.

        Returns
        -------
        ValueError
            A :class:`ReadError`, or a plain ``ValueError`` naming ``where``.

        Examples
        --------
        >>> import duckdb
        >>> rel = duckdb.connect().sql("SELECT 'a' AS y")
        >>> src = Source("demo", "sql", ["y"], relation=rel, where="y::INT = 1",
        ...              unfiltered=rel, filtered=True)
        >>> try:
        ...     rel.select("y::INT = 1").fetchall()
        ... except duckdb.Error as exc:
        ...     print(src.read_error(exc))
        where: the filter 'y::INT = 1' failed while DuckDB ran it over demo: Conversion Error: Could not convert string 'a' to INT32 when casting from source column y
        """
        if self.where is not None and self.unfiltered is not None and \
                self._reads_whole_unfiltered():
            text = [line.strip() for line in str(exc).strip().splitlines()]
            reason = text[0] if text and text[0] else type(exc).__name__
            return ValueError(f"where: the filter {self.where!r} failed while DuckDB ran it "
                              f"over {self.name}: {reason}")
        return engine_error(self.name, exc)

    def _reads_whole_unfiltered(self) -> bool:
        """Whether DuckDB reads every value of every column of the source without the
        filter (a hash of each column, so none is left unread)."""
        try:
            self.unfiltered.aggregate("min(hash(COLUMNS(*)))").fetchall()
        except engine_exceptions():
            return False
        return True

    def check_footers(self, wanted: Sequence[str]) -> None:
        """Each Parquet row group's row count agrees with the value counts of its column chunks
        (for flat columns they are equal). pyarrow reads as many rows as a row group declares,
        so a damaged count would otherwise drop or invent rows without an error.

        Parameters
        ----------
        wanted : sequence of str
            The columns that will be read (other columns are not checked).

        Raises
        ------
        ReadError
            If a row group's row count and a wanted flat column's value count differ.
        """
        for path, md in self.footers:
            schema = md.schema
            flat = [j for j in range(md.num_columns)
                    if schema.column(j).path in wanted and schema.column(j).max_repetition_level == 0]
            for i in range(md.num_row_groups):
                rg = md.row_group(i)
                for j in flat:
                    values = rg.column(j).num_values
                    if values != rg.num_rows:
                        raise ReadError(
                            f"{self.name} cannot be read whole: row group {i} declares "
                            f"{rg.num_rows} rows but its column {schema.column(j).path!r} holds "
                            f"{values} values (file {path!r})")

    def check_columns(self, wanted: Sequence[str]) -> None:
        """Every wanted column present exactly once (a duplicated name is ambiguous).

        Parameters
        ----------
        wanted : sequence of str
            The column names to look for.

        Raises
        ------
        ValueError
            If a wanted column is missing (the message lists the available columns), occurs
            more than once, holds different kinds of value in the files of the source
            (see :func:`check_column_kinds`), or is not of a scalar type (JSON, a struct, a
            map or a list: JSON lines that mix kinds in a column).
        """
        for c in wanted:
            n = self.columns.count(c)
            if n > 1:
                raise ValueError(f"{self.name} has {n} columns named {c!r}; column names must be unique")
        missing = [c for c in wanted if c not in self.columns]
        if missing:
            self.finish_checks()  # a header garbled by a damaged stream is the damage
            what = "column" if len(missing) == 1 else "columns"
            hint = ""
            if self.format in ("csv", "tsv") and any(  # a header split on the wrong mark
                    c.lstrip().startswith("{") or "," in c or "\t" in c for c in self.columns):
                hint = (f" (the file was read as {self.format.upper()}; if it is in another "
                        f"format, {real_format_hint()})")
            raise ValueError(
                f"{self.name} has no {what} {', '.join(map(repr, missing))}; "
                f"available columns: {self.columns}{hint}"
            )
        check_column_kinds(self.name, self.mixed_types, wanted,
                           typed=self.format not in ("csv", "tsv", "jsonl"))
        if self.relation is not None:
            types = dict(zip(self.relation.columns, map(str, self.relation.types), strict=False))
            for c in wanted:
                kind = types.get(c, "")
                if kind == "JSON" or kind.startswith(("STRUCT", "MAP", "UNION")) or \
                        kind.endswith("]"):
                    hint = ("a column mixing numbers, text or objects is read as JSON text "
                            "('\"a\"' for a); give its type with "
                            f"{say('column_types=', 'column_types')}, e.g. "
                            f"{entry('column_types', c, 'string')}" if self.format == "jsonl"
                            else "labels, scores and weights are scalars")
                    raise ValueError(f"{self.name}: column {c!r} holds values of type {kind}, "
                                     f"not one kind of scalar: {hint}")
                if kind in ("BLOB", "BIT") or kind.startswith("GEOMETRY"):
                    # DuckDB gives such values as mutable bytearrays, which are no labels
                    raise ValueError(f"{self.name}: column {c!r} holds binary values (type "
                                     f"{kind}); labels are numbers, text or booleans and "
                                     "scores and weights numbers: store the column as text, "
                                     "or decode it in the query of evaluate_sql (decode(col))")

    def batches(self, columns: Sequence[str], batch_rows: int, *,
                counted: bool = False) -> Iterator[Any]:
        """Ordered ``pyarrow.RecordBatch`` es of the columns; engine errors become
        :class:`ReadError`. With ``counted``, a source with a DuckDB relation is streamed by
        DuckDB (the engine that counted it: the same decoding, the same values and rows, and
        ``na_values`` already NULL) rather than by the pyarrow dataset.

        Parameters
        ----------
        columns : sequence of str
            The columns to read (a repeated name is read once).
        batch_rows : int
            Rows per batch (the last batch may hold fewer).
        counted : bool, default False
            Stream through the DuckDB relation when there is one.

        Yields
        ------
        pyarrow.RecordBatch
            The batches, in row order, with exact integer types.

        Raises
        ------
        ValueError
            A missing or duplicated column (see :meth:`check_columns`).
        ReadError
            If the engine fails while reading.
        """
        pa = require("pyarrow", "streaming Arrow batches")

        self.check_columns(columns)
        cols = list(dict.fromkeys(columns))
        if self.filtered:
            cols.append(FILTER_COLUMN)
            counted = True  # the filter lives in the relation
        errors = engine_exceptions()
        self.start_checks()
        via_relation = self.relation is not None and (counted or (
            self.dataset is None and self.make_dataset is None))
        if not via_relation:
            try:  # the lazily opened pyarrow dataset reads footers: engine errors too
                self.stream_source()
                self.check_footers(cols)
            except ReadError:
                raise
            except ValueError as exc:
                if type(exc) is ValueError:  # confmat's own message (duplicate names, ...)
                    raise
                raise engine_error(self.name, exc) from exc
            except errors as exc:
                raise engine_error(self.name, exc) from exc
        try:
            if via_relation:
                rel = self.relation.select(*(quote(c) for c in cols))
                it: Iterator[Any] = iter(rel.to_arrow_reader(batch_rows))
            elif self.dataset is not None:
                it = iter(self.dataset.to_batches(
                    columns=cols, batch_size=batch_rows, use_threads=True))
            else:
                arrays = self.arrays
                assert arrays is not None
                n = 0 if not cols else len(arrays[cols[0]])

                def gen() -> Iterator[Any]:
                    for start in range(0, n, batch_rows):
                        yield pa.record_batch(
                            [pa.array(np.asarray(arrays[c][start:start + batch_rows]))
                             for c in cols], names=cols)

                it = gen()
            while True:
                try:
                    batch = next(it)
                except StopIteration:
                    self.finish_checks()
                    return
                yield _exact_batch(batch, full=self.format == "arrow")
        except ReadError:
            raise
        except errors as exc:
            self.finish_checks()
            raise self.read_error(exc) from exc


def _exact_batch(batch: Any, full: bool = False) -> Any:
    """A batch as an engine handed it out, checked and with exact integer types.

    * With ``full``, every column is validated: Arrow IPC reading maps the file's buffers as
      they are, so damaged offsets or text would reach the counting (and crash it) unchecked.
    * Dictionary columns are validated: a damaged Parquet page can carry indices past the end
      of its dictionary, which pyarrow's dictionary reading passes on unchecked (its plain
      reading refuses them).
    * Whole-number decimals (DuckDB's ``HUGEINT``, which its CSV and JSON readers infer for
      integers past the int64 range) become int64 or uint64 when they fit, so that labels up
      to 2**64 - 1 stay exact instead of turning into floats or ``Decimal`` objects.
    """
    pa = require("pyarrow", "streaming Arrow batches")
    pc = require("pyarrow.compute", "streaming Arrow batches")

    if full:
        batch.validate(full=True)
    cols = list(batch.columns)
    changed = False
    for i, col in enumerate(cols):
        typ = col.type
        if pa.types.is_dictionary(typ) and not full:
            col.validate(full=True)
        elif pa.types.is_decimal(typ) and typ.scale == 0:
            for target in (pa.int64(), pa.uint64()):
                try:
                    cols[i] = pc.cast(col, target)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    continue
                changed = True
                break
    if not changed:
        return batch
    return pa.record_batch(cols, names=batch.schema.names)

