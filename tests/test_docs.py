"""The docs name only what exists: every repository path, every link between pages, every
`aish` command and every `AISH_*` shell setting they mention (docs named test files that had
moved away)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.safety.forms import each_form

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PATH = re.compile(r"(?<![\w/.$-])((?:tests|shell|backend|bench|docs|\.ci)/[\w./-]*[\w*])")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
COMMAND = re.compile(r"`aish ([a-z][\w-]*)")
SETTING = re.compile(r"\bAISH_[A-Z0-9_]+\b")


@each_form("doc", DOCS)
def test_every_path_and_link_a_doc_names_exists(doc):
    text = doc.read_text(encoding="utf-8")
    missing = []
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".")
        if "*" in path:
            if not list(ROOT.glob(path)):
                missing.append(path)
        elif not (ROOT / path).exists():
            missing.append(path)
    for match in LINK.finditer(text):
        target = match.group(1)
        if not target.startswith(("http://", "https://")) and not (doc.parent / target).exists():
            missing.append(f"link {target}")
    assert missing == []


def _commands() -> set:
    from aish.cli.main import cli

    return set(cli.commands)


@each_form("doc", DOCS)
def test_every_aish_command_a_doc_names_exists(doc):
    known = _commands()
    named = set(COMMAND.findall(doc.read_text(encoding="utf-8")))
    assert sorted(named - known) == []


def test_every_shell_setting_the_docs_name_is_read_somewhere():
    code = "\n".join(p.read_text(encoding="utf-8") for p in
                     [*(ROOT / "shell").glob("aish*"), *(ROOT / "backend").rglob("*.py")])
    suite = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    named = set()
    for doc in DOCS:
        named |= set(SETTING.findall(doc.read_text(encoding="utf-8")))
    # the test suite's own settings (AISH_TEST_*) are read by the suite, never by aish
    assert sorted(name for name in named if name not in (suite if name.startswith("AISH_TEST_") else code)) == []
