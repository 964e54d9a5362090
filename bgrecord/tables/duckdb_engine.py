"""DuckDB's side of :class:`~bgrecord.tables.database.Database`: its module found (the compiled
core alone where it can), a connection made to a file (read only, or attached to write row
groups of a size chosen) with the settings bgrecord gives it. It runs no query of its own.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from bgrecord.extras import require

ATTACHED = "written"  # the name a file is attached by to write row groups of a size chosen (Database's row_group)
PRUNER_SINCE = (1, 5)  # DuckDB's version that brought its row group pruner (an older one refuses its name)


def sql_text(text: str) -> str:
    """``text`` made safe inside an SQL string literal (its quotes doubled)."""
    return text.replace("'", "''")


def duckdb_connection(engine: ModuleType, path: Path, read_only: bool, memory: str, row_group: int | None) -> Any:
    """A DuckDB connection to ``path`` within ``memory``; with ``row_group``, the file attached
    (the row group size is an option of ``ATTACH`` alone, for the rows written while attached)
    and used as the connection's own. Read only (a search), without DuckDB's row group pruner
    (:data:`PRUNER_SINCE`): for a query ordered and limited, it loads the sort column's
    statistics of every row group of the table to order them (1,398 of the positions at a
    million games: a third of a search's first query), where a lookup reads one or two."""
    config = {"memory_limit": memory}
    if not row_group:
        if read_only and _version(engine) >= PRUNER_SINCE:
            config["disabled_optimizers"] = "row_group_pruner"
        return engine.connect(str(path), read_only=read_only, config=config)
    connection = engine.connect(":memory:", config={**config, "temp_directory": f"{path}.tmp"})  # as the file's own (else .tmp, here)
    try:
        connection.execute(attach_statement(path, read_only, row_group))
        connection.execute(f"USE {ATTACHED}")
    except BaseException:
        connection.close()
        raise
    return connection


def attach_statement(path: Path, read_only: bool, row_group: int) -> str:
    """DuckDB's statement that attaches ``path`` as :data:`ATTACHED`, its row groups of ``row_group`` rows."""
    return f"ATTACH '{sql_text(str(path))}' AS {ATTACHED} ({'READ_ONLY, ' if read_only else ''}ROW_GROUP_SIZE {int(row_group)})"


def _version(engine: ModuleType) -> tuple[int, ...]:
    """DuckDB's version, its first two numbers (``(0,)`` when it does not say)."""
    numbers = re.findall(r"\d+", str(getattr(engine, "__version__", "")))[:2]
    return tuple(int(number) for number in numbers) or (0,)


def duckdb_module() -> ModuleType:
    """DuckDB's module: its compiled core alone where it stands (25 ms to import), as the
    package's Python layer (another 100 ms, paid before a run's workers start or a search's
    query) adds nothing bgrecord uses: opening a file, SQL, NumPy columns in and out. Else
    (the package loaded already, or no such core) the package, or the line saying how to
    install it."""
    if "duckdb" not in sys.modules:
        with contextlib.suppress(ImportError):
            core = importlib.import_module("_duckdb")
            if callable(getattr(core, "connect", None)):
                return core
    return require("duckdb")
