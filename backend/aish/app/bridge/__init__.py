"""The agents' bridge, daemon side: what ``aish mcp-server`` asks, answered from the user's shells.

    hub        the daemon-wide object: the agents' and the shells' requests, by action; what
               it needs of the service (config, safety judgement, output) is handed in
    agents     who is connected (one entry per ``aish mcp-server`` process), the marker file
               the shells look for, each agent's redactor and what it read
    proposals  a proposed command's life, from the queue to ran, dismissed, withdrawn, timed
               out or its shell closed; one per shell at a time
    answers    shell_context and last_output: a shell's state and its last output, redacted
    landing    a proposal onto an idle shell's prompt line (the status request to its tty),
               followed until the user runs, edits or dismisses it

The MCP side (the SDK's server on stdio) is ``aish.cli.mcp_server``: another client of the
daemon, which reaches this package only through the protocol.
"""
