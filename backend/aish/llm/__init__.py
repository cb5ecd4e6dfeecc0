"""Talking to models: one streamed chat call, and the choices around it.

    broker     chat_stream(): an OpenAI-compatible request -> typed events
    chunks     chat.completion.chunk objects -> events; server error shapes -> errors
    reasoning  <think> tags split out of answer text
    events     the typed events (a type module other packages may import)
    routing    which configured model a question goes to
    fallback   whether a failure may be retried once on the fallback model
    tokens     token counts: cached, bounded until settled, else char/4
    tokenizer  asking a server's own /tokenize (the route probed once, backing off when it fails)
    token_file the learned counts a daemon leaves for the next (digests and numbers only)
    template_file  the chat templates a daemon measured, left for the next (likewise)
    detect     finding a local server (llama.cpp, Ollama, ...) or a cloud key

HTTP itself (sessions, proxies, the failure -> error mapping) is ``aish.net``.
"""
