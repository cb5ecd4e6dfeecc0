"""alias.tool <-> wire names: valid for chat APIs, distinct, deterministic, capped."""
from __future__ import annotations

import random

from aish.mcp import names


def test_plain_names_stay_readable():
    assert names.build(["notes.read_note", "git.status"]) == {
        "notes.read_note": "notes__read_note", "git.status": "git__status"}


def test_dots_and_other_characters_are_replaced_and_hashed():
    mapping = names.build(["fs.read.file", "web.fetch url", "n.ö"])
    for wire in mapping.values():
        assert names.is_valid(wire), wire
    assert mapping["fs.read.file"].startswith("fs__read_file_")


def test_long_names_are_capped_and_stay_distinct():
    a = "a" * 40 + "." + "t" * 40 + "_one"
    b = "a" * 40 + "." + "t" * 40 + "_two"
    mapping = names.build([a, b])
    assert all(len(w) <= 64 and names.is_valid(w) for w in mapping.values())
    assert mapping[a] != mapping[b]


def test_ambiguous_plain_names_both_get_hashes():
    mapping = names.build(["a__b.c", "a.b__c"])
    assert len(set(mapping.values())) == 2
    assert "a__b__c" not in mapping.values()


def test_hash_collision_with_a_plain_name_is_avoided():
    hashed = names.build(["x.y.z"])["x.y.z"]
    alias, tool = hashed.split("__", 1)
    mapping = names.build(["x.y.z", f"{alias}.{tool}"])
    assert mapping[f"{alias}.{tool}"] == hashed, "the plain name keeps its own form"
    assert mapping["x.y.z"] != hashed and names.is_valid(mapping["x.y.z"])


def test_deterministic_whatever_the_order():
    users = [f"s{i % 3}.tool.{i}" for i in range(30)] + ["a__b.c", "a.b__c"]
    first = names.build(users)
    shuffled = users[:]
    random.Random(7).shuffle(shuffled)
    assert names.build(shuffled) == first
    assert len(set(first.values())) == len(first)


def test_reverse_lookup_is_unique():
    users = ["notes.read", "notes.read.x", "n.otes__read", "z" * 70 + ".q"]
    mapping = names.build(users)
    reverse = {w: u for u, w in mapping.items()}
    assert len(reverse) == len(users)
