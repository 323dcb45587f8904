"""Evaluation counted by the engine: one ``GROUP BY true, pred`` (and the score's bin), the row
accounting read off the groups, and a second, ordered pass only to name a row in an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..accumulator import Accumulator
from ..binned.histogram import score_column_histogram
from ..counting.grouped import GroupedCounts
from ..hooks import GROUPED_EVALUATION
from ..inputs.encode import encode_pair, normalize_labels
from ..inputs.files import FILTER_COLUMN, ReadError, Source, engine_exceptions
from ..inputs.grouping import encode_groups
from ..inputs.kinds import py_scalar
from ..inputs.score_columns import file_column, score_column_class
from ..inputs.sql_counts import count_groups
from ..inputs.targets import check_bins, one_class_book
from .errors import (
    check_predictions_beside_score,
    check_weight_total,
    content_error,
    label_error,
    score_error,
    weight_error,
)
from .rows import (
    FILTERED,
    MAX_SKIPPED_NUMBERS,
    REASONS,
    Cleaner,
    FileReport,
    Roles,
    no_rows_error,
    null_group_reason,
    to_numpy,
)


def evaluate_grouped(source: Source, true_col: str, pred_col: str, weight_col: str | None,
                      labels: Any, skip_invalid: bool, report: FileReport,
                      score_col: str | None = None, bins: int = 10_000,
                      pos_label: Any = None) -> Any:
    """The pairs (and score bins) counted by the engine in one ``GROUP BY``; the row
    accounting read off the groups. A row the errors must name is found by a second pass
    over the rows, streamed in order by the same engine (only on the error path).

    Parameters
    ----------
    source : Source
        A source with a DuckDB ``relation``.
    true_col, pred_col : str
        Columns of true and predicted labels.
    weight_col : str or None
        Column of sample weights.
    labels : sequence or None
        Fixed classes, or None for the sorted labels seen.
    skip_invalid : bool
        Skip and count rows with a missing value instead of raising.
    report : FileReport
        Filled in place: rows read and skipped, reasons, skipped row numbers, batches and,
        with ``score_col``, ``curves``.
    score_col : str, optional
        The positive-class score column of a binary problem, or with ``pos_label`` beside
        three or more labels of one class against the rest; its histogram is accumulated.
    bins : int, default 10_000
        Score bins.
    pos_label : label, optional
        With ``score_col`` and three or more labels: the class the column scores
        (:func:`confmat.inputs.score_columns.one_column_class`); the histogram is then that of
        :class:`~confmat.binned.ScoreHistogram` with ``pos_label``, every other true class
        negative, made of the same bin groups. Two labels: the class the column scores by
        the one rule of :func:`confmat.inputs.score_columns.score_column_class` (``labels``
        given: by default the second; labels found: the class {0, 1}, {-1, 1} or
        {False, True} imply, else ``pos_label`` is needed; beside a truth of one class, the
        positive class of that truth, 1 beside 0, never a label that is only predicted),
        and one class seen gives the histogram of its positive class.

    Returns
    -------
    ConfusionMatrix
        The matrix of the valid rows (sums of weights when weighted).

    Raises
    ------
    ValueError
        A non-positive ``bins``, a missing value without ``skip_invalid``, a negative or
        infinite weight, a label outside ``labels``, no valid row, a score column beside
        three or more labels without a positive class
        (:func:`confmat.inputs.score_columns.score_columns_error`), beside two labels found
        or a truth of one class that imply none, or a predicted label that is no class of the true labels
        nor the positive class
        (:func:`confmat.inputs.decisions.check_scored_predictions`, naming its data row).
    ReadError
        If the engine fails or its count and its rows disagree.
    """

    bins = check_bins(bins)
    source.start_checks()
    try:
        g = count_groups(source.relation, true_col, pred_col, weight_col=weight_col,
                         score_col=score_col, bins=int(bins), key_ranges=source.key_ranges,
                         connection=source.connection,
                         keep_col=FILTER_COLUMN if source.filtered else None)
    except engine_exceptions() as exc:
        source.finish_checks()
        raise source.read_error(exc) from exc
    source.finish_checks()
    t, p, n = g["true"], g["pred"], g["count"]
    ok, by_reason = _label_reasons(g)
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
    invalid = skipped - by_reason[FILTERED]
    total = int(n.sum())
    scan = _RowScan(source, true_col, pred_col, score_col, weight_col)
    if invalid:
        _list_missing(source, true_col, pred_col, weight_col, score_col, invalid, skip_invalid,
                      report)
    if weight_col is not None:
        _check_weights(source, g, ok, weight_col, lambda: scan)
        counts: np.ndarray = g["weight"][ok]
    else:
        counts = n[ok]
    report.rows_skipped = skipped
    report.rows_read = total - skipped
    report.skipped_by_reason = {k: v for k, v in by_reason.items() if v}
    report.batches = 1
    if report.rows_read == 0:
        raise no_rows_error(source.name, report.skipped_by_reason)
    tv, pv = t[ok], p[ok]
    book = None if labels is None else normalize_labels(labels)
    try:
        tc, pc, out_labels, has_other = encode_pair(tv, pv, book)
    except (ValueError, TypeError) as exc:
        raise content_error(source, None, exc) from exc
    if has_other:
        k = len(out_labels)
        bad_t = tv[tc == k]
        bad, col = (bad_t[0], true_col) if bad_t.size else (pv[pc == k][0], pred_col)
        found_label = scan.first_label(lambda a, b: _outside(a, b, out_labels))
        where = source.name
        if found_label is not None:
            row, bad, col = found_label
            where = f"{source.name}, row {row}"
        raise label_error(where, py_scalar(bad), col, out_labels)
    if weight_col is not None:  # all weights 0: refused as in memory, naming the column
        check_weight_total(source.name, weight_col, counts)
    if score_col is not None:
        report.curves = _grouped_histogram(source, scan, score_col, g["bin"][ok], tc, pc,
                                           counts, out_labels, int(bins), pos_label,
                                           fixed=book is not None)
    # the table itself is added up where every engine's GROUP BY is: Accumulator.update_grouped
    acc = Accumulator(book)
    rows = n[ok] if weight_col is None else n[ok] - g["bad_weight"][ok]
    try:
        acc.update_grouped(tv, pv, rows, weights=None if weight_col is None else counts)
    except (ValueError, TypeError) as exc:
        raise content_error(source, None, exc) from exc
    return acc.result()


def evaluate_by_group(source: Source, true_col: str, pred_col: str, group_cols: list[str],
                      weight_col: str | None, labels: Any, skip_invalid: bool,
                      report: FileReport, min_support: int = 30, pos_label: Any = None,
                      score_col: str | None = None, bins: int = 10_000) -> Any:
    """The evaluation by group counted by the engine: one ``GROUP BY group_cols, true, pred``
    (and, with ``score_col``, the score's bin: one score histogram per group).

    A row whose group value is null is skipped with the reason naming its column,
    ``"null in group column 'sex'"`` (:func:`~confmat.io.rows.null_group_reason`; after the
    reasons of :data:`REASONS`: a row with a null label counts there; the first group column
    first) when ``skip_invalid``, else it is an error naming the column and the row. It is
    not a group of its own: a missing value is no category (as fairlearn's ``MetricFrame``,
    which refuses it), and the overall table leaves it out too.

    Parameters
    ----------
    source : Source
        A source with a DuckDB ``relation``.
    true_col, pred_col : str
        Columns of true and predicted labels.
    group_cols : list of str
        Columns of sensitive features; their combinations that occur are the groups.
    weight_col : str or None
        Column of sample weights.
    labels : sequence or None
        Fixed classes, or None for the sorted labels seen.
    skip_invalid : bool
        Skip and count rows with a missing value instead of raising.
    report : FileReport
        Filled in place (rows read and skipped, reasons, skipped row numbers).
    min_support : int, default 30
        Groups with fewer rows are flagged small.
    pos_label : label, optional
        The positive class of the result; with ``score_col``, the class the column scores,
        as :func:`evaluate_grouped` reads it (two labels given: by default 1 / True of
        {0, 1}, {-1, 1}, {False, True} in any order, else ``labels[1]``;
        two labels found: needed unless {0, 1}, {-1, 1} or {False, True}; three or more:
        needed, that class against the rest).
    score_col : str, optional
        One score column: ``report.curves`` is the histogram of every valid row and the
        result holds one histogram per group (ROC AUC and average precision by group, by the
        histogram's rule: :class:`confmat.groups.binned_scores.BinnedGroupedScores`). A row with a
        null or NaN score is skipped (or an error) as on the ungrouped path.
    bins : int, default 10_000
        Score bins.

    Returns
    -------
    GroupedEvaluation

    Raises
    ------
    ValueError
        A missing value without ``skip_invalid``, a negative or infinite weight, a label
        outside ``labels``, group keys of several kinds, or no valid row; with ``score_col``
        as :func:`evaluate_grouped` (a score outside [0, 1], a stray predicted label, one
        column beside three or more classes without ``pos_label``).
    ReadError
        If the engine fails.
    """
    if score_col is not None:
        bins = check_bins(bins)
    source.start_checks()
    try:
        g = count_groups(source.relation, true_col, pred_col, weight_col=weight_col,
                         score_col=score_col, bins=int(bins), group_cols=group_cols,
                         connection=source.connection,
                         keep_col=FILTER_COLUMN if source.filtered else None)
    except engine_exceptions() as exc:
        source.finish_checks()
        raise source.read_error(exc) from exc
    source.finish_checks()
    t, p, n = g["true"], g["pred"], g["count"]
    ok, by_reason = _label_reasons(g)
    if score_col is not None:
        null_s = np.isnan(g["bin"]) & ok
        by_reason[REASONS[2]] = int(n[null_s].sum())
        ok &= ~null_s
    rows = n.copy()
    if weight_col is not None:
        by_reason[REASONS[3]] = int(g["bad_weight"][ok].sum())
        rows = n - g["bad_weight"]
        ok &= rows > 0
    for c, v in zip(group_cols, g["groups"], strict=True):
        null_g = _is_null(v) & ok
        by_reason[null_group_reason(c)] = int(rows[null_g].sum())
        ok &= ~null_g
    invalid = sum(v for k, v in by_reason.items() if k != FILTERED)
    if invalid:
        _list_missing(source, true_col, pred_col, weight_col, score_col, invalid, skip_invalid,
                      report, group_cols)
    scan = _RowScan(source, true_col, pred_col, score_col, weight_col, group_cols)
    if weight_col is not None:
        _check_weights(source, g, ok, weight_col, lambda: scan)
    skipped = sum(by_reason.values())
    report.rows_skipped = skipped
    report.rows_read = int(n.sum()) - skipped
    report.skipped_by_reason = {k: v for k, v in by_reason.items() if v}
    report.batches = 1
    if report.rows_read == 0:
        raise no_rows_error(source.name, report.skipped_by_reason)
    book = None if labels is None else normalize_labels(labels)
    try:
        tc, pc, out_labels, has_other = encode_pair(t[ok], p[ok], book)
        if book is None:  # one class seen: the positive class joins, empty (as by_group)
            two = one_class_book([py_scalar(v) for v in out_labels], pos_label)
            if two is not None:
                tc, pc, out_labels, has_other = encode_pair(t[ok], p[ok], two)
        codes = encode_groups({c: v[ok] for c, v in zip(group_cols, g["groups"], strict=True)},
                              int(ok.sum()))
    except (ValueError, TypeError) as exc:
        raise content_error(source, None, exc) from exc
    if has_other:
        k = len(out_labels)
        bad_t = t[ok][tc == k]
        bad, col = (bad_t[0], true_col) if bad_t.size else (p[ok][pc == k][0], pred_col)
        where = source.name
        found_label = scan.first_label(lambda a, b: _outside(a, b, out_labels))
        if found_label is not None:
            row, bad, col = found_label
            where = f"{source.name}, row {row}"
        raise label_error(where, py_scalar(bad), col, out_labels)
    k = len(out_labels)
    values = rows[ok] if weight_col is None else g["weight"][ok]
    if weight_col is not None:  # all weights 0: refused, as by by_group in memory
        check_weight_total(source.name, weight_col, values)
    stack = np.zeros((codes.n_groups, k, k), dtype=values.dtype)
    np.add.at(stack, (codes.codes.astype(np.int64), tc, pc), values)
    sizes = np.zeros(codes.n_groups, dtype=np.int64)
    np.add.at(sizes, codes.codes.astype(np.int64), rows[ok])
    counts = GroupedCounts(stack, [py_scalar(v) for v in out_labels], False, sizes)
    hists = None
    if score_col is not None:
        hists = _histograms_by_group(source, scan, score_col, g["bin"][ok], tc, pc, values,
                                     codes.codes, codes.n_groups, out_labels, int(bins),
                                     pos_label, fixed=book is not None)
        report.curves = hists[0].merge(*hists[1:])
    return GROUPED_EVALUATION(counts, codes.keys, list(group_cols), min_support=min_support,
                              pos_label=pos_label, histograms=hists)


def _histograms_by_group(source: Source, scan: _RowScan, score_col: str, b: np.ndarray,
                         tc: np.ndarray, pc: np.ndarray, values: np.ndarray,
                         group_codes: np.ndarray, n_groups: int, labels: list[Any], bins: int,
                         pos_label: Any, fixed: bool = False) -> list[Any]:
    """One score histogram per group from the engine's ``(group, true, pred, bin)`` rows,
    the column read and checked as on the ungrouped path (:func:`_score_fold`, on every
    group's rows at once); the rows put in group order once."""
    make, y = _score_fold(source, scan, score_col, b, tc, pc, labels, bins, pos_label, fixed)
    order = np.argsort(group_codes, kind="stable")
    ends = np.cumsum(np.bincount(group_codes.astype(np.int64), minlength=n_groups))
    bi = b.astype(np.int64)[order]
    y, values = y[order], values[order]
    out = []
    start = 0
    for end in ends.tolist():
        out.append(make().update_grouped(y[start:end], bi[start:end], values[start:end]))
        start = end
    return out


def _check_weights(source: Source, g: dict[str, Any], ok: np.ndarray, weight_col: str,
                   scan: Callable[[], _RowScan]) -> None:
    """A negative or infinite weight among the kept groups (their smallest / largest weight)
    is an error naming the file's first data row that holds one (a second, ordered pass)."""
    lo, hi = g["min_weight"][ok], g["max_weight"][ok]
    if (lo < 0).any() or (hi == np.inf).any():
        hit = scan().first(lambda v: (_floats(v[weight_col]) < 0)
                           | (_floats(v[weight_col]) == np.inf))
        bad = float(lo.min()) if (lo < 0).any() else np.inf
        where = source.name if hit is None else f"{source.name}, row {hit[0]}"
        if hit is not None:
            bad = float(_floats([hit[1][weight_col]])[0])
        raise weight_error(where, weight_col, bad)


def _label_reasons(g: dict[str, Any]) -> tuple[np.ndarray, dict[str, int]]:
    """The groups of :func:`~confmat.inputs.sql_counts.count_groups` that remain after the
    rows a ``where=`` filter left out and those with a null label, and how many rows each
    reason took (in precedence: the filter, a null true label, a null prediction)."""
    t, p, n = g["true"], g["pred"], g["count"]
    ok = g["keep"].copy() if "keep" in g else np.ones(n.shape, dtype=bool)
    by_reason = {FILTERED: int(n[~ok].sum())}
    null_t = _is_null(t) & ok
    null_p = _is_null(p) & ok & ~null_t
    by_reason[REASONS[0]] = int(n[null_t].sum())
    by_reason[REASONS[1]] = int(n[null_p].sum())
    return ok & ~(null_t | null_p), by_reason


def _outside(t: np.ndarray, p: np.ndarray, book: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the true and predicted labels outside a fixed code book."""

    tc, pc, _, _ = encode_pair(t, p, book)
    return tc == len(book), pc == len(book)


def _grouped_histogram(source: Source, scan: _RowScan, score_col: str, b: np.ndarray,
                       codes: np.ndarray, pred_codes: np.ndarray, counts: np.ndarray,
                       labels: list[Any], bins: int, pos_label: Any, fixed: bool = False) -> Any:
    """The score histogram of the engine's bin groups (:func:`_score_fold`)."""

    make, y = _score_fold(source, scan, score_col, b, codes, pred_codes, labels, bins,
                          pos_label, fixed)
    return make().update_grouped(y, b.astype(np.int64), counts)


def _score_fold(source: Source, scan: _RowScan, score_col: str, b: np.ndarray,
                codes: np.ndarray, pred_codes: np.ndarray, labels: list[Any], bins: int,
                pos_label: Any, fixed: bool = False) -> tuple[Callable[[], Any], np.ndarray]:
    """The checks of one score column on the engine's bin groups, then an empty histogram of
    the column's layout and each bin group's class code in it: one score column, of the
    class :func:`~confmat.inputs.score_columns.score_column_class` names (two labels given,
    ``fixed``: the second, or ``pos_label``; two labels found: the class they imply, or
    ``pos_label``; beside a truth of one class, its positive class), else of the positive class against the rest (every other true
    class folded into the negative row, group by group: no work per row; one class seen:
    the histogram of its positive class, which may hold no positive, as read whole)."""

    book = [py_scalar(v) for v in labels]
    true_classes = [book[i] for i in np.unique(codes).tolist()]
    # one rule for the class of the column (a truth of one class beside a predicted-only
    # label included) and for the predictions beside it, whatever the number of labels
    pos = score_column_class(true_classes, book, pos_label, where=source.name,
                             scores=[score_col], name=file_column(source.name, scan.true_col, "y_true"),
                             labels_given=fixed)
    check_predictions_beside_score(
        source.name, scan.true_col, scan.pred_col, score_col, true_classes,
        [book[i] for i in np.unique(pred_codes).tolist()], pos,
        lambda check: scan.first_error(lambda v, rows: check(v[scan.pred_col], rows)))
    outside = (b < 0) | (b >= bins)
    if outside.any():
        hit = scan.first(lambda v: (_floats(v[score_col]) < 0.0) | (_floats(v[score_col]) > 1.0))
        where = source.name if hit is None else f"{source.name}, row {hit[0]}"
        value = None if hit is None else float(_floats([hit[1][score_col]])[0])
        raise score_error(where, score_col, value)
    def make() -> Any:
        return score_column_histogram(labels, pos, bins)

    if len(book) == 2:
        # the column scores the first label: the labels reordered [other, pos_label], the
        # codes with them
        return make, (1 - codes if pos == book[0] else codes)
    # one class seen (the column of its positive class, as read whole) or three or more
    index = book.index(pos) if pos in book else -1
    return make, (codes == index).astype(np.int64)


def _floats(values: Any) -> np.ndarray:
    """Values as the engine's ``::DOUBLE`` reads them (a score column inferred as text, e.g.
    one starting with ``inf``, is cast by the counting query too)."""
    return np.asarray(values).astype(np.float64)


class _RowScan:
    """The valid rows of a source (no missing value in the requested columns), streamed in
    order by the engine that counted them, to name the first row where something holds."""

    def __init__(self, source: Source, true_col: str, pred_col: str, score_col: str | None,
                 weight_col: str | None, group_cols: list[str] | None = None) -> None:
        self.source = source
        self.true_col, self.pred_col = true_col, pred_col
        scores = [score_col] if score_col else []
        groups = group_cols or []
        self.cols = list(dict.fromkeys(
            [true_col, pred_col, *scores] + ([weight_col] if weight_col else []) + groups))
        self.roles = Roles.of(true_col, pred_col, scores, weight_col, groups=groups)

    def valid(self) -> Iterator[tuple[int, np.ndarray, dict[str, np.ndarray]]]:
        """(rows before the batch, indices of its valid rows, their values by column)."""
        cleaner = Cleaner(self.source.name, self.roles, False, None)
        done = 0
        for batch in self.source.batches(self.cols, 1 << 16, counted=True):
            drop = cleaner.filtered(batch)
            bad = np.zeros(batch.num_rows, dtype=bool) if drop is None else drop
            for _why, _col, m in cleaner.masks(batch):
                bad |= np.asarray(m.to_numpy(zero_copy_only=False), dtype=bool)
            idx = np.flatnonzero(~bad)
            if idx.size:
                yield done, idx, {c: to_numpy(batch.column(batch.schema.get_field_index(c)))[idx]
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

    def first_error(self, check: Callable[[dict[str, np.ndarray], np.ndarray], None]
                    ) -> ValueError | None:
        """The ``ValueError`` that ``check(values, rows)`` raises on the first batch of valid
        rows it refuses (``rows``: their 1-based data rows), or None."""
        batches = self.valid()
        while True:
            try:  # the row is a courtesy: a failing scan leaves the caller's error
                item = next(batches, None)
            except (ValueError, TypeError):
                return None
            if item is None:
                return None
            done, idx, values = item
            try:
                check(values, done + idx + 1)
            except ValueError as exc:
                return exc


def _list_missing(source: Source, true_col: str, pred_col: str, weight_col: str | None,
                  score_col: str | None, invalid: int, skip_invalid: bool,
                  report: FileReport, group_cols: list[str] | None = None) -> None:
    """The ``invalid`` rows with a missing value that the counts show: without
    ``skip_invalid`` the error naming the first; with it, the first
    :data:`MAX_SKIPPED_NUMBERS` row numbers into ``report``. A stream that finds none is a
    :class:`ReadError` (the engine's count and its rows disagree)."""
    found = _scan_missing(source, true_col, pred_col, weight_col, score_col,
                          min(invalid, MAX_SKIPPED_NUMBERS) if skip_invalid else 1, group_cols)
    if not found:
        raise ReadError(f"{source.name} cannot be read whole: the engine's count and its rows "
                        "disagree on missing values")
    if not skip_invalid:
        raise found[0][1]
    report.skipped_row_numbers = [row for row, _ in found]


def _scan_missing(source: Source, true_col: str, pred_col: str, weight_col: str | None,
                  score_col: str | None, limit: int, group_cols: list[str] | None = None
                  ) -> list[tuple[int, ValueError]]:
    """The first ``limit`` rows with a missing value (group columns included), with the error
    naming each, found by streaming the columns in order from the engine that counted them
    (only when the counts show such rows)."""
    scores = [score_col] if score_col else []
    groups = group_cols or []
    cols = list(dict.fromkeys([true_col, pred_col, *scores]
                              + ([weight_col] if weight_col else []) + groups))
    cleaner = Cleaner(source.name, Roles.of(true_col, pred_col, scores, weight_col,
                                             groups=groups), False, None)
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


def _is_null(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "O":
        return np.fromiter((v is None or (isinstance(v, float) and v != v) for v in a.tolist()),
                           bool, a.size)
    if a.dtype.kind == "f":
        return np.isnan(a)
    return np.zeros(a.shape, dtype=bool)
