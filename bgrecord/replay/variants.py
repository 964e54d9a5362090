"""The variant a record names, and whether bgrecord plays it.

A record names its variant in a field meant for it (the ``Variation`` tag of a .mat header or
of eXtreme Gammon's match, the variant of SGF's ``RU``, which the SGF reader gives as that tag)
or in a header comment in words (``;Game type: ...``, ``;Variant: ...``). A field meant for the
variant is believed whatever it says; a comment only where it names a game bgrecord knows of
(a backgammon variant it plays, or another game of the family), so that a comment saying
something else (``Game type: ranked``) is not taken for a variant. A variant is played only when
the record names it exactly (``Backgammon``, ``NackGammon``): a name that shares a word with one
and says more (``Backgammon Hyper``) is a variant bgrecord does not play.

bgrecord plays backgammon and Nackgammon. Any other variant named is unsupported: its games
cannot be judged by the rules of backgammon (the replay says so once for the file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bgrecord.core.position import Variant
from bgrecord.formats.records import MatchRecord

# the names of the variants played, letters only and in lower case
PLAYED = {"backgammon": Variant.STANDARD, "standard": Variant.STANDARD, "standardbackgammon": Variant.STANDARD, "normal": Variant.STANDARD,
          "regular": Variant.STANDARD, "nackgammon": Variant.NACKGAMMON, "nack": Variant.NACKGAMMON}  # fmt: skip
# games of the family bgrecord does not play (a name starting so: "hypergammon3", "long nardy")
OTHER_GAMES = ("hypergammon", "longgammon", "aceydeucey", "acey", "plakoto", "fevga", "portes", "tavla", "tavli", "narde",
               "nardy", "nardi", "longnard", "shortnard", "gulbara", "gioul", "tapa", "moultezim", "trictrac", "jacquet",
               "russian", "dutch", "misere", "fourplayer")  # fmt: skip
_COMMENT = re.compile(r"(?i)^\s*(?:game[ \t]*type|game[ \t]*variant|variant|variation)\s*[:=]\s*(\S.*?)\s*$")
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True, slots=True)
class NamedVariant:
    """A variant as the record names it: ``written`` as written, ``line`` where (None when the
    record does not say), ``variant`` the one played, None for a variant bgrecord does not play."""

    written: str
    line: int | None
    variant: Variant | None


def variant_of(written: str, believed: bool = True) -> Variant | None | bool:
    """The variant ``written`` names: a played Variant where it is exactly one's name (its letters,
    case aside: ``NackGammon``, ``Backgammon``), None for any other game, or False when it names no
    game bgrecord knows of (then, for a field meant for the variant, ``believed``, None: a variant
    not played). A name that shares words with a played one and says more (``Backgammon Hyper``,
    ``Nackgammon 2``) is no variant bgrecord plays."""
    letters = "".join(_WORD.findall(written.lower()))
    if letters in PLAYED and not any(character.isdigit() for character in written):
        return PLAYED[letters]
    words = _WORD.findall(written.lower())
    if believed or any(name in PLAYED or name.startswith(OTHER_GAMES) for name in (letters, *words)):
        return None
    return False


def named_variant(match: MatchRecord) -> NamedVariant | None:
    """The variant ``match`` names, or None where it names none."""
    for tag in match.tags:
        if tag.key.lower() in ("variation", "variant") and tag.value.strip():
            found = variant_of(tag.value)
            return NamedVariant(tag.value.strip(), tag.line, found if isinstance(found, Variant) else None)
    for comment in match.comments:
        said = _COMMENT.match(comment)
        if said is None:
            continue
        found = variant_of(said.group(1), believed=False)
        if found is not False:
            return NamedVariant(said.group(1), _line_of(match, comment), found if isinstance(found, Variant) else None)
    return None


def _line_of(match: MatchRecord, comment: str) -> int | None:
    """The line of the header that holds ``comment``."""
    for number, text in enumerate(match.raw.splitlines(), 1):
        if comment in text:
            return number
    return None
