"""The application: the only package that wires features together.

    service      the request kinds dispatched through a table, each to its flow
    daemon_state  what the daemon keeps for every shell, one each: the config it follows
                 (reload, detection), sessions, memory, project, MCP, token counter, ledger, taps
    sessions     one shell's session: its conversation (the transcript), usage, redactor,
                 attachments, sent history, approvals, the norris task; ``Sessions`` by id
    env          what a flow is handed: the daemon-wide parts (config, broker, ledger, MCP...)
    model_call   the one costed, redacted model call (redact, stream, restore, retract
                 reasoning, account under a category, one-hop fallback) every caller uses
    ask          one question end to end: route, budget, stream, fallback, tools, suggestions
    tool_rounds  a model's tool calls, run in order through the approval policy
    judge        a suggested command's safety: local verdict, second opinion, preview (asks the
                 shell for its variables when a preview needs them)
    explain      `:explain`: a model explains the command on the prompt line, piece by piece
    suggestions  the commands an answer suggests (`CMD:` lines, else shell code blocks)
    attach_output  the last command's output attached to the question it belongs to
    fix          fixes drafted in the background after a failure, for the fix key
    knowledge    memory and project context for an ask; the memory summarizer's call
    delegate     a sub-task handed to another configured model
    norris       a multi-step task: the planner loop, each step a command on the prompt line
    norris_task  a task's state, kept in the session log so `:norris resume` survives a restart
    norris_autorun  whether a step runs by itself (safety.autorun + the rules + what the task
                 read), and the step output / tool results marked as the task's data
    verbs/       the handlers the verb table's rows name; `handler(args, ctx)` with a typed context
    bridge/      the agents' bridge: what `aish mcp-server` asks (a shell's context, its last
                 output, a proposed command) and the shells' side of a proposal

The daemon reaches it only through its lazy service hook; the CLI never imports it.
"""
