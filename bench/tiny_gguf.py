"""Tiny llama GGUFs, made locally with the `gguf` package (no download).

``make_tiny_gguf``: random weights.  The model answers gibberish (its byte tokens rarely
decode to text, so a client sees an empty answer), which is all a prompt-cache measurement
needs: prompt processing costs the same for any weights.

``make_talking_gguf``: the same shapes and costs, with weights set by hand so that the
model talks: whatever it was asked, it answers ``SENTENCE`` over and over until
``max_tokens`` (it never says end of text).  A conversation against it grows as a real one
does, so its folds, summaries and prompt-cache losses happen on a real server.

``LlamaServer`` runs ``python -m llama_cpp.server`` on one of them; ``prompt_evals`` reads
from its log what each request's prompt cost (the tokens its prompt cache did not hold).

In both the vocabulary holds the 256 byte tokens plus <unk>/<s>/</s> in a sentencepiece-
style tokenizer, so every byte of a prompt is one token (the talking model's word tokens
are only ever produced, never matched: sentencepiece merges need their halves in the
vocabulary).
"""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LlamaServer:
    """``python -m llama_cpp.server`` on ``model`` on loopback, its output in ``log``."""

    def __init__(self, model: Path, n_ctx: int, log: Path) -> None:
        self.model, self.n_ctx, self.log_path = model, n_ctx, log

    def __enter__(self) -> str:
        port = free_port()
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
                                      "--n_ctx", str(self.n_ctx), "--host", "127.0.0.1", "--port", str(port),
                                      "--seed", "1"], stdout=self.log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(url + "/v1/models", timeout=2).read()
                return url
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.__exit__()
                    raise RuntimeError("llama_cpp.server did not start: "
                                       + self.log_path.read_text(errors="replace")[-2000:]) from None
                time.sleep(0.3)

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


def prompt_evals(log: Path) -> list:
    """The tokens the server evaluated for each request's prompt, in order (llama.cpp's own
    timing lines): what its prompt cache did not hold."""
    return [int(m) for m in re.findall(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens",
                                       log.read_text(errors="replace"))]


SENTENCE = ("Run", "\u2581lsof", "\u2581-i", "\u2581:8080", "\u2581to", "\u2581see", "\u2581which",
            "\u2581process", "\u2581holds", "\u2581that", "\u2581port", ".", "<0x0A>")


def make_tiny_gguf(path: Path, *, n_embd: int = 256, n_layer: int = 4, n_head: int = 4,
                   n_ff: int = 512, n_ctx: int = 16384, seed: int = 0) -> Path:
    import gguf
    import numpy as np

    rng = np.random.default_rng(seed)
    tokens = [b"<unk>", b"<s>", b"</s>"] + [f"<0x{i:02X}>".encode() for i in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] \
        + [gguf.TokenType.BYTE] * 256

    def weight(*shape: int):
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    return _write(path, "aish-tiny-random", tokens, types, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
                  n_ff=n_ff, n_ctx=n_ctx, embd=weight(len(tokens), n_embd), out=weight(len(tokens), n_embd),
                  block=weight)


def make_talking_gguf(path: Path, *, n_embd: int = 256, n_layer: int = 4, n_head: int = 4,
                      n_ff: int = 512, n_ctx: int = 16384, sentence: tuple = SENTENCE) -> Path:
    """A model that answers ``sentence`` (its tokens, "\u2581" a space) again and again.

    How: a chain from each token to the next.  Every token of the sentence has an embedding
    of its own (a unit vector), every other token one shared vector; the attention and
    feed-forward weights are zero, so the last hidden state is the last token's embedding,
    and the output matrix maps each embedding to the next token of the sentence with a
    margin of ~64 logits (any sampling temperature picks it).  After anything else (the
    chat template's last token) comes the sentence's first token.  The matrices have the
    shapes of ``make_tiny_gguf``'s, so a token costs what it costs there.
    """
    import gguf
    import numpy as np

    words = [w.encode() for w in sentence if not w.startswith("<0x")]
    tokens = [b"<unk>", b"<s>", b"</s>"] + [f"<0x{i:02X}>".encode() for i in range(256)] + words
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] \
        + [gguf.TokenType.BYTE] * 256 + [gguf.TokenType.NORMAL] * len(words)
    n_vocab = len(tokens)
    chain = [tokens.index(w.encode()) for w in sentence]
    if len(set(chain)) != len(chain) or len(chain) >= n_embd:
        raise ValueError("the sentence needs distinct tokens, fewer than n_embd")
    other = len(chain)  # the dimension every token outside the sentence points along
    embd = np.zeros((n_vocab, n_embd), dtype=np.float32)
    embd[:, other] = 1.0
    out = np.zeros((n_vocab, n_embd), dtype=np.float32)
    for i, token in enumerate(chain):
        embd[token] = 0.0
        embd[token, i] = 1.0
        out[chain[(i + 1) % len(chain)], i] = 4.0  # after the sentence's i-th token, its next
    out[chain[0], other] = 4.0  # after anything else, its first
    # (RMS norm makes a unit vector 16 long at n_embd 256: the margin is 4 x 16 = 64 logits)

    def zeros(*shape: int):
        return np.zeros(shape, dtype=np.float32)

    return _write(path, "aish-tiny-talking", tokens, types, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
                  n_ff=n_ff, n_ctx=n_ctx, embd=embd, out=out, block=zeros)


def _write(path: Path, name: str, tokens: list, types: list, *, n_embd: int, n_layer: int, n_head: int,
           n_ff: int, n_ctx: int, embd, out, block) -> Path:
    """A llama GGUF of these shapes: a sentencepiece vocabulary (<unk>, <s>, </s> first), the
    embeddings and output matrix given, and each block's matrices from ``block(*shape)``."""
    import gguf
    import numpy as np

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(name)
    writer.add_context_length(n_ctx)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(n_layer)
    writer.add_feed_forward_length(n_ff)
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_head)
    writer.add_rope_dimension_count(n_embd // n_head)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_tensor("token_embd.weight", embd)
    writer.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    writer.add_tensor("output.weight", out)
    for i in range(n_layer):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        for matrix in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{i}.{matrix}.weight", block(n_embd, n_embd))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", block(n_ff, n_embd))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", block(n_ff, n_embd))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", block(n_embd, n_ff))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
