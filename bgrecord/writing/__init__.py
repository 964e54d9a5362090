"""Records written: GNU Backgammon's .mat layout, SGF, bgrecord's JSON and OGXM
(:mod:`~bgrecord.writing.writers`, :mod:`~bgrecord.writing.ogxm`), and ``bgrecord convert``
(:mod:`~bgrecord.writing.convert`). Built on the replay: a record is written as it replays.
"""
