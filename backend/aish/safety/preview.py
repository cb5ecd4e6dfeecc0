"""What a flagged command would touch: one line computed locally, read-only, never running it.

Variables and globs are expanded against the user's cwd and the variables
their shell sent, the way the shell would (an unset ``$DIR`` is empty, so
``rm -rf "$DIR"/*`` is ``rm -rf /*``; ``rm *.log`` "matches 1,204 files").
The blast radius comes from files only: the git branch and remote from
``.git``, the kube context and namespace from the kubeconfig, the AWS profile
and region from the environment and ``~/.aws/config``, the terraform
workspace from ``.terraform/environment``.  Nothing here writes, runs a
program or opens a network connection; a command substitution is never run.
"""
from __future__ import annotations

import configparser
import glob as globlib
import logging
import os
import re
from dataclasses import dataclass, field
from typing import Optional

from aish.safety import line_assignments
from aish.safety.unwrap import unwrap
from aish.safety.shell_words import segments
from aish.safety.lazy_regex import lazy

log = logging.getLogger("aish.safety")

_WALK_LIMIT = 5000  # entries counted under a directory before saying "5,000+"
_MAX_LINE = 300
_VAR = lazy(r"\$\{(\w+)(:?[-=?+])?([^}]*)\}|\$(\w+)|\$\((.*?)\)|`([^`]*)`")
_COUNTED = {"rm", "shred", "chmod", "chown", "chgrp", "srm", "truncate", "unlink", "rmdir"}
# what a command must hold for a preview to read anything (a variable, substitution, home,
# glob or redirection to expand; a program whose targets are counted or whose context is read)
_EXPANDS = lazy(r"[$`~*?\[<>{]")
_NAME = lazy(r"[\w.+-]+")


@dataclass
class ShellView:
    """What the shell told us: where it stands and its variables.

    ``env`` maps a name to its value, or to None when the shell withheld a
    secret-looking value; ``complete`` says every set variable is listed,
    so a missing name is unset (otherwise it is unknown).
    """

    cwd: str = ""
    env: dict = field(default_factory=dict)
    complete: bool = False
    set_on_line: frozenset = frozenset()  # names set earlier on the line to what a command prints

    def home(self) -> str:
        return self.env.get("HOME") or os.path.expanduser("~")


def may_note(command: str) -> bool:
    """Could ``preview`` have anything to say about ``command``?  False when it holds nothing a
    preview expands or reads (then the preview is None in any cwd, with any variables): no
    parse, and the shell need not be asked for its variables.  Conservative: quotes, escapes and
    line continuations are taken out before the program names are looked for (``r''m`` is rm)."""
    if _EXPANDS.search(command):
        return True
    bare = command.replace("\\\n", "").replace("'", "").replace('"', "").replace("\\", "")
    names = set(_NAME.findall(bare))
    return not names.isdisjoint(_COUNTED) or not names.isdisjoint(_CONTEXT)


def preview(command: str, view: ShellView) -> Optional[str]:
    """One line saying what ``command`` would touch, or None when there is nothing to add."""
    if not may_note(command):
        return None
    try:
        notes = _preview(command, view)
    except Exception:  # a preview must never break an answer
        log.exception("safety preview failed")
        return None
    seen: list = []
    for note in notes:
        if note and note not in seen:
            seen.append(note)
    if not seen:
        return None
    line = "; ".join(seen)
    return line if len(line) <= _MAX_LINE else line[:_MAX_LINE - 1] + "…"


def _preview(command: str, view: ShellView) -> list:
    notes: list = []
    for seg in segments(command):
        assigned = line_assignments.assigned(seg.words)
        if assigned:
            computed = frozenset(k for k, v in assigned.items() if v is None)
            view = ShellView(cwd=view.cwd, env={**{k: v for k, v in view.env.items() if k not in computed},
                                                **{k: v for k, v in assigned.items() if v is not None}},
                             complete=view.complete, set_on_line=(view.set_on_line - set(assigned)) | computed)
            continue
        for red in seg.redirects:
            if red.target is not None and red.op.lstrip("0123456789&").startswith(">") and ">>" not in red.op:
                path = _abs(expand(red.target, view)[0][0] if red.target.text else "", view)
                if path and os.path.isfile(path):
                    notes.append(f"{red.op} empties {path} ({_size(path)})")
        words = unwrap(seg.words)[0]
        if not words:
            continue
        prog = words[0].text.rsplit("/", 1)[-1]
        shown: list = []
        seg_notes: list = []
        changed = stops = False
        for word in words:
            values, word_notes, differs = expand(word, view)
            shown.append(values[0] if word.glob and values else " ".join(_quote(v) for v in values))
            seg_notes.extend(word_notes)
            changed = changed or differs
            stops = stops or any("stops with an error" in n for n in word_notes)
            if prog in _COUNTED and word is not words[0] and not word.text.startswith("-") and not word.glob:
                seg_notes.extend(_count_under(values, view))
        if stops:
            seg_notes = [n for n in seg_notes if " holds " not in n]
        if changed and not stops:
            seg_notes.insert(0, "would run: " + " ".join(shown[:12]) + (" …" if len(shown) > 12 else ""))
        notes.extend(seg_notes)
        notes.extend(context(prog, [w.text for w in words[1:]], view))
    return notes


def expand(word, view: ShellView) -> tuple:
    """(values the shell would pass, notes, whether that differs from the text as written)."""
    notes: list = []
    text = word.text
    unknown = False
    if word.has_var:
        def sub(m: re.Match) -> str:
            nonlocal unknown
            name = m.group(1) or m.group(4)
            if name is None:  # $( ) or backticks: never run for a preview
                notes.append(f"{m.group(0)[:30]} is not run for the preview")
                unknown = True
                return m.group(0)
            value = view.cwd if name == "PWD" and "PWD" not in view.env else \
                view.home() if name == "HOME" and "HOME" not in view.env else view.env.get(name, ...)
            op, default = m.group(2), m.group(3) or ""
            if name in view.set_on_line:
                notes.append(f"{name} is set on this line, to what a command prints")
                unknown = True
                return m.group(0)
            if value is None:
                notes.append(f"{name} is set (value withheld)")
                unknown = True
                return m.group(0)
            if value is ...:
                if not view.complete:
                    notes.append(f"{name} is unknown here; if it is unset this is {_worst(word.text, name)}")
                    unknown = True
                    return m.group(0)
                value = ""
            if op in (":-", ":=") and not value or op in ("-", "=") and value == "" and name not in view.env:
                return default
            if op in (":?", "?") and not value:
                notes.append(f"{name} is not set: the shell stops with an error before running anything")
                return ""
            if value == "":
                notes.append(f"{name} is not set, so {word.raw} becomes {_worst(word.text, name) or 'nothing'}")
            return value
        text = _VAR.sub(sub, text)
    if word.raw.startswith("~") and (text == "~" or text.startswith("~/")):
        text = view.home() + text[1:]
    if word.glob and not unknown:
        pattern = text if text.startswith("/") else os.path.join(view.cwd or ".", text)
        matches = sorted(globlib.glob(pattern))
        if not matches:
            notes.append(f"{word.raw} matches nothing")
            return [text], notes, text != word.text
        n = len(matches)
        notes.append(f"{text} matches {n:,} {'entry' if n == 1 else 'entries'}"
                     + (f" in {view.cwd}" if not text.startswith("/") and view.cwd else ""))
        return [text] + matches, notes, text != word.text
    return [text], notes, text != word.text


def _worst(text: str, name: str) -> str:
    out = re.sub(r"\$\{?" + re.escape(name) + r"\}?", "", text)
    return out or "''"


def _quote(value: str) -> str:
    return value if value and re.fullmatch(r"[\w@%+=:,./*~-]+", value) else "'" + value.replace("'", "'\\''") + "'"


def _abs(path: str, view: ShellView) -> str:
    if not path:
        return ""
    return path if path.startswith("/") else os.path.join(view.cwd or ".", path)


def _size(path: str) -> str:
    try:
        size = os.stat(path).st_size
    except OSError:
        return "?"
    scaled = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if scaled < 1024 or unit == "GB":
            return f"{size:,} {unit}" if unit == "bytes" else f"{scaled:.1f} {unit}"
        scaled /= 1024
    return "?"


def _count_under(values: list, view: ShellView) -> list:
    """``/usr holds 5,000+ files``: how much a recursive target reaches (bounded, read-only)."""
    notes = []
    for value in values[:3]:
        path = _abs(value, view)
        if not path or not os.path.isdir(path) or os.path.islink(path):
            continue
        count = 0
        stack = [path]
        while stack and count < _WALK_LIMIT:
            top = stack.pop()
            if top in ("/proc", "/sys", "/dev"):
                continue
            try:
                with os.scandir(top) as entries:
                    for entry in entries:
                        count += 1
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        if count >= _WALK_LIMIT:
                            break
            except OSError:
                continue
        more = "+" if count >= _WALK_LIMIT else ""
        notes.append(f"{value} holds {count:,}{more} {'entry' if count == 1 else 'entries'}")
    return notes


# ----------------------------------------------------------------- blast radius

def context(prog: str, args: list, view: ShellView) -> list:
    """Which repository, cluster, account or workspace the command would act on."""
    look = _CONTEXT.get(prog)
    return look(args, view) if look is not None else []


def _flag(args: list, *names: str) -> Optional[str]:
    for i, a in enumerate(args):
        for name in names:
            if a == name and i + 1 < len(args):
                return args[i + 1]
            if a.startswith(name + "="):
                return a[len(name) + 1:]
    return None


def _read(path: str, limit: int = 1 << 20) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(limit)
    except OSError:
        return ""


def git_dir(start: str) -> Optional[str]:
    """The ``.git`` directory for ``start`` (following a worktree's ``gitdir:`` file)."""
    path = os.path.abspath(start or ".")
    for _ in range(64):
        candidate = os.path.join(path, ".git")
        if os.path.isdir(candidate):
            return candidate
        if os.path.isfile(candidate):
            m = re.match(r"gitdir:\s*(.+)", _read(candidate).strip())
            if m:
                return os.path.normpath(os.path.join(path, m.group(1)))
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return None


def _git_config(gdir: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    common = os.path.join(gdir, "commondir")
    base = os.path.normpath(os.path.join(gdir, _read(common).strip())) if os.path.isfile(common) else gdir
    try:
        parser.read_string(_read(os.path.join(base, "config")))
    except configparser.Error:
        pass
    return parser


def _strip_userinfo(url: str) -> str:
    return re.sub(r"^(\w+://)[^/@]+@", r"\1", url)


def _git(args: list, view: ShellView) -> list:
    where = _flag(args, "-C") or ""
    gdir = git_dir(_abs(where, view) if where else (view.cwd or "."))
    if gdir is None:
        return ["not inside a git repository"]
    head = _read(os.path.join(gdir, "HEAD")).strip()
    branch = head[len("ref: refs/heads/"):] if head.startswith("ref: refs/heads/") else f"detached at {head[:10]}"
    config = _git_config(gdir)
    sub_i = next((i for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] not in
                                                                             ("-C", "-c"))), None)
    if sub_i is None or args[sub_i] != "push":
        return [f"git: on branch {branch}"]
    rest = [a for a in args[sub_i + 1:] if not a.startswith("-")]
    remotes = [s[len('remote "'):-1] for s in config.sections() if s.startswith('remote "')]
    remote = rest[0] if rest and rest[0] in remotes else \
        config.get(f'branch "{branch}"', "remote", fallback="origin")
    url = _strip_userinfo(config.get(f'remote "{remote}"', "url", fallback="?"))
    refs = [r for r in (rest[1:] if rest and rest[0] in remotes else rest)] or [branch]
    return [f"git: on branch {branch}; pushes {', '.join(refs[:4])} to {remote} ({url})"]


def _kubeconfig(view: ShellView) -> str:
    paths = view.env.get("KUBECONFIG") or os.environ.get("KUBECONFIG") or ""
    first = next((p for p in paths.split(":") if p), "") or os.path.join(view.home(), ".kube", "config")
    return _read(first)


def kube_current(text: str) -> tuple:
    """(current context, its namespace) from kubeconfig YAML, read line by line (no YAML library)."""
    m = re.search(r"^current-context:\s*[\"']?([^\"'\s]+)", text, re.MULTILINE)
    ctx = m.group(1) if m else ""
    namespace = ""
    block = re.search(r"^contexts:\s*\n(.*?)(?=^[^\s-]|\Z)", text, re.MULTILINE | re.DOTALL)
    if ctx and block:
        for item in re.split(r"^\s*-\s", block.group(1), flags=re.MULTILINE):
            if re.search(r"^\s*name:\s*[\"']?" + re.escape(ctx) + r"[\"']?\s*$", item, re.MULTILINE):
                ns = re.search(r"^\s*namespace:\s*[\"']?([^\"'\s]+)", item, re.MULTILINE)
                namespace = ns.group(1) if ns else ""
    return ctx, namespace


def _kube(args: list, view: ShellView) -> list:
    ctx, namespace = kube_current(_kubeconfig(view))
    ctx = _flag(args, "--context", "--kube-context") or ctx or "(none)"
    namespace = _flag(args, "-n", "--namespace") or namespace or "default"
    if "-A" in args or "--all-namespaces" in args:
        namespace = "ALL namespaces"
    return [f"kube context {ctx}, namespace {namespace}"]


def _aws(args: list, view: ShellView) -> list:
    env = view.env
    profile = _flag(args, "--profile") or env.get("AWS_PROFILE") or env.get("AWS_DEFAULT_PROFILE") or "default"
    region = _flag(args, "--region") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if not region:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        path = env.get("AWS_CONFIG_FILE") or os.path.join(view.home(), ".aws", "config")
        try:
            parser.read_string(_read(path))
        except configparser.Error:
            pass
        section = "default" if profile == "default" else f"profile {profile}"
        region = parser.get(section, "region", fallback="")
    return [f"AWS profile {profile}, region {region or '(not set)'}"]


def _terraform(args: list, view: ShellView) -> list:
    where = _flag(args, "-chdir") or ""
    base = _abs(where, view) if where else (view.cwd or ".")
    workspace = view.env.get("TF_WORKSPACE") or _read(os.path.join(base, ".terraform", "environment")).strip() \
        or "default"
    notes = [f"terraform workspace {workspace} in {base}"]
    if view.env.get("AWS_PROFILE"):
        notes += _aws([], view)
    return notes


def _gcloud(args: list, view: ShellView) -> list:
    project = _flag(args, "--project") or view.env.get("CLOUDSDK_CORE_PROJECT")
    if not project:
        gdir = view.env.get("CLOUDSDK_CONFIG") or os.path.join(view.home(), ".config", "gcloud")
        name = _read(os.path.join(gdir, "active_config")).strip() or "default"
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        try:
            parser.read_string(_read(os.path.join(gdir, "configurations", f"config_{name}")))
        except configparser.Error:
            pass
        project = parser.get("core", "project", fallback="")
    return [f"gcloud project {project or '(not set)'}"]


_CONTEXT = {"git": _git, **dict.fromkeys(("kubectl", "oc", "k", "helm"), _kube),
            **dict.fromkeys(("aws", "eksctl", "sam", "cdk"), _aws),
            **dict.fromkeys(("terraform", "tofu", "terragrunt"), _terraform),
            **dict.fromkeys(("gcloud", "gsutil"), _gcloud)}
