"""What aish tells the user about a command before they press Enter, and what never leaves the machine.

    assess         a suggested command -> a risk level and the reason (the entry point)
    shell_words    a small POSIX-shell tokenizer/parser the checks and `:explain` share
    rules/         one module per effect: delete, content, perms, lockout, history, mass,
                   remote, netexec, shellstate; `common` classifies targets, `table` maps programs
    preview        what a flagged command would touch (expansion, counts, git/kube/cloud context)
    opinions       the optional model second opinion: cached, bounded by a timeout
    secrets        secret detection and redaction (a type module other packages may import)

Local and read-only: nothing here runs a command or calls the network (the second opinion
goes through the model call it is given).
"""
