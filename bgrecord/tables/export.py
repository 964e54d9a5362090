"""Writing tables: CSV, Parquet (with pyarrow), JSON (one document: a list of the rows, as
``json.load`` and ``pandas.read_json`` read it) or JSON Lines (a row a line), row batch by row
batch, into a temporary file renamed into place when the table is complete
(:mod:`bgrecord.outputs`).

CSV cells that a spreadsheet would run as a formula (text starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return: a player's name is untrusted input) are written with a
leading ``'``, as OWASP advises; JSON and Parquet keep the text as it is.
"""

from __future__ import annotations

import contextlib
import csv
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal

import pandas as pd

from bgrecord.extras import require
from bgrecord.outputs import atomic_folder, atomic_output
from bgrecord.tables.summing import frame

FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
PARTITION = "source"  # a dataset's partition column: the folder of the file, below the inputs' common folder
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def table_format(path: str | Path, given: str | None) -> str:
    """The format of a table output: as given, else by the output's extension (a name ending
    in ``/`` is a Parquet dataset folder), else CSV."""
    if given:
        return given
    return "dataset" if str(path).endswith(("/", "\\")) else FORMATS.get(Path(path).suffix.lower(), "csv")


def needs(fmt: str) -> None:
    """Raise ``ImportError`` with the extra to install when ``fmt`` needs a missing package."""
    if fmt in ("parquet", "dataset"):
        require("pyarrow")


def _text_columns(data: pd.DataFrame) -> list[str]:
    return [str(name) for name, kind in data.dtypes.items() if str(kind) in ("string", "object")]


def neutralised(data: pd.DataFrame) -> pd.DataFrame:
    """Text cells that would start a spreadsheet formula, quoted."""
    text = _text_columns(data)
    if not text:
        return data
    data = data.copy()
    for name in text:
        column = data[name]
        risky = column.str.startswith(_FORMULA, na=False)
        if risky.any():
            data[name] = column.where(~risky, "'" + column)
    return data


def _holds(data: pd.DataFrame, character: str) -> bool:
    """Whether a text cell of ``data`` holds ``character``."""
    return any(data[name].str.contains(character, regex=False, na=False).any() for name in _text_columns(data))


class TableWriter:
    """Writes a table in batches of rows, so that it is never all in memory."""

    def __init__(self, path: str | Path, fmt: str, columns: dict[str, str]) -> None:
        needs(fmt)
        self.path, self.fmt, self.columns = path, fmt, columns
        self.rows = 0
        self._written = False  # a first batch (and so the CSV header) is out
        self._opened = False  # a JSON document's list is open (a row is out)
        self._stack = contextlib.ExitStack()
        self._out: IO[Any] = self._stack.enter_context(atomic_output(path, binary=fmt == "parquet"))
        self._parquet: Any = None

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.write_frame(frame(rows, self.columns))

    def write_frame(self, data: pd.DataFrame) -> None:
        if self.fmt == "csv":
            data = neutralised(data)
            # a carriage return in a cell (a name from a hostile record) ends a row for CSV readers
            # unless quoted, and the csv module quotes only the line terminator's "\n"
            quoting: Literal[0, 1] = csv.QUOTE_ALL if _holds(data, "\r") else csv.QUOTE_MINIMAL
            data.to_csv(self._out, header=not self._written, index=False, lineterminator="\n", quoting=quoting)
        elif self.fmt == "jsonl":
            text = data.to_json(orient="records", lines=True, force_ascii=False)
            self._out.write(text if text.endswith("\n") or not text else text + "\n")
        elif self.fmt == "json":  # one document: "[", the rows (a batch's as JSON Lines gives them), "]" when closed
            rows = data.to_json(orient="records", lines=True, force_ascii=False).rstrip("\n")
            if rows:
                self._out.write(("[\n" if not self._opened else ",\n") + rows.replace("\n", ",\n"))
                self._opened = True
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(data, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self._out, table.schema)
            self._parquet.write_table(table)
        self.rows += len(data)
        self._written = True

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None) -> None:
        try:
            if kind is None:
                if not self._written:
                    self.write([])  # an empty table still has its columns
                if self.fmt == "json":
                    self._out.write("\n]\n" if self._opened else "[]\n")
            if self._parquet is not None:
                self._parquet.close()
        finally:
            self._stack.__exit__(kind, value, trace)


def write_table(data: pd.DataFrame, path: str | Path, fmt: str) -> None:
    """A whole table, written as :class:`TableWriter` writes it batch by batch."""
    with TableWriter(path, fmt, {str(name): str(kind) for name, kind in data.dtypes.items()}) as writer:
        writer.write_frame(data)


class DatasetWriter:
    """A Parquet dataset: a folder of Parquet files partitioned by the folder each record file
    stands in (``source=2019/...``, below ``root``), as pandas, DuckDB, Dask and pyarrow read
    it; written batch by batch into a temporary folder put in place when complete."""

    def __init__(self, path: str | Path, columns: dict[str, str], root: str | Path) -> None:
        needs("dataset")
        self.path, self.columns, self.root = Path(path), columns, Path(root)
        self.rows = 0
        self._batches = 0
        self._stack = contextlib.ExitStack()
        self._folder = self._stack.enter_context(atomic_folder(self.path))

    def source(self, file: str) -> str:
        folder = Path(file).parent
        try:
            relative = folder.resolve().relative_to(self.root.resolve())
        except ValueError:
            relative = folder
        return relative.as_posix() if str(relative) not in ("", ".") else "."

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.write_frame(frame(rows, self.columns))

    def write_frame(self, data: pd.DataFrame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        data = data.assign(**{PARTITION: data["file"].map(self.source).astype("string")})
        if len(data) or not self._batches:
            table = pa.Table.from_pandas(data, preserve_index=False)
            pq.write_to_dataset(table, self._folder, partition_cols=[PARTITION], basename_template=f"part-{self._batches:05}-{{i}}.parquet",
                                existing_data_behavior="overwrite_or_ignore")  # fmt: skip
            self._batches += 1
        self.rows += len(data)

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None) -> None:
        self._stack.__exit__(kind, value, trace)
