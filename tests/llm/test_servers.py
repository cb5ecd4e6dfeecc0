"""llm/servers.py: what a server is, told by what it answers, and what it says of its limits
(the shapes are the servers' own: llama.cpp, llama-cpp-python, vLLM, Ollama, LM Studio,
a LiteLLM proxy, OpenRouter)."""
from __future__ import annotations

import json

import pytest
import requests
import responses

from aish.errors import ConnectRefused
from aish.llm import servers
from aish.net import loopback
from tests.helpers import closed_port_url

EP = "http://127.0.0.1:8000"


@pytest.fixture(autouse=True)
def _through_requests(monkeypatch):
    """``responses`` mocks requests itself, so calls to loopback go through requests here
    (a daemon's probes of a local server go direct: tests/e2e/test_first_answer_imports.py)."""
    monkeypatch.setattr(loopback, "ENABLED", False)


def listing(*entries: dict) -> dict:
    return {"object": "list", "data": list(entries)}


@responses.activate
def test_llama_cpp_python_on_vllms_port_is_named_by_its_answers():
    responses.get(EP + "/v1/models", json=listing({"id": "tiny.gguf", "object": "model", "owned_by": "me",
                                                   "permissions": []}))
    info = servers.identify(EP, "qwen2.5-coder-7b")
    assert info.kind == servers.LLAMA_CPP_PYTHON and info.ignores_name and info.window is None


@responses.activate
def test_llama_cpp_window_from_its_model_meta_or_props():
    responses.get(EP + "/v1/models", json=listing({"id": "m.gguf", "owned_by": "llamacpp",
                                                   "meta": {"n_ctx": 8192, "n_ctx_train": 32768}}))
    info = servers.identify(EP, "anything")
    assert (info.kind, info.window, info.ignores_name) == (servers.LLAMA_CPP, 8192, True)
    responses.replace(responses.GET, EP + "/v1/models", json=listing({"id": "m.gguf", "owned_by": "llamacpp"}))
    responses.get(EP + "/props", json={"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1})
    assert servers.identify(EP, "anything").window == 4096


@responses.activate
def test_llama_cpp_router_of_several_models_does_not_ignore_the_name():
    responses.get(EP + "/v1/models", json=listing({"id": "a", "owned_by": "llamacpp", "meta": {"n_ctx": 512}},
                                                  {"id": "b", "owned_by": "llamacpp", "meta": {"n_ctx": 1024}}))
    info = servers.identify(EP, "b")
    assert not info.ignores_name and info.window == 1024


@responses.activate
def test_vllm_window_is_max_model_len():
    responses.get(EP + "/v1/models", json=listing({"id": "Qwen/Qwen2.5-7B", "owned_by": "vllm",
                                                   "max_model_len": 32768}))
    info = servers.identify(EP, "Qwen/Qwen2.5-7B")
    assert (info.kind, info.window, info.ignores_name) == (servers.VLLM, 32768, False)


@responses.activate
def test_ollama_window_is_num_ctx_or_its_default_within_the_trained_length():
    ep = "http://127.0.0.1:11434"
    responses.get(ep + "/v1/models", json=listing({"id": "qwen2.5:7b", "owned_by": "library"}))
    responses.get(ep + "/api/ps", json={"models": []})
    responses.post(ep + "/api/show", json={"parameters": "stop \"<|im_end|>\"\nnum_ctx 8192",
                                           "model_info": {"qwen2.context_length": 32768}})
    assert servers.identify(ep, "qwen2.5:7b").window == 8192
    responses.replace(responses.POST, ep + "/api/show", json={"parameters": "",
                                                              "model_info": {"qwen2.context_length": 32768}})
    assert servers.identify(ep, "qwen2.5:7b").window == servers.OLLAMA_DEFAULT_CTX
    responses.replace(responses.GET, ep + "/api/ps", json={"models": [{"name": "qwen2.5:7b",
                                                                       "context_length": 16384}]})
    assert servers.identify(ep, "qwen2.5:7b").window == 16384


@responses.activate
def test_lm_studio_window_is_the_loaded_length():
    ep = "http://127.0.0.1:1234"
    responses.get(ep + "/v1/models", json=listing({"id": "qwen2.5-7b-instruct", "owned_by": "organization_owner"}))
    responses.get(ep + "/api/v0/models/qwen2.5-7b-instruct", json={"max_context_length": 32768,
                                                                   "loaded_context_length": 4096})
    info = servers.identify(ep, "qwen2.5-7b-instruct")
    assert (info.kind, info.window) == (servers.LM_STUDIO, 4096)


@responses.activate
def test_litellm_proxy_is_a_gateway_with_windows_and_prices():
    ep = "http://127.0.0.1:4000"
    responses.get(ep + "/v1/models", json=listing({"id": "local", "owned_by": "openai"},
                                                  {"id": "gpt", "owned_by": "openai"}))
    responses.get(ep + "/v1/model/info", json={"data": [
        {"model_name": "local", "litellm_params": {"model": "openai/tiny"}, "model_info": {"max_input_tokens": None}},
        {"model_name": "gpt", "litellm_params": {"model": "openai/gpt-4o-mini"},
         "model_info": {"max_input_tokens": 128000, "max_output_tokens": 16384,
                        "input_cost_per_token": 1.5e-07, "output_cost_per_token": 6e-07}}]})
    info = servers.identify(ep, "gpt")
    assert (info.kind, info.gateway, info.window, info.answer_max) == (servers.LITELLM, True, 128000, 16384)
    assert info.price_in == pytest.approx(0.15) and info.price_out == pytest.approx(0.6)


@responses.activate
def test_openrouter_listing_gives_window_answer_limit_and_price():
    ep = "https://openrouter.ai/api"
    responses.get(ep + "/v1/models", json=listing(
        {"id": "openai/gpt-4o-mini", "context_length": 128000, "top_provider": {"max_completion_tokens": 16384},
         "pricing": {"prompt": "0.00000015", "completion": "0.0000006"}}))
    info = servers.identify(ep, "openai/gpt-4o-mini")
    assert (info.kind, info.gateway, info.window) == (servers.OPENROUTER, True, 128000)
    assert info.price_in == pytest.approx(0.15) and info.answer_max == 16384


@responses.activate
def test_a_busy_server_is_busy_not_absent():
    """llama-cpp-python's /v1/models waits while it generates for another client; its
    OpenAPI page still answers and names it."""
    responses.get(EP + "/v1/models", body=requests.exceptions.ReadTimeout("read timed out"))
    responses.get(EP + "/openapi.json", body=json.dumps({"info": {"title": "🦙 llama.cpp Python API"}}))
    info = servers.identify(EP, "")
    assert info.busy and info.kind == servers.LLAMA_CPP_PYTHON and info.models == []


def test_an_unreachable_server_raises_its_transport_error():
    with pytest.raises(ConnectRefused):
        servers.identify(closed_port_url(), "m")
