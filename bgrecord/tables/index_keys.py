"""An index's keys (docs/stats.md): a few text values, its schema's version (:data:`SCHEMA`)
and where its runs of games in file order begin (:mod:`bgrecord.tables.file_order`), held as
the ``bgrecord`` view of constants. A view, not a table: DuckDB gives each table's rows blocks
of their own (256 KB), where a view is its definition alone, in the catalog beside the
tables'. An older index's table of keys (schema 3 and before) is read alike.

What it does not do: keep another program's values (a view holds no rows of its own: each run
writes the keys it knows again, whole); trust a key written twice (as when another program
added a row to an older index's table: it is left out).
"""

from __future__ import annotations

from collections import Counter

from bgrecord.tables.database import SCHEMA_VERSION, Database, sql_text

VIEW = "bgrecord"
SCHEMA = "schema"  # the key of the schema's version


def keys(database: Database, attached: str = "") -> dict[str, str] | None:
    """The keys of an index, or of the one attached to it as ``attached`` (DuckDB); None for
    a database without them (not an index). A value that is not text is read as text."""
    try:
        rows = database.query(f"SELECT key, value FROM {attached + '.' if attached else ''}{VIEW}")
    except Exception:  # noqa: BLE001 - no such view or table (each engine has its own error): not ours
        return None
    times = Counter(key for key, _ in rows)
    return {str(key): str(value) for key, value in rows if key is not None and value is not None and times[key] == 1}


def schema_of(database: Database, attached: str = "") -> str | None:
    """The schema version of a bgrecord index as written there ("" for none written); None
    for a database that is not one (``attached``: as in :func:`keys`)."""
    found = keys(database, attached)
    return None if found is None else found.get(SCHEMA, "")


def is_index(database: Database) -> bool:
    return schema_of(database) == str(SCHEMA_VERSION)


def write_keys(database: Database, values: dict[str, str]) -> None:
    """``values`` (at least one) as the index's keys, in place of those before (a table of
    keys of an older index too)."""
    if database.engine == "duckdb":
        found = database.query("SELECT table_type FROM information_schema.tables WHERE table_catalog = current_database() "
                               "AND table_schema = current_schema() AND table_name = ?", [VIEW])  # fmt: skip
        kind = None if not found else "VIEW" if found[0][0] == "VIEW" else "TABLE"
    else:
        found = database.query("SELECT type FROM sqlite_master WHERE name = ? AND type IN ('table', 'view')", [VIEW])
        kind = str(found[0][0]).upper() if found else None
    if kind is not None:
        database.execute(f"DROP {kind} {VIEW}")
    rows = ", ".join(f"('{sql_text(key)}', '{sql_text(value)}')" for key, value in values.items())
    database.execute(f"CREATE VIEW {VIEW}(key, value) AS VALUES {rows}")
