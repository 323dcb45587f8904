"""The row filter ``where=``: a SQL condition over a source's own columns, and nothing else.

``where=`` is handed to DuckDB, which would also evaluate a subquery (``(SELECT content FROM
read_text('/etc/passwd'))``), a function that reads outside the data (``getenv``,
``current_setting``, ``read_text``), or text that closes the parentheses it is placed in and
turns the filter into something else. A program that passes a filter it received from
elsewhere (a form, a config file, a job description) must not thereby let it read other files
or settings of the machine. So the condition is parsed by DuckDB's own parser
(``json_serialize_sql`` of ``SELECT * FROM t WHERE <where>``) before it is bound, and refused
unless the parse is that one statement and every node of its condition is on an allow-list:

* :data:`ALLOWED_EXPRESSIONS`, the kinds of expression that compute on their operands alone
  (column references, constants, comparisons, ``AND`` / ``OR`` / ``NOT``, ``IS NULL``, ``IN``
  lists, ``BETWEEN``, ``CASE``, ``CAST``, ``COLLATE``, ``COALESCE``, indexing);
* :data:`ALLOWED_FUNCTIONS`, the scalar functions that compute on their arguments alone
  (arithmetic and mathematics, strings and patterns, ``nullif``, ``isnan``, parts of a date),
  with the functions DuckDB's parser writes for operators (``+``, ``||``, ``~~`` for ``LIKE``,
  ``->>``, ...);
* :data:`ALLOWED_TYPES`, the types a ``CAST`` may name: DuckDB's built-in ones (a type an
  extension defines, ``INET`` or ``GEOMETRY``, makes DuckDB download and load that extension
  from the network on first use).

An allow-list rather than a list of what is refused: a function a later DuckDB or an
extension adds (a new reader of files, of settings, of the network) is refused until someone
has looked at it and added it here. Refused besides: subqueries, aggregates and window
functions (a filter holds for a row, not for a set of them), star expressions
(``COLUMNS(*)``), lambdas, parameters, qualified function names (``main.f(x)``, and the method
form ``x.f()``, which may reach a schema's macro), functions that change between runs
(``now()``, ``random()``), and the names DuckDB reads as such a function when the source has
no column of that name (``current_date``, ``current_user``, ... :data:`VALUE_FUNCTION_NAMES`),
quoted or not. A column of one of those names is filtered on by its quoted name
(``"user" = 'ann'``), which is taken when the source has that column; the bare word is
refused, so that a filter never reads the session where a column was meant.

What the list does not cover: a connection given to ``evaluate_sql`` may hold macros of the
same name as an allowed function (DuckDB resolves ``lower`` to a ``main.lower`` macro before
the built-in one); those are the connection owner's own code, not the filter's.

A second wall, ``SET enable_external_access = false`` (with ``allowed_paths`` naming the
source's files) on the connection that counts, was tried (DuckDB 2.0): DuckDB then still reads
the relation already made over the source's files, at the same speed (0.15 s for 20 million
Parquet rows, with and without), and refuses every other file. It is not set, because that
setting cannot be switched back on ("Cannot enable external access while database is
running"): confmat's counting connections are cursors of one in-memory database per process
(:func:`confmat.inputs.readers.duckdb_connection`, shared because a database takes 15 to 40
ms to open), so switching it off for one source would refuse every later file of the
process; ``evaluate_sql`` counts on the caller's own connection, which confmat must not
change for good; and ``allowed_paths`` / ``allowed_directories`` came with DuckDB 1.2
(duckdb/duckdb pull request #14568), after the oldest DuckDB confmat supports. The connection
that only parses the filter here runs with external access off.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..deps import require
from ..words import arg, say

__all__ = ["ALLOWED_EXPRESSIONS", "ALLOWED_FUNCTIONS", "ALLOWED_TYPES", "VALUE_FUNCTION_NAMES",
           "check_where"]

ALLOWED_EXPRESSIONS: dict[str, frozenset[str]] = {
    "COLUMN_REF": frozenset({"COLUMN_REF"}),
    "CONSTANT": frozenset({"VALUE_CONSTANT"}),
    "COMPARISON": frozenset({"COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN",
                             "COMPARE_GREATERTHAN", "COMPARE_LESSTHANOREQUALTO",
                             "COMPARE_GREATERTHANOREQUALTO", "COMPARE_DISTINCT_FROM",
                             "COMPARE_NOT_DISTINCT_FROM"}),
    "CONJUNCTION": frozenset({"CONJUNCTION_AND", "CONJUNCTION_OR"}),
    "OPERATOR": frozenset({"OPERATOR_NOT", "OPERATOR_IS_NULL", "OPERATOR_IS_NOT_NULL",
                           "OPERATOR_COALESCE", "OPERATOR_TRY", "COMPARE_IN", "COMPARE_NOT_IN",
                           "ARRAY_EXTRACT", "ARRAY_SLICE", "STRUCT_EXTRACT",
                           "ARRAY_CONSTRUCTOR"}),
    "BETWEEN": frozenset({"COMPARE_BETWEEN", "COMPARE_NOT_BETWEEN"}),
    "CASE": frozenset({"CASE_EXPR"}),
    "CAST": frozenset({"OPERATOR_CAST"}),
    "TYPE": frozenset({"TYPE"}),  # the type of a CAST
    "COLLATE": frozenset({"COLLATE"}),
    "FUNCTION": frozenset({"FUNCTION"}),
}
"""The expressions a filter may hold, as DuckDB's parser names them: ``class`` -> the ``type``
values allowed in that class (``FUNCTION`` nodes are then checked by name against
:data:`ALLOWED_FUNCTIONS`, ``COLUMN_REF`` nodes against :data:`VALUE_FUNCTION_NAMES`).
``COALESCE`` and ``IFNULL`` are the parser's ``OPERATOR_COALESCE``, ``TRY_CAST`` and ``x::t``
its ``OPERATOR_CAST``, ``x NOT IN (...)`` a ``NOT`` of ``COMPARE_IN``, a list or struct index
``OPERATOR`` ``ARRAY_EXTRACT`` / ``ARRAY_SLICE`` / ``STRUCT_EXTRACT``."""

_OPERATORS = ("+", "-", "*", "/", "//", "%", "**", "^", "@", "~", "&", "|", "<<", ">>",
              "||", "^@", "->>", "@>", "<@", "&&",
              "~~", "!~~", "~~*", "!~~*", "~~~",  # [NOT] LIKE, [NOT] ILIKE, GLOB
              "like_escape", "not_like_escape", "ilike_escape", "not_ilike_escape")
_MATH = ("abs", "add", "subtract", "multiply", "divide", "mod", "round", "round_even",
         "roundbankers", "floor", "ceil", "ceiling", "trunc", "even", "sign", "signbit", "ln",
         "log", "log2", "log10", "exp", "sqrt", "cbrt", "pow", "power", "pi", "greatest",
         "least", "gcd", "lcm", "greatest_common_divisor", "least_common_multiple",
         "factorial", "sin", "cos", "tan", "cot", "asin", "acos", "atan", "atan2", "sinh",
         "cosh", "tanh", "asinh", "acosh", "atanh", "degrees", "radians", "gamma", "lgamma",
         "bit_count", "xor", "nextafter", "isnan", "isinf", "isfinite")
_TEXT = ("lower", "upper", "lcase", "ucase", "length", "len", "char_length",
         "character_length", "strlen", "octet_length", "bit_length", "substring", "substr",
         "left", "right", "trim", "ltrim", "rtrim", "starts_with", "ends_with",
         "prefix", "suffix", "contains", "strpos", "instr", "position", "replace", "translate",
         "reverse", "concat", "concat_ws", "ascii", "chr", "unicode", "ord",
         "strip_accents", "nfc_normalize", "regexp_matches", "regexp_full_match",
         "regexp_extract", "regexp_replace", "levenshtein", "damerau_levenshtein", "hamming",
         "jaccard", "jaro_similarity", "jaro_winkler_similarity", "format", "printf",
         "json_extract", "json_extract_string")
_NULLS_LISTS = ("nullif", "list_value", "list_contains", "list_has", "array_contains",
                "array_has", "list_extract", "list_element", "array_extract")
_TIME = ("date_part", "datepart", "date_trunc", "datetrunc", "date_diff", "datediff",
         "date_sub", "datesub", "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear",
         "weekday", "isodow", "isoyear", "week", "weekofyear", "yearweek", "quarter", "hour",
         "minute", "second", "millisecond", "microsecond", "nanosecond", "epoch", "epoch_ms",
         "epoch_us", "epoch_ns", "decade", "century", "millennium", "era", "dayname",
         "monthname", "last_day", "julian", "make_date", "make_time", "make_timestamp",
         "strftime", "strptime", "try_strptime", "to_timestamp", "time_bucket", "to_years",
         "to_quarters", "to_months", "to_weeks", "to_days", "to_hours", "to_minutes",
         "to_seconds", "to_milliseconds", "to_microseconds", "to_decades", "to_centuries",
         "to_millennia")

ALLOWED_FUNCTIONS: frozenset[str] = frozenset(_OPERATORS + _MATH + _TEXT + _NULLS_LISTS + _TIME)
"""The functions a filter may call (lower case): scalar functions that compute on their arguments
alone, the same value for the same arguments in every run, and the functions DuckDB's parser
writes for operators (``a + b`` is ``+``, ``s LIKE p`` is ``~~``, ``s SIMILAR TO p`` is
``regexp_full_match``, ``EXTRACT(year FROM d)`` is ``date_part``, ``x IN [1, 2]`` is
``contains`` of ``list_value``, ``INTERVAL 1 DAY`` is ``to_days``). Not here, among others:
``now``, ``today``, ``random``, ``uuid`` (they change between runs), ``age`` (of one argument it
counts from today), ``getenv``, ``current_setting``, ``version``, ``read_*``, ``glob`` (they
read outside the rows), ``repeat``, ``lpad``, ``rpad`` (a count written in the filter would make
a string of any size in every row), every aggregate, window and table function, and every
function an extension or a macro adds."""

VALUE_FUNCTION_NAMES = frozenset({"current_catalog", "current_date", "current_role",
                                  "current_schema", "current_time", "current_timestamp",
                                  "current_user", "localtime", "localtimestamp", "session_user",
                                  "user"})
"""Names that DuckDB's parser gives as a column reference and its binder, when the source has no
column of that name, reads as a function of the session (the clock, the user, the catalogue),
quoted or not: in a filter, taken only quoted and when the source has such a column."""

ALLOWED_TYPES = frozenset({
    "BOOLEAN", "BOOL", "LOGICAL", "TINYINT", "INT1", "SMALLINT", "INT2", "SHORT", "INTEGER",
    "INT4", "INT", "SIGNED", "BIGINT", "INT8", "LONG", "HUGEINT", "INT128", "UTINYINT",
    "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "FLOAT4", "REAL", "DOUBLE",
    "FLOAT8", "DECIMAL", "NUMERIC", "VARINT", "BIGNUM", "VARCHAR", "CHAR", "BPCHAR", "TEXT",
    "STRING", "NVARCHAR", "BLOB", "BYTEA", "BINARY", "VARBINARY", "BIT", "BITSTRING", "DATE",
    "TIME", "TIMETZ", "TIME WITH TIME ZONE", "TIMESTAMP", "DATETIME", "TIMESTAMP_S",
    "TIMESTAMP_MS", "TIMESTAMP_US", "TIMESTAMP_NS", "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE",
    "INTERVAL", "UUID", "JSON", "LIST", "ARRAY", "STRUCT", "ROW", "MAP", "UNION", "ENUM",
})
"""The types a filter may cast to (``CAST(x AS t)``, ``x::t``, upper case, as DuckDB's
parser names them): DuckDB's built-in types and their aliases, and the nested types made of
them. Not here: a type an extension defines (``INET``, ``GEOMETRY``, ...), which DuckDB would
download and load from the network on first use (its ``autoinstall_known_extensions``), and a
type named with its schema (``main.t``), which may be a type of the connection's own."""

_CLAUSES_NONE = ("group_expressions", "having", "qualify", "sample")

_WHY_NODE = {
    "SUBQUERY": "a subquery, which could read other tables or files",
    "WINDOW": "a window function (a filter holds for one row at a time)",
    "STAR": "a star expression (*, COLUMNS(...)), which stands for columns not named",
    "LAMBDA": "a lambda (x -> ..., which is also how DuckDB parses the JSON operator ->: "
              "use ->> or json_extract)",
    "PARAMETER": "a parameter ($1, ?), which has no value here",
    "POSITIONAL_REFERENCE": "a positional reference (#1); name the column",
}

#: The statement a filter is parsed in (``query_location`` counts from its start).
_PREFIX = "SELECT * FROM t WHERE "


def _lead() -> str:
    """The start of a message refusing a filter, the argument in the caller's words."""
    return f"{arg('where')} must be a condition over the source's columns; "


def _see(what: str) -> str:
    """Where the caller reads the allow-list ``what`` (``"VALUE_FUNCTION_NAMES"``): the
    constant in Python, the command that prints it (``'confmat where'``) on the command line."""
    return arg(f"confmat.inputs.where.{what}")


def _allowed(what: str, python: str, caller: str) -> str:
    """A hint naming the allow-list ``what``: ``python`` in Python, ``caller`` in another
    vocabulary (``{}``: the caller's name of the list)."""
    name = f"confmat.inputs.where.{what}"
    return say(python.format(name), name, caller)


def _see_expr() -> str:
    """The hint of an expression not allowed, in the caller's words."""
    return _allowed("ALLOWED_EXPRESSIONS", "the expressions allowed are {}",
                    "{} lists the expressions allowed")


def _see_func() -> str:
    """The hint of a function not allowed, in the caller's words."""
    listed = _allowed("ALLOWED_FUNCTIONS", "of {}", "{} lists")
    return f"a filter may call only the functions {listed}, which compute on their arguments alone"


def _why_function(con: Any, name: str) -> str:
    """Why DuckDB's function ``name`` is not allowed, from what DuckDB says of it."""
    rows = con.execute("SELECT DISTINCT function_type, stability FROM duckdb_functions() "
                       "WHERE function_name = ?", [name]).fetchall()
    kinds = {str(r[0]) for r in rows}
    stability = {str(r[1]) for r in rows}
    if "aggregate" in kinds:
        return "an aggregate (a filter holds for one row at a time)"
    if kinds & {"table", "table_macro"}:
        return "a table function, which reads outside the rows"
    if "macro" in kinds:
        return "a macro, whose body is not checked"
    if "VOLATILE" in stability:
        return "which gives another value in each run"
    if "CONSISTENT_WITHIN_QUERY" in stability:
        return "which reads the session (the clock, a setting, a variable): not the rows"
    if rows:
        return ("which is not known to compute on its arguments alone (it may read files, "
                "settings or the catalogue)")
    return "which this DuckDB does not know (an extension's or a macro's)"


def _check_function(con: Any, node: dict[str, Any], where: str) -> None:
    name = str(node.get("function_name", ""))
    path = (node.get("qualified_name") or {}).get("path") or [name]
    if node.get("schema") or node.get("catalog") or len(path) > 1:
        shown = ".".join(p for p in (node.get("catalog"), node.get("schema"), name) if p)
        raise ValueError(f"{_lead()}{where!r} calls {shown}(): call a function by its name "
                         f"alone ({name}(x), not x.{name}() or main.{name}(x)), which may "
                         "reach a schema's macro")
    if name.lower() not in ALLOWED_FUNCTIONS:
        raise ValueError(f"{_lead()}{where!r} calls {name}(), {_why_function(con, name)}; "
                         f"{_see_func()}")
    orders = (node.get("order_bys") or {}).get("orders")
    if node.get("distinct") or node.get("filter") or orders or node.get("export_state"):
        raise ValueError(f"{_lead()}{where!r} uses DISTINCT, FILTER, ORDER BY or EXPORT_STATE "
                         f"in {name}(), which only aggregates take")


def _check_type(node: dict[str, Any], where: str) -> None:
    name = str(node.get("type_name", ""))
    if node.get("schema") or node.get("catalog") or name.upper() not in ALLOWED_TYPES:
        shown = ".".join(p for p in (node.get("catalog"), node.get("schema"), name) if p)
        raise ValueError(f"{_lead()}{where!r} casts to the type {shown}, which is not one of "
                         "DuckDB's built-in types (an extension's type is downloaded from the "
                         "network on first use); "
                         + _allowed("ALLOWED_TYPES", "the types allowed are {}",
                                    "{} lists the types allowed"))


def _check_session_name(node: dict[str, Any], where: str, columns: Sequence[str] | None
                        ) -> None:
    """Refuse a column reference that DuckDB may read as a session function, unless it is
    quoted and the source has such a column."""
    name = str(node["column_names"][0])
    text = where.encode()  # DuckDB counts the location in bytes of UTF-8
    start = int(node.get("query_location", -1)) - len(_PREFIX)
    quoted = 0 <= start < len(text) and text[start:start + 1] == b'"'
    known = columns is not None and name.lower() in {str(c).lower() for c in columns}
    if quoted and known:
        return
    lead = (f"{_lead()}{where!r} names {name}, which DuckDB reads as its function "
            f"{name.lower()} (the clock, the user or the catalogue, not the rows)")
    if quoted:
        raise ValueError(f"{lead}: the source has no column {name!r}, and DuckDB reads a "
                         f'quoted "{name}" as the function too when there is none (see '
                         f"{_see('VALUE_FUNCTION_NAMES')})")
    raise ValueError(f"{lead} unless the source has a column of that name; if {name} is a "
                     f'column, write it as "{name}" (quoted, it is read as the column, '
                     f"which must exist; see {_see('VALUE_FUNCTION_NAMES')})")


def _walk(con: Any, node: Any, where: str, columns: Sequence[str] | None = None) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(con, item, where, columns)
        return
    if not isinstance(node, dict):
        return
    if "class" in node:
        cls, kind = str(node.get("class")), str(node.get("type"))
        if kind not in ALLOWED_EXPRESSIONS.get(cls, ()):
            what = _WHY_NODE.get(cls, f"an expression of kind {cls} {kind}")
            raise ValueError(f"{_lead()}{where!r} holds {what}; {_see_expr()}")
        if cls == "FUNCTION":
            _check_function(con, node, where)
        if cls == "TYPE":
            _check_type(node, where)
        names = node.get("column_names") or []
        if cls == "COLUMN_REF" and len(names) == 1 and str(names[0]).lower() in \
                VALUE_FUNCTION_NAMES:
            _check_session_name(node, where, columns)
    for value in node.values():
        _walk(con, value, where, columns)


def check_where(where: Any, columns: Sequence[str] | None = None) -> str:
    """Check that ``where`` is one SQL condition over columns, and return it.

    The condition is parsed by DuckDB's parser and each node of the parse is checked against
    an allow-list: :data:`ALLOWED_EXPRESSIONS` for the kinds of expression and
    :data:`ALLOWED_FUNCTIONS` for the functions (both compute on their operands alone).
    A name of :data:`VALUE_FUNCTION_NAMES` is taken only quoted (``"user" = 'ann'``) and
    only when ``columns`` holds it (DuckDB matches names ignoring case): DuckDB reads it,
    quoted or not, as the session's function when the source has no such column.

    Parameters
    ----------
    where : str
        The filter, e.g. ``"split = 'test' AND site <> 'B'"``.
    columns : sequence of str, optional
        The source's columns; without them no name of :data:`VALUE_FUNCTION_NAMES` is taken.

    Returns
    -------
    str
        ``where`` unchanged.

    Raises
    ------
    TypeError
        ``where`` is not a string.
    ValueError
        ``where`` is empty, does not parse as one condition (text that closes the parentheses
        a filter is placed in, a second statement), holds an expression not in
        :data:`ALLOWED_EXPRESSIONS` (a subquery, a window function, ``COLUMNS(*)``, a lambda),
        calls a function not in :data:`ALLOWED_FUNCTIONS` (an aggregate, ``now()``,
        ``read_text``, a macro) or by a qualified name, or names one of
        :data:`VALUE_FUNCTION_NAMES` unquoted or that is not one of ``columns``; the message
        names ``where``, quotes it and says what is not allowed.

    Examples
    --------
    >>> check_where("split = 'test' AND abs(score - 0.5) >= 0.25")
    "split = 'test' AND abs(score - 0.5) >= 0.25"
    >>> check_where("(SELECT count(*) FROM read_csv('other.csv')) > 0")
    Traceback (most recent call last):
    ...
    ValueError: where must be a condition over the source's columns; "(SELECT count(*) FROM read_csv('other.csv')) > 0" holds a subquery, which could read other tables or files; the expressions allowed are confmat.inputs.where.ALLOWED_EXPRESSIONS
    >>> check_where("day < now()")
    Traceback (most recent call last):
    ...
    ValueError: where must be a condition over the source's columns; 'day < now()' calls now(), which reads the session (the clock, a setting, a variable): not the rows; a filter may call only the functions of confmat.inputs.where.ALLOWED_FUNCTIONS, which compute on their arguments alone
    >>> check_where('"user" = \\'ann\\'', columns=["y", "yhat", "user"])
    '"user" = \\'ann\\''
    >>> check_where("user = 'ann'", columns=["y", "yhat", "user"])
    Traceback (most recent call last):
    ...
    ValueError: where must be a condition over the source's columns; "user = 'ann'" names user, which DuckDB reads as its function user (the clock, the user or the catalogue, not the rows) unless the source has a column of that name; if user is a column, write it as "user" (quoted, it is read as the column, which must exist; see confmat.inputs.where.VALUE_FUNCTION_NAMES)
    >>> check_where("y = 1), false) AS a, coalesce((true")
    Traceback (most recent call last):
    ...
    ValueError: where must be one SQL condition over the source's columns; 'y = 1), false) AS a, coalesce((true' does not parse as one: syntax error at or near ")"
    """
    if not isinstance(where, str):
        raise TypeError(f"{arg('where')} must be a SQL expression (str), got {type(where).__name__}")
    if not where.strip():
        raise ValueError(f"{arg('where')} must be a SQL expression, got an empty string")
    duckdb = require("duckdb", "filtering rows (where=)")
    with duckdb.connect(config={"enable_external_access": False}) as con:
        text = con.execute("SELECT json_serialize_sql(?)", [_PREFIX + where]).fetchone()[0]
        parsed = json.loads(text)
        statements = parsed.get("statements") or []
        if parsed.get("error") or len(statements) != 1:
            reason = parsed.get("error_message") or f"{len(statements)} statements"
            reason = " ".join(str(reason).split("\n")[:1])
            raise ValueError(f"{arg('where')} must be one SQL condition over the source's columns; "
                             f"{where!r} does not parse as one: {reason}")
        node = statements[0].get("node", {})
        table = node.get("from_table") or {}
        well_formed = (node.get("type") == "SELECT_NODE" and not node.get("modifiers")
                       and not (node.get("cte_map") or {}).get("map")
                       and [s.get("class") for s in node.get("select_list", [])] == ["STAR"]
                       and table.get("type") == "BASE_TABLE" and table.get("table_name") == "t"
                       and node.get("where_clause") is not None
                       and not any(node.get(c) for c in _CLAUSES_NONE))
        if not well_formed:
            raise ValueError(f"{arg('where')} must be one SQL condition over the source's columns; "
                             f"{where!r} adds clauses of its own")
        _walk(con, node["where_clause"], where, columns)
    return where
