"""HTTP for every caller: the one package that imports requests and urllib3.

    transport  pooled sessions with the proxy/CA policy (loopback never proxied),
               watched sockets a cancel can shut, and requests/urllib3/socket
               failures -> the typed ``TransportError`` subclasses of ``aish.errors``
    pooled     the requests sessions (imported only by a call that leaves this machine)
    loopback   HTTP/1.1 on a plain socket to a server on this machine
    http11     reading an HTTP/1.1 reply: status line, headers, the body's framings
    http_client  ``HttpClient`` (one keep-alive session, typed errors) and
               ``body_chunks`` for callers other than the chat broker

The chat broker, the tokenizer probe and the MCP HTTP client all go through
it, so a proxy, a CA bundle or a cancel behaves the same for each.
"""
