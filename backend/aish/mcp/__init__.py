"""MCP client: talk to tool servers and let the model call their tools.

Layers, bottom up (each one concern):
    jsonrpc   message shapes and the error a server answered with
    http      Streamable HTTP (JSON or SSE answers, session ids) and plain-JSON servers
    stdio     a server process speaking newline-delimited JSON on its stdin/stdout
    session   the MCP handshake, tool listing with pagination, tool calls
    names     ``alias.tool`` <-> names a chat API accepts
    manager   every connected server of the daemon
    content   a tool result -> the text the model reads
    approval  who may let a tool call run without asking, and the question asked otherwise
    bridge    one tool call of the model: approve, dispatch, report
"""
