"""Tests of aish.context: memory, git/project context, trust."""
