"""The project verbs: ``tree``, ``diff`` (attach to the next question), ``trust``.

    ? :tree [DEPTH]        a compact file tree of the project from the cwd, without what git ignores
    ? :diff                the staged and unstaged diff
    aish trust [--revoke]  trust this project's AISH.md and .aish.toml as they are now

Attachments are masked (secrets shown as ***) and capped (context.tree_depth,
tree_max_entries, diff_max_chars); they travel with the next question only.
"""
from __future__ import annotations

from aish.app.verbs.context import VerbContext
from aish.errors import AishError


def tree(args: list[str], ctx: VerbContext) -> list[str]:
    """``? :tree [DEPTH]``: attach the project's file tree to the next question."""
    return _attach("tree", args, ctx)


def diff(args: list[str], ctx: VerbContext) -> list[str]:
    """``? :diff``: attach the staged and unstaged git diff to the next question."""
    return _attach("diff", args, ctx)


def trust(args: list[str], ctx: VerbContext) -> list[str]:
    """``aish trust [--revoke]``: trust this project's AISH.md and .aish.toml as they are now."""
    return _trust(args, ctx, ctx.cwd)


def _attach(verb: str, args: list[str], ctx: VerbContext) -> list[str]:
    from aish.context import git
    from aish.safety.secrets import mask

    cwd = ctx.cwd
    caps = ctx.config.context
    if not cwd:
        raise AishError(f"{verb}: no working directory came with the request", hint="run it from a shell")
    try:
        if verb == "tree":
            depth = int(args[0]) if args and args[0].isdigit() else caps.tree_depth
            block = git.tree(cwd, depth=depth, max_entries=caps.tree_max_entries)
        else:
            block = git.diff(cwd, max_chars=caps.diff_max_chars)
    except (OSError, ValueError) as err:
        raise AishError(f"{verb}: {err}", hint="run it inside the project") from None
    if not block:
        return ["[aish] no changes: nothing to attach"]
    assert ctx.session is not None  # the row's needs name the session
    ctx.session.attachments.append(mask(block))
    return [f"[aish] {verb} attached to your next question ({len(block.splitlines())} lines)"]


def _trust(args: list[str], ctx: VerbContext, cwd: str) -> list[str]:
    from aish.context.project import NOTES_FILE, OVERLAY_FILE, project_root

    project = ctx.project
    root = project_root(cwd) if cwd else None
    files = [root / name for name in (NOTES_FILE, OVERLAY_FILE)] if root else []
    files = [f for f in files if f.is_file()]
    if not files:
        raise AishError(f"trust: no {NOTES_FILE} or {OVERLAY_FILE} in this project ({root or cwd})",
                        hint="run 'aish trust' in the project that holds them")
    if args[:1] == ["--revoke"]:
        for path in files:
            project.trust.revoke(path)
        return [f"[aish] no longer trusted: {', '.join(str(f) for f in files)}"]
    if args:
        raise AishError(f"trust: unexpected argument '{args[0]}'", hint="aish trust [--revoke]")
    for path in files:
        project.trust.trust(path)
    return [f"[aish] trusted as they are now (a change needs 'aish trust' again): "
            f"{', '.join(str(f) for f in files)}"]
