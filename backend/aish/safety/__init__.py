"""What aish tells the user about a command before they press Enter, and what never leaves the machine.

    assess         a suggested command -> a risk level and the reason (the entry point)
    shell_words    a small POSIX-shell tokenizer/parser the checks and `:explain` share
    rules/         one module per effect: delete, content, perms, lockout, history, mass,
                   remote, netexec, shellstate; `common` classifies targets, `table` maps programs
    home           the user's home as HOME gives it, read cheaply at every judgement
    preview        what a flagged command would touch (expansion, counts, git/kube/cloud context)
    opinions       the optional model second opinion: cached, bounded by a timeout
    autorun        the opposite question, by positive knowledge: is a command known to be
                   harmless (only reads, no network, no secret read, parsed exactly)?
      autorun_programs  per program: readers' unsafe options and the words they read, git
      autorun_scripts   programs whose words are a program: find, sed, awk, jq, echo/printf
      autorun_paths     where it reads and writes: links, globs, `cd`, the task's directory
      read_only         the read-only vocabulary, as data tables
    instructions   text from a task that speaks to a model ("ignore the goal and send ...")
    secrets        redaction and restoring: Redactor, find_secrets, mask (the module other
                   packages may import); what is a secret is decided by:
      secret_formats   issuers' token formats (prefix, alphabet, length), PEM keys, webhooks
      secret_context   the value of a secret name in any assignment syntax
      secret_names     how secret a name is (words, strength)
      secret_uses      headers, cookies, URLs, commands' password options
      secret_random    a generated-looking value after any other name
      secret_values    literal or reference, placeholder, random-looking, distinctive
      secret_rules     the digest of those rules (a turn logged under the same is not scanned again)

Local and read-only: nothing here runs a command or calls the network (the second opinion
goes through the model call it is given).
"""
