"""Converts a clean .mat record to a FIBS oldmoves log (X = the left player; in every second
game the sides swap, as FIBS logs do)."""
import sys

from bgrecord import read_match
from bgrecord.core.position import BAR, OFF
from bgrecord.replay import replay

m = read_match(sys.argv[1])
games = list(replay(m))
names = [n.replace(" ", "_") for n in m.games[0].names]
out = []
for number, g in enumerate(games):
    swap = number % 2 == 1  # the right player is X in this game
    x = 1 if swap else 0
    out.append(f"Score is {g.score[x]}-{g.score[1 - x]} in a {m.length} point match.")
    out.append(f"{names[x]} is X - {names[1 - x]} is O")
    for step in g.steps:
        side = "X" if step.player == x else "O"
        if step.kind == "move":
            d = step.dice
            if step.play is None or not step.play.play.moves:
                out.append(f"{side}: ({d[0]} {d[1]}) can't move")
                continue
            ascending = step.player == x  # X's moves are written from the far end
            def fibs(p):
                if p == BAR: return "bar"
                if p == OFF: return "off"
                return str(25 - p if ascending else p)
            out.append(f"{side}: ({d[0]} {d[1]}) " + " ".join(f"{fibs(mv.source)}-{fibs(mv.target)}" for mv in step.play.play.moves))
        elif step.kind == "double":
            out.append(f"{side}: doubles")
        elif step.kind == "take":
            out.append(f"{side}: accepts the double.")
        elif step.kind == "drop":
            out.append(f"{side}: rejects the double.")
    r = g.result
    if r:
        winner = "X" if r.winner == x else "O"
        if r.ended_by == "resign":
            out.append(f"{'O' if winner == 'X' else 'X'}: wants to resign. You will win {r.points} point{'s' if r.points > 1 else ''}.")
        out.append(f"{winner}: wins {r.points} point{'s' if r.points > 1 else ''}.")
    out.append("")
print("\n".join(out))
