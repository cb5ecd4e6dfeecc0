"""What the model may know beyond the conversation, gathered here and redacted before it is sent.

Homes of: command output sources (tmux, kitty, WezTerm, aish's own recorder),
git/project context and the trust of a repository's files, and memory facts.
"""
