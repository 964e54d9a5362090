"""The user guide tells the truth: every issue code bgrecord can report is documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bgrecord.core.position import Illegal

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"^[a-z]+(-[a-z0-9]+)+$|^[a-z]+$")
CATEGORIES = {"format", "move", "cube", "result", "score", "structure", "rules", "internal"}


def issue_codes() -> set[str]:
    """The codes written as literals where issues are made (``issue``, ``stop``, ``format_issue``,
    ``Issue``, ``note``, ``Refusal``), and the move codes of the rules core."""
    makers = {"issue", "stop", "format_issue", "Issue", "note", "Refusal", "refused"}
    codes = {reason.code for reason in Illegal}
    for path in (ROOT / "bgrecord").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in makers:
                    literals = [a for a in node.args[:4] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                    codes |= {a.value for a in literals if CODE.match(a.value) and a.value not in CATEGORIES}
            elif isinstance(node, ast.FunctionDef) and node.name in makers:  # defaults: def issue(..., code="unreadable")
                named = zip(reversed(node.args.args), reversed(node.args.defaults))
                codes |= {d.value for arg, d in named if arg.arg == "code" and isinstance(d, ast.Constant) and isinstance(d.value, str)}
    return codes


def test_every_issue_code_is_in_the_guide() -> None:
    guide = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8") + (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    codes = issue_codes()
    assert len(codes) > 60  # the extraction finds them (it would pass vacuously if it found none)
    assert sorted(code for code in codes if f"`{code}`" not in guide) == []
