"""A DuckDB index being opened to be read in a thread of its own while the caller goes on
(:class:`Opening`): a search's start, where DuckDB's opening of the file and the loading of the
search's modules overlap. What it does not do: read anything but the file's opening
(:class:`~bgrecord.tables.database.Database`, read only), or open a SQLite file so.
"""

from __future__ import annotations

from pathlib import Path

from bgrecord.tables.database import ENGINES, Database
from bgrecord.tables.duckdb_engine import duckdb_module


class Opening:
    """A DuckDB file being opened to be read (:class:`Database`, read only) in a thread of its
    own while the caller goes on: a search's start, DuckDB's some 30 ms beside the modules
    that load meanwhile (DuckDB lets go of Python's lock while it opens a file, not while its
    module loads: that is loaded first, here).
    :meth:`database` waits for it and raises what opening it raised; :meth:`close` waits and
    closes what was not taken. A SQLite file is not opened so: its connection belongs to the
    thread that made it, and it opens in a fraction of a millisecond."""

    def __init__(self, path: str | Path) -> None:
        import threading

        duckdb_module()
        self._path = path
        self._database: Database | None = None
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._open, name="bgrecord-opening")  # not a daemon: never left inside DuckDB at exit
        self._thread.start()

    @classmethod
    def of(cls, path: str | Path) -> Opening | None:
        """The opening of ``path`` when it is a DuckDB file (the one :meth:`begin` began, if
        any), else None."""
        begun = _BEGUN.pop(str(path), None)
        if begun is not None:
            return begun
        return cls(path) if ENGINES.get(Path(path).suffix.lower()) == "duckdb" and Path(path).is_file() else None

    @classmethod
    def begin(cls, path: str) -> None:
        """Begin opening ``path`` (a DuckDB file) for the search to come to take (:meth:`of`):
        the console script does so before the commands load. Never raises: what fails here
        fails again where the command opens it, and is said there."""
        try:
            opening = cls.of(path)
        except Exception:  # noqa: BLE001 - said by the command
            return
        if opening is not None:
            _BEGUN[str(path)] = opening

    def _open(self) -> None:
        try:
            self._database = Database(self._path, read_only=True)
        except BaseException as exc:  # noqa: BLE001 - raised again where the database is asked for
            self._failure = exc

    def database(self) -> Database:
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        found, self._database = self._database, None
        assert found is not None
        return found

    def close(self) -> None:
        self._thread.join()
        if self._database is not None:
            self._database.close()
            self._database = None


_BEGUN: dict[str, Opening] = {}  # the openings begun before the command, by the path as given
