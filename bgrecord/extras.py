"""Optional packages: each is an extra of the install, asked for by name when missing."""

from __future__ import annotations

import importlib
from types import ModuleType

# module -> (what needs it, the extra that installs it)
EXTRAS = {
    "pyarrow": ("Parquet", "parquet"),
    "matplotlib": ("plots", "plot"),
    "scipy": ("the dice table's tests", "dice"),
    "ogxm": ("reading and writing OGXM", "formats"),
    "zstandard": ("zstd-compressed input", "formats"),
    "duckdb": ("the match database", "db"),
    "distributed": ("--cluster", "dask"),
    "pexpect": ("the viewer's terminal test", "test"),
}


def require(module: str) -> ModuleType:
    """``module`` (or a module of its package: ``scipy.stats``) imported, or ``ImportError`` saying what needs it and the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        purpose, extra = EXTRAS[module.partition(".")[0]]
        raise ImportError(f"{purpose} needs {module}: pip install 'bgrecord[{extra}]'") from None
