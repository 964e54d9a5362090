"""Optional packages: each is an extra of the install, asked for only by the feature that
needs it, and named (with the extra that installs it) when missing.

A missing package is a problem of the environment, not of a record: :class:`MissingExtra`
is never reported as an issue of a file; the command stops with its one line (exit 2).
"""

from __future__ import annotations

import importlib
from types import ModuleType

# module -> (what needs it, the extra that installs it)
EXTRAS = {
    "pyarrow": ("Parquet", "parquet"),
    "matplotlib": ("plots", "plot"),
    "scipy": ("the dice table's chi-square tests", "dice"),
    "duckdb": ("a DuckDB database", "db"),
    "distributed": ("--scheduler", "dask"),
    # core dependencies: only a broken install lacks them, and reinstalling mends it
    "ogxm": ("reading and writing OGXM", ""),
    "zstandard": ("zstd-compressed input", ""),
}


class MissingExtra(ImportError):
    """An optional package that is not installed; the message names the extra to install."""


def require(module: str) -> ModuleType:
    """``module`` (or a module of its package: ``scipy.stats``) imported, or
    :class:`MissingExtra` saying what needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        purpose, extra = EXTRAS[module.partition(".")[0]]
        install = f"pip install 'bgrecord[{extra}]'" if extra else "pip install --force-reinstall bgrecord"
        raise MissingExtra(f"{purpose} needs {module}: {install}") from None
