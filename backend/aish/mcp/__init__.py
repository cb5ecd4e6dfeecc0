"""MCP client: tool servers on the official SDK, and what aish adds on top.

Layers, bottom up (each one concern):
    loop        the one asyncio loop (a daemon thread) every session lives on
    stdio       a server process: linear, byte-capped reading; safe environment; shutdown
    remote      Streamable HTTP and HTTP+SSE (the SDK's clients) through aish's HTTP policy
    spec        what starting or reaching a server takes, resolved (config or the caller's shell)
    connection  one server: the SDK's ClientSession, time-outs, errors as one line
    asks        what a server asks while its tool runs: questions, completions, progress
    tools       McpTool, and the config's tool filters
    names       ``alias.tool`` <-> names a chat API accepts
    manager     every server of the daemon: follow the config, connect, dispatch
    catalog     resources and prompts, as text for the shell and the model
    content     a tool result -> the text the model reads
    approval    who may let a call run without asking, and the question asked otherwise
    bridge      one tool call of the model: approve, restore secrets, dispatch, report
"""
