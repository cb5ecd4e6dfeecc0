from urllib.parse import urlparse

from aish.config import load as config_mod
from aish.llm import detect
from tests.stub_server import StubServer


def test_first_local_server_that_answers_wins(monkeypatch):
    with StubServer(models=["qwen-test"]) as stub:
        port = urlparse(stub.url).port
        monkeypatch.setenv("AISH_DETECT_PORTS", f"closed:9,llama.cpp:{port}")
        monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-not-used")
        found = detect.detect()
    assert found.model.endpoint == stub.url and found.model.model == "qwen-test"
    assert found.description == f"llama.cpp at {stub.url} (model qwen-test)"


def test_cloud_key_when_no_local_server(monkeypatch):
    monkeypatch.setenv("AISH_DETECT_PORTS", "closed:9")
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-x")
    found = detect.detect()
    assert found.model.key_env == "OPENROUTER_API_KEY" and "OpenRouter" in found.description
    assert "sk-or-v1-x" not in found.description


def test_nothing_found_leaves_config_empty_and_message_names_the_fixes(monkeypatch):
    monkeypatch.setenv("AISH_DETECT_PORTS", "closed:9")
    cfg = detect.apply(config_mod.Config())
    assert cfg.models == {} and cfg.detected is None
    assert "OPENROUTER_API_KEY" in detect.NOT_FOUND and "aish config init" in detect.NOT_FOUND


def test_a_config_file_is_never_overridden_by_detection(monkeypatch):
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-x")
    cfg = config_mod.from_dict({"models": {"fast": {"endpoint": "http://127.0.0.1:1", "model": "m"}}})
    assert detect.apply(cfg).models["fast"].model == "m" and cfg.detected is None
