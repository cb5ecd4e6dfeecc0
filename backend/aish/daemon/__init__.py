"""The per-user daemon: one process per user serving every shell over FIFOs.

``runtime`` owns the files in the runtime dir (lock, FIFO, pidfile) and
starting/stopping; ``spawn`` makes the process (a fork, or a fresh interpreter); ``server`` reads control lines and runs one thread per
request; ``frames`` is the ``Reply`` that writes frames back.  Nothing heavy is
imported here: ``aish daemon status`` and the shells' start path go through it.
"""
