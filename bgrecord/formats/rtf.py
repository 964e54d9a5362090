"""The plain text of an RTF document (eXtreme Gammon keeps its comments so): destinations
such as the font and colour tables dropped, ``\\par`` and ``\\line`` as line breaks,
``\\'hh`` bytes in the document's code page, ``\\uN`` characters. One linear pass; what it
does not know it leaves out."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\\([a-zA-Z]{1,32})(-?[0-9]{1,10})? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}]+)", re.S)
_SKIPPED = {"fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "footer", "generator", "listtable",
            "listoverridetable", "rsidtbl", "themedata", "xmlnstbl", "latentstyles", "datastore", "object"}  # fmt: skip
_BREAKS = {"par": "\n", "line": "\n", "tab": "\t", "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022",
           "lquote": "\u2018", "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d"}  # fmt: skip


def rtf_text(document: str) -> str:
    """The text of ``document``, blank lines and trailing blanks trimmed; a text that is not
    RTF is given back as it is."""
    if not document.lstrip().startswith("{\\rtf"):
        return document.strip()
    out: list[str] = []
    skip_depth: int | None = None  # inside a destination that holds no text
    depth = 0
    code_page = "cp1252"
    skip_chars = 0  # characters to drop after \uN (\uc)
    for word, argument, hexa, symbol, brace, text in _TOKEN.findall(document):
        if brace:
            depth += 1 if brace == "{" else -1
            if skip_depth is not None and depth < skip_depth:
                skip_depth = None
            continue
        if skip_depth is not None:
            continue
        if word:
            if word in _SKIPPED or word == "*":
                skip_depth = depth
            elif word == "ansicpg" and argument:
                code_page = f"cp{argument}"
            elif word == "u" and argument:
                value = int(argument) % 65536
                out.append("\ufffd" if 0xD800 <= value <= 0xDFFF else chr(value))
                skip_chars = 1
            elif word in _BREAKS:
                out.append(_BREAKS[word])
            continue
        if symbol:
            if symbol == "*":
                skip_depth = depth
            elif symbol in "\\{}":
                out.append(symbol)
            elif symbol == "~":
                out.append("\u00a0")
            continue
        if hexa:
            if skip_chars:
                skip_chars -= 1
                continue
            try:
                out.append(bytes([int(hexa, 16)]).decode(code_page, errors="replace"))
            except LookupError:
                out.append(bytes([int(hexa, 16)]).decode("cp1252", errors="replace"))
            continue
        if text:
            text = text.replace("\r", "").replace("\n", "")
            if skip_chars and text:
                text, skip_chars = text[1:], 0
            out.append(text)
    lines = [line.rstrip() for line in "".join(out).split("\n")]
    return "\n".join(lines).strip()
