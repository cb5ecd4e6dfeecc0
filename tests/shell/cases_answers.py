"""How an answer looks on screen, in both shells: long answers, cancelling, resizing,
status while the model thinks, cycling flagged suggestions, commands without `CMD:`.

Collected by test_shell_zsh.py and test_shell_bash.py next to cases.py.  Each case is one
scenario a user lives through; the checks read the screen and the scrollback (tmux).
"""
from __future__ import annotations

from tests.stub_server import Reply
from tests.shell.shellenv import PROMPT, prompt_line, user_message

TOP = "top-of-prompt"
QUESTION = "? tell me a long story"


def paragraphs(n: int = 12, words: int = 70) -> str:
    """~5 KB of prose: n paragraphs, each one long line that wraps, numbered once each."""
    return "".join(f"Paragraph P{i:02d}: " + " ".join(f"w{i}x{j}" for j in range(words)) + f" end{i:02d}.\n\n"
                   for i in range(n))


def test_long_answer_streams_once_survives_a_resize_and_up_recalls_the_question(make_shell, stub, shell_name):
    """12 paragraphs stream with a two-line prompt; the window shrinks mid-answer.  The
    scrollback holds the question once, every paragraph once, the prompt's top line twice
    (before the question, above the new prompt); then Up brings the question back."""
    prompt = f"{TOP}\n{PROMPT}"
    sh = make_shell(prompt=prompt)
    text = paragraphs()
    stub.queue(Reply(text=text, chunk_size=40, delay=0.02))
    sh.ask(QUESTION)
    sh.wait("P04")
    sh.tmux.resize(80, 30)
    sh.wait_prompt("", timeout=30)
    sh.tmux.resize(100, 30)
    sh.wait_prompt("")
    history = sh.tmux.history()
    rows = [r.rstrip() for r in history.splitlines() if r.strip()]
    assert sum(QUESTION in r for r in rows) == 1, history
    for i in range(12):
        assert history.count(f"P{i:02d}:") == 1, (i, history)
        assert history.count(f"end{i:02d}.") == 1, (i, history)
    assert sum(r == TOP for r in rows) == 2, history
    assert rows[-2] == TOP and rows[-1] == PROMPT.rstrip(), history
    # Wrapped rows joined: the 12 paragraphs, the question, two prompts of two lines.
    assert len(rows) <= 12 + 5, history
    sh.tmux.keys("Up")
    sh.wait_prompt(QUESTION)


def test_ctrl_c_keeps_the_partial_answer_marked_cancelled(sh, stub):
    words = " ".join(f"word{i:04d}" for i in range(400))
    stub.queue(Reply(text=words, chunk_size=9, delay=0.03))
    sh.ask("? a slow answer")
    sh.wait("word0012")
    sh.tmux.keys("C-c")
    screen = sh.wait_prompt("")
    assert "word0001 word0002" in screen, screen
    assert "[aish] cancelled" in screen, screen
    assert "error" not in screen.lower() and "Bad file descriptor" not in screen, screen
    # one fresh prompt under the mark: no copy of the question's prompt line (zsh drew one)
    assert sh.tmux.history().count("? a slow answer") == 1, sh.tmux.history()
    # The shell works on: the next question is answered as usual.
    stub.queue(Reply(text="fine\nCMD: ls -la\n"))
    sh.ask("? and now")
    sh.wait_prompt("ls -la")


def test_status_while_the_model_thinks_then_a_note(sh, stub):
    stub.queue(Reply(reasoning="hmm " * 60, chunk_size=8, delay=0.05, text="Answer.\nCMD: ls -la\n"))
    sh.ask("? think first")
    sh.wait("thinking")
    screen = sh.wait_prompt("ls -la")
    assert "thinking" not in screen, screen
    assert "reasoning" in screen and "hidden" in screen, screen
    assert "hmm" not in screen


def test_cycling_flagged_suggestions_never_looks_executed(sh, stub):
    stub.queue(Reply(text="Two ways.\nCMD: rm -rf ~/old-builds\nCMD: git push --force origin main\n"))
    sh.ask("? clean up and publish")
    screen = sh.wait(lambda s: prompt_line(s) == PROMPT + "rm -rf ~/old-builds")
    assert "[aish] high risk" in screen or "[aish] medium risk" in screen, screen
    for expected in ("git push --force origin main", "rm -rf ~/old-builds", "git push --force origin main"):
        sh.press("cycle")
        screen = sh.wait(lambda s, e=expected: prompt_line(s) == PROMPT + e)
    # The current suggestion's warning sits next to the line: under it (zsh) or above (bash);
    # with its preview it may wrap onto a second row.
    rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
    at = rows.index(PROMPT + "git push --force origin main")
    assert "force push" in " ".join(rows[at - 2:at + 3]), screen
    history = sh.tmux.history()
    shown = [r for r in history.splitlines() if r.startswith(PROMPT) and ("rm -rf" in r or "push" in r)]
    assert shown == [PROMPT + "git push --force origin main"], history


def test_commands_from_a_shell_block_without_cmd_lines_cleaned_of_invisible_characters(sh, stub):
    stub.queue(Reply(text="Use find:\n\n```bash\n$ find . -name '*.log'\u200b -delete\u202e\n```\n\n"
                          "Or, by hand, `ls *.log` first.\n"))
    sh.ask("? delete the logs")
    screen = sh.wait(lambda s: prompt_line(s) == PROMPT + "find . -name '*.log' -delete")
    assert "invisible" in screen, screen
    line = prompt_line(screen)
    assert "\u202e" not in line and "\u200b" not in line


def test_empty_line_keys_raise_no_shell_error(sh, stub):
    stub.queue(Reply(text="Next:\nCMD: make test\n"))
    sh.press("ask")
    sh.wait_prompt("make test")
    assert "Suggest the next command" in user_message(stub.requests[-1])
    sh.tmux.keys("C-u")
    sh.press("explain")
    sh.wait("nothing to explain")
    sh.wait_prompt("")
    # zsh printed `_aish_request: shift count must be <= $#` (partly overdrawn: `_aish_`).
    history = sh.tmux.history()
    assert "shift count" not in history and "_aish_" not in history, history
    assert len(stub.requests) == 1


def test_an_answer_without_a_final_newline_keeps_its_last_line_and_the_prompt_below(sh, stub):
    """Models often end without a newline: the last line stays on screen whole, and the
    prompt is drawn on a fresh row under it (zsh drew it after the text, bash erased it)."""
    stub.queue(Reply(text="First line.\nLast line without a newline", chunk_size=7))
    sh.ask("? end without a newline")
    screen = sh.wait_prompt("")
    rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
    assert "Last line without a newline" in rows, screen
    assert rows[rows.index("Last line without a newline") + 1] == PROMPT.rstrip(), screen


def test_a_flagged_suggestion_is_previewed_with_the_shells_own_variables(make_shell, stub, shell_name):
    """The preview expands a variable only this shell has (not exported): the daemon asks the
    shell for its variables after the answer, never before the first byte."""
    sh = make_shell(after="AISHT_TARGET=/srv/aisht-data")
    stub.queue(Reply(text='Clear it.\nCMD: rm -rf "$AISHT_TARGET"/*\n'))
    sh.ask("? clear the data dir")
    screen = sh.wait_prompt('rm -rf "$AISHT_TARGET"/*')
    assert "would run: rm -rf /srv/aisht-data/*" in "".join(screen.split("\n")), screen
    assert not list(sh.runtime.glob("*.vars")) or all(p.read_text() == "" for p in sh.runtime.glob("*.vars"))


def _ran(path, timeout: float = 15.0) -> str:
    """The text a landed command wrote, once it has been written."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(encoding="utf-8").endswith("\n"):
            return path.read_text(encoding="utf-8")
        time.sleep(0.05)
    raise AssertionError(f"{path.name} was never written")


# (answer, the prompt line's first row once it landed, the file it writes, what the file must hold)
LANDED_SHAPES = [
    # a redirect on a continued line stays a redirect (it used to land as an argument: `… ./cache out1.txt 2>&1`)
    ("Quietly:\n```bash\necho kept ./cache \\\n  > out1.txt 2>&1\n```\n",
     "echo kept ./cache > out1.txt 2>&1", "out1.txt", "kept ./cache\n"),
    # a heredoc after CMD: keeps its body and terminator (only the first line landed)
    ("Write it:\nCMD: cat > out2.txt <<'EOF'\nline one\n  $HOME stays\nEOF\nThen read it.\n",
     "cat > out2.txt <<'EOF'", "out2.txt", "line one\n  $HOME stays\n"),
    # arithmetic with << is not a heredoc; a here-string neither (they swallowed the block)
    ("```bash\nread -r n <<< \"$((1<<20))\"; echo \"$n\" > out3.txt\necho second\n```\n",
     'read -r n <<< "$((1<<20))"; echo "$n" > out3.txt', "out3.txt", "1048576\n"),
    # Windows line ends and a loop over several lines
    ("Loop:\r\n```bash\r\nfor i in 1 2; do\r\n  echo \"n$i\"\r\ndone > out4.txt\r\n```\r\n",
     "for i in 1 2; do", "out4.txt", "n1\nn2\n"),
]


def test_answers_land_as_the_shell_reads_them_and_run_as_meant(sh, stub):
    """Continuations, heredocs, arithmetic, here-strings, CRLF and loops land byte for byte what
    the answer meant; running them (Enter) writes exactly what the answer's command writes."""
    work = sh.home / "work"
    for answer, first_row, name, expected in LANDED_SHAPES:
        stub.queue(Reply(text=answer))
        sh.ask(f"? make {name}")
        sh.wait(lambda s, r=first_row: any(line.startswith(PROMPT + r) for line in s.splitlines()))
        sh.tmux.keys("Enter")
        assert _ran(work / name) == expected, name
        sh.wait_prompt("")
    assert not (work / "cache").exists()
