"""The `aish` command: parses, talks to the daemon, prints. Never imports ``aish.app``.

    main           `main()`: the one place that maps errors to an exit status; the click group
    doctor         `aish doctor`: what is configured, reachable and readable
    shell_launcher `aish shell`: the user's shell with aish loaded
    scripts        the shell integration scripts, installed or in a checkout
"""
