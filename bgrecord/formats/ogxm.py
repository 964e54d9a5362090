"""OGXM matches (``.ogxm``) and streams of them (``.ogxms``, often ``.ogxms.zst``): read and
write, through the ``ogxm`` package (the format's reference codec; bgrecord holds no copy of
the format's rules).

Reading: every member of a stream is a match; the codec gives its JSON projection, whose
plies become the actions the replay checks. White is player 0 (the left column of a .mat
file), Black player 1; a ply's ``color`` is 1 for White, 0 for Black. Steps are ``from`` (one
fixed frame: 0 White's bar, 25 Black's; White moves up, Black down) and ``pips``. A
corrupt member is one error at its byte offset, and reading goes on with the next member.
A location is the ply's number in its game (``unit`` "ply").

Writing (:func:`write_ogxm`): a replayed record as OGXM v2 bytes, refused (``OgxmWriteError``)
for what OGXM cannot hold as bgrecord knows it (beavers, raccoons, a board set up by hand).

What this module does not check: the rules (the replay does).
"""

from __future__ import annotations

import io
import itertools
from typing import Any, Iterable, Iterator

from bgrecord.escapes import encodable, quoted
from bgrecord.extras import require
from bgrecord.formats import each_game, refused
from bgrecord.issues import Severity, format_issue
from bgrecord.limits import MAX_ACTIONS, MAX_MEMBER
from bgrecord.position import BAR, CHECKERS, OFF, Dice, LegalPlay, Position
from bgrecord.records import Action, CubeAction, GameRecord, MatchRecord, MoveToken, Result, Roll, SetPosition, Tag, Unreadable
from bgrecord.source import Input

_DICE_IDS = [(low, high) for low in range(1, 7) for high in range(low, 7)]  # action ids 0-20
DOUBLE, TAKE, DROP, GAME_OVER, MATCH_OVER, FINAL, RESIGN_GAME, RESIGN_MATCH, FORFEIT, NULL, SET_POSITION = range(21, 32)
_SETTLE, _CUBE_SET = 34, 36
_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
_SOURCES = {"mat": 1, "gam": 1, "sgf": 1, "fibs": 1, "xg": 2, "xgp": 2, "bgf": 4}


def codec() -> Any:
    return require("ogxm")


class OgxmWriteError(ValueError):
    """A record that OGXM (as bgrecord writes it) cannot hold."""


# --- reading ---


def _player(color: Any) -> int | None:
    return {1: 0, 0: 1}.get(color) if isinstance(color, int) and not isinstance(color, bool) else None


def _steps(player: int, moves: Any) -> list[tuple[int, int]] | None:
    """OGXM steps (fixed frame ``from`` and ``pips``) as (source, target) in the mover's
    numbering; None when a step is not on the board."""
    found = []
    for step in moves or []:
        source, pips = (step.get("from"), step.get("pips")) if isinstance(step, dict) else (None, None)
        if not isinstance(source, int) or not isinstance(pips, int) or not 0 <= source <= BAR or not 1 <= pips <= 7:
            return None
        point = BAR - source if player == 0 else source
        found.append((point, max(point - pips, OFF)))
    return found


class _Reader:
    def __init__(self, path: str | None, doc: dict[str, Any], member: int, offset: int) -> None:
        self.path = path
        self.doc = doc
        self.match = MatchRecord(path, "ogxm", "", unit="ply")
        self.member = member
        self.offset = offset

    def issue(self, game: GameRecord, message: str, ply: int | None, code: str = "unreadable",
              severity: Severity = Severity.ERROR) -> None:
        game.issues.append(format_issue(severity, code, message, ply, None).at(path=self.path, game=game.index, unit="ply"))

    def header(self) -> None:
        doc, match = self.doc, self.match
        length = doc.get("match_length", 0)
        match.length = length if isinstance(length, int) and 0 <= length <= 32767 else None
        variant = doc.get("variant", "backgammon")
        tags = [("Player 1", doc.get("player_white")), ("Player 2", doc.get("player_black")), ("Event", doc.get("event")),
                ("Round", doc.get("round")), ("Site", doc.get("site") or doc.get("platform") or doc.get("city")),
                ("Stage", doc.get("stage")), ("Match ID", doc.get("match_ref")),
                ("Variation", "NackGammon" if variant == "nackgammon" else None),
                ("Crawford", "On" if doc.get("crawford") else "Off")]  # fmt: skip
        if match.length == 0:
            tags += [("Jacoby", "On" if doc.get("jacoby") else "Off"), ("Beaver", "On" if doc.get("beaver") else "Off")]
        limit = doc.get("cube_limit")
        if isinstance(limit, int) and 1 <= limit <= 1 << 15:
            tags.append(("CubeLimit", str(limit)))
        match.tags = [Tag(key, encodable(str(value)), 1) for key, value in tags if value not in (None, "")]
        if self.member > 1:
            match.tags.append(Tag("Stream member", f"{self.member} (byte {self.offset})", 1))
        if variant not in ("backgammon", "nackgammon", 0, 1):
            match.issues.append(format_issue(Severity.ERROR, "unsupported-variant", f"a match of {variant}: bgrecord reads backgammon and Nackgammon only", None, None)
                                .at(path=self.path))  # fmt: skip

    def games(self) -> Iterator[GameRecord]:
        if any(i.code == "unsupported-variant" for i in self.match.issues):
            return
        names = (encodable(str(self.doc.get("player_white") or "")), encodable(str(self.doc.get("player_black") or "")))
        start = self.doc.get("score_start")
        if start is None and "white_score_start" in self.doc:  # the codec's projection names them apart
            start = [self.doc.get("white_score_start", 0), self.doc.get("black_score_start", 0)]
        for index, data in enumerate(self.doc.get("games") or [], 1):
            if isinstance(data, dict):
                yield self.game(index, data, names, start if index == 1 and isinstance(start, list) else None)

    def game(self, index: int, data: dict[str, Any], names: tuple[str, str], start: list[Any] | None) -> GameRecord:
        game = GameRecord(index, index, 1, names)
        valid = start and len(start) == 2 and all(isinstance(v, int) and 0 <= v <= 32767 for v in start)
        game.scores = (int(start[0]), int(start[1])) if valid else ((0, 0) if index == 1 else (None, None))  # type: ignore[index]
        if data.get("is_crawford"):
            game.note = "Crawford"
        cube = data.get("initial_cube_value", 1)
        automatic = data.get("auto_doubles", 0)
        if isinstance(cube, int) and isinstance(automatic, int) and (cube > 1 or automatic > 0):
            game.initial_cube = cube << min(max(automatic, 0), 15)
            game.initial_cube_owner = {"white": 0, "black": 1}.get(str(data.get("initial_cube_owner")), None)
        for number, ply in enumerate(data.get("plies") or [], 1):
            if len(game.actions) > MAX_ACTIONS:  # past the limit (said where every reader's records pass): not built
                break
            action = self.action(game, number, ply) if isinstance(ply, dict) else None
            if action is not None:
                game.actions.append(action)
        winner, points = _player_of_winner(data.get("winner")), data.get("points_won")
        if winner is not None and isinstance(points, int) and 0 < points <= 3 << 15:
            resigned = any(isinstance(a, Result) and a.kind == "resign" for a in game.actions)
            number = len(data.get("plies") or []) + 1
            game.actions.append(Result(winner, None, number, None, f"Wins {points} point{'s' if points != 1 else ''}", "win", points,
                                       False, resigned))  # fmt: skip
        return game

    def action(self, game: GameRecord, number: int, ply: dict[str, Any]) -> Action | None:
        kind = ply.get("action_id")
        player = _player(ply.get("color"))
        if isinstance(kind, int) and 0 <= kind <= 20:
            dice = (ply.get("d1"), ply.get("d2"))
            if player is None or dice != _DICE_IDS[kind] and dice[::-1] != _DICE_IDS[kind]:
                self.issue(game, f"a roll of {quoted(dice)} for action {kind}, by color {quoted(ply.get('color'))}", number)
                return None
            steps = _steps(player, ply.get("moves"))
            if steps is None:
                self.issue(game, "a step that is not on the board", number)
                return None
            tokens = tuple(MoveToken((s, t), (False, False), 1, f"{'bar' if s == BAR else s}/{'off' if t == OFF else t}", 0) for s, t in steps)
            d1, d2 = int(dice[0]), int(dice[1])  # type: ignore[arg-type]
            text = f"{d1}{d2}: " + (" ".join(t.text for t in tokens) or "Cannot Move")
            return Roll(player, None, number, None, text, (d1, d2), tokens, "" if tokens else "cannot move")
        if kind in (DOUBLE, TAKE, DROP) and player is not None:
            word, text = {DOUBLE: ("double", "Doubles"), TAKE: ("take", "Takes"), DROP: ("drop", "Drops")}[kind]
            return CubeAction(player, None, number, None, text, word)
        if kind in (RESIGN_GAME, RESIGN_MATCH, FORFEIT, _SETTLE) and player is not None:
            what = {RESIGN_GAME: "Resigns", RESIGN_MATCH: "Resigns the match", FORFEIT: "Forfeits", _SETTLE: "Settles"}[kind]
            return Result(player, None, number, None, what, "resign")
        if kind in (GAME_OVER, MATCH_OVER, FINAL, NULL):
            return None
        if kind == SET_POSITION:
            self.issue(game, "a board set by hand (a play the source could not record as legal)", number, "set-position", Severity.WARNING)
            return self.set_position(game, number, ply)
        self.issue(game, f"an OGXM action (id {kind}) that bgrecord does not read: the rest of the game is not checked", number)
        return Unreadable(player, None, number, None, f"action {kind}")

    def set_position(self, game: GameRecord, number: int, ply: dict[str, Any]) -> Action | None:
        cells = ply.get("set_position")
        if not isinstance(cells, list) or len(cells) != 26 or not all(isinstance(c, int) for c in cells):
            self.issue(game, "a set position without its 26 points", number)
            return None
        white, black = [0] * 26, [0] * 26
        for pip, count in enumerate(cells):
            if count > 0:
                white[BAR - pip] += count
            elif count < 0:
                black[pip] += -count
        white[OFF], black[OFF] = CHECKERS - sum(white), CHECKERS - sum(black)
        mover = _player(ply.get("color"))
        position = Position((tuple(white), tuple(black)), 1 - mover if mover is not None else 0)
        if not position.is_valid():
            self.issue(game, "a set position that is not a position", number)
            return None
        return SetPosition(mover, None, number, None, f"set position {position.id()}", "board", position.id(), None, position.turn)


def _player_of_winner(value: Any) -> int | None:
    """A game's ``winner``: 0 White, 1 Black (255: unfinished)."""
    return value if value in (0, 1) else None


def _members(source: Input, problems: list[tuple[int, str]]) -> Iterator[tuple[int, bytes]]:
    """Each member of an OGXM stream (a single file is a stream of one), with its offset."""
    ogxm = codec()
    stream = source.open()
    position = 0

    def skipped(offset: int, length: int) -> None:
        problems.append((offset, f"a corrupt stream member ({length:,} bytes): skipped, reading goes on with the next"))

    try:
        for member in ogxm.iter_stream(stream, strict=False, on_skip=skipped):
            if len(member) > MAX_MEMBER:  # its plies, unpacked, would cost memory without bound
                problems.append((position, f"a match of {len(member):,} bytes, more than {MAX_MEMBER >> 20} MB: not read"))
            else:
                yield position, member
            position += len(member)
    except ogxm.StreamTruncated as exc:
        problems.append((exc.offset, f"the stream is cut short: {exc.length:,} bytes of an unfinished member at its end"))
    except ogxm.StreamError as exc:
        problems.append((exc.offset, f"the stream does not read: {exc}"))
    finally:
        stream.close()


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each match of an OGXM file or stream, game by game."""
    try:
        ogxm = codec()
    except ImportError as exc:
        yield refused(source, str(exc), "missing-dependency", format="ogxm"), None
        return
    problems: list[tuple[int, str]] = []
    count = 0
    for offset, member in _members(source, problems):
        count += 1
        try:
            doc = ogxm.binary_to_json(member)
        except ogxm.OgxmError as exc:
            problems.append((offset, f"a stream member that does not read: {exc}"))
            continue
        reader = _Reader(source.name, doc, count, offset)
        reader.header()
        for problem_offset, message in problems:
            reader.match.issues.append(format_issue(Severity.ERROR, "corrupt-member", message, problem_offset, None).at(path=source.name, unit="byte"))
        problems.clear()
        yield from each_game(reader.match, reader.games())
    if problems or not count:
        match = MatchRecord(source.name, "ogxm", "", unit="byte")
        for problem_offset, message in problems or [(0, "no OGXM match could be read")]:
            match.issues.append(format_issue(Severity.ERROR, "corrupt-member", message, problem_offset, None).at(path=source.name, unit="byte"))
        yield match, None


# --- writing ---


def _dice_id(dice: tuple[int, int]) -> int:
    return _DICE_IDS.index((min(dice), max(dice)))


def _ply_steps(player: int, play: LegalPlay, dice: tuple[int, int]) -> list[dict[str, int]]:
    """The play's moves as OGXM steps, in an order that replays, each with the die it uses
    (a bear-off with a larger die says the die)."""
    left = Dice(*dice).pips()
    steps = []
    for move in play.play.moves:
        distance = move.source - move.target
        die = distance if distance in left else min(d for d in left if d > distance)
        left.remove(die)
        steps.append({"from": BAR - move.source if player == 0 else move.source, "pips": die})
    return steps


def document(match: MatchRecord, games: Iterable[Any]) -> dict[str, Any]:
    """The OGXM JSON document of a replayed record (``games``: its GameReplays, each used
    once, as they come)."""
    from bgrecord.rules import rules_for

    rules = rules_for(match)
    each = iter(games)
    first = next(each, None)
    names = first.game.names if first is not None else match.players
    doc: dict[str, Any] = {
        "match_length": match.length or 0, "player_white": names[0], "player_black": names[1],
        "variant": "nackgammon" if rules.variant.value == "nackgammon" else "backgammon",
        "crawford": bool(match.length) and rules.crawford, "jacoby": not match.length and rules.jacoby,
        "source": _SOURCES.get(match.format, 0), "checksum": "crc32", "games": [],
    }  # fmt: skip
    if rules.cube_limit and rules.cube_limit & (rules.cube_limit - 1) == 0:
        doc["cube_limit"] = rules.cube_limit
    for key, tag in (("event", "Event"), ("round", "Round")):
        value = match.tag(tag)
        if value:
            doc[key] = value[:120]
    if first is not None and first.score != (0, 0):
        doc["score_start"] = list(first.score)
    for replayed in itertools.chain([first] if first is not None else [], each):
        doc["games"].append(_game(replayed))
        if _starts_nackgammon(replayed):
            doc["variant"] = "nackgammon"  # DailyGammon's way: a set-up of the Nackgammon start
    return doc


def _starts_nackgammon(replayed: Any) -> bool:
    from bgrecord.position import Position, Variant

    first = replayed.steps[0] if replayed.steps else None
    return bool(first and first.kind == "setup" and first.after is not None
                and first.after.sides == Position.start(Variant.NACKGAMMON).sides)  # fmt: skip


def _game(replayed: Any) -> dict[str, Any]:
    plies: list[dict[str, Any]] = []
    for number, step in enumerate(replayed.steps):
        if step.kind == "setup" and number == 0 and _starts_nackgammon(replayed):
            continue  # written as the match's variant
        if step.player is None and step.kind != "win":
            if step.kind == "setup":
                raise OgxmWriteError(f"game {replayed.game.index}: a board set up by hand, which bgrecord does not write to OGXM")
            continue
        color = 1 if step.player == 0 else 0
        if step.kind == "move" and step.dice is not None:
            if step.play is None:
                continue  # rolled, then resigned: OGXM records the resignation
            plies.append({"action_id": _dice_id(step.dice), "color": color, "d1": min(step.dice), "d2": max(step.dice),
                          "moves": _ply_steps(step.player, step.play, step.dice)})  # fmt: skip
        elif step.kind in ("double", "take", "drop"):
            plies.append({"action_id": {"double": DOUBLE, "take": TAKE, "drop": DROP}[step.kind], "color": color})
        elif step.kind in ("beaver", "raccoon"):
            raise OgxmWriteError(f"game {replayed.game.index}: a {step.kind}, which bgrecord does not write to OGXM")
        elif step.kind == "setup":
            raise OgxmWriteError(f"game {replayed.game.index}: a board set up by hand, which bgrecord does not write to OGXM")
    game: dict[str, Any] = {"plies": plies}
    result = replayed.result if replayed.checked else None
    if result is not None:
        if result.ended_by == "resign":
            level = {1: "single", 2: "gammon", 3: "backgammon"}[result.kind]
            plies.append({"action_id": RESIGN_GAME, "color": 0 if result.winner == 0 else 1, "resign_value": level})
            plies.append({"action_id": GAME_OVER})
        game["winner"], game["points_won"] = result.winner, result.points
    if replayed.game.initial_cube:
        game["initial_cube_value"] = replayed.game.initial_cube
    return game


def write_ogxm(match: MatchRecord, games: Iterable[Any]) -> bytes:
    """OGXM v2 bytes of a replayed match, checked by the codec (``v2_problem``)."""
    ogxm = codec()
    doc = document(match, games)
    problem = ogxm.v2_problem(doc)
    if problem:
        raise OgxmWriteError(f"the OGXM codec refuses this match ({problem})")
    data: bytes = ogxm.json_to_binary(doc)
    return data


def write_stream(members: list[bytes]) -> bytes:
    """Matches as one OGXM stream (``.ogxms``)."""
    ogxm = codec()
    out = io.BytesIO()
    writer = ogxm.StreamWriter(out)
    for member in members:
        writer.write(member)
    return out.getvalue()
