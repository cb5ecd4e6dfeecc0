"""The true positives of the public secret scanners' own test fixtures, read from their sources.

Give it the directory where gitleaks, trufflehog and detect-secrets are checked out (each a
sub-directory whose name contains the project's name).  Nothing is copied anywhere: the
examples are read at run time and only figures are printed by the bench scripts.

Each ``Case`` is one example in the scanner's own context (``text``) with the secret strings a
redactor must remove (``secrets``), and whether the format identifies itself: the scanner's
own prefilter keyword for the rule occurs inside the secret (``ghp_``, ``glpat-``, ``xoxb-``),
so the value alone on a line is a secret.  How the secret is known per scanner:

- gitleaks: ``cmd/generate/config/rules/*.go`` build each rule's true positives in Go (random
  tokens in ~25 assignment syntaxes); the rule's regex from ``config/gitleaks.toml`` finds the
  secret (its secret group) in each, exactly as gitleaks reports it.  Examples the regex does
  not match (a random draw outside an entropy limit, an expression not understood) are skipped
  and counted.
- trufflehog: every ``pkg/detectors/**/*_test.go`` pattern test with a non-empty ``want``; each
  wanted result is cut into the longest pieces that occur in the input (a result is often
  ``id + secret`` or ``user:password``); a piece is a secret unless it is plainly an
  identifier: an e-mail address, a host or URL, a number, a short id, a UUID beside a real
  secret, or a value the fixture itself names as an identifier (after ``*_id``, ``user``,
  ``host``, ``url``, ``<id>`` ...).
- detect-secrets: the plugin tests' ``(line, True)`` parameters and the keyword tests'
  ``(line, secret)`` pairs; the secret is what detect-secrets itself reports for the line
  (needs ``detect-secrets`` importable; without it those cases are skipped and counted).

Not counted (and reported as skipped): examples whose secret is one character repeated
(a prefix then ``xxxxxxxx``: placeholders, not real-format examples), and the user
name of a ``user:password`` pair.
"""
from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from go_values import GoValues, Unknown  # noqa: E402

try:
    import tomllib
except ImportError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


@dataclass
class Case:
    source: str  # "gitleaks", "trufflehog", "detect-secrets"
    rule: str
    text: str
    secrets: tuple[str, ...]
    self_identifying: bool


_PLACEHOLDER_RUN = re.compile(r"(.)\1{7,}")  # prefix + xxxxxxxx: a placeholder, not a real format


def _placeholder(secret: str) -> bool:
    """One character repeated over at least 40% of it: xxxxxxxx, AAAAAAAA, 11111111."""
    runs = [m.end() - m.start() for m in _PLACEHOLDER_RUN.finditer(secret)]
    return bool(runs) and max(runs) >= 0.4 * len(secret)


@dataclass
class Fixtures:
    cases: list[Case] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1

    def add(self, case: "Case") -> None:
        if any(_placeholder(s) for s in case.secrets):
            self.skip(f"{case.source}: a placeholder (one character repeated), not a real-format example")
            return
        self.cases.append(case)


def find_repo(root: Path, name: str) -> Path | None:
    for path in sorted(root.iterdir()) if root.is_dir() else []:
        if name.lower() in path.name.lower() and path.is_dir():
            return path
    return None


def load(root: Path) -> Fixtures:
    fixtures = Fixtures()
    for name, reader in (("gitleaks", _gitleaks), ("trufflehog", _trufflehog), ("detect-secrets", _detect_secrets)):
        repo = find_repo(root, name)
        if repo is None:
            fixtures.skip(f"{name}: not found under {root}")
            continue
        reader(repo, fixtures)
    return fixtures


# ---------------------------------------------------------------- Go regexes in Python
def go_regex(pattern: str) -> re.Pattern:
    """Compile an RE2 pattern with Python's ``re`` (the few spellings that differ)."""
    pattern = pattern.replace(r"\z", r"\Z").replace("[[:alnum:]]", "[A-Za-z0-9]")
    pattern = pattern.replace("[:alnum:]", "A-Za-z0-9").replace("[:alpha:]", "A-Za-z").replace("[:digit:]", "0-9")
    if "(?i)" in pattern[1:]:
        pattern = _scoped_flags(pattern)
    return re.compile(pattern)


def _scoped_flags(pattern: str) -> str:
    """RE2's ``(?i)`` lasts to the end of its group: Python wants ``(?i:...)`` (or the pattern's start)."""
    out, depth, closes, i, in_class = [], 0, [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]":
                out.append(c)
                i += 1
                c = "]"
        elif pattern.startswith("(?i)", i):
            out.append("(?i:" if i else "(?i)")
            if i:
                closes.append(depth)
            i += 4
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            while closes and closes[-1] == depth:
                out.append(")")
                closes.pop()
            depth -= 1
        out.append(c)
        i += 1
    out.extend(")" * len(closes))
    return "".join(out)


def _identifies_itself(secret: str, keywords: list[str]) -> bool:
    low = secret.lower()
    return any(k and k.lower() in low for k in keywords)


# ---------------------------------------------------------------- gitleaks
def _gitleaks(repo: Path, out: Fixtures) -> None:
    config = tomllib.loads((repo / "config" / "gitleaks.toml").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in config.get("rules", [])}
    for path in sorted((repo / "cmd" / "generate" / "config" / "rules").glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        go = GoValues(path.read_text(encoding="utf-8"), seed=hash(path.name) & 0xFFFF)
        for _name, start, end in go.function_bodies():
            go.env = {}
            rule_id, tps = None, None
            for name, value, _ in go.assignments(start, end):
                if name == "r" and isinstance(value, dict) and isinstance(value.get("RuleID"), str):
                    rule_id = value["RuleID"]
                elif name == "tps":
                    tps = value
            if rule_id is None or tps is None:
                continue
            rule = rules.get(rule_id)
            if rule is None or "regex" not in rule:
                out.skip("gitleaks: rule without a regex in gitleaks.toml")
                continue
            if isinstance(tps, Unknown) or not isinstance(tps, list):
                out.skip("gitleaks: true positives not understood")
                continue
            try:
                regex = go_regex(rule["regex"])
            except re.error:
                out.skip("gitleaks: regex Python cannot compile")
                continue
            group = int(rule.get("secretGroup", 0) or 0)
            for text in tps:
                if not isinstance(text, str):
                    out.skip("gitleaks: true positive not understood")
                    continue
                secrets = _gitleaks_secrets(regex, group, text, rule_id)
                if not secrets:
                    out.skip("gitleaks: example its own regex does not match here")
                    continue
                out.add(Case("gitleaks", rule_id, text, secrets,
                                      all(_identifies_itself(s, rule.get("keywords", [])) for s in secrets)))


def _gitleaks_secrets(regex: re.Pattern, group: int, text: str, rule_id: str = "") -> tuple[str, ...]:
    """What gitleaks reports; for ``user:password`` (curl -u) only the password is secret."""
    found = []
    for m in regex.finditer(text):
        if group and group <= (regex.groups or 0):
            secret = m.group(group) or ""
        else:
            secret = next((g for g in m.groups() if g), m.group(0))
        if ":" in secret and (rule_id == "curl-auth-user" or "//" + secret + "@" in text):
            secret = secret.split(":", 1)[1]  # user:password: the password is the secret
        if secret.strip():
            found.append(secret.strip())
    return tuple(dict.fromkeys(found))


# ---------------------------------------------------------------- trufflehog
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_HOST = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,12}(?::\d+)?/?$", re.IGNORECASE)
_UUID = re.compile(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


def _trufflehog(repo: Path, out: Fixtures) -> None:
    detectors = repo / "pkg" / "detectors"
    for test in sorted(detectors.rglob("*_test.go")):
        if test.name.endswith("_integration_test.go"):
            continue
        source = test.read_text(encoding="utf-8")
        if "input:" not in source and "input :" not in source:
            continue
        keywords = _trufflehog_keywords(test.parent)
        go = GoValues(source)
        list(go.assignments())  # package-level values (patterns, keywords) for the tables
        package_env = dict(go.env)
        for fname, start, end in go.function_bodies():
            if "Pattern" not in fname:
                continue
            go.env = dict(package_env)
            for _name, table, _ in go.assignments(start, end):
                if not isinstance(table, list):
                    continue
                for row in table:
                    if isinstance(row, dict) and "input" in row:
                        _trufflehog_row(test.parent.relative_to(detectors).as_posix(), row, keywords, out)


def _trufflehog_keywords(folder: Path) -> list[str]:
    words: list[str] = []
    for path in folder.glob("*.go"):
        if path.name.endswith("_test.go"):
            continue
        source = path.read_text(encoding="utf-8")
        for m in re.finditer(r"Keywords\(\)\s*\[\]string\s*\{\s*return\s*(\[\]string\{[^}]*\})", source):
            try:
                words.extend(w for w in GoValues(source).evaluate(m.group(1)) if isinstance(w, str))
            except (Unknown, IndexError):
                continue
    return words


def _trufflehog_row(rule: str, row: dict, keywords: list[str], out: Fixtures) -> None:
    text, want = row.get("input"), row.get("want")
    if isinstance(text, Unknown) or isinstance(want, Unknown) or not isinstance(text, str):
        out.skip("trufflehog: test row not understood")
        return
    if not want or not isinstance(want, list) or not all(isinstance(w, str) for w in want):
        return  # a negative example, or results that are not plain strings
    secrets: list[str] = []
    for wanted in want:
        pieces = _pieces(wanted, text)
        if pieces is None:
            out.skip("trufflehog: wanted result not found in its input")
            return
        kept = [p for p in pieces if _is_secret_piece(p) and not _named_identifier(p, text)]
        if any(not _UUID.match(p) for p in kept):  # beside a real secret, a UUID is an id (tenant, client)
            kept = [p for p in kept if not _UUID.match(p)]
        secrets.extend(kept)
    if not secrets:
        out.skip("trufflehog: result holds only identifiers")
        return
    secrets = list(dict.fromkeys(secrets))
    out.add(Case("trufflehog", rule, text, tuple(secrets),
                          all(_identifies_itself(s, keywords) for s in secrets)))


def _pieces(wanted: str, text: str) -> list[str] | None:
    """``wanted`` as the longest substrings of ``text`` (4+ chars), separators between them dropped."""
    if wanted in text:
        return [wanted]
    pieces, i = [], 0
    while i < len(wanted):
        if wanted[i] in ":;|, \n\t":
            i += 1
            continue
        length = len(wanted) - i
        while length >= 4 and wanted[i:i + length] not in text:
            length -= 1
        if length < 4:
            return None
        pieces.append(wanted[i:i + length])
        i += length
    return pieces


_IDENTIFIER_WORDS = frozenset("""id ids sid uid user username login email mail domain host hostname url uri endpoint
    region tenant org organization project workspace subdomain instance name server site zone cluster namespace
    account owner service""".split())
_NAME_BEFORE = re.compile(r"([A-Za-z][\w.\-]*)[\"'\]]?[ \t]*(?:[:=]+|=>|>|[ \t]-)?[ \t]*[\"'`{(]?"
                          r"(?:[A-Za-z][\w.\-]*[ \t]+){0,2}$")


def _named_identifier(piece: str, text: str) -> bool:
    """The fixture itself names the piece an identifier: ``*_id: x``, ``user=x``, ``<id>{x}``."""
    i = text.find(piece)
    m = _NAME_BEFORE.search(text, max(0, i - 60), i)
    if m is None:
        return False
    name_words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", m.group(1))
    return bool(name_words) and name_words[-1].lower() in _IDENTIFIER_WORDS


def _is_secret_piece(piece: str) -> bool:
    """Not an identifier: an e-mail address, a URL or host name, a number, a short id."""
    if len(piece) < 8 or piece.isdigit() or _EMAIL.match(piece) or "://" in piece:
        return False
    return not _HOST.match(piece)


# ---------------------------------------------------------------- detect-secrets
def _detect_secrets(repo: Path, out: Fixtures) -> None:
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    except ImportError:
        out.skip("detect-secrets: package not importable (pip install detect-secrets)")
        return
    plugins = {cls.__module__.rsplit(".", 1)[-1]: cls for cls in get_mapping_from_secret_type_to_class().values()}
    for path in sorted((repo / "tests" / "plugins").glob("*_test.py")):
        stem = path.stem[:-len("_test")]
        module = next((m for m in plugins if stem.startswith(m) or m.startswith(stem)), None)
        if module is None or module in ("ip_public", "high_entropy_strings"):
            continue  # a public IP address is not a credential; entropy tests have no lines
        plugin = plugins[module]()
        for line, expected in _ds_parameters(path):
            secrets = (expected,) if expected else _ds_secrets(plugin, line)
            if not secrets:
                out.skip("detect-secrets: its own plugin finds nothing in the example")
                continue
            self_identifying = module not in ("keyword", "basic_auth")
            out.add(Case("detect-secrets", module, line, secrets, self_identifying))


def _ds_secrets(plugin: Any, line: str) -> tuple[str, ...]:
    """What the plugin's own regexes match: a captured group of 6+ chars, else the whole match."""
    found = []
    for regex in getattr(plugin, "denylist", ()):
        for m in regex.finditer(line):
            groups = [g for g in m.groups() if g and len(g) >= 6]
            found.append(max(groups, key=len) if groups else m.group(0))
    if not found:
        found = [s for s in plugin.analyze_line(filename="x", line=line, line_number=1) or ()]
        found = [getattr(s, "secret_value", None) or "" for s in found]
    return tuple(dict.fromkeys(f.strip("'\"") for f in found if f and f.strip("'\"")))


def _ds_parameters(path: Path) -> Iterator[tuple[str, str | None]]:
    """``(line, None)`` for ``(line, True)`` parameters; ``(line, secret)`` from keyword case tables."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    env: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                env[node.targets[0].id] = _py_value(node.value, env)
            except ValueError:
                continue
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize" and len(node.args) >= 2:
            names = node.args[0].value if isinstance(node.args[0], ast.Constant) else ""
            try:
                rows = _py_value(node.args[1], env)
            except ValueError:
                continue
            fields = [n.strip() for n in str(names).split(",")]
            for row in rows if isinstance(rows, (list, tuple)) else []:
                if isinstance(row, tuple) and len(row) == len(fields) == 2 and isinstance(row[0], str) \
                        and row[1] is True and fields[1] in ("should_flag", "should_be_caught"):
                    yield row[0], None
    for name, value in env.items():
        if name.endswith("_TEST_CASES") and isinstance(value, list):
            for row in value:
                if isinstance(row, tuple) and len(row) == 2 and isinstance(row[0], str) and isinstance(row[1], str):
                    yield row[0], row[1]


def _py_value(node: ast.AST, env: dict) -> Any:
    """Literals, names bound to literals, ``+``, ``'...'.format(...)`` and lists/tuples of those."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise ValueError(node.id)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_py_value(e, env) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _py_value(node.left, env) + _py_value(node.right, env)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and not node.keywords:
        return _py_value(node.func.value, env).format(*[_py_value(a, env) for a in node.args])
    if isinstance(node, ast.JoinedStr):
        return "".join(str(_py_value(v.value if isinstance(v, ast.FormattedValue) else v, env)) for v in node.values)
    raise ValueError(type(node).__name__)
