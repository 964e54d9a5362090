"""``python -m bgrecord``: the same as the ``bgrecord`` command."""

from bgrecord.launch import entry

if __name__ == "__main__":  # not when a worker process (Dask's, multiprocessing's spawn) imports this module
    entry()
