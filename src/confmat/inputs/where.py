"""The row filter ``where=``: a SQL condition over a source's own columns, and nothing else.

``where=`` is handed to DuckDB, which would also evaluate a subquery (``(SELECT content FROM
read_text('/etc/passwd'))``), a function that reads outside the data (``getenv``,
``current_setting``, ``read_text``), or text that closes the parentheses it is placed in and
turns the filter into something else. A program that passes a filter it received from
elsewhere (a form, a config file, a job description) must not thereby let it read other files
or settings of the machine. So the condition is parsed by DuckDB's own parser
(``json_serialize_sql`` of ``SELECT * FROM t WHERE <where>``) before it is bound, and refused
unless the parse is that one statement with a condition made of column references,
constants, operators and functions that only compute on their arguments.
"""

from __future__ import annotations

import json
from typing import Any

from ..deps import require

__all__ = ["OUTSIDE_FUNCTIONS", "check_where"]

#: functions (lower case; a trailing ``*`` is a prefix) that reach outside the rows: the
#: environment, settings, files and the catalogue
OUTSIDE_FUNCTIONS = ("getenv", "current_setting", "current_database", "current_schema*",
                     "current_query", "current_user", "user", "session_user", "version",
                     "read_*", "glob", "sniff_*", "parquet_*", "duckdb_*", "pragma_*", "query",
                     "query_table", "json_serialize_sql", "json_deserialize_sql",
                     "json_execute_serialized_sql", "getvariable", "nextval", "currval",
                     "setseed", "random", "uuid", "gen_random_uuid")

_CLAUSES_NONE = ("group_expressions", "having", "qualify", "sample")


def _outside(name: str) -> bool:
    name = name.lower()
    return any(name.startswith(f[:-1]) if f.endswith("*") else name == f
               for f in OUTSIDE_FUNCTIONS)


def _walk(node: Any, where: str) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, where)
        return
    if not isinstance(node, dict):
        return
    kind = f"{node.get('class', '')} {node.get('type', '')}".upper()
    if "SUBQUERY" in kind:
        raise ValueError(f"where must be a condition over the source's columns; {where!r} "
                         "holds a subquery, which could read other tables or files")
    if node.get("class") == "FUNCTION" and _outside(str(node.get("function_name", ""))):
        raise ValueError(f"where must be a condition over the source's columns; {where!r} "
                         f"calls {node['function_name']}(), which reads outside the rows (or "
                         "changes between runs)")
    for value in node.values():
        _walk(value, where)


def check_where(where: Any) -> str:
    """Check that ``where`` is one SQL condition over columns, and return it.

    Parameters
    ----------
    where : str
        The filter, e.g. ``"split = 'test' AND site <> 'B'"``.

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
        a filter is placed in, a second statement), holds a subquery, or calls a function of
        :data:`OUTSIDE_FUNCTIONS`; the message names ``where``.

    Examples
    --------
    >>> check_where("split = 'test' AND score >= 0.5")
    "split = 'test' AND score >= 0.5"
    >>> check_where("(SELECT count(*) FROM read_csv('other.csv')) > 0")
    Traceback (most recent call last):
    ...
    ValueError: where must be a condition over the source's columns; "(SELECT count(*) FROM read_csv('other.csv')) > 0" holds a subquery, which could read other tables or files
    >>> check_where("y = 1), false) AS a, coalesce((true")
    Traceback (most recent call last):
    ...
    ValueError: where must be one SQL condition over the source's columns; 'y = 1), false) AS a, coalesce((true' does not parse as one: syntax error at or near ")"
    """
    if not isinstance(where, str):
        raise TypeError(f"where must be a SQL expression (str), got {type(where).__name__}")
    if not where.strip():
        raise ValueError("where must be a SQL expression, got an empty string")
    duckdb = require("duckdb", "filtering rows (where=)")
    with duckdb.connect() as con:
        text = con.execute("SELECT json_serialize_sql(?)",
                           [f"SELECT * FROM t WHERE {where}"]).fetchone()[0]
    parsed = json.loads(text)
    statements = parsed.get("statements") or []
    if parsed.get("error") or len(statements) != 1:
        reason = parsed.get("error_message") or f"{len(statements)} statements"
        reason = " ".join(str(reason).split("\n")[:1])
        raise ValueError(f"where must be one SQL condition over the source's columns; "
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
        raise ValueError(f"where must be one SQL condition over the source's columns; "
                         f"{where!r} adds clauses of its own")
    _walk(node["where_clause"], where)
    return where
