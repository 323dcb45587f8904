"""Evaluate predictions where they are stored: files of any size and database relations.

A confusion matrix is a sum, so a source of any size is evaluated in bounded memory, either by
the engine itself (``GROUP BY true, pred`` in DuckDB) or batch by batch from the ordered Arrow
record batches an engine streams (:mod:`confmat.inputs.files` says which engine reads which
format). Nothing is decoded by confmat itself.

Row accounting. A row is *skipped* when one of its requested values is missing: a null true
label, a null prediction, a null or NaN score, a null or NaN weight, and in an evaluation by
group a null in a group column, one reason per column (``"null in group column 'sex'"``); the
reasons are kept apart, in that order of precedence. By default a skipped row is an error naming the source, the
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
``r`` is on line ``r + 1``; rows skipped or filtered out before a row do not renumber it.
"""

from __future__ import annotations

from ..inputs.files import FORMATS, ReadError, detect_format
from .batches import BatchReader, iter_batches, list_columns, read_columns
from .evaluate import evaluate_file, evaluate_sql
from .rows import MAX_SKIPPED_NUMBERS, REASONS, FileReport

__all__ = [
    "FORMATS",
    "MAX_SKIPPED_NUMBERS",
    "REASONS",
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
