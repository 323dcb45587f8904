"""Evaluate a file or a DuckDB relation: the engine's ``GROUP BY`` (:mod:`.grouped`) when it
can count, else ordered Arrow batches streamed into an :class:`~confmat.accumulator.Accumulator`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..accumulator import Accumulator
from ..binned.histogram import score_column_histogram
from ..deps import require
from ..inputs.encode import normalize_labels
from ..inputs.files import Source, counted_source, open_source, relation_source, where_source
from ..inputs.score_columns import (
    file_column,
    one_column_class,
    score_column_class,
    score_columns_error,
)
from ..inputs.targets import resolve_pos_label
from ..words import arg
from .batches import BatchReader
from .errors import (
    check_predictions_beside_score,
    check_weight_total,
    content_error,
    first_bad_probability_row,
    first_bad_score,
    first_bad_weight,
    first_outside_label,
    label_error,
    score_error,
    weight_error,
)
from .grouped import evaluate_by_group, evaluate_grouped
from .rows import (
    FileReport,
    Roles,
    check_batch_rows,
    check_columns,
    check_na_values,
    no_rows_error,
    to_numpy,
)


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
    group_cols: str | Sequence[str] | None = None,
    pos_label: Any = None,
    min_support: int = 30,
    where: str | None = None,
) -> tuple[Any, FileReport]:
    """Evaluate a prediction file of any size in bounded memory.

    Parameters
    ----------
    path : str or os.PathLike
        A file, a directory or a glob (see :func:`iter_batches` for the formats).
    true_col, pred_col : str
        Columns of true and predicted labels.
    score_cols : str or sequence of str, optional
        Score columns: one (the positive-class score of a binary problem; beside three or
        more labels, with ``pos_label``, the scores of that class against the rest) or one
        per class in label order. Binned curves are then accumulated too and returned as
        ``report.curves`` (a :class:`confmat.binned.ScoreHistogram`). One column scores the
        class :func:`confmat.inputs.score_columns.score_column_class` names (``pos_label``).
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
    group_cols : str or sequence of str, optional
        Evaluate by group (as :func:`confmat.by_group`): columns of sensitive features whose
        combinations are the groups, counted by DuckDB in one ``GROUP BY group_cols, true,
        pred`` (every format: Arrow IPC and NumPy arrays are scanned by DuckDB where they
        are, :func:`confmat.inputs.files.counted_source`). With one score column the
        score's bin joins the ``GROUP BY``: ROC AUC and average precision by group come from
        one :class:`~confmat.binned.ScoreHistogram` per group (the exact values of the scores
        rounded down to their bin's lower edge, ties within a bin counting one half; no
        intervals), ``report.curves`` is the histogram of all groups, and the column is read
        as without ``group_cols`` (one-vs-rest with ``pos_label``, the stray-prediction
        rule). A row with a null group value is an error naming the row, or with
        ``skip_invalid`` skipped and counted under the reason naming the column, ``"null in
        group column 'sex'"`` (:func:`confmat.io.rows.null_group_reason`); it is never a group
        of its own.
    pos_label : label, optional
        With ``group_cols``: the positive class of the result. Without them it must be one
        of the classes of the matrix (a typo is an error, not ignored). With one score column
        it is the class the column scores, a class of ``true_col`` (needed beside labels found
        other than {0, 1}, {-1, 1}, {False, True}); beside three or more ``report.curves`` is
        ``ScoreHistogram(pos_label=...)`` of the same rows, every other true class negative.
    min_support : int, default 30
        With ``group_cols``: groups with fewer rows are flagged small.
    where : str, optional
        A row filter: a SQL boolean expression over the file's columns, evaluated by DuckDB
        (``"split = 'test'"``, ``"site IN ('A', 'B') AND age >= 18"``). The rows it does not
        hold for (or holds NULL for) are not evaluated, are not checked for missing values,
        and are counted in ``report.rows_skipped`` under ``skipped_by_reason["user filter"]``
        (first in precedence), so that ``rows_read + rows_skipped`` still equals the rows of
        the file. Arrow IPC and NumPy files are then scanned by DuckDB too.

    Returns
    -------
    (ConfusionMatrix, FileReport)
        The matrix has ``n == report.rows_read`` (the sum of weights when weighted). With
        ``group_cols``: (GroupedEvaluation, FileReport).

    Raises
    ------
    ValueError
        A missing or duplicated column, a missing value without ``skip_invalid``, a label
        outside ``labels``, ``group_cols`` with several score columns, a ``where`` DuckDB
        cannot evaluate as a condition, a file the engine cannot read whole
        (:class:`ReadError`), without ``group_cols`` a ``pos_label`` that is not one of the
        classes of the matrix, score columns that do not fit the labels (one column beside
        three or more labels without ``pos_label``), one beside two labels found that imply
        no positive class without ``pos_label``, or beside one score column a predicted
        label that is no class of ``true_col`` nor ``pos_label`` (the rule of
        :func:`confmat.inputs.decisions.check_scored_predictions`, naming its data row).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\nsick,sick\\nwell,sick\\nwell,well\\n")
    >>> cm, report = evaluate_file(path, "y", "yhat")
    >>> cm.counts.tolist(), report.rows_read
    ([[1, 0], [1, 1]], 3)
    >>> _ = open(path, "w").write("y,yhat,site\\n1,1,A\\n0,1,A\\n1,0,B\\n")
    >>> ev, report = evaluate_file(path, "y", "yhat", group_cols=["site"])
    >>> ev.groups, ev.metric("recall", pos_label=1).tolist()
    (['A', 'B'], [1.0, 0.0])
    >>> cm, report = evaluate_file(path, "y", "yhat", where="site = 'A'")
    >>> cm.counts.tolist(), report.rows_read, report.skipped_by_reason
    ([[0, 1], [0, 1]], 2, {'user filter': 1})

    One score column beside two text labels scores ``pos_label`` (or the second of ``labels``):

    >>> _ = open(path, "w").write("y,yhat,p\\nsick,sick,0.9\\nwell,sick,0.6\\nwell,well,0.2\\n")
    >>> cm, report = evaluate_file(path, "y", "yhat", score_cols="p", pos_label="sick", bins=10)
    >>> report.curves.labels, report.curves.roc_auc()
    (['well', 'sick'], 1.0)

    One score column beside three classes, read as the class ``"c"`` against the rest:

    >>> _ = open(path, "w").write("y,yhat,p\\na,a,0.2\\nb,c,0.6\\nc,c,0.9\\nc,b,0.4\\n")
    >>> cm, report = evaluate_file(path, "y", "yhat", score_cols="p", pos_label="c", bins=10)
    >>> cm.labels, report.curves.labels, report.curves.roc_auc()
    (['a', 'b', 'c'], ['not c', 'c'], 0.75)

    ROC AUC by group from one score histogram per group (the scores rounded down to their
    bin's lower edge; in site A the positive's 0.9 beats the negative's 0.2, in site B the
    two share the bin [0.4, 0.5) and tie):

    >>> _ = open(path, "w").write("y,yhat,p,site\\n0,0,0.2,A\\n1,1,0.9,A\\n0,1,0.41,B\\n1,1,0.45,B\\n")
    >>> ev, report = evaluate_file(path, "y", "yhat", score_cols="p", group_cols="site", bins=10)
    >>> ev.metric("roc_auc").tolist(), report.curves.roc_auc()
    ([1.0, 0.5], 0.875)
    """
    na = check_na_values(na_values)
    source = open_source(path, format=format, column_types=column_types, na_values=na)
    if where is not None:
        source = where_source(source, where)
    if group_cols is not None:
        return _evaluate_by_group(source, os.fspath(path), true_col, pred_col, group_cols,
                                  score_cols=score_cols, weight_col=weight_col, labels=labels,
                                  skip_invalid=skip_invalid, progress=progress,
                                  pos_label=pos_label, min_support=min_support, bins=bins)
    cm, report = _evaluate(source, os.fspath(path), true_col, pred_col, score_cols=score_cols,
                           weight_col=weight_col, labels=labels, skip_invalid=skip_invalid,
                           na_values=na, progress=progress, batch_rows=batch_rows, bins=bins,
                           pos_label=pos_label)
    if pos_label is not None:  # one of the classes counted, never ignored silently
        resolve_pos_label(list(cm.labels), pos_label, name="the matrix")
    return cm, report


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
    group_cols: str | Sequence[str] | None = None,
    pos_label: Any = None,
    min_support: int = 30,
    where: str | None = None,
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
    group_cols, pos_label, min_support
        Evaluation by group, as in :func:`evaluate_file`.
    where : str, optional
        A row filter whose rows left out are counted (``skipped_by_reason["user filter"]``),
        as in :func:`evaluate_file`; a ``WHERE`` inside ``query`` filters without counting.

    Returns
    -------
    (ConfusionMatrix, FileReport)
        With ``group_cols``: (GroupedEvaluation, FileReport).

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
    if where is not None:
        src = where_source(src, where)
    if true_col is None or pred_col is None:
        if len(cols) < 2:
            raise ValueError(f"{name} has {len(cols)} column(s); true and predicted labels "
                             "need two (or pass true_col= and pred_col=)")
        true_col = cols[0] if true_col is None else true_col
        pred_col = cols[1] if pred_col is None else pred_col
    if group_cols is not None:
        return _evaluate_by_group(src, name, true_col, pred_col, group_cols,
                                  score_cols=score_cols, weight_col=weight_col, labels=labels,
                                  skip_invalid=skip_invalid, progress=progress,
                                  pos_label=pos_label, min_support=min_support, bins=bins)
    cm, report = _evaluate(src, name, true_col, pred_col, score_cols=score_cols,
                           weight_col=weight_col, labels=labels, skip_invalid=skip_invalid,
                           na_values=None, progress=progress, batch_rows=batch_rows, bins=bins,
                           pos_label=pos_label)
    if pos_label is not None:  # as in evaluate_file
        resolve_pos_label(list(cm.labels), pos_label, name="the matrix")
    return cm, report


def _relation(source: Any, query: str | None) -> tuple[Any, str]:
    duckdb = require("duckdb", "evaluate_sql")
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
              bins: int, pos_label: Any = None) -> tuple[Any, FileReport]:
    scores = _score_list(score_cols)
    cols = check_columns([true_col, pred_col, *scores]
                          + ([weight_col] if weight_col is not None else []))
    source.check_columns(cols)
    batch_rows = check_batch_rows(batch_rows)
    report = FileReport(path=path, format=source.format)
    if source.relation is not None and len(scores) <= 1:
        report.engine = "duckdb GROUP BY"
        cm = evaluate_grouped(source, true_col, pred_col, weight_col, labels, skip_invalid,
                               report, scores[0] if scores else None, bins, pos_label)
        if progress is not None:
            progress(report.rows_total, report.rows_total)
        return cm, report
    # Parquet has a relation (counted by DuckDB) but is streamed by the pyarrow dataset
    report.engine = "pyarrow dataset" if (
        source.dataset is not None or source.make_dataset is not None) else (
        "duckdb stream" if source.relation is not None else "numpy")
    return evaluate_stream(source, path, true_col, pred_col, scores, weight_col, labels,
                            skip_invalid, na_values, progress, batch_rows, bins, report,
                            pos_label=pos_label)


def evaluate_stream(source: Source, path: str, true_col: str, pred_col: str,
                     scores: list[str], weight_col: str | None, labels: Any,
                     skip_invalid: bool, na_values: list[str] | None, progress: Any,
                     batch_rows: int, bins: int, report: FileReport,
                     pos_label: Any = None) -> tuple[Any, FileReport]:
    """Evaluate a source from its ordered Arrow batches: each batch is cleaned (see
    :class:`~confmat.io.rows.Cleaner`) and added to an
    :class:`~confmat.accumulator.Accumulator` (its scores to the score histogram). With
    scores and no ``labels`` the labels are read in a first pass: the score columns are
    those of the sorted labels of the whole source, whatever ``batch_rows``.

    Parameters
    ----------
    source : Source
        The opened source.
    path : str
        The path as the user gave it (the reader's name for it).
    true_col, pred_col : str
        Columns of true and predicted labels.
    scores : list of str
        Score columns (may be empty): one for a binary problem, else one per class.
    weight_col : str or None
        Column of sample weights.
    labels : sequence or None
        Fixed classes, or None for the sorted union of the labels seen.
    skip_invalid : bool
        Skip and count rows with a missing value instead of raising.
    na_values : list of str or None
        Text values that mean "missing".
    progress : callable or None
        Called after each batch as ``progress(rows_done, total_rows)``.
    batch_rows : int
        Rows per batch.
    bins : int
        Score bins of the curves.
    report : FileReport
        Filled in place and returned.
    pos_label : label, optional
        With one score column beside three or more labels: the class the column scores
        (:func:`confmat.inputs.score_columns.one_column_class`); the histogram is then
        :class:`~confmat.binned.ScoreHistogram` with ``pos_label``, every other true class
        negative. Two labels: the class :func:`~confmat.inputs.score_columns.score_column_class` names.

    Returns
    -------
    (ConfusionMatrix, FileReport)

    Raises
    ------
    ValueError
        A missing value without ``skip_invalid``, a value the accumulator refuses (a bad
        weight, a score outside ``[0, 1]``, a label outside ``labels``, score rows that do
        not sum to 1: named by column and 1-based data row; anything else by the rows of its
        batch), score columns that do not fit the labels
        (:func:`confmat.inputs.score_columns.score_columns_error`, ``score_column_class``),
        beside one score column a predicted label that is no true class nor the positive one
        (named by its data row), or no valid row.
    ReadError
        If the engine fails while reading.
    """
    roles = Roles.of(true_col, pred_col, scores, weight_col)
    reader = BatchReader(path, [true_col, pred_col, *scores]
                         + ([weight_col] if weight_col is not None else []),
                         batch_rows=batch_rows, skip_invalid=skip_invalid, na_values=na_values,
                         roles=roles, source=source)
    def col(name: str, b: Any) -> Any:
        return b.column(b.schema.get_field_index(name))

    def stray_row(check: Any) -> ValueError | None:
        """The one rule on the predictions batch by batch, in file order (on a refusal)."""
        for batch in reader.arrow_batches():
            try:
                check(to_numpy(col(pred_col, batch)), reader.last_row_numbers())
            except ValueError as exc:
                return exc
        return None

    def one_vs_rest(truth: list[Any], seen: list[Any], predicted: list[Any] | None) -> Any:
        """The class of the one score column beside 3+ labels, its predictions checked."""
        pos = one_column_class(truth, seen, pos_label, where=source.name, scores=scores,
                               name=file_column(source.name, true_col, "y_true"))
        if predicted is not None:
            check_predictions_beside_score(source.name, true_col, pred_col, scores[0], truth,
                                           predicted, pos, stray_row)
        return pos

    score_labels = None
    ovr = None  # one score column beside 3+ labels: the class it scores against the rest
    pos2 = None  # one score column beside two labels: the class it scores
    book = None if labels is None else normalize_labels(labels)
    if scores and labels is None:
        # The score columns belong to the sorted labels of the whole source (as on the
        # GROUP BY path and in confmat.dask), which a batch cut anywhere may not show: a
        # first pass finds them, so the curves never depend on batch_rows.
        seen = Accumulator()
        done = 0
        for batch in reader.arrow_batches():
            try:
                seen.update(col(true_col, batch), col(pred_col, batch))
            except (ValueError, TypeError) as exc:
                raise content_error(source, f"rows {done + 1}..{reader.rows_total}",
                                    exc) from exc
            done = reader.rows_total
        score_labels = seen.labels if len(seen.labels) >= 2 else None
        if len(seen.labels) == 1 and len(scores) == 1:
            # one class seen: the histogram of its positive class (by the one rule: 1 beside
            # 0, or pos_label), which may hold no positive, as on the counted path
            ovr = score_column_class(_true_and_predicted(seen)[0], seen.labels, pos_label,
                                     where=source.name, scores=scores,
                                     name=file_column(source.name, true_col, "y_true"))
        elif score_labels is not None and len(scores) == 1 and len(score_labels) > 2:
            ovr = one_vs_rest(*_true_and_predicted(seen))
            score_labels = None
        elif score_labels is not None and len(scores) == 1:
            # two labels: the class of the column by the one rule (beside a truth of one class
            # its positive class, never a label only predicted), the predictions checked
            truth, _, predicted = _true_and_predicted(seen)
            pos2 = score_column_class(truth, score_labels, pos_label, where=source.name,
                                      scores=scores, name=file_column(source.name, true_col, "y_true"))
            check_predictions_beside_score(source.name, true_col, pred_col, scores[0], truth,
                                           predicted, pos2, stray_row)
        elif score_labels is not None and len(scores) != (
                len(score_labels) if len(scores) > 1 or len(score_labels) > 2 else 1):
            raise score_columns_error(source.name, scores, score_labels)
    elif len(scores) == 1 and book is not None and len(book) > 2:
        # fixed labels: the true classes are known at the end of the pass (checked there);
        # a pos_label outside them is named with the argument in the caller's words
        ovr = one_column_class(book, book, pos_label, where=source.name, scores=scores,
                               name="labels")
    two = score_labels if score_labels is not None else book
    if len(scores) == 1 and pos_label is not None and two is not None and len(two) == 2 and (
            pos2 is None):
        pos2 = resolve_pos_label(list(two), pos_label, name="the matrix")
    # one score column of a known class: its histogram as the counted path makes it (the
    # class kept where the labels' order would not tell it)
    hist = (score_column_histogram(two, pos2, bins) if pos2 is not None and two is not None
            else None if ovr is None else score_column_histogram([ovr], ovr, bins))
    acc = Accumulator(labels, scores=(bool(scores) and hist is None) or None, bins=bins,
                      score_labels=score_labels if hist is None else None)
    done = 0
    for batch in reader.arrow_batches():

        s = None
        if scores:
            s = (to_numpy(col(scores[0], batch)) if len(scores) == 1
                 else np.column_stack([to_numpy(col(c, batch)) for c in scores]))
        w = None if weight_col is None else to_numpy(col(weight_col, batch))
        first, last = done + 1, reader.rows_total
        try:
            # errors name the batch by its rows (the accumulator's own chunk counter means
            # nothing to a reader of the file)
            acc.update(col(true_col, batch), col(pred_col, batch),
                       scores=s if hist is None else None, sample_weight=w,
                       chunk_name=f"{source.name}, rows {first}..{last}")
            if hist is not None:  # one vs rest: every class but ovr into the negative row
                y = to_numpy(col(true_col, batch))
                hist.update(y if ovr is None else
                            np.where(y == ovr, hist.labels[1], hist.labels[0]), s,
                            sample_weight=w)
        except (ValueError, TypeError) as exc:
            # a refused batch that holds a negative or non-finite weight is named by that
            # weight's data row, whatever rows were skipped (the weight is an error whatever
            # else the check found first); no reading of the message's text
            bad = None if w is None else first_bad_weight(w)
            if w is not None and bad is not None:
                row = int(reader.last_row_numbers()[bad])
                raise weight_error(f"{source.name}, row {row}", weight_col or "",
                                   w[bad]) from exc
            # a score outside [0, 1] is named by its column and data row, as on the counted
            # path (the histogram's own message names the argument and a batch position)
            hit = None if s is None else first_bad_score(s)
            if s is not None and hit is not None:
                row = int(reader.last_row_numbers()[hit[0]])
                raise score_error(f"{source.name}, row {row}", scores[hit[1]],
                                  s.reshape(len(s), -1)[hit]) from exc
            bad_row = None if s is None or s.ndim != 2 else first_bad_probability_row(s)
            if s is not None and bad_row is not None:
                row = int(reader.last_row_numbers()[bad_row])
                raise ValueError(
                    f"{source.name}, row {row}: the score columns {scores} sum to "
                    f"{float(s[bad_row].sum())!r}; one score column per class must hold "
                    "probabilities summing to 1") from exc
            # a label outside labels= is named by its column and data row, as on the counted
            # path (the accumulator's message names the batch)
            if labels is not None:
                lab = first_outside_label(to_numpy(col(true_col, batch)),
                                          to_numpy(col(pred_col, batch)), acc.labels)
                if lab is not None:
                    row = int(reader.last_row_numbers()[lab[0]])
                    raise label_error(f"{source.name}, row {row}", lab[1],
                                      (true_col, pred_col)[lab[2]], acc.labels) from exc
            raise content_error(source, f"rows {first}..{last}", exc) from exc
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
        raise no_rows_error(source.name, reader.skipped_by_reason)
    if weight_col is not None:  # all weights 0: the message of the counted paths
        check_weight_total(source.name, weight_col, acc.counts.ravel())
    if ovr is not None and book is not None:  # fixed labels: the classes found, checked now
        one_vs_rest(*_true_and_predicted(acc))
    if scores:
        report.curves = acc.curves() if hist is None else hist
    return acc.result(), report


def _true_and_predicted(acc: Accumulator) -> tuple[list[Any], list[Any], list[Any]]:
    """The sorted true classes, all labels and the predicted classes of an accumulator's
    table (rows and columns that hold something)."""
    counts = np.asarray(acc.counts)
    labels = list(acc.labels)
    truth = [c for c, r in zip(labels, counts.sum(axis=1).tolist(), strict=True) if r]
    predicted = [c for c, r in zip(labels, counts.sum(axis=0).tolist(), strict=True) if r]
    return truth, labels, predicted


def _evaluate_by_group(source: Source, path: str, true_col: str, pred_col: str,
                       group_cols: Any, *, score_cols: Any, weight_col: str | None,
                       labels: Any, skip_invalid: bool, progress: Any, pos_label: Any,
                       min_support: int, bins: int = 10_000) -> tuple[Any, FileReport]:
    if isinstance(group_cols, str):
        group_cols = [group_cols]
    if not isinstance(group_cols, Sequence) or not group_cols:
        raise ValueError(f"group_cols must name at least one column, got {group_cols!r}")
    groups = check_columns(group_cols)
    twice = next((c for i, c in enumerate(groups) if c in groups[:i]), None)
    if twice is not None:  # its groups would be the pairs (a, a): the feature counted twice
        raise ValueError(f"{arg('group_cols')} names column {twice!r} twice; each sensitive feature is "
                         "one column")
    scores = _score_list(score_cols)
    if len(scores) > 1:
        raise ValueError(f"group_cols takes one score column (the positive class's), got "
                         f"score_cols={scores!r}: ROC AUC by group of one score column per "
                         "class is not counted")
    cols = check_columns([true_col, pred_col, *groups, *scores]
                         + ([weight_col] if weight_col is not None else []))
    source.check_columns(cols)
    source = counted_source(source)  # Arrow IPC and NumPy too, scanned where they are
    report = FileReport(path=path, format=source.format, engine="duckdb GROUP BY")
    ev = evaluate_by_group(source, true_col, pred_col, groups, weight_col, labels,
                           skip_invalid, report, min_support=min_support, pos_label=pos_label,
                           score_col=scores[0] if scores else None, bins=bins)
    if progress is not None:
        progress(report.rows_total, report.rows_total)
    return ev, report


def _score_list(score_cols: Any) -> list[str]:
    if score_cols is None:
        return []
    if isinstance(score_cols, str):
        return [score_cols]
    return check_columns(score_cols)
