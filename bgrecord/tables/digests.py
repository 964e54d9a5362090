"""A set of byte strings held as their digests (BLAKE2b), sorted end to end in one bytearray:
what an index run has met so far (its files' paths, their content keys) in
:attr:`Digests.size` bytes each, where a table of them in the database was read whole again for
every lookup (DuckDB holds no index on a column that it does not keep whole in memory). Plain
Python (a run into SQLite loads no NumPy): a lookup is a binary search, an addition one copy
of the bytes.

What it does not do: know the strings again (only whether one was added). Two strings whose
digests are equal are one to it: with 16 bytes, never met in practice (one chance in 2**128
for two strings); with fewer, a caller asks the database whether a string found is really
there (:class:`Digests` is then a filter that spares the lookups of strings never added).
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
from typing import Iterable, Sequence

ADDED_AT_ONCE = 65_536  # strings hashed at a time (an index's keys read back: a part of them in memory, as strings)


class Digests:
    """Byte strings added (:meth:`add`), each known by its digest of ``size`` bytes (1 to 64)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.sorted = _Sorted(bytearray(), size)

    def __len__(self) -> int:
        return len(self.sorted)

    def add(self, items: Iterable[bytes]) -> None:
        """``items`` added (one already there is left as it is), :data:`ADDED_AT_ONCE` at a time."""
        found = iter(items)
        while part := list(itertools.islice(found, ADDED_AT_ONCE)):
            new = sorted({digest for digest in map(self._digest, part) if not self._has(digest)})
            if not new:
                continue
            size, old = self.size, self.sorted.data
            places = [bisect.bisect_left(self.sorted, digest) * size for digest in new]
            pieces: list[bytes | bytearray] = []
            for start, end, digest in zip([0, *places], places, new):
                pieces += (old[start:end], digest)
            pieces.append(old[places[-1] :])
            self.sorted = _Sorted(bytearray().join(pieces), size)  # one copy of the bytes: no sort of the whole

    def found(self, items: Sequence[bytes]) -> list[bool]:
        """For each of ``items``, whether it was added."""
        return [self._has(self._digest(item)) for item in items]

    def _has(self, digest: bytes) -> bool:
        at = bisect.bisect_left(self.sorted, digest)
        return at < len(self.sorted) and self.sorted[at] == digest

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
