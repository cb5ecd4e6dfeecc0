"""The suite loads the pytest plugins it uses and no other (pyproject's addopts): a plugin the
environment happens to have installed costs every process of a run its imports and whatever it
does at start (pytest-benchmark's runs git six times; with hypothesis's, ~0.1 s of CPU a process,
four processes a unit run)."""
from __future__ import annotations

USED = {"pytest-xdist", "pytest-timeout"}


def test_the_suite_loads_only_the_plugins_it_uses(pytestconfig):
    loaded = {dist.project_name.lower().replace("_", "-")
              for _plugin, dist in pytestconfig.pluginmanager.list_plugin_distinfo()}
    assert loaded <= USED, f"plugins the suite does not use: {sorted(loaded - USED)}"
