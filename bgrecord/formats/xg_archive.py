"""eXtreme Gammon's container (``.xg``, ``.xgp``): the files inside, checked and inflated.

An "RGMH" header (8,232 bytes), a JPEG thumbnail, then a ZLib archive: the files' data, a
registry of 532-byte file records, a 36-byte trailer at the very end; each file compressed
with zlib and checked by its CRC-32, the whole archive by another. Some files hold no archive:
the game file follows the header as one zlib stream. Inflating is bounded by
:data:`~bgrecord.formats.limits.MAX_BINARY`. (Facts from the layouts published by eXtreme Gammon's
author and in xgdatatools; this is bgrecord's own code.) What it does not do: read the files
(:mod:`bgrecord.formats.xg` reads the game file and the comments).
"""

from __future__ import annotations

import struct
import zlib

from bgrecord.formats.limits import MAX_BINARY

_HEADER = 8232
_TRAILER = 36
_FILE_RECORD = 532


class XgError(ValueError):
    """A container or record that does not read; ``offset``: where (bytes), if known."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


_READ_FILES = ("temp.xg", "temp.xgc")  # the game file and its comments; analysis and rollouts are not read


def archive(data: bytes, wanted: tuple[str, ...] = _READ_FILES) -> dict[str, bytes]:
    """The files ``wanted`` of the ZLib archive after the header and thumbnail, by name (the
    others are not inflated: the archive's CRC vouches for their bytes)."""
    if data[:4] != b"RGMH":
        raise XgError("not an eXtreme Gammon file: no RGMH header", 0)
    if len(data) < _HEADER:
        raise XgError(f"an eXtreme Gammon file cut short inside its header ({len(data):,} of {_HEADER:,} bytes), before its first record", len(data))
    thumbnail_offset, thumbnail_size = struct.unpack_from("<qi", data, 12)
    start = _HEADER + max(0, thumbnail_offset) + max(0, thumbnail_size)
    if len(data) < start + _TRAILER:
        raise XgError(f"an eXtreme Gammon file cut short before its first record (its games start after byte {start:,})", len(data))
    crc, count, _, registry_size, archive_size, compressed = struct.unpack_from("<6l", data, len(data) - _TRAILER)
    end = len(data) - _TRAILER
    registry_start = end - registry_size
    data_start = registry_start - archive_size
    if not (start <= data_start <= registry_start <= end) or not 0 < count <= 64:
        return _bare(data, start)
    if zlib.crc32(data[data_start:end]) & 0xFFFFFFFF != crc & 0xFFFFFFFF:
        raise XgError("the archive's CRC does not match its content: the file is damaged", data_start)
    registry = _inflate(data[registry_start:end], registry_start) if compressed else data[registry_start:end]
    files: dict[str, bytes] = {}
    for index in range(count):
        entry = registry[index * _FILE_RECORD : (index + 1) * _FILE_RECORD]
        if len(entry) < _FILE_RECORD:
            raise XgError("the archive's registry is cut short", registry_start)
        name = entry[1 : 1 + entry[0]].decode("latin-1")
        if name not in wanted:
            continue
        size, stored_size, offset, file_crc = struct.unpack_from("<4l", entry, 512)
        where = data_start + offset
        if offset < 0 or stored_size < 0 or where + stored_size > registry_start:
            raise XgError(f"the archive's entry for {name!r} points outside the archive", where)
        stored = data[where : where + stored_size]
        compressed_entry = entry[528] == 0
        content = _inflate(stored, where) if compressed_entry else stored
        # zlib checks what it inflates (its Adler-32, and the stream's end); a stored file has only its CRC
        if not compressed_entry and zlib.crc32(content) & 0xFFFFFFFF != file_crc & 0xFFFFFFFF:
            raise XgError(f"{name!r} in the archive is damaged (its CRC does not match)", where)
        files[name] = content
    return files


def _bare(data: bytes, start: int) -> dict[str, bytes]:
    """Some files hold no archive: the game file follows the header as one zlib stream."""
    try:
        game = _inflate(data[start:], start, whole=False)  # cut short: the records it holds are still read
    except XgError:
        raise XgError("the archive's trailer does not read: the file is damaged or cut short", len(data) - _TRAILER) from None
    return {"temp.xg": game}


def _inflate(stored: bytes, offset: int, whole: bool = True) -> bytes:
    """``stored`` inflated (bounded); ``whole``: the stream must end (else what it gives is kept)."""
    inflater = zlib.decompressobj()
    try:
        content = inflater.decompress(stored, MAX_BINARY + 1)
    except zlib.error as exc:
        raise XgError(f"compressed data that does not inflate ({exc})", offset) from None
    if len(content) > MAX_BINARY:
        raise XgError(f"compressed data inflating beyond {MAX_BINARY >> 20} MB", offset)
    if whole and not inflater.eof:  # the stream's end (and its check) never came
        raise XgError("compressed data cut short", offset + len(stored))
    return content
