"""MCP client: tool servers on the official SDK, and what aish adds on top.

Layers, bottom up (each one concern):
    loop        the one asyncio loop (a daemon thread) every session lives on
    stdio       a server process: linear, byte-capped reading; safe environment; shutdown
    http_transport  Streamable HTTP and HTTP+SSE (the SDK's clients) through aish's HTTP policy
    spec        what starting or reaching a server takes, resolved (config, ``connect``'s words)
    connection  one server: the SDK's ClientSession, its life, its requests and their time-outs
    server_requests  the session's callbacks: a server's requests, routed to the call in progress
    failures    why a server failed, as one line with its fix
    asks        what a server asks while its tool runs: questions, completions, progress
    tools       McpTool, and the config's tool filters
    names       ``alias.tool`` <-> names a chat API accepts
    offered     the tools offered to the model under their wire names, one table at a time
    states      every server's state; the waits and views read from it
    manager     every server of the daemon: follow the config, connect, restart, dispatch
    catalog     resources and prompts, as text for the shell and the model
    results     a tool result -> the text the model reads
    approval    who may let a call run without asking, and the question asked otherwise
    bridge      one tool call of the model: approve, restore secrets, dispatch, report
"""
