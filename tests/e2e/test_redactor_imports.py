"""The redactor's patterns are compiled when a rule first tries one, not at import.

A cold daemon imports the redactor before its first answer; compiling its ~75 patterns then
cost ~6 ms of CPU for a question and a system prompt that almost none of them are tried on.
Every rule still runs on every text: the literal a rule needs is looked for first, and its
pattern is compiled the first time it is found.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r'''
import json, re, sys
import aish.llm.events, aish.ipc.protocol  # (their own patterns are not the redactor's)
before = set(re._cache)
from aish.safety.secrets import Redactor
at_import = [key[1] for key in re._cache if key not in before]
r = Redactor()
plain = r.redact("how do I list the files of this directory by size?")
leaky = r.redact("curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0' "
                 "https://deploy:Xk29fPq7@git.example.com/x.git; "
                 "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
print(json.dumps({"at_import": at_import, "plain": plain, "leaky": leaky}))
'''


def test_importing_the_redactor_compiles_none_of_its_patterns_and_it_still_catches():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "backend")}
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["at_import"] == []
    assert result["plain"] == "how do I list the files of this directory by size?"
    for secret in ("9f8e7d6c5b4a39281706f5e4d3c2b1a0", "Xk29fPq7", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"):
        assert secret not in result["leaky"]
    assert "Authorization: Bearer <secret:" in result["leaky"] and "deploy:<secret:" in result["leaky"]
