"""Redactors to compare, each as ``text -> redacted text``.

- ``aish``: the working tree's ``Redactor``.
- ``aish@REV``: the ``secrets`` module of a git revision, loaded from ``git show`` (the
  baseline measured in the same run).
- ``detect-secrets``: Yelp's detect-secrets 1.x as a redactor, the way llm-guard uses it: the
  text scanned as a file with all its plugins and default filters, each reported value
  replaced.  Needs the package.
- ``detect-secrets+rules``: the same with a directory of extra detect-secrets plugins (the
  gitleaks-derived set that llm-guard ships in ``llm_guard/input_scanners/secrets_plugins``),
  given with ``--plugins DIR``.
"""
from __future__ import annotations

import importlib.util
import subprocess
import tempfile
import sys
import types
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
Redact = Callable[[str], str]


def aish() -> Redact:
    sys.path.insert(0, str(ROOT / "backend"))
    from aish.safety.secrets import Redactor
    return lambda text: Redactor().redact(text)


def aish_at(rev: str) -> Redact:
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:backend/aish/safety/secrets.py"],
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType(f"aish_secrets_{rev}")
    exec(compile(source, f"{rev}:secrets.py", "exec"), module.__dict__)  # our own file at a revision
    return lambda text: module.Redactor().redact(text)


_active: list = [None]  # the detect-secrets configuration in force (one at a time, process-wide)


def detect_secrets(plugins_dir: Path | None = None) -> Redact | None:
    if importlib.util.find_spec("detect_secrets") is None:
        return None
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import cache_bust, configure_settings_from_baseline

    key = str(plugins_dir)

    def configure() -> None:
        if _active[0] == key:
            return
        cache_bust()  # a fresh Settings (default filters, no plugins)
        get_mapping_from_secret_type_to_class.cache_clear()
        used = [{"name": cls.__name__} for cls in get_mapping_from_secret_type_to_class().values()]
        if plugins_dir is not None:
            used += [{"name": _plugin_class(path), "path": path.resolve().as_uri()}
                     for path in sorted(plugins_dir.glob("*.py")) if path.name != "__init__.py"]
        configure_settings_from_baseline({"plugins_used": [u for u in used if u["name"]]})
        get_mapping_from_secret_type_to_class.cache_clear()  # now with the files' plugins
        _active[0] = key

    def redact(text: str) -> str:
        """As llm-guard uses it: the text scanned as a file, each reported value replaced."""
        configure()
        with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            values = {s.secret_value for s in scan_file(file.name) if s.secret_value and len(s.secret_value) >= 4}
        for value in sorted(values, key=len, reverse=True):
            text = text.replace(value, "<secret>")
        return text
    return redact


def _plugin_class(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("class ") and "Detector" in line:
            return line.split()[1].split("(")[0]
    return ""
