"""``python -m bgrecord``: the same as the ``bgrecord`` command."""

from bgrecord.cli import entry

entry()
