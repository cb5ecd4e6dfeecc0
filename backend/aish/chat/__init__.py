"""One conversation with a model: its turns, what is kept of it, and how it is laid out.

    conversation  turns, the token budget, eviction into the summary
    session_log   the JSONL log a conversation is rebuilt from after a restart
    restore       a conversation replayed from its log, and the log compacted to a snapshot
    prompts       what the model is told: the system message and the request layout
    summarize     the rolling summary of evicted turns

No network: the summarizer's model call is handed in by its caller.
"""
