"""An index as a Parquet dataset (``bgrecord index --format dataset``): the index's tables as
files in one folder, for Dask, DuckDB, Spark or pandas to read where they are, and for
``bgrecord find`` to search (docs/stats.md, "The index as a Parquet dataset").

::

    DIR/bgrecord.json                    {"schema": 4, "buckets": 64, "game_order": "..."}
    DIR/files.parquet, games.parquet, start_positions.parquet, players.parquet, matches.parquet, dice.parquet
    DIR/positions/bucket=NN/part-0.parquet

The positions are split in 64 buckets by their hash (``position & 63``), each file in order
of position in row groups of :data:`ROW_GROUP` rows: a search reads one bucket, and there the
row groups whose range holds the position. The dataset is written from an index (made in a
temporary folder) in one pass over its positions, each bucket's rows coming in order; it is
written whole, beside its target, and renamed into place (a folder that is not such a
dataset is never replaced). Searching it (:func:`opened`) puts DuckDB views over the files,
so that :mod:`bgrecord.tables.search` asks it what it asks an index.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bgrecord.extras import require
from bgrecord.tables.database import DUCKDB_MEMORY, SCHEMA_VERSION, Database, sql_text
from bgrecord.tables.duckdb_engine import duckdb_module
from bgrecord.tables.file_order import GAME_ORDER
from bgrecord.tables.index_keys import SCHEMA, keys, write_keys

BUCKETS = 64
ROW_GROUP = 16_384  # positions a row group: what a search reads of a bucket file
MARKER = "bgrecord.json"
POSITION_NAMES = ("position", "game", "step", "place", "act", "play")  # the positions table's columns (bgrecord.tables.schema)
FILES = ("files", "games", "start_positions", "players", "matches", "dice")  # the tables but the positions, a file each


def is_dataset(path: str | Path) -> bool:
    """Whether ``path`` is a folder written by ``bgrecord index --format dataset``."""
    return Path(path).is_dir() and (Path(path) / MARKER).is_file()


def check_target(target: str | Path) -> None:
    """``ValueError`` unless ``target`` can take a dataset: it does not exist, or is one."""
    path = Path(target)
    if path.exists() and not is_dataset(path):
        raise ValueError(f"{target}: {'not a bgrecord dataset' if path.is_dir() else 'a file'}: not replaced (give a new folder)")


def write(index: str | Path, folder: Path) -> None:
    """The tables of the index at ``index`` as a dataset in the (new, empty) ``folder``."""
    from bgrecord.tables.schema import FILE_COLUMNS, INDEX_GAME_COLUMNS, POSITION_COLUMNS, START_COLUMNS, TABLES

    pa, pq = require("pyarrow"), require("pyarrow.parquet")
    columns = {"files": FILE_COLUMNS, "games": INDEX_GAME_COLUMNS, "start_positions": START_COLUMNS, **{t: TABLES[t] for t in FILES[3:]}}
    database = Database(index, read_only=True)
    try:
        for name in FILES:
            _write_table(pa, pq, database, name, columns[name], folder / f"{name}.parquet")
        _write_positions(pa, pq, database, folder / "positions", _schema(pa, POSITION_COLUMNS))
        order = (keys(database) or {}).get(GAME_ORDER)
    finally:
        database.close()
    marker = {"schema": SCHEMA_VERSION, "buckets": BUCKETS, **({GAME_ORDER: order} if order is not None else {})}  # the index's runs in file order
    (folder / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")


def _schema(pa: Any, columns: dict[str, str]) -> Any:
    kinds = {"string": pa.string(), "Int64": pa.int64(), "boolean": pa.bool_(), "Float64": pa.float64(), "bytes": pa.binary()}
    return pa.schema([(name, kinds[kind]) for name, kind in columns.items()])


def _write_table(pa: Any, pq: Any, database: Database, name: str, columns: dict[str, str], path: Path) -> None:
    """A table, a few thousand rows at a time (the games table of a million games in flat memory)."""
    schema = _schema(pa, columns)
    order = {"games": " ORDER BY game_id", "files": " ORDER BY file_id", "start_positions": " ORDER BY game, step"}.get(name, "")
    with pq.ParquetWriter(path, schema) as writer:
        batch: list[tuple[Any, ...]] = []
        for row in database.tuples(f"SELECT {', '.join(f'{chr(34)}{c}{chr(34)}' for c in columns)} FROM {name}{order}"):
            batch.append(row)
            if len(batch) >= ROW_GROUP:
                writer.write_table(_table(pa, schema, batch))
                batch = []
        writer.write_table(_table(pa, schema, batch))


def _table(pa: Any, schema: Any, rows: list[tuple[Any, ...]]) -> Any:
    columns = []
    for i, field in enumerate(schema):
        values = [row[i] for row in rows]
        if field.type == pa.bool_():  # SQLite keeps a boolean as 0 or 1
            values = [None if value is None else bool(value) for value in values]
        columns.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(columns, schema=schema)


def _write_positions(pa: Any, pq: Any, database: Database, folder: Path, schema: Any) -> None:
    """The positions, read once in order of position and dealt to their buckets (each bucket's
    rows come in order, and go out a row group at a time)."""
    writers: dict[int, Any] = {}
    pending: dict[int, list[tuple[Any, ...]]] = {}
    try:
        for row in database.tuples(f"SELECT {', '.join(POSITION_NAMES)} FROM positions ORDER BY position, game, step"):
            bucket = row[0] & (BUCKETS - 1)
            rows = pending.setdefault(bucket, [])
            rows.append(row)
            if len(rows) >= ROW_GROUP:
                _flush(pa, pq, schema, folder, writers, bucket, rows)
                pending[bucket] = []
        for bucket, rows in pending.items():
            _flush(pa, pq, schema, folder, writers, bucket, rows)
    finally:
        for writer in writers.values():
            writer.close()


def _flush(pa: Any, pq: Any, schema: Any, folder: Path, writers: dict[int, Any], bucket: int, rows: list[tuple[Any, ...]]) -> None:
    if bucket not in writers:
        (folder / f"bucket={bucket:02d}").mkdir(parents=True)
        writers[bucket] = pq.ParquetWriter(folder / f"bucket={bucket:02d}" / "part-0.parquet", schema)
    writers[bucket].write_table(_table(pa, schema, rows), row_group_size=ROW_GROUP)


def opened(folder: str | Path) -> Database:
    """A dataset to search as an index: DuckDB views over its files (``ValueError`` for a
    dataset of another schema)."""
    duckdb = duckdb_module()
    path = Path(folder)
    marker = json.loads((path / MARKER).read_text(encoding="utf-8"))
    if marker.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"{folder}: a dataset of another bgrecord (schema {marker.get('schema')}; this one reads {SCHEMA_VERSION})")
    connection = duckdb.connect(":memory:", config={"memory_limit": DUCKDB_MEMORY})  # bounded as a file's search
    quoted = sql_text(str(path))
    for name in FILES:
        connection.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{quoted}/{name}.parquet')")
    connection.execute("CREATE VIEW game_rows AS SELECT * FROM games")  # the games table holds its files' names: as the index's two
    if any((path / "positions").glob("bucket=*/*.parquet")):
        connection.execute(f"CREATE VIEW positions AS SELECT * FROM read_parquet('{quoted}/positions/*/*.parquet', hive_partitioning = true)")
    else:
        connection.execute(f"CREATE VIEW positions AS SELECT *, 0 AS bucket FROM (VALUES {_empty_row()}) AS p({', '.join(POSITION_NAMES)}) WHERE false")
    database = Database.over(connection, "duckdb", path)
    write_keys(database, {SCHEMA: str(SCHEMA_VERSION), **({GAME_ORDER: marker[GAME_ORDER]} if isinstance(marker.get(GAME_ORDER), str) else {})})
    database.buckets = BUCKETS
    return database


def _empty_row() -> str:
    return "(" + ", ".join("0::BIGINT" for _ in POSITION_NAMES) + ")"
