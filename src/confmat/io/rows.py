"""Row accounting of a read: which rows are skipped, why, and the report of what was read.

One :class:`Cleaner` serves every streamed source: it finds the missing values of each Arrow
batch (nulls, NaN, the ``na_values`` texts), raises the error naming the first one or drops
and counts them per reason (:data:`REASONS`, in order of precedence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..deps import require
from ..inputs.files import FILTER_COLUMN, ReadError, Source
from ..words import give

#: How many skipped row numbers a read remembers.
MAX_SKIPPED_NUMBERS = 10
#: Why a row is skipped, in order of precedence.
REASONS = ("null true label", "null prediction", "null or NaN score", "null or NaN weight")
#: Why a row left out by a ``where=`` filter is skipped; it comes before :data:`REASONS` (a
#: row the user filtered out is not checked for missing values).
FILTERED = "user filter"


def check_columns(columns: Any) -> list[str]:
    """Validate the column names a caller asked for.

    Parameters
    ----------
    columns : str or sequence of str
        One name or several.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        If ``columns`` is empty or not a sequence.
    TypeError
        If a name is not a string.

    Examples
    --------
    >>> check_columns("y"), check_columns(("y", "yhat"))
    (['y'], ['y', 'yhat'])
    >>> check_columns(["y", 3])
    Traceback (most recent call last):
    ...
    TypeError: column names must be strings, got 3
    """
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, Sequence) or not columns:
        raise ValueError(f"columns must be a non-empty sequence of column names, got {columns!r}")
    for c in columns:
        if not isinstance(c, str):
            raise TypeError(f"column names must be strings, got {c!r}")
    return list(columns)


def check_batch_rows(batch_rows: Any) -> int:
    """Validate the number of rows per batch.

    Parameters
    ----------
    batch_rows : int
        Rows per batch.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If it is not an integer (a bool is refused).
    ValueError
        If it is below 1.

    Examples
    --------
    >>> check_batch_rows(np.int64(500))
    500
    >>> check_batch_rows(0)
    Traceback (most recent call last):
    ...
    ValueError: batch_rows must be at least 1, got 0
    """
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, int | np.integer):
        raise TypeError(f"batch_rows must be an int, got {type(batch_rows).__name__}")
    if batch_rows < 1:
        raise ValueError(f"batch_rows must be at least 1, got {batch_rows}")
    return int(batch_rows)


def check_na_values(na_values: Any) -> list[str] | None:
    """Validate the text values that mean "missing".

    Parameters
    ----------
    na_values : str or iterable of str, optional
        One text or several.

    Returns
    -------
    list of str or None
        None when ``na_values`` is None.

    Raises
    ------
    TypeError
        If a value is not a string.

    Examples
    --------
    >>> check_na_values("NA"), check_na_values(None)
    (['NA'], None)
    """
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
def null_group_reason(column: str) -> str:
    """The skip reason of a row whose value in a group column (``group_cols``, ``--by``) is
    missing: one reason per column, named after it, after :data:`REASONS` in precedence
    (a row with a null label counts as a null label), the group columns in their order.

    Parameters
    ----------
    column : str
        The group column.

    Returns
    -------
    str

    Examples
    --------
    >>> null_group_reason("sex")
    "null in group column 'sex'"
    """
    return f"null in group column {column!r}"


def no_rows_error(name: str, skipped_by_reason: dict[str, int]) -> ValueError:
    """The error of a read that kept no row: how many were skipped and why, reason by reason
    in order of precedence (a ``where=`` that holds for no row says so).

    Parameters
    ----------
    name : str
        The source (``"file 'p.csv'"``).
    skipped_by_reason : dict of str to int
        Skipped rows per reason (:data:`FILTERED`, :data:`REASONS`, :func:`null_group_reason`).

    Returns
    -------
    ValueError

    Examples
    --------
    >>> print(no_rows_error("file 'p.csv'", {"null true label": 1, "user filter": 2}))
    file 'p.csv' has no valid rows to evaluate (3 skipped: user filter 2, null true label 1)
    >>> print(no_rows_error("file 'p.csv'", {}))
    file 'p.csv' has no valid rows to evaluate (0 skipped: it holds no data rows)
    """
    order = [FILTERED, *REASONS]
    reasons = sorted((k for k, v in skipped_by_reason.items() if v),
                     key=lambda k: order.index(k) if k in order else len(order))
    why = "".join(f"{', ' if i else ': '}{k} {skipped_by_reason[k]}"
                  for i, k in enumerate(reasons))
    total = sum(skipped_by_reason.values())
    if not total:  # nothing skipped: the source itself is empty (a CSV header alone, ...)
        why = ": it holds no data rows"
    return ValueError(f"{name} has no valid rows to evaluate ({total} skipped{why})")


@dataclass
class Roles:
    """Which requested column plays which part: its skip reason (index into :attr:`names`).

    Parameters
    ----------
    reason : dict of str to int
        Each column's skip reason, an index into :attr:`names`.
    groups : tuple of str, default ()
        The group columns, whose reasons follow :data:`REASONS`
        (:func:`null_group_reason`).

    Examples
    --------
    >>> Roles.of("y", "yhat", ["p"], "w").reason
    {'y': 0, 'yhat': 1, 'p': 2, 'w': 3}
    >>> roles = Roles.of("y", "yhat", [], None, groups=["sex"])
    >>> roles.reason["sex"], roles.names[roles.reason["sex"]]
    (4, "null in group column 'sex'")
    """

    reason: dict[str, int]
    groups: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """tuple of str: Every reason, in order of precedence: :data:`REASONS`, then one per
        group column."""
        return REASONS + tuple(null_group_reason(c) for c in self.groups)

    @classmethod
    def of(cls, true_col: str | None, pred_col: str | None, score_cols: Sequence[str],
           weight_col: str | None, other: Sequence[str] = (),
           groups: Sequence[str] = ()) -> Roles:
        """The roles of the columns of an evaluation. A column that plays two parts takes the
        reason that comes first in :attr:`names` (a label before a score or weight, before a
        group).

        Parameters
        ----------
        true_col, pred_col : str or None
            Columns of true and predicted labels.
        score_cols : sequence of str
            Score columns.
        weight_col : str or None
            Column of sample weights.
        other : sequence of str, default ()
            Further columns, counted as true-label columns (reason 0).
        groups : sequence of str, default ()
            Group columns (``group_cols``, ``--by``): a missing value is counted under
            :func:`null_group_reason` of its column.

        Returns
        -------
        Roles
        """
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
        group_list = tuple(dict.fromkeys(groups))
        for i, c in enumerate(group_list):
            reason.setdefault(c, len(REASONS) + i)
        return cls(reason, group_list)


class Cleaner:
    """Finds the missing values of each Arrow batch, raises or drops them, and keeps the row
    accounting (one place for every streamed source).

    Missing values are nulls, NaN (floating columns) and the ``na_values`` texts (text and
    dictionary columns). Rows a ``where=`` filter leaves out (a batch with the
    :data:`~confmat.inputs.files.FILTER_COLUMN`) are dropped first and counted as
    :data:`FILTERED`, without an error and without checking their values.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    roles : Roles
        Which column plays which part (the reason a missing value is counted under).
    skip_invalid : bool
        Drop and count rows with a missing value, instead of raising.
    na_values : list of str or None
        Text values that mean "missing".
    """

    def __init__(self, name: str, roles: Roles, skip_invalid: bool,
                 na_values: list[str] | None) -> None:
        self.name = name
        self.roles = roles
        self.skip_invalid = skip_invalid
        self.na_values = na_values
        self.rows_read = 0
        self.rows_skipped = 0
        self.by_reason = dict.fromkeys((FILTERED, *roles.names), 0)
        self.skipped_row_numbers: list[int] = []
        self._last: tuple[int, int, np.ndarray | None] = (0, 0, None)

    def last_row_numbers(self) -> np.ndarray:
        """The 1-based data rows of the source that the batch last returned by :meth:`clean`
        holds, in order (rows skipped or filtered out before it are not renumbered).

        Returns
        -------
        ndarray of int64
        """
        start, n, taken = self._last
        if taken is None:
            return np.arange(start + 1, start + n + 1, dtype=np.int64)
        return start + 1 + np.flatnonzero(~taken).astype(np.int64)

    @property
    def rows_total(self) -> int:
        """int: Rows seen so far, read or skipped."""
        return self.rows_read + self.rows_skipped

    def _missing(self, arr: Any) -> Any:
        """Boolean Arrow mask of the missing values of one column, or None if there are none."""
        pa = require("pyarrow", "streaming Arrow batches")
        pc = require("pyarrow.compute", "streaming Arrow batches")

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

    @staticmethod
    def filtered(batch: Any) -> np.ndarray | None:
        """Rows of a batch that a ``where=`` filter leaves out (its :data:`FILTER_COLUMN` is
        false), or None when the batch has no filter column or keeps every row.

        Parameters
        ----------
        batch : pyarrow.RecordBatch
            A batch of the source.

        Returns
        -------
        ndarray of bool or None
        """
        i = batch.schema.get_field_index(FILTER_COLUMN)
        if i < 0:
            return None
        keep = np.asarray(batch.column(i).to_numpy(zero_copy_only=False), dtype=bool)
        return None if keep.all() else ~keep

    def masks(self, batch: Any) -> list[tuple[int, str, Any]]:
        """(reason, column, mask) of the columns of a batch that miss values, by precedence;
        rows a ``where=`` filter leaves out are not checked (:meth:`filtered`).

        Parameters
        ----------
        batch : pyarrow.RecordBatch
            A batch holding every column of the roles.

        Returns
        -------
        list of (int, str, pyarrow.BooleanArray)
            Sorted by reason; empty when no value is missing.
        """
        pa = require("pyarrow", "streaming Arrow batches")
        pc = require("pyarrow.compute", "streaming Arrow batches")

        drop = self.filtered(batch)
        out = []
        for col, why in self.roles.reason.items():
            m = self._missing(batch.column(batch.schema.get_field_index(col)))
            if m is not None and drop is not None:
                m = pc.and_(m, pa.array(~drop, type=pa.bool_()))
                if not pc.any(m).as_py():
                    m = None
            if m is not None:
                out.append((why, col, m))
        out.sort(key=lambda r: r[0])
        return out

    def first_missing(self, masks: list[tuple[int, str, Any]]) -> tuple[int, int, str]:
        """(row within the batch, reason, column) of the first missing value.

        Parameters
        ----------
        masks : list of (int, str, pyarrow.BooleanArray)
            The non-empty result of :meth:`masks`.

        Returns
        -------
        (int, int, str)
            The 0-based row, its reason and its column (ties go to the first reason).
        """
        return min((int(np.flatnonzero(m.to_numpy(zero_copy_only=False))[0]), why, col)
                   for why, col, m in masks)

    def error(self, row: int, why: int, col: str) -> ValueError:
        """The error naming a missing value, and the way to skip such rows.

        Parameters
        ----------
        row : int
            The 1-based row number in the source.
        why : int
            The reason, an index into the roles' :attr:`Roles.names`.
        col : str
            The column.

        Returns
        -------
        ValueError
        """
        if why >= len(REASONS):  # a group column: the reason names it
            return ValueError(
                f"{self.name}, row {row}: {self.roles.names[why]}; every row needs a group; "
                f"{give('skip_invalid', True)} to skip such rows and count them"
            )
        return ValueError(
            f"{self.name}, row {row}: {REASONS[why]} (column {col!r} is missing a value); "
            f"{give('skip_invalid', True)} to skip such rows and count them"
        )

    def clean(self, batch: Any) -> Any:
        """The batch without its invalid rows (or an error naming the first one), counted.

        Parameters
        ----------
        batch : pyarrow.RecordBatch
            The next batch of the source, in row order.

        Returns
        -------
        pyarrow.RecordBatch
            The batch itself when no value is missing.

        Raises
        ------
        ValueError
            Without ``skip_invalid``, for the first missing value (its row in the source and
            its column).
        """
        pc = require("pyarrow.compute", "streaming Arrow batches")

        start = self.rows_total
        n = batch.num_rows
        drop = self.filtered(batch)
        reason_masks = self.masks(batch)
        if not reason_masks and drop is None:
            self._last = (start, n, None)
            self.rows_read += n
            return batch
        if reason_masks and not self.skip_invalid:
            row, why, col = self.first_missing(reason_masks)
            raise self.error(start + row + 1, why, col)
        taken = np.zeros(n, dtype=bool) if drop is None else drop.copy()
        self.by_reason[FILTERED] += int(taken.sum())
        invalid = np.zeros(n, dtype=bool)  # the rows skipped for a missing value
        for why, _col, m in reason_masks:
            mm = np.asarray(m.to_numpy(zero_copy_only=False), dtype=bool) & ~taken
            self.by_reason[self.roles.names[why]] += int(mm.sum())
            taken |= mm
            invalid |= mm
        k = int(taken.sum())
        if len(self.skipped_row_numbers) < MAX_SKIPPED_NUMBERS:  # (not the filtered ones)
            rows = np.flatnonzero(invalid)[: MAX_SKIPPED_NUMBERS - len(self.skipped_row_numbers)]
            self.skipped_row_numbers.extend(int(start + r + 1) for r in rows)
        self.rows_skipped += k
        self.rows_read += n - k
        self._last = (start, n, taken)
        return batch.filter(pc.invert(_arrow_bool(taken)))


def _arrow_bool(a: np.ndarray) -> Any:
    pa = require("pyarrow", "streaming Arrow batches")
    return pa.array(a, type=pa.bool_())


def reconcile(source: Source, done: int) -> None:
    """Check that a whole read handed out as many rows as the source declares.

    Parameters
    ----------
    source : Source
        The source.
    done : int
        Rows read (valid and skipped).

    Raises
    ------
    ReadError
        If the source declares another number of rows.
    """
    if source.rows is not None and done != source.rows:
        raise ReadError(
            f"{source.name} cannot be read whole: it declares {source.rows} rows but "
            f"{done} were read"
        )


def to_numpy(arr: Any) -> np.ndarray:
    """An Arrow column as numpy (decoded; for :func:`iter_batches`).

    Parameters
    ----------
    arr : pyarrow.Array or pyarrow.ChunkedArray
        The column.

    Returns
    -------
    ndarray
        A copy when Arrow cannot share its memory (nulls, text, dictionaries).

    Examples
    --------
    >>> import pyarrow as pa
    >>> to_numpy(pa.array(["a", "b"]).dictionary_encode()).tolist()
    ['a', 'b']
    """
    return np.asarray(arr.to_numpy(zero_copy_only=False))



@dataclass
class FileReport:
    """What an evaluation read: every row of the source is ``rows_read`` (evaluated) or
    ``rows_skipped`` (counted per reason in ``skipped_by_reason``).

    Parameters
    ----------
    path : str
        The source as given (a path, or the name of a query or relation).
    format : str
        One of :data:`confmat.inputs.files.FORMATS`, or ``"sql"``.
    rows_read, rows_skipped : int
        Rows evaluated and rows left out.
    skipped_by_reason : dict of str to int
        Skipped rows per reason (:data:`REASONS`; ``"user filter"`` for ``where=``; in an
        evaluation by group one reason per group column, :func:`null_group_reason`), only
        reasons that occurred.
    skipped_row_numbers : list of int
        The first 1-based numbers of skipped rows (at most :data:`MAX_SKIPPED_NUMBERS`).
    batches : int
        Batches read (1 when the engine counted the source at once).
    engine : str
        Who counted: ``"duckdb GROUP BY"``, ``"duckdb stream"``, ``"pyarrow dataset"`` or
        ``"numpy"``.
    curves : ScoreHistogram, optional
        The binned score curves, when score columns were given.

    Examples
    --------
    >>> report = FileReport("p.csv", "csv", rows_read=9, rows_skipped=1)
    >>> report.rows_total
    10
    """

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
        """int: Every row of the source: ``rows_read + rows_skipped``."""
        return self.rows_read + self.rows_skipped
