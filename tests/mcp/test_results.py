"""Tool results -> model text: text passes, other blocks are one line, long text is cut."""
from __future__ import annotations

import base64

from aish.mcp import results


def test_text_blocks_joined_and_images_summarized():
    png = base64.b64encode(b"\0" * 12 * 1024).decode()
    result = {"content": [{"type": "text", "text": "a"},
                          {"type": "image", "mimeType": "image/png", "data": png},
                          {"type": "text", "text": "b"}]}
    assert results.result_text(result) == "a\n[image/png, 12 KB]\nb"


def test_other_blocks():
    audio = {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}
    assert results.summarize_block(audio) == "[audio/wav, 3 B]"
    assert results.summarize_block({"type": "resource_link", "uri": "file:///x", "name": "x"}) \
        == "[resource link file:///x x]"
    assert results.summarize_block({"type": "resource", "resource": {"uri": "file:///b", "blob": "AAAA",
                                                                     "mimeType": "application/pdf"}}) \
        == "[resource file:///b (application/pdf), 3 B]"
    assert results.summarize_block({"type": "hologram"}) == "[hologram content]"


def test_text_resource_keeps_its_text():
    block = {"type": "resource", "resource": {"uri": "file:///n.txt", "mimeType": "text/plain", "text": "hi"}}
    assert results.result_text({"content": [block]}) == "[resource file:///n.txt (text/plain), 2 B]\nhi"


def test_structured_content_when_no_blocks():
    assert results.result_text({"content": [], "structuredContent": {"n": 1}}) == '{"n": 1}'


def test_cut_marker_counts_what_is_missing():
    text, dropped = results.cut("x" * 61_211, 8000)
    assert dropped == 53_211
    assert text == "x" * 8000 + "\n[... cut: 53,211 more characters]"
    assert results.cut("short", 8000) == ("short", 0)
