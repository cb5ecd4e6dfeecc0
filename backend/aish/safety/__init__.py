"""What aish tells the user about a command before they press Enter, and what never leaves the machine.

    assess         a suggested command -> a risk level and the reason (the entry point)
    shell_words    a small POSIX-shell tokenizer/parser the checks and `:explain` share
    rules          rules for files, devices and permissions (rm, dd, chmod, mkfs ...)
    program_rules  rules for programs and services (git, SQL, kubectl, cloud CLIs ...)
    secrets        secret detection and redaction (a type module other packages may import)

Local and read-only: nothing here runs a command or calls the network.
"""
