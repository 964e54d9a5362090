"""A short visual summary of an archive: results by kind, cube values, gammon rate per
player, and the dice faces against fair dice. matplotlib draws it (an optional extra); it
needs nothing else (the chi-square tests are the dice table's, with ``--dice``)."""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path

from bgrecord.extras import require
from bgrecord.outputs import write_output
from bgrecord.tables.summing import Tables


def report(tables: Tables, path: str | Path) -> None:
    """Write the summary as a PNG, or as a self-contained HTML page (the picture inline),
    through a temporary file renamed into place."""
    matplotlib = require("matplotlib")
    matplotlib.use("Agg")
    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):  # names are text: "$$" is no formula
        _report(tables, path)


def _report(tables: Tables, path: str | Path) -> None:
    import matplotlib.pyplot as plt

    players, dice = tables.players(), tables.dice(tests=False)
    figure, axes = plt.subplots(2, 2, figsize=(12, 8))
    kinds = {
        "single": int(players["wins"].sum() - players["gammons_won"].sum() - players["backgammons_won"].sum()),
        "gammon": int(players["gammons_won"].sum()),
        "backgammon": int(players["backgammons_won"].sum()),
    }
    axes[0][0].bar(list(kinds), list(kinds.values()), color="#4c72b0")
    axes[0][0].set_title("Games won, by kind")
    values = sorted(tables.cubes)
    axes[0][1].bar([str(v) for v in values], [tables.cubes[v] for v in values], color="#dd8452")
    axes[0][1].set_title("Games by final cube value")
    busiest = players.sort_values(["games", "player"], ascending=[False, True]).head(15)
    axes[1][0].barh(list(busiest["player"]), list(busiest["gammon_rate"].fillna(0)), color="#55a868")
    axes[1][0].set_title("Gammon rate (15 players with most games)")
    overall = dice[dice["player"] == "all"]
    if len(overall):
        faces = [int(overall[f"face{face}"].iloc[0]) for face in range(1, 7)]
        axes[1][1].bar([str(face) for face in range(1, 7)], faces, color="#8172b3")
        axes[1][1].axhline(sum(faces) / 6, color="black", linestyle="--", label="fair dice")
        axes[1][1].legend()
        axes[1][1].set_title(f"Dice faces ({sum(faces) // 2:,} rolls, openings left out)")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    if Path(path).suffix.lower() == ".png":
        write_output(path, buffer.getvalue())
        return
    picture = base64.b64encode(buffer.getvalue()).decode("ascii")
    table = dice[["player", "rolls", "doubles", "doubles_rate"]].to_html(index=False, na_rep="")
    write_output(path,
        "<!doctype html><meta charset='utf-8'><title>bgrecord statistics</title>"
        f"<h1>{escape(str(len(players)))} players</h1>"
        f"<img alt='results by kind, cube values, gammon rates, dice faces against fair dice' src='data:image/png;base64,{picture}'>"
        f"<h2>Dice</h2>{table}",
    )  # fmt: skip
