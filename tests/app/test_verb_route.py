"""app/verbs/route.py and fallback.py: ``aish route ...`` and ``aish fallback ...`` against a VerbContext,
then through the daemon's verb dispatch so the toggles reach later asks."""
from __future__ import annotations

import json
import pytest

from aish.config import load as config_mod
from aish.app import service as service_mod
from aish.app.verbs import fallback, route
from aish.app.verbs.context import VerbContext
from aish.ipc.protocol import Request
from tests.doubles import RecordingReply
from aish.config.schema import Config, ModelConfig, RoutingConfig
from aish.errors import AishError, ConfigError

PASTE = "Traceback (most recent call last):\n  File \"a.py\", line 1"


def model(name: str) -> ModelConfig:
    return ModelConfig(name=name, endpoint="http://127.0.0.1:1", model=name)


def ctx(names=("fast", "deep", "cloud"), overrides=None, as_json=False, **routing) -> VerbContext:
    cfg = Config(models={n: model(n) for n in names}, routing=RoutingConfig(**routing))
    overrides = {} if overrides is None else overrides
    return VerbContext(config=config_mod.with_runtime_overrides(cfg, overrides), overrides=overrides,
                       json=as_json)


# ---------------------------------------------------------------- route

def test_route_on_and_off_set_the_daemon_override():
    c = ctx()
    lines = route.run(["on"], c)
    assert c.overrides == {"auto": True}
    assert lines == ["[aish] routing on for this daemon (code -> deep)"]
    route.run(["off"], c)
    assert c.overrides == {"auto": False}


def test_route_on_refuses_when_a_class_names_an_unconfigured_model():
    c = ctx(names=("fast",))
    with pytest.raises(ConfigError) as info:
        route.run(["on"], c)
    assert "code -> deep" in str(info.value) and "configured models: fast" in str(info.value)
    assert c.overrides == {}


def test_route_on_with_no_class_mapped_says_nothing_changes():
    c = ctx(names=("fast",), classes={"code": None, "reasoning": None, "default": None})
    assert "nothing changes" in route.run(["on"], c)[0]
    assert c.overrides == {"auto": True}


def test_route_classes_shows_each_mapping():
    lines = route.run(["classes"], ctx(classes={"code": "deep", "reasoning": "huge",
                                                         "default": None}))
    assert lines == ["[aish] routing off; active model: fast",
                     "  code -> deep",
                     "  reasoning -> huge (not configured)",
                     "  default -> (keep active model)"]
    assert route.run([], ctx()) == route.run(["classes"], ctx())


def test_route_check_always_runs_the_heuristic_and_says_when_routing_is_off():
    assert route.run(["check", *PASTE.split(" ")], ctx()) == \
        ["code -> deep (routing currently disabled)"]
    assert route.run(["check", "why", "is", "it", "slow"], ctx(auto=True)) == \
        ["reasoning -> (keep active model)"]
    assert route.run(["check", "ls", "/tmp"], ctx(overrides={"auto": True})) == \
        ["default -> (keep active model)"]


def test_route_check_json():
    line = route.run(["check", "explain", "ls"],
                     ctx(as_json=True, classes={"reasoning": "cloud"}))
    assert json.loads(line[0]) == {"class": "reasoning", "model": "cloud", "heuristic": "reasoning word",
                                   "auto": False}


@pytest.mark.parametrize("module, argv", [(route, ["check"]), (route, ["sideways"]),
                                          (fallback, ["maybe"]), (fallback, ["on", "now"])])
def test_bad_usage_is_an_error_with_the_usage(module, argv):
    with pytest.raises(AishError) as info:
        module.run(argv, ctx())
    assert "aish " in str(info.value)


# ---------------------------------------------------------------- fallback

def test_fallback_on_and_off():
    c = ctx()
    assert fallback.run(["on"], c) == [
        "[aish] fallback on: a call that fails before any text arrives is retried once via cloud"]
    assert c.overrides == {"fallback": True}
    assert fallback.run(["off"], c)[0].startswith("[aish] fallback off")
    assert c.overrides == {"fallback": False}


def test_fallback_on_refuses_without_the_fallback_model():
    c = ctx(names=("fast", "deep"))
    with pytest.raises(ConfigError) as info:
        fallback.run(["on"], c)
    assert "fallback_model = 'cloud'" in str(info.value) and "[models.cloud]" in str(info.value)
    assert c.overrides == {}


def test_fallback_on_the_active_model_itself_warns():
    c = ctx(fallback_model="fast")
    assert "not retried" in fallback.run(["on"], c)[0]


def test_fallback_without_argument_shows_the_state():
    assert fallback.run([], ctx(overrides={"fallback": True})) == \
        ["[aish] fallback on (fallback model: cloud)"]


# ---------------------------------------------------------------- through the daemon dispatch

def verb(service, *argv):
    reply = RecordingReply()
    service.verb(Request(kind="verb", argv=list(argv), conv="c"), reply)
    return reply.full_text.splitlines()


def test_toggles_reach_the_config_later_asks_see(config_file):
    from aish.llm import routing as router

    config_file("".join(f'[models.{n}]\nendpoint = "http://127.0.0.1:1"\nmodel = "{n}"\n'
                        for n in ("fast", "deep", "cloud")))
    service = service_mod.Service()
    assert router.classify_model(PASTE, service.config()) is None
    verb(service, "route", "on")
    assert router.classify_model(PASTE, service.config()) == "deep"
    verb(service, ":fallback", "on")
    assert service.config().routing.fallback is True
    assert verb(service, "route", "check", "ls") == ["default -> (keep active model)"]
    verb(service, "route", "off")
    assert router.classify_model(PASTE, service.config()) is None
    assert verb(service, "route", "check", "ls") == ["default -> (keep active model) (routing currently disabled)"]
