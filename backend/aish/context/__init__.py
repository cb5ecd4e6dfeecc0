"""What the model may know beyond the conversation, gathered here and redacted before it is sent.

    sources   where the last command's output can be read (tmux, kitty, WezTerm, the recorder)
    screen    what a command's raw output leaves on the screen (a small terminal emulator)
    sanitize  terminal text -> plain text: escapes stripped, binary named, head and tail kept
    output    pick a source, read it, clean it
    git       branch, upstream and dirty count, computed by the daemon and cached per repo
    project   AISH.md notes and the .aish.toml overlay (a safe subset), once trusted
    trust     trust in a repository's files by path and content hash, like direnv's allow
    memory    facts the user wants every answer to know, kept across sessions (0600)
    shells    the shells an agent can see (their state files) and the status request that
              reaches one waiting at its prompt

Nothing here runs the user's commands again or calls a model.
"""
