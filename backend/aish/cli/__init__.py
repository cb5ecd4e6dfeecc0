"""The `aish` command: parses, talks to the daemon, prints. Never imports ``aish.app``.

    main           the click group; `main()` is the one place that exits
    exit_status    the exit statuses, and the one way a command asks for one
    conversations  which conversation a command speaks in (the shell's, -c, --conv, its own)
    doctor         `aish doctor`: what is configured, reachable and readable
    shell_launcher `aish shell`: the user's shell with aish loaded
    recorder       the pty relay that remembers what the last commands printed
    scripts        the shell integration scripts and the rc loader `aish init` writes
    mcp_server     `aish mcp-server`: the agents' bridge, the MCP SDK's server on stdio
"""
