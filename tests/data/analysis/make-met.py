"""Writes bgrecord/analysis/met_table.py: GNU Backgammon's match equity table as gnubg uses it
(its default, Kazaross-XG2, extended by gnubg to 64 points), with the table's notice as its file
says it, to normalise the equities of an analysis stored in a record without running gnubg. Run
by gnubg itself:

    OUT=bgrecord/analysis/met_table.py gnubg -t -q -p tests/data/analysis/make-met.py
"""

import base64
import os
import re
import struct
import textwrap

import gnubg

SOURCE = "/usr/share/gnubg/met/Kazaross-XG2.xml"
tables = gnubg.met(64)
values = [value for row in tables[0] for value in row] + list(tables[1]) + list(tables[2])
data = base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()
lines = "\n".join(f"    {data[i:i + 96]!r}" for i in range(0, len(data), 96))
with open(SOURCE, encoding="utf-8") as xml:
    comment = re.search(r"<!--(.*?)-->", xml.read(), re.S).group(1)
notice = "\n".join(("    " + line.strip()).rstrip() for line in comment.strip().splitlines() if not line.strip().startswith("$Id")).rstrip()
header = ("GNU Backgammon's match equity table as gnubg 1.07 uses it by default "
          "(gnubg.met(64)): the 64 x 64 pre-Crawford table, then the post-Crawford tables of player 0 and player 1, "
          "as C floats (little-endian), in base 64; written by tests/data/analysis/make-met.py, read by "
          "bgrecord.analysis.met. The table's notice, from its file (met/Kazaross-XG2.xml):")
with open(os.environ["OUT"], "w", encoding="utf-8") as out:
    out.write(f'"""{textwrap.fill(header, 96)}\n\n{notice}\n"""\n\nSIZE = 64\nDATA = (\n{lines}\n)  # fmt: skip\n')
