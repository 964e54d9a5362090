"""What is read: the formats bgrecord reads, one module each (``mat`` with its Lark grammar,
``sgf``, ``xg``, ``bgf``, ``ogxm``, ``fibs``, ``snowie``, ``bgrjson``...), the one place that
recognises a file by its content and reads it (:mod:`~bgrecord.formats.detect`), and what every
reader gives: records with their places and raw text (:mod:`~bgrecord.formats.records`) and the
issues found reading them (:mod:`~bgrecord.formats.issues`), from an input whose size is bounded
(:mod:`~bgrecord.formats.source`, :mod:`~bgrecord.formats.limits`). A file's matches, whatever
its format: :mod:`~bgrecord.formats.reader`.

Importing this package imports nothing: a module of it costs only what it imports.
"""
