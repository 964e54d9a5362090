"""A set of byte strings held as their digests (BLAKE2b), sorted in one NumPy array: what an
index run has met so far (its files' paths, their content keys) in :data:`Digests.size` bytes
each, where a table of them in the database was read whole again for every lookup (DuckDB
holds no index on a column that it does not keep whole in memory).

What it does not do: know the strings again (only whether one was added). Two strings whose
digests are equal are one to it: with 16 bytes, never met in practice (one chance in 2**128
for two strings); with fewer, a caller asks the database whether a string found is really
there (:class:`Digests` is then a filter that spares the lookups of strings never added).
"""

from __future__ import annotations

import hashlib
import itertools
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    import numpy as np

ADDED_AT_ONCE = 65_536  # strings hashed at a time (an index's keys read back: a part of them in memory, as strings)


class Digests:
    """Byte strings added (:meth:`add`), each known by its digest of ``size`` bytes (1 to 64)."""

    def __init__(self, size: int = 16) -> None:
        import numpy as np

        self.size = size
        self.sorted: np.ndarray = np.empty(0, dtype=f"S{size}")

    def __len__(self) -> int:
        return len(self.sorted)

    def add(self, items: Iterable[bytes]) -> None:
        """``items`` added (one already there is left as it is), :data:`ADDED_AT_ONCE` at a time."""
        import numpy as np

        found = iter(items)
        while part := list(itertools.islice(found, ADDED_AT_ONCE)):
            new = np.unique(self._digests(part))
            new = new[~self._found(new)]
            self.sorted = np.insert(self.sorted, np.searchsorted(self.sorted, new), new)  # one copy: no sort of the whole

    def found(self, items: Sequence[bytes]) -> list[bool]:
        """For each of ``items``, whether it was added."""
        return self._found(self._digests(items)).tolist() if items else []

    def _found(self, digests: np.ndarray) -> np.ndarray:
        import numpy as np

        if not len(self.sorted):
            return np.zeros(len(digests), dtype=bool)
        at = np.minimum(np.searchsorted(self.sorted, digests), len(self.sorted) - 1)
        found: np.ndarray = self.sorted[at] == digests
        return found

    def _digests(self, items: Iterable[bytes]) -> np.ndarray:
        import numpy as np

        size = self.size
        return np.array([hashlib.blake2b(item, digest_size=size).digest() for item in items], dtype=f"S{size}")
