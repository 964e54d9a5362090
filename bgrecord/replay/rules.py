"""Rule sets: which rules of backgammon a match is played by.

A :class:`RuleSet` comes from the file's tags (``Crawford``, ``Jacoby``, ``Beaver``,
``CubeLimit``, ``Variation``; a variant named in words, :mod:`bgrecord.replay.variants`), else from defaults by match type, and can be overridden by the
user (``--rules money,jacoby=off,cube-limit=64``). ``RuleSet.assumed`` names the rules that
no tag and no user gave: the replay never reports an error that rests only on one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from bgrecord.core.position import Variant
from bgrecord.formats.numbers import MAX_CUBE, number
from bgrecord.formats.records import MatchRecord
from bgrecord.replay.variants import named_variant, variant_of


@dataclass(frozen=True)
class RuleSet:
    """The rules a match is played by.

    - ``crawford``: no double in the Crawford game (match play).
    - ``jacoby``: in money play, gammons and backgammons count single while the cube has
      not been turned.
    - ``beavers``, ``raccoons``: in money play, the doubled player may redouble at once,
      keeping the cube (beaver); the doubler may then redouble again (raccoon).
    - ``holland``: in post-Crawford games the trailer may double only after both sides
      have played two rolls.
    - ``cube_limit``: the highest cube value (1: no cube); None for no limit.
    - ``automatic_doubles``: in money play, how many automatic doubles on opening doubles
      (the cube starts at up to 2**n, centred); 0 for none.
    - ``variant``: the starting position (standard or Nackgammon).
    - ``opening_double``: the first player rolls two fresh dice, so the opening roll may be
      a double.
    - ``match_winning_double``: False for an online playroom's house rule: a double is
      refused when the doubled stake would let the doubler win the match with a single game
      while the current stake would not (score + 2 * cube >= length > score + cube).
    - ``backgammon_despite_borne_off``: the same playroom's backgammon: a checker on the bar
      or in the winner's home board makes a backgammon even if the loser has borne off.
    """

    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    holland: bool = False
    cube_limit: int | None = None
    automatic_doubles: int = 0
    variant: Variant = Variant.STANDARD
    opening_double: bool = False
    match_winning_double: bool = True
    backgammon_despite_borne_off: bool = False
    assumed: frozenset[str] = field(default=frozenset(), compare=False)

    def given(self, name: str) -> bool:
        """Whether the rule ``name`` comes from the file or the user, not from a default."""
        return name not in self.assumed


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "money": {"jacoby": True, "beavers": True},
    "playroom": {"match_winning_double": False, "backgammon_despite_borne_off": True},
    "nackgammon": {"variant": Variant.NACKGAMMON},
    "holland": {"holland": True},
}

_RULES = frozenset(f.name for f in fields(RuleSet) if f.name != "assumed")
_NAMES = {name.replace("_", "-"): name for name in _RULES}


_TRUE, _FALSE = ("on", "yes", "true", "1"), ("off", "no", "false", "0")
_CUBES = [1 << k for k in range(16)]


def _on(value: str) -> bool:
    return value.strip().lower() in _TRUE


def _switch(name: str, raw: str) -> bool:
    """A rule's on/off value, or ValueError naming the values allowed."""
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r}: say on or off (also yes/no, true/false, 1/0)")


def rules_for(match: MatchRecord, spec: str | None = None) -> RuleSet:
    """The rules of ``match``: its tags, else defaults by match type; then ``spec``, the
    user's presets and flags ("money,jacoby=off,cube-limit=64"), which win over both."""
    money = match.length == 0
    values: dict[str, Any] = {}
    given: set[str] = set()
    for tag, name in (("Crawford", "crawford"), ("Jacoby", "jacoby"), ("Beaver", "beavers")):
        value = match.tag(tag)
        if value is not None:
            values[name] = _on(value)
            given.add(name)
    if "beavers" in given:
        values["raccoons"] = values["beavers"]
        given.add("raccoons")
    limit = number(match.tag("CubeLimit") or "", MAX_CUBE)
    if limit in _CUBES:
        values["cube_limit"] = limit
        given.add("cube_limit")
    named = named_variant(match)
    if named is not None and named.variant is not None:
        values["variant"] = named.variant
    if named is not None or match.format == "sgf":
        given.add("variant")
    rules = RuleSet(**values)
    if spec:
        rules, user = apply_spec(rules, spec)
        given |= user
    if not money:
        # money rules do not apply to match play; the Crawford rule is its standard (gnubg
        # assumes it for every .mat file too): neither is a guess
        given |= {"jacoby", "beavers", "raccoons", "automatic_doubles", "crawford"}
    return replace(rules, assumed=_RULES - given)


# The tags that state each rule a record can state, as a .mat header writes them.
RULE_TAGS = {"crawford": "Crawford", "jacoby": "Jacoby", "beavers": "Beaver", "cube_limit": "CubeLimit", "variant": "Variation"}
VARIANT_NAMES = {Variant.STANDARD: "Backgammon", Variant.NACKGAMMON: "Nackgammon"}


def stated_rules(rules: RuleSet, length: int | None) -> dict[str, Any]:
    """The rules of ``rules`` that apply to a record of this ``length`` (money play: Jacoby and
    beavers; match play: Crawford; both: the cube limit and the variant) and that a tag or the
    user gave, not a default: what a writer states, so that the record read back plays by
    the same rules (raccoons follow beavers; a cube limit of None, no limit, goes unsaid)."""
    money = length == 0
    applying = ("jacoby", "beavers", "cube_limit", "variant") if money else ("crawford", "cube_limit", "variant")
    return {name: getattr(rules, name) for name in applying if rules.given(name) and not (name == "cube_limit" and rules.cube_limit is None)}


def rule_tags(rules: RuleSet, length: int | None) -> list[tuple[str, str]]:
    """:func:`stated_rules` as the tags of a .mat header (``("Jacoby", "On")``, ``("CubeLimit", "1")``...)."""
    tags = []
    for name, value in stated_rules(rules, length).items():
        if isinstance(value, Variant):
            text = VARIANT_NAMES[value]
        elif isinstance(value, bool):
            text = "On" if value else "Off"
        else:
            text = str(value)
        tags.append((RULE_TAGS[name], text))
    return tags


def same_reading(key: str, first: str, second: str) -> bool:
    """Whether two values of the rule tag ``key`` say the same (``On`` and ``yes``, ``64`` and ``064``)."""
    if key == "Variation":
        return variant_of(first) == variant_of(second)
    if key == "CubeLimit":
        return number(first, MAX_CUBE) == number(second, MAX_CUBE)
    return _on(first) == _on(second)


def apply_spec(rules: RuleSet, spec: str) -> tuple[RuleSet, set[str]]:
    """Apply "preset,flag=value,..." to ``rules``; raise ValueError on an unknown word or a
    value the rule does not take."""
    values: dict[str, Any] = {}
    for word in filter(None, (part.strip() for part in spec.split(","))):
        if word in PRESETS:
            values.update(PRESETS[word])
            continue
        name, _, raw = word.partition("=")
        key = _NAMES.get(name.strip().lower())
        if key is None:
            known = ", ".join(sorted(PRESETS) + sorted(_NAMES))
            raise ValueError(f"unknown rule {name!r}; known: {known}")
        values[key] = _value(key, name.strip(), raw)
    return replace(rules, **values), set(values)


def _value(key: str, name: str, raw: str) -> Any:
    """The value of one ``name=raw`` flag, or ValueError naming the values allowed."""
    text = raw.strip().lower()
    if key == "variant":
        try:
            return Variant(text or "standard")
        except ValueError:
            raise ValueError(f"{name}={raw!r}: say standard or nackgammon") from None
    if key == "cube_limit":
        if text in ("", "none", "off"):
            return None
        value = number(text, MAX_CUBE)
        if value not in _CUBES:
            raise ValueError(f"{name}={raw!r}: a cube limit is a power of two from 1 to 32768 (1: no cube), or none")
        return value
    if key == "automatic_doubles":
        value = 0 if text in ("", "none", "off") else number(text, 15)
        if value is None:
            raise ValueError(f"{name}={raw!r}: the number of automatic doubles, from 0 to 15")
        return value
    return _switch(name, raw) if raw else True
