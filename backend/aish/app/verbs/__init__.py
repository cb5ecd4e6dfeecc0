"""The verbs (``aish <verb>``, ``? :verb``), one module per verb, each ``run(args, ctx)``.

The table of names, usage and help is ``aish.ipc.verbs``; ``dispatch`` finds a
verb's module, ``context`` is what a verb may read or change.  A module declares
in ``NEEDS`` which parts of the daemon's state it uses, so the service builds
only those (``mcp`` connects servers, ``ledger`` opens SQLite).  Verbs never
call back into the service: a verb that needs the model (``explain``) returns
an ``AskFor`` and the service runs the ask.
"""
