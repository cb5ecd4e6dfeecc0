"""The wire shared with the shells: what a request and a frame look like.

    protocol  request/control/frame codec (docs/protocol.md)
    reply     the channel one request answers through (an interface)
    cancel    the token a request's threads share to notice the user gave up
    workers   the threads requests run on: kept for the next one, and one alarm thread
    verbs     the verb table: names, usage and one-line help, shared by CLI, daemon and docs

Pure: nothing here does I/O (``workers`` runs threads), and it imports only ``aish.errors``.
"""
