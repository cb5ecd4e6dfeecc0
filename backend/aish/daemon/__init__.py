"""The per-user daemon: one process per user serving every shell over FIFOs. Knows no model.

    runtime       the daemon's own files (lock, FIFO, pidfile, version), liveness, start, stop
    spawn         making the process (a fork, or a fresh interpreter)
    server        reads control lines, runs each request on a thread of its own (kept for the next)
    one_request   one request on its thread: its file, its reply FIFO, the handler, its E and D frames
    frames        the ``Reply`` that writes frames back to a client
    reader_watch  one thread that notices any reply FIFO's reader going away
    client_files  which reply paths may be trusted, and removing the files of clients that are gone
    client        the Python client (`aish ask` and the other verbs)

Nothing heavy is imported here: ``aish daemon status`` and the shells' start path go through it.
"""
