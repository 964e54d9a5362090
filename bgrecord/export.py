"""Writing tables: CSV, Parquet (with pyarrow) or JSON lines, row batch by row batch."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

import pandas as pd

from bgrecord.stats import frame


class TableWriter:
    """Writes a table in batches of rows, so that it is never all in memory."""

    def __init__(self, path: str | Path, fmt: str, columns: dict[str, str]) -> None:
        self.path, self.fmt, self.columns = Path(path), fmt, columns
        self.rows = 0
        self._parquet: Any = None
        if fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise ImportError("Parquet needs pyarrow: pip install 'bgrecord[parquet]'") from None
        if fmt != "parquet":
            self.path.write_text("")

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.write_frame(frame(rows, self.columns))

    def write_frame(self, data: pd.DataFrame) -> None:
        if self.fmt == "csv":
            data.to_csv(self.path, mode="a", header=self.rows == 0, index=False)
        elif self.fmt == "json":
            with self.path.open("a", encoding="utf-8") as out:
                text = data.to_json(orient="records", lines=True, force_ascii=False)
                out.write(text if text.endswith("\n") or not text else text + "\n")
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(data, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self.path, table.schema)
            self._parquet.write_table(table)
        self.rows += len(data)

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None) -> None:
        if self.fmt == "parquet" and self._parquet is None:
            self.write([])  # an empty table still has its columns
        if self._parquet is not None:
            self._parquet.close()


def write_table(data: pd.DataFrame, path: str | Path, fmt: str) -> None:
    """A whole table, written as :class:`TableWriter` writes it batch by batch."""
    with TableWriter(path, fmt, {}) as writer:
        writer.write_frame(data)
