"""The report a player reads (``bgrecord report``): each match and each player of an archive
told from analyze's tables, as GNU Backgammon's ``show statistics`` and eXtreme Gammon's match
summary tell them, as a static HTML page or as text.

The parts: :mod:`~bgrecord.report.figures` (what is said: each match's and each game's figures,
the worst decisions, each player over the archive, computed from the tables' rows),
:mod:`~bgrecord.report.sources` (the rows: tables and databases written before, or files
analysed here, with each match's date from its record), :mod:`~bgrecord.report.charts` (the
charts as inline SVG), :mod:`~bgrecord.report.page` (the HTML page) and
:mod:`~bgrecord.report.text` (the same for a terminal).

The layer sits above analysis and show: it reads the one's tables and draws with the other's
board. Importing this package imports nothing.
"""
