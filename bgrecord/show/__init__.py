"""The ways a replay is shown: its steps (:mod:`~bgrecord.show.steps`) in words a screen
reader can speak (:mod:`~bgrecord.show.words`), GNU Backgammon's ASCII board, SVG boards, one
self-contained HTML page, the text replay and the terminal viewer.
"""
