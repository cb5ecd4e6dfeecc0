"""How a shell reads lines into complete commands, so an answer's text lands as what it means.

A shell keeps reading after a line that ends inside a quote, with a backslash, with
``|``/``&&``/``||``, inside ``if``/``for``/``case``/``{``/``(``, or with a heredoc
whose body has not ended; everything else ends a command at the newline.  This
module does the same over an answer's lines (``CommandReader``) and then writes the
command the way the shell would read it: a backslash-newline outside quotes is
removed (``a \\⏎  b`` is ``a b``, ``a\\⏎b`` is ``ab``), inside double quotes it is
removed exactly, and heredoc bodies, single-quoted text and ``$((1<<20))`` stay
byte for byte.  A redirection on a continued line stays a redirection.

The scanner is line-incremental (each line is scanned once), so a long block costs
linear time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

_OPENED_BY = {"fi": "if", "esac": "case", "done": "do"}
_CLOSERS = set(_OPENED_BY)
# Words after which the next word is again in command position (a keyword may follow).
_LEAD = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"}
_BLANK = " \t"
# What opens a nested context in shell code (longest first), and whether a command may start inside.
_CODE_OPENERS = {"$((": False, "$(": True, "${": False, "$'": False, "'": False, '"': False, "`": False}
_QUOTED_OPENERS = ("$((", "$(", "${", "`")  # what still opens inside double quotes


@dataclass
class _Heredoc:
    """A here-document still open: the line that ends it, and whether ``<<-`` strips tabs."""

    delimiter: str
    strip_tabs: bool


@dataclass
class CommandReader:
    """Feed lines; ``complete`` says whether a shell would run what was fed so far."""

    lines: list = field(default_factory=list)
    _stack: list = field(default_factory=list)  # open contexts: ' " $' ` $( $(( (( ${ ( and keywords
    _pending: list = field(default_factory=list)  # heredocs announced on the current line
    _bodies: list = field(default_factory=list)  # heredocs whose bodies are being read
    _continued: bool = False  # the last line ended with a backslash-newline outside quotes
    _joining: bool = False  # the last line ended with | && || (the command goes on)
    _command_position: bool = True
    _continuations: list = field(default_factory=list)  # (line index, inside double quotes)

    @property
    def complete(self) -> bool:
        return bool(self.lines) and not (self._stack or self._pending or self._bodies or self._continued
                                         or self._joining)

    @property
    def open_quote(self) -> bool:
        """Is a quote still open (the usual sign of a stray apostrophe in prose)?"""
        return any(c in ("'", '"', "$'", "`") for c in self._stack)

    def feed(self, line: str) -> None:
        index = len(self.lines)
        self.lines.append(line)
        if self._bodies:
            body = self._bodies[0]
            text = line.lstrip("\t") if body.strip_tabs else line
            if text == body.delimiter:
                self._bodies.pop(0)
            return
        if not self._continued and not self.open_quote:
            self._command_position = True  # a new line starts a new command (or a keyword)
        self._continued = False
        self._scan(line, index)
        if self._pending and not self._continued:
            self._bodies, self._pending = self._pending, []

    # ------------------------------------------------------------- the scanner
    def _scan(self, s: str, index: int) -> None:
        i, n = 0, len(s)
        stack = self._stack
        last_op = ""  # the last significant token was | && || (joining) or something else
        significant = False  # a blank or comment-only line keeps a pending | && ||
        while i < n:
            top = stack[-1] if stack else ""
            c = s[i]
            if top == "'":
                j = s.find("'", i)
                if j < 0:
                    return
                stack.pop()
                i = j + 1
                continue
            if top in ('"', "`", "$'"):
                if c == "\\":
                    if i + 1 >= n:
                        if top == '"':
                            self._continuations.append((index, True))
                            self._continued = True
                        return
                    i += 2
                    continue
                if (top == '"' and c == '"') or (top == "`" and c == "`") or (top == "$'" and c == "'"):
                    stack.pop()
                    i += 1
                    continue
                opener = next((o for o in _QUOTED_OPENERS if s.startswith(o, i)), None) if top == '"' else None
                if opener is not None:  # "…$(cmd)…", "…${x}…", "…`cmd`…" inside double quotes
                    stack.append(opener)
                    i += len(opener)
                    self._command_position = _CODE_OPENERS[opener]
                    continue
                i += 1
                continue
            if top in ("$((", "(("):
                if s.startswith("))", i):
                    stack.pop()
                    i += 2
                    continue
                if c == "(":
                    stack.append("(arith")
                elif c == ")" and stack[-1] == "(arith":
                    stack.pop()
                i += 1
                continue
            if top == "(arith":
                if c == "(":
                    stack.append("(arith")
                elif c == ")":
                    stack.pop()
                i += 1
                continue
            if top == "${":
                if c == "}":
                    stack.pop()
                elif c == "\\":
                    i += 1
                elif c in "'\"":
                    stack.append(c)
                i += 1
                continue
            # shell code: top level, $( ), ( ), keywords
            if c in _BLANK:
                i += 1
                continue
            if c == "#" and (i == 0 or s[i - 1] in " \t;&|()"):
                break  # a comment: a backslash at its end continues nothing
            significant = True
            if c == "\\":
                if i + 1 >= n:
                    self._continuations.append((index, False))
                    self._continued = True
                    return
                i += 2
                self._command_position = False
                last_op = ""
                continue
            opener = next((o for o in _CODE_OPENERS if s.startswith(o, i)), None)
            if opener is not None:  # a quote or an expansion opens: read until it closes
                stack.append(opener)
                i += len(opener)
                self._command_position = _CODE_OPENERS[opener]
                last_op = ""
                continue
            if s.startswith("((", i) and self._command_position:
                stack.append("((")
                i += 2
                continue
            if c == "(" or (c in "<>" and s.startswith("(", i + 1)):
                stack.append("(")
                i += 1 if c == "(" else 2
                self._command_position = True
                last_op = ""
                continue
            if c == ")":
                # `pattern)` inside case is not a closing parenthesis; `name()` is followed by a body
                empty = s[:i].rstrip(_BLANK).endswith("(")
                if stack and stack[-1] in ("(", "$("):
                    stack.pop()
                i += 1
                self._command_position = empty
                last_op = ""
                continue
            if s.startswith("<<", i) and not s.startswith("<<<", i):
                i = self._heredoc(s, i + 2)
                last_op = ""
                continue
            if s.startswith("<<<", i):
                i += 3
                continue
            if c in "<>" or s.startswith("&>", i):
                i += 1
                while i < n and s[i] in "<>&|":
                    i += 1
                last_op = ""
                continue
            if s.startswith("&&", i) or s.startswith("||", i):
                i += 2
                self._command_position = True
                last_op = "join"
                continue
            if c == "|":
                i += 2 if s.startswith("|&", i) else 1
                self._command_position = True
                last_op = "join"
                continue
            if c in ";&":
                i += 2 if s.startswith(";;", i) else 1
                self._command_position = True
                last_op = ""
                continue
            # a word
            j = i
            while j < n and s[j] not in " \t;&|()<>'\"`\\$#" :
                j += 1
            if j == i:  # a $ not starting an expansion, or # inside a word
                i += 1
                self._command_position = False
                last_op = ""
                continue
            word = s[i:j]
            self._word(word, j >= n or s[j] in " \t;&|()")
            i = j
            last_op = ""
        if significant:
            self._joining = last_op == "join"

    def _word(self, word: str, whole: bool) -> None:
        """Keywords open and close compounds where a command may start; ``{``/``}`` anywhere whole."""
        stack = self._stack
        lead = False
        if whole and word == "{":
            stack.append("{")
            lead = True
        elif whole and word == "}" and "{" in stack:
            while stack.pop() != "{":
                pass
        elif self._command_position and whole:
            if word in ("if", "case", "do"):
                stack.append(word)
            elif word in _CLOSERS and _OPENED_BY[word] in stack:
                while stack.pop() != _OPENED_BY[word]:
                    pass
            lead = word in _LEAD
        self._command_position = lead

    def _heredoc(self, s: str, i: int) -> int:
        strip = s.startswith("-", i)
        if strip:
            i += 1
        n = len(s)
        while i < n and s[i] in _BLANK:
            i += 1
        out = []
        while i < n and s[i] not in " \t;&|()<>":
            c = s[i]
            if c in "'\"":
                j = s.find(c, i + 1)
                j = n if j < 0 else j
                out.append(s[i + 1:j])
                i = j + 1
            elif c == "\\" and i + 1 < n:
                out.append(s[i + 1])
                i += 2
            else:
                out.append(c)
                i += 1
        if out:
            self._pending.append(_Heredoc("".join(out), strip))
        return i

    # ------------------------------------------------------------- the command as the shell reads it
    def command(self) -> str:
        """The lines fed so far, joined the way the shell joins them."""
        joins = dict(self._continuations)
        out = ""
        for k, line in enumerate(self.lines):
            if k == 0:
                out = line
            elif k - 1 in joins:
                out = _join(out, line, inside_quotes=joins[k - 1])
            else:
                out += "\n" + line
        return out


def _join(left: str, right: str, inside_quotes: bool) -> str:
    """``left`` ended with a backslash that continues onto ``right``."""
    left = left[:-1]
    if inside_quotes:
        return left + right
    blank = left[-1:] in (" ", "\t") or right[:1] in (" ", "\t")
    left, right = left.rstrip(_BLANK), right.lstrip(_BLANK)
    if not left or not right:
        return left + right
    return left + (" " if blank else "") + right
