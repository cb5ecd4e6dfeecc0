from urllib.parse import urlparse

from aish.config import load as config_mod
from aish.llm import detect
from tests.stub_server import StubServer


def test_first_local_server_that_answers_wins(monkeypatch):
    with StubServer(models=["qwen-test"], owned_by="llamacpp") as stub:
        port = urlparse(stub.url).port
        monkeypatch.setenv("AISH_DETECT_PORTS", f"closed:9,llama.cpp:{port}")
        monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-not-used")
        found = detect.detect()
    assert found.model.endpoint == stub.url and found.model.model == "qwen-test"
    assert found.description == f"llama.cpp at {stub.url} (model qwen-test)"


def test_a_server_is_named_by_its_answers_not_its_port(monkeypatch):
    """llama-cpp-python on its default port 8000 (vLLM's) was called vLLM."""
    with StubServer(models=["tiny.gguf"], owned_by="me") as stub:
        monkeypatch.setenv("AISH_DETECT_PORTS", f"vLLM:{urlparse(stub.url).port}")
        found = detect.detect()
    assert found.description == f"llama-cpp-python at {stub.url} (model tiny.gguf)"


def test_a_server_busy_generating_for_another_client_is_found(monkeypatch):
    """Its /v1/models waits for the generation in progress, longer than detection waits (made
    0.3 s here, half the default's: the stub's other answers take milliseconds)."""
    monkeypatch.setattr(detect, "IDENTIFY_AT_LEAST", 0.3)
    with StubServer(models=["tiny.gguf"], owned_by="me") as stub:
        stub.models_delay = 3.0
        monkeypatch.setenv("AISH_DETECT_PORTS", f"vLLM:{urlparse(stub.url).port}")
        found = detect.detect(timeout=0.075)  # four probe time-outs: 0.3 s
    assert found is not None and found.model.endpoint == stub.url
    assert found.description.startswith(f"llama-cpp-python at {stub.url}") and "busy" in found.description


def test_a_port_that_answers_but_is_no_model_server_is_passed_over(monkeypatch):
    with StubServer(models=[]) as stub:  # lists nothing and names no server family
        monkeypatch.setenv("AISH_DETECT_PORTS", f"vLLM:{urlparse(stub.url).port}")
        assert detect.detect() is None


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
