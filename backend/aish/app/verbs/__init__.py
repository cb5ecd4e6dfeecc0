"""The verbs (``aish <verb>``, ``? :verb``): the handlers the rows of ``aish.ipc.verbs`` name.

A row of the table declares a verb's handler (``module:function`` here) and the
parts of the daemon's state it needs, so the service builds only those (``mcp``
connects servers, ``ledger`` opens SQLite).  ``dispatch`` parses a request's
words once (the verb, its arguments, ``--json``) and finds the handler;
``context`` is what a handler may read or change.  Handlers never call back into
the service: one that needs the model (``explain``, ``fix``) returns an ``AskFor``
and the service runs a new ask request.
"""
