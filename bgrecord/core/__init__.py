"""The rules core: positions, dice, moves and plays, their legality and generation, and the
identifiers of a position (gnubg's Position ID and Match ID, XGID, OGID).

Plain values, knowing nothing of files, records or matches; nothing here imports from the rest
of bgrecord (a position draws itself, ``str()`` and ``_repr_svg_``, through
:mod:`bgrecord.show.board` and :mod:`bgrecord.show.svg`, imported inside those hooks).
"""
