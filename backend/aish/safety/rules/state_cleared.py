"""Effect: a tool's stored work cleaned away, or its whole state reset, by a program no rule names.

``clean`` is mostly a build's leftovers (``make clean``, ``cargo clean``, ``go clean -cache``): rebuilt in
minutes.  It loses work where what it cleans is a store of results or records, and the words say so:

- a store named by its locator, as an operand or an option's value (``toil clean aws:us-west-2:my-jobstore``,
  ``… clean file:jobstore``, ``… clean --store s3://bucket/cache``): a job store holds every finished step of a
  workflow, a remote build cache what every builder shares;
- a kind of data as its object (``splunk``-like ``clean eventdata -index main -f``, ``clean index``,
  ``clean runs``, ``clean history``);
- a workflow, job or pipeline engine (by its name: ``nextflow``, ``flowrun``, ``jobstore``, ``dagctl``,
  ``pipeline-ctl``) told to clean everything or without asking (``-f``, ``--all``, ``--yes``), or given a run
  to clean: the intermediate results of past runs, which a resumed run needs, go.

``reset`` as a program's own first word puts everything it manages back to empty (``pueue reset``, ``orbx
reset``): told ``--hard``, or given nothing else, its queue, jobs, database or machines go (a build or monorepo
tool's bare reset, ``nx reset``, only empties its cache); given a store by name (``skate reset @db``, ``reset
queue orders``), that store is emptied.  A reset of a
setting or a device (``idevicesetlocation reset``, ``dconf reset /key``, ``… reset gamma``) and a reset named
for a part (``settings reset``) stay with the vocabulary.

A program told to ``uninstall`` with nothing named (``loft uninstall``, ``pivpn uninstall``) takes itself or the
platform it set up away, with what it kept; a repository's hooks or a shell's integration (``husky uninstall``),
and an uninstall told to keep something (``opencode uninstall -c``), stay quiet.

Quiet: caches, builds, logs and temporary files named as the object, dry runs, package managers.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.programs import READ_ONLY
from aish.safety.rules.action import is_backup_tool, is_option_value
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verb_words import split_word
from aish.safety.verbs import DATA_NOUNS, LIGHT_NOUNS, PACKAGE_TOOLS, WEAK_DATA_NOUNS

_CLEANS = frozenset({"clean", "cleanup", "clean-up", "purge-runs", "gc"})  # (gc: only a store by its locator)
# Answers that a clean's question is skipped with: a tool that asks before cleaning cleans more than a build's
# leftovers (`zenml clean --yes`: its stacks, pipelines' runs and artifacts' records).
_ANSWERED = frozenset({"-y", "--yes", "--assume-yes", "--no-confirm", "--noconfirm", "--no-input", "--no-prompt"})
# What a cleaned store holds, named as the object (beyond DATA_NOUNS: a workflow's and an indexer's words).
_STORED = frozenset("""
eventdata data userdata index indexes indices runs run jobs job jobstore history results outputs records events
metrics kvstore store stores workdir work workspace workspaces db database databases queue queues
""".split())
# A cheap object: rebuilt or refetched.
_CHEAP = LIGHT_NOUNS | frozenset("""
build builds cache caches tmp temp log logs artifact artifacts dist output docs doc target obj bin pyc
downloads download tarballs orphans orphan stale unused old images dangling
""".split())
# A workflow, job or pipeline engine by its name.
_ENGINE = lazy(r"flow|job|pipeline|pipe(?:ctl|run)|dag|workflow|^wf|wf$|etl|batch|queue|runner|engine|"
               r"scheduler|store", re.IGNORECASE)
# Task runners: `task clean --force` runs the project's own clean task (a build's), forced to run again.
_TASK_RUNNERS = frozenset({"task", "go-task", "just", "make", "rake", "invoke", "mage", "doit", "grunt", "gulp",
                           "jake", "cake", "nuke", "poe", "earthly", "mise", "run-p", "npm-run-all"})
_BUILDERS = lazy(r"build|make|cache|compile|bundle|pack|^pkg|lint|test|doc|dist|clean$", re.IGNORECASE)
# Build and monorepo tools whose bare `reset` empties a cache and restarts a daemon (`nx reset`).
BUILD_TOOLS = frozenset({"nx", "turbo", "lerna", "rush", "melos", "moon", "bazel", "bazelisk", "buck", "buck2",
                          "pants", "gradle", "gradlew", "mvn", "sbt", "vite", "next", "nuxt", "expo", "metro", "jest",
                          "vitest", "storybook", "webpack", "parcel", "esbuild", "tsc", "watchman", "ccache",
                          "sccache", "dotnet", "msbuild", "xcodebuild", "cmake", "ninja", "meson", "scons", "swift",
                          "zig", "flutter", "dart", "stack", "cabal", "mix", "lein", "make", "gmake", "bmake", "nmake",
                          "just", "mage"})
_WHOLE = frozenset({"-f", "--force", "-y", "--yes", "--all", "-a", "all", "-force", "--everything", "-all"})
_DRY = frozenset({"-n", "--dry-run", "--dryrun", "-dry-run", "--what-if", "--preview", "-whatif", "--list"})
# `aws:us-west-2:store`, `file:jobstore`, `gs://b/runs`: a store's locator.
_LOCATOR = lazy(r"^(?:[a-z][a-z0-9+-]{1,10}://\S+|(?:aws|google|gs|azure|file|s3|gcs|redis|mongodb|postgres(?:ql)?|"
                r"mysql|sqlite):[\w./-]+(?::[\w./-]+)*)$", re.IGNORECASE)
# A reset of a part or a setting of the program, not of its state.
_SETTING_NAME = lazy(r"location|colou?r|theme|term|tty|display|screen|sound|audio|bright|gamma|conf|setting|pref|"
                     r"tcc|counter|stat|timer|password|passwd|pin|font|keymap|kbd|mouse|usb|locale|clock|time|flash|probe|ocd|"
                     r"jtag|esp|arduino|pico|dfu|serial|board|chip|mcu|gdb|jlink|nrf|avr|stlink|uart|modem|cec|blue|"
                     r"wifi|wlan|net|dns|ntp|shell|console|tput|stty|tmux|screen|mpc|player",
                     re.IGNORECASE)
_READ = 3  # leading words read
# What a reset given by name empties (not a key, a user or an account: their reset is most often a setting's or a
# password's).
_RESET_STORES = _STORED | {"chain", "ledger", "journal", "wal", "offsets", "topic", "topics", "stream", "streams",
                           "bucket", "buckets", "volume", "volumes", "cluster", "node", "snapshot", "snapshots"}
_UNINSTALLS = frozenset({"uninstall", "deinstall", "self-uninstall", "remove-all"})
_UNASKED = frozenset({"-y", "--yes", "-f", "--force", "--all", "-a", "-q", "--quiet", "--silent", "--non-interactive"})
# Programs whose uninstall takes only a repository's hooks, a shell's integration or a theme away.
_HOOKS_NAME = lazy(r"hook|husky|commit|lint|complet|shell|prompt|theme|plugin|ext|zsh|bash|fish|starship|direnv",
                   re.IGNORECASE)
# Options that make a reset keep what is stored, or only show it.
_SOFT = frozenset({"--soft", "--mixed", "--keep", "--keep-data", "--keep-state", "--merge", "--help", "-h",
                   "--dry-run", "-n", "--preview", "--config", "--settings", "--defaults"})


@triggered_by(("clean", "reset", "purge-runs", "install", "gc"))
def rule_state_cleared(c: Ctx) -> Optional[tuple]:
    """``toil clean aws:…:store``, ``nextflow clean -f``, ``… clean eventdata``, ``pueue reset``."""
    texts = c.texts
    prog = c.prog.lower()
    if not texts or prog in READ_ONLY or prog in PACKAGE_TOOLS or is_backup_tool(prog):
        return None  # a backup tool's cleanup takes its own leftovers (`duplicity cleanup URL`)
    lowered = [t.lower() for t in texts]
    if set(lowered) & _DRY:
        return None
    leading = [k for k, t in enumerate(lowered) if t[:1] not in "-/" and not (k and is_option_value(texts, k))][:_READ]
    if leading and lowered[leading[0]] == "reset":
        return _reset(c, lowered, leading[0])
    if len(leading) == 1 and lowered[leading[0]] in _UNINSTALLS:
        return _uninstalled(c, lowered)
    at = next((k for k in leading if lowered[k] in _CLEANS), None)
    if at is None:
        return None
    before = [p for k in leading if k < at for p in split_word(lowered[k])]
    if set(before) & _CHEAP:
        return None  # `cache clean`, `build clean`
    operands = [t for k, t in enumerate(texts[at + 1:], at + 1) if t[:1] != "-" and not is_option_value(texts, k)]
    said = " ".join(texts[k] for k in leading if k <= at)
    valued = [v for t in texts[at + 1:] if t[:1] == "-" for v in t.split("=", 1)[1:]] + \
        [t for k, t in enumerate(texts[at + 1:], at + 1) if texts[k - 1][:1] == "-"]
    store = next((t for t in operands if _LOCATOR.match(t) and t not in valued), None) or next(
        (v for v in valued if _LOCATOR.match(v) and not v.lower().startswith(("http:", "https:"))),
        None)  # `clean --store s3://b/cache`, `clean --jobstore=file:js` (an option's web address is a server's)
    if store is not None:
        return MEDIUM, f"{c.prog} {said} deletes the store {store} and every result kept in it ({c.text})"
    if lowered[at] == "gc":
        return None  # `dvc gc`, `lakectl gc`: a store's own garbage, unless its locator is given (above)
    objects = [p for t in operands[:1] + before for p in split_word(t.lower())]
    if set(objects) & _CHEAP:
        return None
    if not operands and not before and set(lowered) & _ANSWERED and not _BUILDERS.search(prog) and \
            prog not in _TASK_RUNNERS and prog not in BUILD_TOOLS:
        return MEDIUM, f"{c.prog} {said} deletes what {c.prog} stored, without asking ({c.text})"
    stored = next((p for p in objects if p in _STORED or p in DATA_NOUNS and p not in WEAK_DATA_NOUNS), None)
    if stored is not None:
        return MEDIUM, f"{c.prog} {said} deletes the {stored} it holds ({c.text})"
    engine = _ENGINE.search(prog) and not _BUILDERS.search(prog) and prog not in _TASK_RUNNERS
    if engine and (set(lowered) & _WHOLE or operands):
        what = operands[0] if operands and not is_option_value(texts, texts.index(operands[0])) and \
            texts[texts.index(operands[0]) - 1][:1] != "-" else "every past run"
        return MEDIUM, f"{c.prog} {said} deletes the work and results kept for {what}: a run cannot be resumed " \
            f"from them ({c.text})"
    return None


def _uninstalled(c: Ctx, lowered: list) -> Optional[tuple]:
    """``loft uninstall``, ``pivpn uninstall``, ``mole uninstall``: a program told to uninstall, with nothing named,
    takes itself or the platform it set up away, with what it kept (``--keep-…`` or another option: quiet)."""
    if _HOOKS_NAME.search(c.prog) or c.prog.lower() in BUILD_TOOLS or \
            not {t for t in lowered if t[:1] == "-"} <= _UNASKED:
        return None  # `husky uninstall`: a repository's hooks; `opencode uninstall -c`: keeps its configuration
    return MEDIUM, f"{c.prog} uninstall removes {c.prog} and what it set up, with the data it kept ({c.text})"


def _reset(c: Ctx, lowered: list, at: int) -> Optional[tuple]:
    """``pueue reset``, ``orbx reset``, ``rigctl reset --hard``: the program's own state put back to empty."""
    if _SETTING_NAME.search(c.prog) or _BUILDERS.search(c.prog) or c.prog.lower() in BUILD_TOOLS:
        return None
    rest = [t for k, t in enumerate(lowered[at + 1:], at + 1) if t[:1] != "-" and not is_option_value(c.texts, k)]
    options = {t.split("=", 1)[0] for t in lowered if t[:1] == "-"}
    if options & _SOFT or c.texts[at] != "reset":
        return None  # `reset --soft`, `reset --keep-data`: another kind of reset (and `RESET`, a statement's)
    if rest:  # `skate reset @db`: a store named; `reset gamma`, `reset sensor2`, `reset /key`: a part
        store = next((t for t in rest[:1] if t.startswith("@") or "/" not in t and
                      set(split_word(t.strip("@'\""))) & _RESET_STORES), None)
        if store is None or len(rest) > 2:  # (`reset queue orders`: the kind, then its name)
            return None
        store = " ".join(rest)
        return MEDIUM, f"{c.prog} reset empties {store}: what it holds is lost ({c.text})"
    return MEDIUM, f"{c.prog} reset puts everything {c.prog} manages back to empty: its jobs, data or machines " \
        f"are lost ({c.text})"
