import dataclasses
import sys
import typing

import pytest

from aish.config import load as config_mod
from aish.config.load import from_dict
from aish.config.render import EXAMPLE, render
from aish.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

BASE = '[models.fast]\nendpoint = "http://127.0.0.1:8080"\nmodel = "m"\n'


def load(config_file, text):
    return config_mod.load(config_file(text))


def test_example_config_is_valid_and_loads(config_file):
    cfg = load(config_file, EXAMPLE)
    assert cfg.default_model == "fast" and cfg.models["fast"].model == "qwen2.5-coder-7b"
    assert cfg.routing.auto is False and cfg.routing.classes["code"] == "deep"
    assert cfg.context.max_turns == 20 and cfg.mcp.max_tool_depth == 8


def test_unknown_key_names_file_and_key(config_file):
    with pytest.raises(ConfigError) as info:
        load(config_file, BASE + "[context]\nmax_turn = 3\n")
    message = str(info.value)
    assert "unknown key 'context.max_turn'" in message and "config.toml" in message
    assert "max_turns" in message  # the hint lists what is expected


def test_wrong_type_names_key_and_expected_type(config_file):
    with pytest.raises(ConfigError) as info:
        load(config_file, BASE.replace('model = "m"', 'model = "m"\nread_timeout = "slow"'))
    assert "models.fast.read_timeout must be a number" in str(info.value)


def test_bool_is_not_an_integer(config_file):
    with pytest.raises(ConfigError, match="context.max_turns must be an integer"):
        load(config_file, BASE + "[context]\nmax_turns = true\n")


def test_toml_syntax_error_names_the_line(config_file):
    with pytest.raises(ConfigError) as info:
        load(config_file, BASE + "[routing\nauto = true\n")
    assert "TOML syntax error" in str(info.value) and "line 4" in str(info.value)


def test_agents_propose_timeout_is_read_and_must_be_positive(config_file):
    assert load(config_file, BASE + "[agents]\npropose_timeout = 90\n").agents.propose_timeout == 90
    assert load(config_file, BASE).agents.propose_timeout == 600.0
    with pytest.raises(ConfigError, match="agents.propose_timeout must be a number of seconds above 0"):
        load(config_file, BASE + "[agents]\npropose_timeout = 0\n")


def test_model_needs_endpoint_and_model(config_file):
    with pytest.raises(ConfigError, match=r"\[models.fast\] needs both"):
        load(config_file, '[models.fast]\nendpoint = "http://x"\n')


def test_routing_class_to_unconfigured_model_is_a_load_error(config_file):
    with pytest.raises(ConfigError, match="routing.classes.code = 'deep' is not a configured model"):
        load(config_file, BASE + "[routing]\nauto = true\n")
    cfg = load(config_file, BASE + "[routing]\nauto = false\n")  # off: the default mapping is fine
    assert cfg.routing.classes["code"] == "deep"


def test_fallback_model_must_exist_when_fallback_is_on(config_file):
    with pytest.raises(ConfigError, match="fallback_model = 'cloud'"):
        load(config_file, BASE + "[routing]\nfallback = true\n")


def test_missing_file_gives_defaults_but_explicit_missing_path_is_an_error(tmp_path, monkeypatch):
    monkeypatch.delenv("AISH_CONFIG")
    monkeypatch.setattr(config_mod.paths, "config_dir", lambda: tmp_path / "nowhere")
    assert config_mod.load().models == {}
    monkeypatch.setenv("AISH_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="does not exist"):
        config_mod.load()


def test_mcp_server_needs_exactly_one_of_url_or_command(config_file):
    with pytest.raises(ConfigError, match="exactly one of 'url' or 'command'"):
        load(config_file, BASE + '[mcp.servers.x]\nurl = "http://a"\ncommand = ["b"]\n')
    cfg = load(config_file, BASE + '[mcp]\nauto_approve = ["x.*"]\n[mcp.servers.x]\ncommand = ["srv"]\n')
    assert cfg.mcp.servers["x"].command == ["srv"] and cfg.mcp.auto_approve == ["x.*"]


def test_show_masks_secrets_and_round_trips(config_file, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-live-should-not-print")
    cfg = load(config_file, BASE.replace('model = "m"', 'model = "m"\nkey_env = "MY_KEY"')
               + '[mcp.servers.n]\nurl = "http://127.0.0.1:1/mcp"\nauth_token = "tok-secret-123"\n')
    text = render(cfg)
    assert "sk-live-should-not-print" not in text and "tok-secret-123" not in text
    assert "$MY_KEY is set" in text and 'auth_token = "****"' in text
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    assert tomllib.loads(body)["models"]["fast"]["model"] == "m"


def test_local_endpoints_are_recognised():
    m = config_mod.ModelConfig(name="a", endpoint="http://127.0.0.1:8080", model="x")
    assert m.is_local and m.chat_url == "http://127.0.0.1:8080/v1/chat/completions"
    assert not config_mod.ModelConfig(endpoint="https://openrouter.ai/api", model="x").is_local
    assert config_mod.ModelConfig(endpoint="http://192.168.1.5:1234", model="x").is_local


# ---------------------------------------------------------------- types and round trip

def every_config_dataclass():
    from aish.config import schema

    return [obj for obj in vars(schema).values()
            if dataclasses.is_dataclass(obj) and obj.__module__ == schema.__name__]


def test_every_field_of_every_config_dataclass_has_a_check():
    from aish.config.load import checker

    seen = 0
    for cls in every_config_dataclass():
        for name, hint in typing.get_type_hints(cls).items():
            if dataclasses.is_dataclass(hint) or name in ("source",):
                continue  # sections are tables filled on their own; `source` is not read from TOML
            assert callable(checker(hint)), (cls.__name__, name)
            seen += 1
    assert seen > 40


def test_type_hints_are_resolved_once_per_class_not_at_every_load(config_file, monkeypatch):
    """Each load checked its values against hints resolved again (13 compiles of string
    annotations a load, the cost of a cheap case here; each ``aish`` command loads)."""
    resolved = []
    real = typing.get_type_hints
    monkeypatch.setattr(typing, "get_type_hints", lambda cls, *a, **kw: resolved.append(cls) or real(cls, *a, **kw))
    path = config_file(BASE)
    config_mod.load(path)
    before = len(resolved)
    assert config_mod.load(path).models["fast"].model == "m"
    assert len(resolved) == before, resolved[before:]


def test_a_field_spelled_with_the_union_operator_is_checked_too():
    from aish.config.load import _fill

    @dataclasses.dataclass
    class Spelled:
        old: typing.Optional[float] = None
        new: float | None = None

    for key in ("old", "new"):
        with pytest.raises(ConfigError, match=f"t.{key} must be a number"):
            _fill(Spelled, {key: "fast"}, "config", "t")


def test_show_prints_toml_that_reads_back_to_the_same_config(config_file):
    cfg = load(config_file, '''default_model = "gpt-4.1"
[models."gpt-4.1"]
endpoint = "https://api.example.invalid/v1"
model = "openai/gpt-4.1"
local = false
price_in = 2.0
[models.fast]
endpoint = "http://127.0.0.1:8080"
model = "qwen 2.5 \\"coder\\""
[routing]
auto = true
[routing.classes]
reasoning = "gpt-4.1"
code = "fast"
[mcp]
auto_approve = ["files.read_file"]
[mcp.servers."my.files"]
command = ["srv", "--root", "/tmp/x y"]
''')
    body = "\n".join(line for line in render(cfg).splitlines() if not line.startswith("#"))
    again = from_dict(tomllib.loads(body))
    cfg.source = None
    assert again == cfg


def test_show_prints_every_section_of_the_config():
    """`config show` left out [fix], [memory] and [delegate]: it named its sections by hand."""
    import dataclasses

    from aish.config.render import render
    from aish.config.schema import Config

    shown = render(Config())
    sections = [f.name for f in dataclasses.fields(Config)
                if dataclasses.is_dataclass(f.default_factory() if callable(f.default_factory) else None)]
    assert {"fix", "memory", "delegate", "norris", "mcp"} <= set(sections)
    assert [name for name in sections if f"\n[{name}]\n" not in shown] == []
