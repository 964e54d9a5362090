"""The README's examples run as written."""

from __future__ import annotations

import doctest

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name samples/ from the project's root
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted >= 7 and result.failed == 0


def test_guide_examples() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "guide.md"), module_relative=False)
    assert result.attempted >= 6 and result.failed == 0
