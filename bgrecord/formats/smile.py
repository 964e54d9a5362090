"""A decoder of Smile, the binary JSON of Jackson (BGBlitz writes its ``.bgf`` files so).

Follows the published Smile format 1.0: the ``:)\\n`` header and its flags, shared property
names and shared string values (back references, each list reset at 1,024 entries), tiny
and short ASCII and Unicode strings, long strings ended by 0xFC, zigzag variable-length
integers, 32- and 64-bit floats in 7-bit groups, and 7-bit encoded binary. Big integers and
big decimals are read as Python's ``int`` and ``float``. Bounded, and linear in the data's
size: nesting, the number of values and the digits of a number are limited
(:mod:`bgrecord.formats.limits`), 7-bit binary is decoded group by group (never as one huge
integer), and any malformed byte raises :class:`SmileError` with its offset.
"""

from __future__ import annotations

import struct
from typing import Any

from bgrecord.formats.limits import MAX_DEPTH, MAX_DIGITS, MAX_ELEMENTS

_SHARED_LIMIT = 1024
_INTEGER_BYTES = MAX_DIGITS * 10 // 24 + 1  # bytes of a big integer of MAX_DIGITS decimal digits


class SmileError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} at byte {offset}")
        self.offset = offset


class _Decoder:
    def __init__(self, data: bytes) -> None:
        if data[:3] != b":)\n" or len(data) < 4:
            raise SmileError("not Smile data (no ':)' header)", 0)
        flags = data[3]
        self.shared_names = bool(flags & 0x01)
        self.shared_values = bool(flags & 0x02)
        self.data = data
        self.at = 4
        self.names: list[str] = []
        self.values: list[str] = []
        self.elements = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise SmileError("the data ends too soon", self.at)
        value = self.data[self.at]
        self.at += 1
        return value

    def take(self, count: int) -> bytes:
        if count < 0 or self.at + count > len(self.data):
            raise SmileError("the data ends too soon", self.at)
        piece = self.data[self.at : self.at + count]
        self.at += count
        return piece

    def text(self, count: int) -> str:
        start = self.at
        try:
            return self.take(count).decode("utf-8")
        except UnicodeDecodeError:
            raise SmileError("a string that is not UTF-8", start) from None

    def until_end_marker(self) -> str:
        end = self.data.find(b"\xfc", self.at)
        if end < 0:
            raise SmileError("a long string without its end marker", self.at)
        text = self.text(end - self.at)
        self.at += 1  # the end marker
        return text

    def vint(self, limit_bytes: int = 10) -> int:
        """An unsigned variable-length integer: 7 bits a byte, the last byte marked by its high
        bit and carrying 6 bits."""
        value = 0
        for _ in range(limit_bytes):
            part = self.byte()
            if part & 0x80:
                return (value << 6) | (part & 0x3F)
            value = (value << 7) | part
        raise SmileError("a variable-length integer that does not end", self.at)

    @staticmethod
    def zigzag(value: int) -> int:
        return (value >> 1) ^ -(value & 1)

    def sevenbit(self, count: int) -> int:
        value = 0
        for part in self.take(count):
            value = (value << 7) | (part & 0x7F)
        return value

    def remember(self, table: list[str], text: str, enabled: bool) -> str:
        if enabled:
            if len(table) >= _SHARED_LIMIT:
                table.clear()
            table.append(text)
        return text

    def shared(self, table: list[str], index: int) -> str:
        if index >= len(table):
            raise SmileError(f"a back reference to shared string {index} that is not there", self.at)
        return table[index]

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise SmileError(f"nesting more than {MAX_DEPTH} deep, deeper than any match file", self.at)
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise SmileError(f"more than {MAX_ELEMENTS:,} values, more than any match file holds", self.at)
        start = self.at
        token = self.byte()
        if 0x01 <= token <= 0x1F:
            return self.shared(self.values, token - 1)
        if token == 0x20:
            return ""
        if token == 0x21:
            return None
        if token in (0x22, 0x23):
            return token == 0x23
        if token == 0x24:
            return self.zigzag(self.vint(5))
        if token == 0x25:
            return self.zigzag(self.vint(10))
        if token == 0x26:
            return int.from_bytes(self.binary(_INTEGER_BYTES), "big", signed=True)
        if token == 0x28:
            return struct.unpack(">f", (self.sevenbit(5) & 0xFFFFFFFF).to_bytes(4, "big"))[0]
        if token == 0x29:
            return struct.unpack(">d", (self.sevenbit(10) & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big"))[0]
        if token == 0x2A:
            scale = self.zigzag(self.vint(5))
            unscaled = int.from_bytes(self.binary(_INTEGER_BYTES), "big", signed=True)
            try:
                return float(unscaled) * 10.0 ** -min(max(scale, -400), 400)
            except OverflowError:
                raise SmileError("a decimal number beyond the range of a float", start) from None
        if 0x40 <= token <= 0x7F:
            length = (token & 0x1F) + (1 if token < 0x60 else 33)
            return self.remember(self.values, self.text(length), self.shared_values)
        if 0x80 <= token <= 0xBF:
            length = (token & 0x1F) + (2 if token < 0xA0 else 34)
            return self.remember(self.values, self.text(length), self.shared_values)
        if 0xC0 <= token <= 0xDF:
            return self.zigzag(token & 0x1F)
        if token in (0xE0, 0xE4):
            return self.until_end_marker()
        if token == 0xE8:
            return self.binary()
        if 0xEC <= token <= 0xEF:
            return self.shared(self.values, ((token & 0x03) << 8) | self.byte())
        if token == 0xF8:
            items = []
            while self.peek() != 0xF9:
                items.append(self.value(depth + 1))
            self.at += 1
            return items
        if token == 0xFA:
            return self.object(depth + 1)
        if token == 0xFD:
            return self.take(self.vint(5))
        raise SmileError(f"an unknown value token 0x{token:02X}", start)

    def peek(self) -> int:
        if self.at >= len(self.data):
            raise SmileError("the data ends inside an array or object", self.at)
        return self.data[self.at]

    def binary(self, limit: int | None = None) -> bytes:
        """7-bit encoded binary: its length, then 7 bits a byte, the bits of all the bytes in
        one run (each 8 bytes carry 7 bytes of data; a last, shorter group carries the rest,
        its low bits unused). ``limit``: the most bytes the value may have (a number's)."""
        start = self.at
        length = self.vint(5)
        if limit is not None and length > limit:
            raise SmileError(f"a number of {length:,} bytes, more than {MAX_DIGITS:,} digits", start)
        groups = (length * 8 + 6) // 7
        if self.at + groups > len(self.data):
            raise SmileError("a binary value longer than the data", self.at)
        encoded = self.take(groups)
        whole = length // 7  # groups of 8 bytes that carry 7 bytes each
        out = bytearray()
        for at in range(0, whole * 8, 8):
            bits = 0
            for part in encoded[at : at + 8]:
                bits = (bits << 7) | (part & 0x7F)
            out += bits.to_bytes(7, "big")
        rest = length - whole * 7
        if rest:
            tail = encoded[whole * 8 :]
            bits = 0
            for part in tail:
                bits = (bits << 7) | (part & 0x7F)
            out += ((bits >> (len(tail) * 7 - rest * 8)) & ((1 << (8 * rest)) - 1)).to_bytes(rest, "big")
        return bytes(out)

    def key(self) -> str | None:
        start = self.at
        token = self.byte()
        if token == 0xFB:
            return None
        if token == 0x20:
            return ""
        if 0x30 <= token <= 0x33:
            return self.shared(self.names, ((token & 0x03) << 8) | self.byte())
        if token == 0x34:
            return self.remember(self.names, self.until_end_marker(), self.shared_names)
        if 0x40 <= token <= 0x7F:
            return self.shared(self.names, token & 0x3F)
        if 0x80 <= token <= 0xBF:
            return self.remember(self.names, self.text((token & 0x3F) + 1), self.shared_names)
        if 0xC0 <= token <= 0xF7:
            return self.remember(self.names, self.text(token - 0xC0 + 2), self.shared_names)
        raise SmileError(f"an unknown key token 0x{token:02X}", start)

    def object(self, depth: int) -> dict[str, Any]:
        found: dict[str, Any] = {}
        while (name := self.key()) is not None:
            found[name] = self.value(depth)
        return found


def decode(data: bytes) -> Any:
    """The value a Smile document holds."""
    decoder = _Decoder(data)
    return decoder.value(0)
