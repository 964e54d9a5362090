"""A DuckDB index's new positions, held on disk until its run ends (:class:`StagedPositions`),
then sorted into place a part at a time (:func:`sort_into`), so that neither the run nor
DuckDB holds them all.

The positions go to bucket files by the top bits of their hash (a position's bucket and the
buckets' order are the positions table's order), each file appended to as the rows come: a
run's 64 at first (:data:`FIRST_BUCKET_BITS`), each spread over 16 once the run has staged more
than :data:`GROWN_PAST` rows (:data:`BUCKET_BITS`): a file's making costs what some thousands
of rows' writing does (0.7 ms each on this machine: 1,024 of them were a fifth of a small
archive's run), and a large archive's buckets are each at most a part. At the end, neighbouring
buckets are gathered into parts of at most :data:`PART_ROWS` rows (with the old index's rows of
their range, when a run adds to one), each part is sorted and appended to the positions table
after the one before, whole row groups at a time (so that DuckDB's checkpoint writes none
twice: the file holds no free room). A bucket larger than a part is spread over buckets of its
own range (:meth:`StagedPositions.split`), down to one position's: those rows (the opening's, a
million at a million games) go in as they came, in the order of their games and steps, as a run
stages them, with no sort and without holding them (:func:`_one_position`; DuckDB's sort of
them, within its bound, peaked 10 MB over the other parts').
It does not check the rows: that is the index's job (:mod:`bgrecord.tables.writing_rows`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from bgrecord.tables.database import POSITIONS_ROW_GROUP as ROW_GROUP  # the table is appended to a whole number of its row groups at a time
from bgrecord.tables.schema import POSITION_COLUMNS

if TYPE_CHECKING:
    import numpy as np

    from bgrecord.tables.database import Database

BUCKET_BITS = 10  # a bucket's bits of the hash: 1,024 buckets, some 44,000 positions each at a million games
FIRST_BUCKET_BITS = 6  # a run's at first: 64 buckets, until it stages more than GROWN_PAST rows
PART_ROWS = 65_536  # positions sorted at once at the end (3 MB): parts of neighbouring buckets up to it
GROWN_PAST = (1 << FIRST_BUCKET_BITS) * PART_ROWS // 2  # rows (some 2 million: 47,000 games) past which a run's buckets grow
GROWN_READ_ROWS = 8192  # rows spread at once as the buckets grow (the run's other work still held: by 65,536, 12 MB over it)
SORTING_MEMORY = "24MB"  # DuckDB's bound while the positions go in (a part's rows, a row group, and a bucket's sort on disk beyond)
READ_ROWS = 65_536  # positions read from a bucket's file at once
RELEASED_EVERY = 16  # row groups of positions (some 500,000) between two of DuckDB's releases (Database.release; 64: 5 MB more at 300,000 games)
WIDTH = len(POSITION_COLUMNS)  # integers a position: position, game, step, place, act, play
ROW_BYTES = WIDTH * 8
COLUMN_TYPES = ", ".join(f"{name} BIGINT" for name in POSITION_COLUMNS)  # a table of positions rows, in SQL


class StagedPositions:
    """Positions rows (:data:`WIDTH` 64-bit integers each, their games numbered) kept in bucket
    files in ``folder`` (made when the first come); :meth:`mark` and :meth:`back` take out
    the rows added since a point, as a run takes out the rows of files that failed to go in.
    The rows' hashes are those from ``low`` on, ``2 ** bits`` of them (by default every one),
    spread over up to ``2 ** BUCKET_BITS`` buckets of equal ranges; with ``grows``, over
    ``2 ** FIRST_BUCKET_BITS`` until more than :data:`GROWN_PAST` rows are staged."""

    def __init__(self, folder: Path, low: int = -(1 << 63), bits: int = 64, grows: bool = False) -> None:
        self.folder, self.low, self.bits = folder, low, bits
        self.grows = grows
        self.shift = max(0, bits - (FIRST_BUCKET_BITS if grows else BUCKET_BITS))  # the bits of a hash within its bucket
        self.counts = [0] * (1 << (bits - self.shift))
        self.marked = list(self.counts)
        self.rows = 0

    def bucket_of(self, position: Any) -> Any:
        """The bucket of a hash (or of each in a NumPy array)."""
        if self.bits == 64:  # the top bits, the lowest hash's 0
            return (position >> self.shift) + len(self.counts) // 2
        return (position - self.low) >> self.shift  # within 2**54 of low: no 64-bit overflow

    def bucket_in_sql(self) -> tuple[str, str]:
        """:meth:`bucket_of` in SQL, over a table's ``position``: the expression, and the
        condition (SQL, or "") that keeps the rows of this range (where the expression holds)."""
        if self.bits == 64:
            return f"(position >> {self.shift}) + {len(self.counts) // 2}", ""  # low's offset would overflow a BIGINT
        low, high = self.bucket_range(0, len(self.counts) - 1)
        return f"(position - ({low})) >> {self.shift}", f"position BETWEEN {low} AND {high}"

    def bucket_range(self, first: int, last: int) -> tuple[int, int]:
        """The hashes (signed 64-bit integers, as the table holds them) of buckets ``first`` to ``last``."""
        return self.low + (first << self.shift), self.low + ((last + 1) << self.shift) - 1

    def split(self, bucket: int) -> StagedPositions:
        """The rows of ``bucket`` spread over the buckets of its own range (in a folder of their
        own, which the caller removes: :meth:`remove`), in the order they came."""
        apart = StagedPositions(self.folder / f"{bucket:04d}.split", self.bucket_range(bucket, bucket)[0], self.shift)
        for chunk in self._read(bucket, bucket):
            apart.add(chunk)
        return apart

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def add(self, values: np.ndarray) -> None:
        """Rows (an ``(n, WIDTH)`` array of int64), each appended to its bucket's file."""
        import numpy as np

        if not len(values):
            return
        self.folder.mkdir(exist_ok=True)
        buckets = self.bucket_of(values[:, 0])
        order = np.argsort(buckets, kind="stable")  # stable: a bucket's rows stay in the order they came
        ordered, sizes = values[order], np.bincount(buckets, minlength=len(self.counts))
        start = 0
        for bucket in np.flatnonzero(sizes).tolist():
            end = start + int(sizes[bucket])
            with open(self._file(bucket), "ab") as out:
                out.write(ordered[start:end].tobytes())
            self.counts[bucket] += end - start
            start = end
        self.rows += len(values)
        if self.grows and self.rows > GROWN_PAST and self.shift > self.bits - BUCKET_BITS:
            self._grown()

    def _grown(self) -> None:
        """Each bucket's rows spread over the finer buckets of its range (``2 ** BUCKET_BITS`` in
        all), in the order they came (made in a folder of their own, then moved in), the marked
        point kept."""
        import numpy as np

        finer = StagedPositions(self.folder / "grown", self.low, self.bits)
        marked = [0] * len(finer.counts)
        for bucket, count in enumerate(self.counts):
            done = 0
            for chunk in self._read(bucket, bucket, GROWN_READ_ROWS):
                finer.add(chunk)
                before_mark = chunk[: max(0, self.marked[bucket] - done), 0]  # a bucket's rows before the mark are its first
                for finer_bucket, rows in zip(*np.unique(finer.bucket_of(before_mark), return_counts=True)):
                    marked[int(finer_bucket)] += int(rows)
                done += len(chunk)
            if count:
                os.remove(self._file(bucket))
        for path in finer.folder.iterdir():
            os.replace(path, self.folder / path.name)
        finer.folder.rmdir()
        self.shift, self.counts, self.marked = finer.shift, finer.counts, marked

    def mark(self) -> None:
        """The point :meth:`back` goes back to."""
        self.marked = list(self.counts)

    def back(self) -> None:
        """The rows added since :meth:`mark` taken out."""
        for bucket, (count, marked) in enumerate(zip(self.counts, self.marked)):
            if count != marked:
                os.truncate(self._file(bucket), marked * ROW_BYTES)
        self.counts = list(self.marked)

    def parts(self, beside: Sequence[int] = ()) -> Iterator[tuple[int, int, int, Iterator[np.ndarray]]]:
        """The whole hash range, in order, as parts of neighbouring buckets: for each, its
        lowest and highest hash, its size and its rows, read a few at a time. A part holds up
        to :data:`PART_ROWS` rows, counting ``beside`` (the rows each bucket has elsewhere, to
        be sorted with them, in its size); a bucket larger is a part of its own."""
        sizes = [count + (beside[bucket] if bucket < len(beside) else 0) for bucket, count in enumerate(self.counts)]
        first, rows, last = 0, 0, len(sizes) - 1
        for bucket in range(len(sizes)):
            rows += sizes[bucket]
            if bucket == last or rows + sizes[bucket + 1] > PART_ROWS:
                yield (*self.bucket_range(first, bucket), rows, self._read(first, bucket))
                first, rows = bucket + 1, 0

    def _read(self, first: int, last: int, at_once: int = 0) -> Iterator[np.ndarray]:
        """The rows of buckets ``first`` to ``last``, :data:`READ_ROWS` at a time (or ``at_once``)."""
        import numpy as np

        at_once = at_once or READ_ROWS
        for bucket in range(first, last + 1):
            count = self.counts[bucket]
            for start in range(0, count, at_once):
                found = np.fromfile(self._file(bucket), dtype=np.int64, count=min(at_once, count - start) * WIDTH, offset=start * ROW_BYTES)
                yield found.reshape(-1, WIDTH)

    def _file(self, bucket: int) -> Path:
        return self.folder / f"{bucket:04d}"


def sort_into(database: Database, staged: StagedPositions, old: str | None = None, kept: str = "") -> None:
    """The ``staged`` positions into ``database``'s positions table, in order (position, game,
    step), merged with those of the table ``old`` (an old index's: in that order already)
    that ``kept`` (an SQL condition) keeps. A play of
    :data:`~bgrecord.tables.writing_rows.NO_PLAY` goes in as NULL."""
    import numpy as np

    table = _Appended(database)
    table.append(_sorted(database, staged, table, np.empty((0, WIDTH), dtype=np.int64), old, kept), every=True)


def _sorted(database: Database, staged: StagedPositions, table: _Appended, pending: np.ndarray, old: str | None, kept: str) -> np.ndarray:
    """The ``staged`` rows, with the old ones of their range, appended in order after the
    sorted rows ``pending``; the rows left (less than a row group), to go in with the next."""
    import numpy as np

    from bgrecord.tables.writing_rows import handed_back

    beside = [0] * len(staged.counts)
    if old:  # the old rows of each bucket, sorted with its own
        bucket, within = staged.bucket_in_sql()
        for number, count in database.query(f"SELECT {bucket}, count(*) FROM {old}{f' WHERE {within}' if within else ''} GROUP BY 1"):
            beside[int(number)] = int(count)
    for low, high, size, chunks in staged.parts(beside):
        olds = ""
        if old:
            olds = f"SELECT {_play_as('COALESCE')} FROM {old} WHERE position BETWEEN {low} AND {high}" + (f" AND {kept}" if kept else "")
        if size > PART_ROWS:  # a bucket of a great many (a position in nearly every game): split, or its one position's rows as they came
            bucket = staged.bucket_of(low)
            pending = table.append(pending, every=True)
            if not staged.counts[bucket]:  # old rows alone: as they are
                _copied_old(database, str(old), low, high, kept)
            elif _one_position(database, staged, bucket, table, old, kept):
                continue
            elif staged.shift:
                apart = staged.split(bucket)
                try:
                    pending = _sorted(database, apart, table, pending, old, kept)
                finally:
                    apart.remove()
            else:  # one hash, its rows not in order (not as a run stages them): DuckDB sorts them
                _sorted_by_duckdb(database, chunks, olds)
            continue
        rows = [*chunks]
        if olds:
            found = _numbers(database, olds, pending if not rows else pending[:0])
            if found is None:  # an old row holds a NULL (another program wrote it): DuckDB sorts the rows as they are
                pending = table.append(pending, every=True)
                _sorted_by_duckdb(database, iter(rows), olds)
                continue
            if not rows:  # old rows alone (most of an update's parts), after the rows left: as the old table keeps them
                olds_alone = found[len(pending) :]
                if not _in_order(olds_alone):  # not as bgrecord writes them (another program's rows)
                    olds_alone[:] = olds_alone[np.lexsort((olds_alone[:, 2], olds_alone[:, 1], olds_alone[:, 0]))]
                del olds_alone
                pending = table.append(found)
                del found
                handed_back()
                continue
            rows.append(found)
        if rows:
            part = np.concatenate(rows)
            del rows
            order = np.lexsort((part[:, 2], part[:, 1], part[:, 0]))
            merged = np.empty((len(pending) + len(part), WIDTH), dtype=np.int64)  # the rows left from the part before, then these sorted
            merged[: len(pending)] = pending
            np.take(part, order, axis=0, out=merged[len(pending) :])
            del part, order
            pending = table.append(merged)
            del merged
            handed_back()
    return pending


class _Appended:
    """The positions table appended to whole row groups at a time, DuckDB's memory let go
    every :data:`RELEASED_EVERY` row groups (what it knows of the row groups it wrote grows
    with them: :meth:`~bgrecord.tables.database.Database.release`)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.groups = 0

    def append(self, rows: np.ndarray, every: bool = False) -> np.ndarray:
        """Sorted ``rows`` appended, a whole number of row groups of them (``every``: all);
        what is left, to go in with the next."""
        count = len(rows) if every else len(rows) // ROW_GROUP * ROW_GROUP
        select = _play_as("NULLIF")
        for start in range(0, count, ROW_GROUP):  # a row group at a time: one group's columns copied
            _insert(self.database, "positions", rows[start : min(start + ROW_GROUP, count)], select)
            self.groups += 1
            if self.groups % RELEASED_EVERY == 0:
                self.database.release()
        return rows[count:].copy()  # alone: a view would keep the whole array it is part of


def _one_position(database: Database, staged: StagedPositions, bucket: int, table: _Appended, old: str | None, kept: str) -> bool:
    """A bucket whose rows all hold one position, in the order of their games and steps (as a
    run stages them, its games numbered after the old index's), appended as they came, with no
    sort: the old rows of the bucket's range up to that position (its own among them) first,
    then these, then the old rows past it (the old ones in the table's order, which DuckDB
    keeps as it copies them). False, nothing appended, for any other bucket."""
    import numpy as np

    position, before = None, None
    for chunk in staged._read(bucket, bucket):  # looked at first: a bucket of several positions is split, not sorted here
        position = int(chunk[0, 0]) if position is None else position
        rows = chunk if before is None else np.concatenate([before, chunk])
        if (chunk[:, 0] != position).any() or not _in_order(rows):
            return False
        before = chunk[-1:]
    if position is None:
        return False
    low, high = staged.bucket_range(bucket, bucket)
    if old:
        _copied_old(database, old, low, position, kept)
    pending = np.empty((0, WIDTH), dtype=np.int64)
    for chunk in staged._read(bucket, bucket):
        pending = table.append(np.concatenate([pending, chunk]))
    table.append(pending, every=True)
    if old and position < high:
        _copied_old(database, old, position + 1, high, kept)
    return True


def _copied_old(database: Database, old: str, low: int, high: int, kept: str) -> None:
    """The old rows of hashes ``low`` to ``high`` that ``kept`` keeps into the positions table, in their order."""
    database.execute(f"INSERT INTO positions SELECT * FROM {old} WHERE position BETWEEN {low} AND {high}" + (f" AND {kept}" if kept else ""))


def _numbers(database: Database, sql: str, before: np.ndarray) -> np.ndarray | None:
    """A query's rows of :data:`WIDTH` integers as an array, after the rows ``before`` (one
    array made, not two); None when one holds a NULL."""
    import numpy as np

    columns = list(database.connection.execute(sql).fetchnumpy().values())
    if any(np.ma.is_masked(column) for column in columns):
        return None
    rows = np.empty((len(before) + (len(columns[0]) if columns else 0), WIDTH), dtype=np.int64)
    rows[: len(before)] = before
    for number, column in enumerate(columns):
        rows[len(before) :, number] = column
    return rows


def _in_order(rows: np.ndarray) -> bool:
    """Whether ``rows`` are in the table's order, each after the one before: by position, game and step."""
    position, game, step = rows[:, 0], rows[:, 1], rows[:, 2]
    later = (game[1:] > game[:-1]) | ((game[1:] == game[:-1]) & (step[1:] > step[:-1]))
    return bool(((position[1:] > position[:-1]) | ((position[1:] == position[:-1]) & later)).all())


def _sorted_by_duckdb(database: Database, chunks: Iterator[np.ndarray], olds: str) -> None:
    """Rows too many to sort at once here, with the old rows ``olds`` selects, sorted by
    DuckDB into the positions table (a temporary table of them: on disk past its bound)."""
    database.execute(f"CREATE TEMPORARY TABLE IF NOT EXISTS staged ({COLUMN_TYPES})")
    for chunk in chunks:
        _insert(database, "staged", chunk)
    sources = " UNION ALL ".join(["SELECT * FROM staged", *([olds] if olds else [])])
    database.execute(f"INSERT INTO positions SELECT {_play_as('NULLIF')} FROM ({sources}) ORDER BY position, game, step")
    database.execute("DELETE FROM staged")


def _insert(database: Database, table: str, rows: np.ndarray, select: str = "*") -> None:
    """Positions rows (an ``(n, WIDTH)`` array) into ``table``, a column at a time."""
    import numpy as np

    database.insert_columns(table, {name: np.ascontiguousarray(rows[:, number]) for number, name in enumerate(POSITION_COLUMNS)}, select)


def _play_as(function: str) -> str:
    """The positions rows' columns in SQL, the play through ``function`` with
    :data:`~bgrecord.tables.writing_rows.NO_PLAY` (``NULLIF``: read as NULL; ``COALESCE``:
    NULL written as it)."""
    from bgrecord.tables.writing_rows import NO_PLAY

    return ", ".join(f"{function}(play, {NO_PLAY})" if name == "play" else name for name in POSITION_COLUMNS)
