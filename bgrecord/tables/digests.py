"""A set of byte strings held as their digests (BLAKE2b), sorted end to end in parts of a few
thousand bytes: what an index run has met so far (its files' paths, their content keys) in
:attr:`Digests.size` bytes each, where a table of them in the database was read whole again for
every lookup (DuckDB holds no index on a column that it does not keep whole in memory). Plain
Python (a run into SQLite loads no NumPy): a lookup is a binary search, an addition moves the
bytes of one part (:data:`PART`), never a copy of them all (which held two or three times the
digests at once: some 9 MB of a million games' paths).

What it does not do: know the strings again (only whether one was added). Two strings whose
digests are equal are one to it: with 16 bytes, never met in practice (one chance in 2**128
for two strings); with fewer, a caller asks the database whether a string found is really
there (:class:`Digests` is then a filter that spares the lookups of strings never added).
"""

from __future__ import annotations

import bisect
import hashlib
from typing import Iterable, Sequence

PART = 1024  # digests a part holds (split in two at twice as many): an addition moves at most a part's bytes


class Digests:
    """Byte strings added (:meth:`add`), each known by its digest of ``size`` bytes (1 to 64)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.parts = [bytearray()]  # sorted, each after the one before
        self.firsts = [b""]  # each part's first digest (the first part's: before any), what a digest's part is found by
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def add(self, items: Iterable[bytes]) -> None:
        """``items`` added (one already there is left as it is)."""
        size = self.size
        for digest in map(self._digest, items):
            at, place, there = self._place(digest)
            if there:
                continue
            part = self.parts[at]
            part[place * size : place * size] = digest
            self.count += 1
            if len(part) >= 2 * PART * size:
                half = PART * size
                self.parts[at : at + 1] = [part[:half], part[half:]]
                self.firsts.insert(at + 1, bytes(part[half : half + size]))

    def found(self, items: Sequence[bytes]) -> list[bool]:
        """For each of ``items``, whether it was added."""
        return [self._place(self._digest(item))[2] for item in items]

    def _place(self, digest: bytes) -> tuple[int, int, bool]:
        """The part where ``digest`` is or would go, its place there, and whether it is there."""
        at = bisect.bisect_right(self.firsts, digest) - 1
        part = _Sorted(self.parts[at], self.size)
        place = bisect.bisect_left(part, digest)
        return at, place, place < len(part) and part[place] == digest

    def _digest(self, item: bytes) -> bytes:
        return hashlib.blake2b(item, digest_size=self.size).digest()


class _Sorted(Sequence[bytes]):
    """Digests of ``size`` bytes end to end, as a sequence (what :mod:`bisect` searches)."""

    def __init__(self, data: bytearray, size: int) -> None:
        self.data, self.size = data, size

    def __len__(self) -> int:
        return len(self.data) // self.size

    def __getitem__(self, at: int) -> bytes:  # type: ignore[override]  # an index, never a slice
        if not 0 <= at < len(self):
            raise IndexError(at)
        return bytes(self.data[at * self.size : (at + 1) * self.size])
