"""Pick a model for one ask from what the user typed.

Why heuristics and not a model call: the decision must be instant, free,
deterministic and explainable (``aish route check TEXT`` shows it).  The
patterns are module-level so tests and docs can name them.

Why word-bounded: the patterns are words; a substring match would route
"it somehow doesn't start" as reasoning ("how does" inside "somehow
doesn't") and "unexplained" as "explain".  Only the listed words count,
without inflections.

Order matters, first hit wins: code, then reasoning, else default.  The
choice is made once per ask and holds for every tool round (a tool loop never
switches model mid-answer); the caller restores the active model afterwards.  ``reasoning`` maps to no model
by default: a paid model is only used when the user maps it.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.config.schema import Config
from aish.errors import ConfigError

CLASSES = ("code", "reasoning", "default")

# --- code ------------------------------------------------------------------
FENCE = re.compile(r"```")
TRACE_WORDS = re.compile(r"\b(?:traceback|stacktrace|stack[ \t-]trace)s?\b", re.IGNORECASE)
# "error:"/"exception:" as a word (gcc's "a.c:3:5: error:", "ERROR: ..."), or ending
# a CamelCase identifier ("TypeError:", "java.io.IOException:").
ERROR_WORD = re.compile(r"\b(?:error|exception):", re.IGNORECASE)
ERROR_NAME = re.compile(r"\b\w*(?:Error|Exception):")
ERROR_WINDOW = 200  # "near the beginning": within this many characters
CODE_EXTENSIONS = ("py", "lua", "c", "js", "go", "rs")
# a path that starts like ./ ../ /usr/ ~/ and names a source file: "./main.go", "~/src/x.rs:12"
SOURCE_PATH = re.compile(r"(?<![\w/.~])(?:\.\.?/|/usr/|~/)[^\s\"'`()<>]*?\.(?:%s)(?![\w-])"
                         % "|".join(CODE_EXTENSIONS))
PASTE_MIN_LINES = 5  # "more than 4 lines"
INDENTED = re.compile(r"^[ \t]+\S", re.MULTILINE)

# --- reasoning -------------------------------------------------------------
REASONING_WORDS = re.compile(r"\b(?:explain|why|how[ \t]+does|compare)\b", re.IGNORECASE)
LONG_QUESTION = 100  # a "?" and more than this many characters


def _code_reason(text: str) -> Optional[str]:
    if FENCE.search(text):
        return "code fence"
    if TRACE_WORDS.search(text):
        return "traceback"
    head = text.lstrip()[:ERROR_WINDOW]
    if ERROR_WORD.search(head) or ERROR_NAME.search(head):
        return "error message"
    if SOURCE_PATH.search(text):
        return "source file path"
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) >= PASTE_MIN_LINES and INDENTED.search(text):
        return "indented paste"
    return None


def _reasoning_reason(text: str) -> Optional[str]:
    if REASONING_WORDS.search(text):
        return "reasoning word"
    stripped = text.strip()
    if "?" in stripped and len(stripped) > LONG_QUESTION:
        return "long question"
    return None


def explain(text: str) -> tuple[str, Optional[str]]:
    """``(class, why)``: the class and the heuristic that fired (None for default)."""
    why = _code_reason(text)
    if why:
        return "code", why
    why = _reasoning_reason(text)
    if why:
        return "reasoning", why
    return "default", None


def classify(text: str) -> str:
    """The task class of ``text``; always runs, whatever ``routing.auto`` says."""
    return explain(text)[0]


def class_model(cls: str, cfg: Config) -> Optional[str]:
    """The model a class maps to, or None for "keep the active model"."""
    return cfg.routing.classes.get(cls) or None


def classify_model(text: str, cfg: Config) -> Optional[str]:
    """The model to use for this ask, or None to keep the active one.

    None when routing is off or the class maps to no model.  A mapping to a
    model that is not configured raises ConfigError (the runtime ``route on``
    toggle can bypass the load-time check if the file changes afterwards).
    """
    if not cfg.routing.auto:
        return None
    cls = classify(text)
    target = class_model(cls, cfg)
    if target is not None and cfg.models and target not in cfg.models:
        raise ConfigError(f"routing.classes.{cls} = '{target}' is not a configured model",
                          hint=f"add [models.{target}], map the class to one of "
                               f"{', '.join(cfg.models)}, or 'aish route off'")
    return target


def unconfigured(cfg: Config) -> list[tuple[str, str]]:
    """``(class, model)`` pairs that map to a model the config does not define."""
    return [(cls, target) for cls in CLASSES
            if (target := class_model(cls, cfg)) is not None and target not in cfg.models]
