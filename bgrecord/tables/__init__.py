"""The tables: statistics of whole archives with pandas (:mod:`~bgrecord.tables.stats`),
their exports and plots, the archive database with position search
(:mod:`~bgrecord.tables.archive`), and the Dask cluster that spreads files over workers.
"""
