"""daemon/method_cache.py: dataclass methods compiled once, the same classes from the file."""
from __future__ import annotations

import dataclasses
import stat
from dataclasses import dataclass, field
from typing import Optional

import pytest

from aish.daemon import method_cache


def _classes():
    @dataclass
    class Plain:
        """A config section's shape: defaults, a factory, an optional."""

        name: str = ""
        items: list = field(default_factory=list)
        limit: Optional[int] = None

    @dataclass(frozen=True)
    class Event:
        text: str
        index: int = 0

    return Plain, Event


def _made_with(cache, monkeypatch):
    monkeypatch.setattr(dataclasses, "exec", cache.exec, raising=False)
    try:
        return _classes()
    finally:
        monkeypatch.delattr(dataclasses, "exec")


def test_the_second_process_compiles_nothing_and_gets_the_same_classes(tmp_path, monkeypatch):
    first = method_cache.MethodCache(tmp_path / method_cache.FILE)
    _made_with(first, monkeypatch)
    assert first.compiled > 0
    first.save()
    assert stat.S_IMODE((tmp_path / method_cache.FILE).stat().st_mode) == 0o600

    second = method_cache.MethodCache(tmp_path / method_cache.FILE)
    plain, event = _made_with(second, monkeypatch)
    assert second.compiled == 0
    a, b = plain("x"), plain("x")
    assert a == b and a.items == [] and a.items is not b.items and a.limit is None
    assert repr(a).endswith("Plain(name='x', items=[], limit=None)")
    e = event("t")
    assert e == event("t", 0) and hash(e) == hash(event("t")) and e != event("t", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.text = "changed"  # type: ignore[misc]
    assert plain.__init__.__annotations__ == _classes()[0].__init__.__annotations__  # no future flags leaked


@pytest.mark.parametrize("content", [b"", b"not marshal data", None])
def test_an_unreadable_or_foreign_file_means_compiling_as_before(tmp_path, monkeypatch, content):
    path = tmp_path / method_cache.FILE
    if content is None:  # another interpreter's bytecode: its magic number differs
        import marshal

        content = marshal.dumps((b"\x00\x00\r\n", {"def x(): pass": compile("1", "<s>", "exec")}))
    path.write_bytes(content)
    cache = method_cache.MethodCache(path)
    assert cache.codes == {}
    plain, _ = _made_with(cache, monkeypatch)
    assert cache.compiled > 0 and plain("y").name == "y"


def test_nothing_new_compiled_leaves_the_file_alone(tmp_path):
    cache = method_cache.MethodCache(tmp_path / method_cache.FILE)
    cache.save()
    assert not (tmp_path / method_cache.FILE).exists()
