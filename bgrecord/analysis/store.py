"""Analyses kept in an archive's database (made by ``bgrecord index``, or by ``bgrecord analyze
-o archive.db``): the three tables of ``analyze`` as ``decisions``, ``analysis_players`` and
``analysis_matches``, keyed by the match's content (``match_key``) and who analysed it at what
depth (``engine``: ``gnubg 0ply``, ``xg 3ply``). A match found again, in any file, is not
analysed again when its kept analysis was made under the same settings (the engine and its
depth, its version, the rules, the thresholds: :func:`bgrecord.analysis.files.cache_key`);
``find`` shows the error made at each occurrence of a position (:mod:`bgrecord.tables.search`
reads it there).

What it does not do: keep two analyses of one match by one engine at one depth (the newer
replaces the older), or analyse (:mod:`bgrecord.analysis.files` does). Tables of an older
bgrecord (other columns) are made again: their analyses are done again.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from bgrecord.analysis.tables import DECISION_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS
from bgrecord.tables.archive import updated
from bgrecord.tables.database import DATABASES, Database
from bgrecord.tables.index_keys import is_index

STORED = {"decisions": DECISION_COLUMNS, "analysis_players": PLAYER_COLUMNS, "analysis_matches": MATCH_COLUMNS}
FROM_TABLE = {"decisions": "decisions", "players": "analysis_players", "matches": "analysis_matches"}


def known(target: str | Path, plies: int) -> frozenset[str]:
    """The analyses at ``plies`` the index at ``target`` holds, each as its match and settings
    (:func:`bgrecord.analysis.files.cache_key`; none when it does not exist or holds no analysis)."""
    if not Path(target).is_file() or not Path(target).stat().st_size:  # an empty file: a new database
        return frozenset()
    from bgrecord.tables.storage import engine_failure, is_engine_error

    try:
        return _known(target, plies)
    except Exception as exc:
        if is_engine_error(exc):
            raise engine_failure(target, exc) from None
        raise


def _known(target: str | Path, plies: int) -> frozenset[str]:
    from bgrecord.analysis.files import cache_key

    database = Database(target, read_only=True)
    try:
        if not is_index(database) or "analysis_matches" not in database.names() or not _current(database):
            return frozenset()
        columns = ("match_key", "engine", "engine_version", "rules", "threshold_doubtful", "threshold_bad", "threshold_very_bad")
        rows = database.query(f"SELECT DISTINCT {', '.join(columns)} FROM analysis_matches WHERE plies = ? AND problem IS NULL "
                              "AND match_key IS NOT NULL", [plies])  # fmt: skip
        return frozenset(cache_key(key, engine, version, rules, tuple(thresholds)) for key, engine, version, rules, *thresholds in rows)
    finally:
        database.close()


def _columns(database: Database, table: str) -> list[str]:
    cursor = database.connection.execute(f"SELECT * FROM {table} LIMIT 0")
    return [column[0] for column in cursor.description]


def _current(database: Database) -> bool:
    """Whether the analysis tables the database holds have this bgrecord's columns."""
    names = database.names()
    return all(_columns(database, table) == list(columns) for table, columns in STORED.items() if table in names)


class Store:
    """Rows of the analysis tables going into an index, match by match: a match's earlier rows
    at the same plies are replaced. Changes are kept only when the block ends well."""

    def __init__(self, database: Database) -> None:
        self.database = database
        # (table, match key, engine) written in this run -> the (file, match) they were written from
        self.written: dict[tuple[str, str, str], tuple[str, int]] = {}
        if not _current(database):  # an older bgrecord's tables: made again (their analyses' settings are not known)
            for table in STORED:
                database.execute(f"DROP TABLE IF EXISTS {table}")
        for table, columns in STORED.items():
            database.create_table(table, columns)

    def add(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Rows of ``table`` (``decisions``, ``players`` or ``matches``). A match's rows by one
        engine at one depth replace those stored before; a copy of a match met again in the
        same run is kept once."""
        name = FROM_TABLE[table]
        kept = []
        for row in rows:
            if row.get("match_key") is None or row.get("engine") is None:  # not analysed: nothing to keep
                continue
            key, origin = (name, row["match_key"], row["engine"]), (row["file"], row["match"])
            if key not in self.written:
                self.database.execute(f"DELETE FROM {name} WHERE match_key = ? AND engine = ?", list(key[1:]))
                self.written[key] = origin
            if self.written[key] == origin:
                kept.append(row)
        self.database.insert(name, kept, STORED[name])


@contextlib.contextmanager
def storing(target: str | Path, waiting: Callable[[], None] | None = None) -> Iterator[Store]:
    """A :class:`Store` into the index at ``target`` (made when missing), renamed into place at
    the end of the block, one writer at a time (:func:`bgrecord.tables.archive.updated`)."""
    with updated(target, waiting) as database:
        yield Store(database)
        database.execute("DROP INDEX IF EXISTS decisions_by_match")
        database.execute("CREATE INDEX decisions_by_match ON decisions (match_key, game_in_match, step)")


@contextlib.contextmanager
def reading(path: str | Path, needs: Iterable[str] = ("decisions",)) -> Iterator[Database]:
    """The database at ``path``, open to read its analysis (it must hold the tables ``needs``).
    Raises ``ValueError`` (no such database, or no analysis in it) and, for a file that is not
    a database, :class:`~bgrecord.tables.storage.DatabaseError` in one line."""
    from bgrecord.tables.storage import engine_failure, is_engine_error

    if not Path(path).is_file():
        raise ValueError(f"{path}: no such database")
    try:
        database = Database(path, read_only=True)
        try:
            if not set(needs) <= database.names():
                raise ValueError(f"{path}: holds no analysis (bgrecord analyze -o {path} puts one there)")
            yield database
        finally:
            database.close()
    except Exception as exc:
        if is_engine_error(exc) and not isinstance(exc, OSError):  # a file that is not a database, one line
            raise engine_failure(path, exc) from None
        raise


def table_kind(columns: Iterable[str]) -> str | None:
    """Which of analyze's tables has these columns (all of them), or None."""
    names = set(columns)
    for kind, stored in FROM_TABLE.items():
        if set(STORED[stored]) <= names:
            return kind
    return None


CHUNK = 5_000  # rows of a table read at a time: memory holds a chunk, whatever the table's size


def load(path: str | Path) -> tuple[str, Iterator[Any]]:
    """A table written by ``bgrecord analyze`` (CSV, Parquet, JSON or JSON Lines, by extension), which
    one it is, and its rows as DataFrames of :data:`CHUNK` rows, typed as analyze writes them
    (a large table is never held whole: pandas holds a table in about twenty times its size
    on disk). The first chunk is read now: ``ValueError`` for another table, ``OSError`` when
    unreadable; a later chunk with a value of the wrong kind is ``ValueError`` when read."""
    from bgrecord.tables.export import table_format

    fmt = table_format(path, None)
    chunks = _chunks(path, fmt)
    first = next(chunks, None)
    if first is None:  # a JSON lines table with no line
        raise ValueError(f"{path}: an empty table: not a table written by bgrecord analyze")
    kind = table_kind(first.columns)
    if kind is None:
        raise ValueError(f"{path}: not a table written by bgrecord analyze (its columns are not decisions', players' or matches')")
    columns = STORED[FROM_TABLE[kind]]
    typed = _typed_chunk(path, fmt, columns)
    head = typed(first)
    return kind, itertools.chain([head], map(typed, chunks))


def _chunks(path: str | Path, fmt: str) -> Iterator[Any]:
    import pandas as pd

    if fmt == "parquet":
        from bgrecord.extras import require

        parquet = require("pyarrow.parquet")
        try:
            batches = parquet.ParquetFile(path).iter_batches(batch_size=CHUNK)
        except (ValueError, TypeError) as exc:  # pyarrow's ArrowInvalid is a ValueError
            raise ValueError(f"{path}: not a Parquet table ({exc})") from None
        return (batch.to_pandas() for batch in batches)
    if fmt == "json":  # one document, held whole by JSON's nature; else JSON Lines (an earlier bgrecord wrote them there)
        try:
            whole = pd.read_json(path, dtype=False)
        except ValueError:
            return iter(pd.read_json(path, lines=True, dtype=False, chunksize=CHUNK))
        return (whole.iloc[start : start + CHUNK] for start in range(0, max(len(whole), 1), CHUNK))
    if fmt == "jsonl":
        return iter(pd.read_json(path, lines=True, dtype=False, chunksize=CHUNK))
    if fmt == "csv":
        return iter(pd.read_csv(path, dtype=str, keep_default_na=True, chunksize=CHUNK))
    raise ValueError(f"{path}: give a table written by bgrecord analyze (.csv, .parquet, .json, .jsonl)")


def _typed_chunk(path: str | Path, fmt: str, columns: dict[str, str]) -> Callable[[Any], Any]:
    def typed(data: Any) -> Any:
        try:
            data = _typed(data[list(columns)], columns)
        except (KeyError, TypeError, ValueError) as exc:  # a value of the wrong kind: the table was changed by hand, or cut
            raise ValueError(f"{path}: not a table written by bgrecord analyze ({exc})") from None
        if fmt == "csv":  # a spreadsheet-proof cell ('=x) is read back as written
            for name, kind in columns.items():
                if kind == "string":
                    data[name] = data[name].str.replace(r"^'(?=[=+\-@\t\r])", "", regex=True)
        return data

    return typed


def _typed(data: Any, columns: dict[str, str]) -> Any:
    import pandas as pd

    data = data.copy()
    for name, kind in columns.items():
        if kind in ("Int64", "Float64"):
            data[name] = pd.to_numeric(data[name], errors="coerce").astype(kind)
        elif kind == "boolean":
            data[name] = data[name].map(lambda v: None if v is None or v != v else str(v).lower() in ("true", "1")).astype(kind)
        else:
            data[name] = data[name].astype(kind)
    return data


def rows_of(data: Any) -> list[dict[str, Any]]:
    """A DataFrame's rows as plain values (None for missing)."""
    return [{str(k): (None if v is None or v != v else v) for k, v in row.items()}
            for row in data.astype(object).where(data.notna(), None).to_dict("records")]  # fmt: skip


# --- replay: the decisions of a game ---


class GameDecisions:
    """The decisions of a table analyze wrote, or of a database holding them, found a game at
    a time by its key (``game_key``) without holding them: copied once, a chunk at a time,
    into SQLite's private temporary database (on disk past a few MB, removed when closed),
    indexed by game key. Raises as :func:`load` does; ``ValueError`` for a database with no
    analysis."""

    COLUMNS = tuple(DECISION_COLUMNS)

    def __init__(self, path: str | Path) -> None:
        import sqlite3

        self.path = path
        self._copy = sqlite3.connect("")  # "": a temporary database on disk, gone when closed
        names = ", ".join(f'"{name}"' for name in self.COLUMNS)
        self._copy.execute(f"CREATE TABLE decisions ({names})")
        try:
            for rows in self._sources():
                self._copy.executemany(f"INSERT INTO decisions VALUES ({', '.join('?' * len(self.COLUMNS))})", rows)
        except BaseException:
            self._copy.close()
            raise
        self._copy.execute("CREATE INDEX by_game ON decisions (game_key)")

    def _sources(self) -> Iterator[list[tuple[Any, ...]]]:
        """The decisions' rows, a chunk at a time, as tuples in :attr:`COLUMNS` order."""
        if str(self.path).lower().endswith(DATABASES):
            yield from self._stored()
            return
        kind, chunks = load(self.path)
        if kind != "decisions":
            raise ValueError(f"{self.path}: this is analyze's {kind} table; give its decisions table (-o)")
        for chunk in chunks:
            yield [tuple(row[name] for name in self.COLUMNS) for row in rows_of(chunk)]

    def _stored(self) -> Iterator[list[tuple[Any, ...]]]:
        with reading(self.path) as database:
            rows = database.tuples(f"SELECT {', '.join(self.COLUMNS)} FROM decisions")
            while chunk := list(itertools.islice(rows, CHUNK)):
                yield chunk

    def game(self, key: str) -> list[dict[str, Any]]:
        """The decisions of the game whose key is ``key``."""
        cursor = self._copy.execute("SELECT * FROM decisions WHERE game_key = ?", [key])
        return [dict(zip(self.COLUMNS, values)) for values in cursor]

    def close(self) -> None:
        self._copy.close()

