"""Effect rules for ``aish.safety``: one module per effect class (deletes, destroys content,
changes permissions, locks out, rewrites history, mass-deletes through a tool, destroys
remote resources, runs fetched code, wipes shell state); ``table`` maps programs to rules."""
