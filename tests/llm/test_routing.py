"""router.py: the seed's routing heuristics on a corpus, then classify_model's gating."""
from __future__ import annotations

import pytest

from aish.llm import routing as router
from aish.config.schema import Config, ModelConfig, RoutingConfig
from aish.config.load import from_dict
from aish.errors import ConfigError
from tests.safety.forms import each_form

FENCED = "what is wrong here?\n```\nfor i in range(3) print(i)\n```"
PASTE = "def f(x):\n    if x:\n        return 1\n    return 2\nprint(f(0))"
GCC = "main.c: In function 'main':\nmain.c:3:5: error: expected ';' before 'return'"
LONG_Q = ("I have a directory full of photos from several cameras and I would like them renamed "
          "by the date they were taken, is there a tool for that?")
LONG_NO_Q = ("I have a directory full of photos from several cameras and I would like them renamed "
             "by the date they were taken. Give me a command.")
ERROR_LATE = ("please write me a shell loop that goes over every file in the current directory, "
              "prints its size and its name, and sorts the output by size so the biggest file is "
              "last. If a file cannot be read, print error: and the name.")

CORPUS = [
    # seed §1 examples
    ("explain this Python traceback: Traceback (most recent call last): File x", "code"),
    ("ls /tmp", "default"),
    ("what time is it?", "default"),
    # code: fences, traces, errors near the beginning, source paths, indented pastes
    (FENCED, "code"),
    ("```ls -la```", "code"),
    ("Traceback (most recent call last):\n  File \"a.py\", line 1", "code"),
    ("got this STACKTRACE from java, what now", "code"),
    ("the stack trace points at main", "code"),
    ("here are the stack-traces from last night", "code"),
    ("TypeError: 'NoneType' object is not subscriptable", "code"),
    ("java.lang.NullPointerException: foo is null", "code"),
    ("ERROR: relation \"users\" does not exist", "code"),
    ("exception: division by zero in worker", "code"),
    (GCC, "code"),
    ("why does ./build/main.go not compile", "code"),  # code wins over reasoning: first hit
    ("open /usr/lib/python3/os.py", "code"),
    ("rename ~/src/app.rs:12 to lib.rs", "code"),
    ("run ../tools/gen.js", "code"),
    ("edit ~/init.lua please", "code"),
    (PASTE, "code"),
    # reasoning: the seed's tokens, word-bounded and case-insensitive
    ("explain ls -la", "reasoning"),
    ("Can you explain what chmod 755 means", "reasoning"),  # the casual "explain": still reasoning
    ("why is my disk full", "reasoning"),
    ("Why?", "reasoning"),
    ("How does git rebase work", "reasoning"),
    ("how   does rsync decide what to copy", "reasoning"),
    ("compare zstd and xz", "reasoning"),
    (LONG_Q, "reasoning"),
    # default: false-positive traps for word-ish matching
    ("it somehow doesn't start on boot", "default"),  # "how does" inside "somehow doesn't"
    ("an unexplained spike in load", "default"),  # "explain" inside "unexplained"
    ("show me anywhere a log file could be", "default"),
    ("incomparable speed, list the files", "default"),
    ("list the comparers in this dir", "default"),
    ("my terror: spiders in the attic", "default"),  # "error:" inside a word
    ("the error is gone now", "default"),  # no colon
    ("how do I find big files", "default"),  # "how do", not "how does"
    ("cat ~/.zshrc", "default"),  # a path without a source extension
    ("look at ./settings.cfg", "default"),  # ".c" must be a whole extension
    ("grep -r foo ./src", "default"),
    ("see https://example.invalid/main.py", "default"),  # a URL is not a local path
    (LONG_NO_Q, "default"),  # long but no question mark
    ("short question?", "default"),
    ("a\nb\nc\nd\ne\nf", "default"),  # many lines, no indentation
    ("  one indented line\nand another", "default"),  # indentation, few lines
    (ERROR_LATE, "default"),  # "error:" far from the beginning
    ("", "default"),
]


@each_form("text,expected", CORPUS)
def test_corpus(text, expected):
    assert router.classify(text) == expected


def test_corpus_is_big_and_covers_every_class():
    assert len(CORPUS) >= 30
    assert {cls for _, cls in CORPUS} == set(router.CLASSES)


def test_explain_names_the_heuristic_that_fired():
    assert router.explain(FENCED) == ("code", "code fence")
    assert router.explain(PASTE) == ("code", "indented paste")
    assert router.explain(LONG_Q) == ("reasoning", "long question")
    assert router.explain("ls") == ("default", None)


# ---------------------------------------------------------------- classify_model

MODELS = {name: ModelConfig(name=name, endpoint="http://127.0.0.1:1", model=name)
          for name in ("fast", "deep", "cloud")}


def cfg(auto=True, **classes) -> Config:
    routing = RoutingConfig(auto=auto)
    routing.classes.update(classes)
    return Config(models=dict(MODELS), routing=routing)


def test_defaults_are_off_and_code_to_deep_only():
    routing = Config().routing
    assert routing.auto is False
    assert routing.classes == {"code": "deep", "reasoning": None, "default": None}


def test_auto_off_always_keeps_the_active_model():
    assert router.classify_model(PASTE, cfg(auto=False)) is None


def test_code_routes_to_deep_and_the_rest_keeps_the_active_model():
    c = cfg()
    assert router.classify_model(PASTE, c) == "deep"
    assert router.classify_model("why is my disk full", c) is None  # N2: reasoning -> none
    assert router.classify_model("ls /tmp", c) is None


def test_user_mapped_reasoning_goes_where_they_said():
    c = cfg(reasoning="cloud")
    assert router.classify_model("explain ls -la", c) == "cloud"
    assert router.classify_model("ls", c) is None


def test_a_class_mapped_to_an_unknown_model_is_a_config_error():
    c = cfg(code="huge")
    with pytest.raises(ConfigError) as info:
        router.classify_model(PASTE, c)
    assert "routing.classes.code = 'huge'" in str(info.value) and "route off" in str(info.value)
    assert router.unconfigured(c) == [("code", "huge")]
    assert router.classify_model("ls", c) is None  # only the class that fires matters


def test_load_time_validation_rejects_unknown_class_models_when_auto_is_on():
    raw = {"models": {"fast": {"endpoint": "http://127.0.0.1:1", "model": "m"}},
           "routing": {"auto": True}}
    with pytest.raises(ConfigError, match="routing.classes.code = 'deep'"):
        from_dict(raw)
    raw["routing"]["auto"] = False  # off: the mapping is only checked when 'route on' asks
    assert from_dict(raw).routing.classes["code"] == "deep"
