"""The shell scripts as text and as functions, without a terminal: the code both shells
share exists once (aish.common.sh), the split of a request has the same names in both, each
shell's on-demand half is reached only through stubs and never mixed across versions, and
bash writes its request file as zsh does (new, 0600)."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from aish.ipc.protocol import SECRET_NAME_WORDS
from aish.version import __version__

WORDS = "|".join(SECRET_NAME_WORDS)   # what a V frame carries

ROOT = Path(__file__).resolve().parents[2]
SHELLS = ("zsh", "bash")
# what the rc sources, and the half its first question sources
MAIN = {sh: (ROOT / "shell" / f"aish.{sh}").read_text(encoding="utf-8") for sh in SHELLS}
LAZY = {sh: (ROOT / "shell" / f"aish.lazy.{sh}").read_text(encoding="utf-8") for sh in SHELLS}
COMMON = (ROOT / "shell" / "aish.common.sh").read_text(encoding="utf-8")
# one request, which the on-demand half sources beside the shared code
REQUEST = {sh: (ROOT / "shell" / f"aish.request.{sh}").read_text(encoding="utf-8") for sh in SHELLS}
# norris steps and agents' proposals, which it sources too
STEPS = {sh: (ROOT / "shell" / f"aish.steps.{sh}").read_text(encoding="utf-8") for sh in SHELLS}
# every function the first question defines
ON_DEMAND = {sh: REQUEST[sh] + STEPS[sh] + LAZY[sh] for sh in SHELLS}
# as `aish init <shell>` prints it: the five files in one text
SCRIPTS = {sh: MAIN[sh] + COMMON + REQUEST[sh] + STEPS[sh] + LAZY[sh] for sh in SHELLS}
STUB = re.compile(r'^(_aish_\w+)\(\) \{ _aish_load \1 && \1 "\$@";? \}$', re.M)


def functions(text: str) -> list[str]:
    return re.findall(r"^(_aish_\w+)\(\) \{", text, re.M)


def test_the_code_both_shells_share_exists_once_and_both_on_demand_halves_load_it():
    shared = set(functions(COMMON))
    for name in ("_aish_esc", "_aish_unesc", "_aish_level_line", "_aish_handle_frame", "_aish_edit",
                 "_aish_pid_gone", "_aish_term_fields", "_aish_fix_marker"):
        assert name in shared
    for shell in SHELLS:
        assert not shared & set(functions(MAIN[shell] + ON_DEMAND[shell])), shell
        assert "/aish.common.sh" in LAZY[shell] and f"/aish.request.{shell}" in LAZY[shell] \
            and f"/aish.steps.{shell}" in LAZY[shell]
    assert "# >>> aish shared" not in SCRIPTS["zsh"] + SCRIPTS["bash"]   # the old copied block


@pytest.mark.parametrize("shell", SHELLS)
def test_the_shared_code_parses_and_escapes_alike_in_both_shells(shell, tmp_path):
    body = (f"source '{ROOT / 'shell' / 'aish.common.sh'}'; _aish_esc $'a%b\\tc\\nd'; e=$REPLY; "
            "_aish_unesc \"$e\"; printf '%s|%s' \"$e\" \"$REPLY\"")
    done = _run(shell, body, tmp_path)
    assert done.stdout == "a%25b%09c%0Ad|a%b\tc\nd", done.stdout + done.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_a_warning_frame_says_it_comes_from_aish_once(shell, tmp_path):
    """A warning (the model asked for an unknown tool, a server's question declined) printed
    bare, without the ``[aish]`` every other line of aish carries."""
    body = (f"source '{ROOT / 'shell' / 'aish.common.sh'}'; _aish_nl=1; "
            "for _aish_f1 in 'the model asked for an unknown tool' '[aish] already marked'; do "
            "_aish_tag=W; _aish_handle_frame; done")
    done = _run(shell, body, tmp_path)
    lines = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout).splitlines()
    assert lines == ["[aish] the model asked for an unknown tool", "[aish] already marked"], \
        done.stdout + done.stderr


def test_each_function_is_defined_once_and_the_request_split_has_the_same_names():
    for text in (STUB.sub("", SCRIPTS["zsh"]), STUB.sub("", SCRIPTS["bash"])):
        names = functions(text)
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    request = {"_aish_request", "_aish_send_request", "_aish_read_frame", "_aish_handle_frame", "_aish_approve"}
    assert request <= set(functions(SCRIPTS["zsh"])) and request <= set(functions(SCRIPTS["bash"]))


def test_every_zsh_function_outside_the_shared_code_sets_its_options():
    text = MAIN["zsh"] + ON_DEMAND["zsh"]
    bodies = re.findall(r"^(_aish_\w+)\(\) \{\n(.*?)\n", text, re.M)
    leaves = {"_aish_dir", "_aish_send", "_aish_ensure", "_aish_typed", "_aish_finish"}  # helpers of emulated callers
    missing = [name for name, first in bodies if "emulate -L zsh" not in first and name not in leaves
               and not (name == "_aish_precmd" and "$?" in first)]   # reads $? before anything runs
    assert missing == []


@pytest.mark.parametrize("shell", SHELLS)
def test_the_first_half_reaches_the_on_demand_half_only_through_stubs(shell):
    stubs = set(STUB.findall(MAIN[shell]))
    main, lazy = set(functions(STUB.sub("", MAIN[shell]))), set(functions(ON_DEMAND[shell]))
    assert stubs and stubs <= lazy, sorted(stubs - lazy)          # each stub has its definition
    assert not main & lazy, sorted(main & lazy)
    # the first half never names an on-demand function but through its stub
    named = [name for name in lazy - stubs if re.search(rf"(?<![\w$]){name}\b", MAIN[shell])]
    assert named == []


@pytest.mark.parametrize("shell", SHELLS)
def test_the_on_demand_half_is_functions_and_its_revision_only(shell):
    """It is sourced inside a function: a top-level `declare`/`local` would be a local there."""
    def top(text: str) -> list[str]:
        return [line.split("#")[0].strip()
                for line in re.sub(r"^_aish_\w+\(\) \{\n.*?^\}$|^_aish_\w+\(\) \{.*\}$", "", text,
                                   flags=re.M | re.S).splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    check = {"bash": '[[ ${_aish_rev-} == "$_aish_lazy_rev" ]] || return 1',
             "zsh": "[[ ${_aish_rev-} == $_aish_lazy_rev ]] || return 1"}[shell]
    load = []
    for rev, name in (("common", "aish.common.sh"), ("request", f"aish.request.{shell}"),
                      ("steps", f"aish.steps.{shell}")):
        load += {"bash": [f'if [[ ${{_aish_{rev}_rev-}} != "$_aish_lazy_rev" ]]; then',
                          f"_aish_lazy_missing=${{_aish_lazy%/*}}/{name}",
                          "[[ -r $_aish_lazy_missing ]] || return 1",
                          'source "$_aish_lazy_missing" || return 1', "fi"],
                 "zsh": [f"if [[ ${{_aish_{rev}_rev-}} != $_aish_lazy_rev ]]; then",
                         f"_aish_lazy_missing=${{${{(%):-%x}}:A:h}}/{name}",
                         "[[ -r $_aish_lazy_missing ]] || return 1",
                         "source $_aish_lazy_missing || return 1", "fi"]}[shell]
    assert top(LAZY[shell]) == [f"_aish_lazy_rev={__version__}", check, *load, "_aish_lazy_missing=",
                                "_aish_lazy_done=1"]
    assert top(REQUEST[shell]) == [f"_aish_request_rev={__version__}"]
    assert top(STEPS[shell]) == [f"_aish_steps_rev={__version__}"]
    assert re.search(rf"(^|typeset -g )_aish_rev={re.escape(__version__)} ", MAIN[shell], re.M)
    assert re.search(rf"^_aish_common_rev={re.escape(__version__)} ", COMMON, re.M)


def test_bash_writes_the_request_file_new_and_0600_and_keeps_umask_and_noclobber(tmp_path):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    os.mkfifo(run / "daemon.fifo", 0o600)
    (run / "daemon.pid").write_text(f"{os.getpid()}\n")
    script = ROOT / "shell" / "aish.bash"
    body = f"""
source '{script}'
_aish_load || exit 7
_aish_ensure || exit 9
umask 022
_aish_trap_int
_aish_conv=c
RANDOM=7; _aish_seq=0
_aish_send_request ask question hi '' || exit 8
echo "mode=$(stat -c %a "$_aish_d/$_aish_id.req") umask=$(umask) flags=$-"
RANDOM=7; _aish_seq=0
if _aish_send_request ask question again ''; then echo clobbered; else echo refused; fi
grep -c again "$_aish_d/$_aish_id.req"
"""
    done = subprocess.run(["bash", "-c", body], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "AISH_RUNTIME_DIR": str(run)})
    out = done.stdout
    assert "mode=600 umask=0022" in out, out + done.stderr
    assert "C" not in out.split("flags=")[1].split()[0]
    assert "refused" in out and out.strip().endswith("0"), out


@pytest.mark.parametrize("shell", SHELLS)
def test_variables_go_only_when_the_daemon_asks_and_only_through_the_private_dir(shell, tmp_path):
    """The request says `vars=ask` and carries no value; a V frame's answer is a new 0600
    file in the private dir (secret-looking names without their value) and `answer ... v`."""
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    os.mkfifo(run / "daemon.fifo", 0o600)
    (run / "daemon.pid").write_text(f"{os.getpid()}\n")
    sent = "read -r -t 2 -u 9 line"   # what the shell wrote to daemon.fifo, read back
    body = f"""
exec 9<>"$AISH_RUNTIME_DIR/daemon.fifo"   # a reader, as the daemon is
source '{ROOT / "shell" / f"aish.{shell}"}'
_aish_load || exit 7
_aish_ensure || exit 9
_aish_conv=c
_aish_send_request ask question hi '' || exit 8
{sent}; echo "first=$line"
echo "req=$_aish_d/$_aish_id.req"
_t_caller() {{ local AISHT_LOCAL=shadow; _aish_vars q1 '{WORDS}'; }}   # as called from inside a widget
_t_caller
{sent}; echo "answered=$line"
echo "vars=$_aish_d/$_aish_id.q1.vars"
_aish_vars q2 'not a list'                # (a V frame without the words: no value at all)
{sent}; echo "nolist=$_aish_d/$_aish_id.q2.vars"
"""
    # (set outside the script text: zsh keeps a -c script in ZSH_EXECUTION_STRING)
    done = subprocess.run([shell, "-c", body], capture_output=True, text=True, timeout=30, cwd=tmp_path,
                          env={**os.environ, "AISH_RUNTIME_DIR": str(run), "AISHT_DIR": "/srv/x",
                               "AISHT_API_TOKEN": "s3cr3t"})
    out = done.stdout
    lines = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    assert "req" in lines and "vars" in lines, out + done.stderr
    request = Path(lines["req"]).read_text()
    assert "vars=ask\n" in request and "var=" not in request and "s3cr3t" not in request, request
    req_id = Path(lines["req"]).name[:-len(".req")]
    assert lines["first"] == f"req {req_id}", out
    assert lines["answered"] == f"answer {req_id} q1 v", out
    vars_file = Path(lines["vars"])
    assert oct(vars_file.stat().st_mode & 0o777) == "0o600"
    sent_vars = vars_file.read_text()
    assert "var=AISHT_DIR=/srv/x\n" in sent_vars and "var=AISHT_API_TOKEN\n" in sent_vars
    assert "s3cr3t" not in sent_vars and "var=_aish_" not in sent_vars and "var=BASH_" not in sent_vars
    if shell == "zsh":   # a caller's local is not the user's variable (bash cannot tell them apart)
        assert "var=AISHT_LOCAL" not in sent_vars, sent_vars
    withheld = Path(lines["nolist"]).read_text()
    assert "var=AISHT_DIR\n" in withheld and "/srv/x" not in withheld and "s3cr3t" not in withheld
    assert [p.name for p in tmp_path.iterdir()] == ["run"]   # nothing outside the private dir
    names = sorted(p.name for p in run.iterdir())
    assert all(n.startswith(("daemon.", f"{shell}-")) for n in names), names
    for name in names:        # bash lists the names through a file: kept empty, no values at rest
        if name.endswith(".vars") and not name.startswith(req_id):
            assert (run / name).read_text() == "", name


def _run(shell: str, body: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([shell, "-c", body], capture_output=True, text=True, timeout=30, cwd=cwd)


def _copy_scripts(shell: str, dest: Path, lazy: str | None = "") -> Path:
    dest.mkdir()
    (dest / f"aish.{shell}").write_text(MAIN[shell], encoding="utf-8")
    if lazy is not None:
        (dest / f"aish.lazy.{shell}").write_text(lazy or LAZY[shell], encoding="utf-8")
        (dest / "aish.common.sh").write_text(COMMON, encoding="utf-8")
        (dest / f"aish.request.{shell}").write_text(REQUEST[shell], encoding="utf-8")
        (dest / f"aish.steps.{shell}").write_text(STEPS[shell], encoding="utf-8")
    return dest / f"aish.{shell}"


KEY = {"zsh": "_aish_ask_widget", "bash": "_aish_ask_key"}            # a key's stub
DEFINED = {"zsh": "(( ${+functions[_aish_request]} )) && echo _aish_request || echo none",
           "bash": "declare -F _aish_request || echo none"}


@pytest.mark.parametrize("shell", SHELLS)
def test_the_on_demand_half_is_found_after_a_cd_when_sourced_by_a_relative_path(shell, tmp_path):
    _copy_scripts(shell, tmp_path / "sh")
    done = _run(shell, f"source sh/aish.{shell}; cd /; _aish_load && {DEFINED[shell]}", tmp_path)
    assert done.stdout.strip() == "_aish_request", done.stdout + done.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_without_the_on_demand_half_a_question_says_so_in_one_line(shell, tmp_path):
    script = _copy_scripts(shell, tmp_path / "sh", lazy=None)
    done = _run(shell, f"source '{script}'; _aish_question; echo status=$?; {KEY[shell]}; echo status=$?",
                tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == (f"aish: cannot read {tmp_path}/sh/aish.lazy.{shell}: "
                        f"load aish with the line `aish init {shell} --rc` prints"), done.stdout + done.stderr
    assert lines[1] == "status=1" and lines[3] == "status=1" and done.stderr == ""


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("companion", ["aish.common.sh", "aish.request.{shell}"])
def test_a_missing_companion_of_the_on_demand_half_is_named_in_one_line(shell, companion, tmp_path):
    """A half-removed install (the shared code or the request file gone) said "aish was
    upgraded (0.1.0 -> 0.1.0)" after zsh's or bash's own error line."""
    script = _copy_scripts(shell, tmp_path / "sh")
    gone = tmp_path / "sh" / companion.format(shell=shell)
    gone.unlink()
    done = _run(shell, f"source '{script}'; _aish_question; echo status=$?", tmp_path)
    lines = done.stdout.splitlines()
    assert lines == [f"aish: cannot read {gone}: reinstall aish", "status=1"], done.stdout + done.stderr
    assert done.stderr == "", done.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_halves_of_two_versions_never_mix(shell, tmp_path):
    """The package upgraded under a running shell: its old first half meets a new second half."""
    script = _copy_scripts(shell, tmp_path / "sh", LAZY[shell].replace(f"_aish_lazy_rev={__version__}",
                                                                       "_aish_lazy_rev=99.0"))
    done = _run(shell, f"source '{script}'; {KEY[shell]}; echo status=$?; {DEFINED[shell]}", tmp_path)
    assert done.stdout.splitlines() == [
        f"aish: aish was upgraded ({__version__} -> 99.0) since this shell started: open a new shell",
        "status=1", "none"], done.stdout + done.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_a_stub_whose_function_is_missing_says_so_and_never_recurses(shell, tmp_path):
    name = {"zsh": "_aish_fix_widget", "bash": "_aish_fix_key"}[shell]
    lazy = re.sub(rf"^{name}\(\) \{{.*\}}$", "", LAZY[shell], flags=re.M)
    assert lazy != LAZY[shell]
    script = _copy_scripts(shell, tmp_path / "sh", lazy)
    done = _run(shell, f"source '{script}'; {name}; echo status=$?", tmp_path)
    assert done.stdout.splitlines() == [
        f"aish: {tmp_path}/sh/aish.lazy.{shell} lacks {name}: reinstall aish", "status=1"], done.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_sourced_again_after_the_load_the_first_half_loads_its_half_again(shell, tmp_path):
    script = _copy_scripts(shell, tmp_path / "sh")
    cycle = {"zsh": "_aish_cycle_widget", "bash": "_aish_cycle_key"}[shell]
    show = {"zsh": f"print -r -- $functions[{cycle}]", "bash": f"declare -f {cycle}"}[shell]
    done = _run(shell, f"source '{script}'; _aish_load; source '{script}';"
                f"{cycle}; echo status=$?; {show} | grep -c _aish_load", tmp_path)
    # the stub ran, loaded the half, and the real function (no _aish_load in it) replaced it
    assert done.stdout.splitlines() == ["status=0", "0"], done.stdout + done.stderr


EXEC = re.compile(r"(?<![\w-])exec\b(?!_)")
CLOSE = re.compile(r"^exec (\{\w+\}|\d+)[<>]&-$")
OPEN_IN_GROUP = re.compile(r"\{ exec \d+<>\"[^\"]+\"; \} 2>/dev/null")


@pytest.mark.parametrize("name", [f"aish.{sh}" for sh in SHELLS] + [f"aish.lazy.{sh}" for sh in SHELLS]
                         + [f"aish.request.{sh}" for sh in SHELLS])
def test_no_bare_exec_carries_a_redirection_for_the_shell_itself(name):
    """`exec {fd}<>FIFO 2>/dev/null` (no command) sends the shell's own stderr to /dev/null
    for good: every exec is a lone close, or a bash open inside a `{ ...; } 2>/dev/null`
    group; zsh opens with sysopen (close-on-exec)."""
    bad = []
    for number, line in enumerate((ROOT / "shell" / name).read_text().splitlines(), 1):
        code = line.split(" #")[0].strip()
        if code.startswith("#") or not EXEC.search(code):
            continue
        if OPEN_IN_GROUP.search(code) and name.endswith("bash"):
            continue
        statement = re.split(r"\s*(?:;|&&|\|\|)\s*|\s+\}", code[EXEC.search(code).start():])[0]
        if not CLOSE.match(statement):
            bad.append(f"{number}: {line.strip()}")
    assert bad == []


def test_zsh_opens_every_descriptor_close_on_exec():
    opens = re.findall(r"sysopen [^\n]*", SCRIPTS["zsh"])
    assert opens and all("cloexec" in line for line in opens), opens
