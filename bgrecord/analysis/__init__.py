"""Analysis: every decision's error and every roll's luck, through an engine run as a program
(GNU Backgammon: :mod:`bgrecord.analysis.gnubg`).

The parts: :mod:`~bgrecord.analysis.engine` (what an engine is given and gives back),
:mod:`~bgrecord.analysis.gnubg` (the gnubg process; its script,
``gnubg_script.py``, runs inside gnubg and is never imported), :mod:`~bgrecord.analysis.measures`
(errors, luck, totals and ratings as gnubg defines them), :mod:`~bgrecord.analysis.files` (a file's
matches analysed, the rows of the tables), :mod:`~bgrecord.analysis.tables` (their columns).

Importing this package imports nothing: the commands that do not analyse never load it.
"""
