"""Verbs on the wire: `? :help` and an unknown verb as the widgets send them over the FIFO, and
`aish memory edit`, whose editor runs on the CLI's side.  What the verbs do is tested in
process against the daemon's Service (tests/app/test_service_*.py)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from tests.helpers import ok

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_shell_help_and_an_unknown_verb_through_the_real_daemon(stub):
    """`? :help` and `? :nope` travel as verb requests over the FIFO, as the widgets send them."""
    from aish.daemon.client import Client
    from aish.ipc.protocol import Request
    from aish.ipc.verbs import VERBS

    def send(*argv):
        frames = []
        Client().request(Request(kind="verb", conv="e2e", argv=list(argv)),
                         on_frame=lambda f: frames.append((f.tag, " ".join(f.fields))),
                         timeout=30)
        return frames

    text = "".join(field for tag, field in send(":help") if tag == "T")
    assert {line.split()[0] for line in text.splitlines() if re.match(r"  \S", line)} == \
        {verb.name for verb in VERBS}
    errors = [field for tag, field in send(":nope") if tag == "E"]
    assert errors == ["unknown verb 'nope' not_found 'aish help' lists them"]  # message, kind, hint


def test_memory_edit_goes_through_the_editor_and_is_redacted_when_stored(stub, tmp_path):
    ok("remember", "I use fd")
    editor = tmp_path / "editor.sh"
    editor.write_text(f"#!/bin/sh\necho 'token {SECRET}' >> \"$1\"\nsed -i 's/fd/ripgrep/' \"$1\"\n")
    editor.chmod(0o700)
    result = ok("memory", "edit", env={"EDITOR": str(editor), "VISUAL": str(editor)})
    assert "memory now holds 2 facts" in result.stdout
    listing = ok("memory", "list").stdout
    assert "1. I use ripgrep" in listing and "2. token ***" in listing
    assert SECRET not in (Path(os.environ["AISH_STATE_DIR"]) / "memory.json").read_text()
