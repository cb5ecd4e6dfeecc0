"""Recall on the secret scanners' public fixtures, false positives on everyday outputs, speed.

    python3 bench/bench_secret_recall.py DIR [--baseline REV] [--plugins DIR] [--show N]

DIR holds checkouts of gitleaks, trufflehog and detect-secrets (any sub-directory names that
contain those names).  Their examples are read at run time (``scanner_fixtures.py``); nothing of
them is stored here, and only figures are printed (``--show N`` prints N misses per source, to
work on them locally).

Figures, for each redactor (``secret_candidates.py``: this tree, the baseline revision, and
detect-secrets when it is importable):

- in context: a scanner's true positive in its own text, fully redacted (no 6 characters of
  any of its secrets left in the output, unless the text holds them elsewhere too: a partial
  leak such as ``Tr0ub4dor&3xYz`` -> ``<secret:1>&3xYz`` counts as a miss);
- alone: each self-identifying secret alone on a line, fully redacted;
- per rule: the same averaged over rules (a rule with many examples weighs as one);
- everyday: files and lines of ``tests/corpus`` that hold no secret, changed (must be 0);
- speed: median ms per 100 KB of everyday text (and the ratio to the baseline).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scanner_fixtures  # noqa: E402
import secret_candidates  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"


def everyday_texts() -> list[tuple[str, str]]:
    """(name, text): each line of secrets_negative.txt and each file of outputs/."""
    texts = []
    lines = (CORPUS / "secrets_negative.txt").read_text(encoding="utf-8").splitlines()
    texts += [(f"secrets_negative.txt:{i + 1}", line) for i, line in enumerate(lines)
              if line.strip() and not line.startswith("#")]
    outputs = CORPUS / "outputs"
    if outputs.is_dir():
        texts += [(f"outputs/{p.name}", p.read_text(encoding="utf-8")) for p in sorted(outputs.iterdir())]
    return texts


_FRAME = re.compile(r"-----(?:BEGIN|END) [A-Z0-9 ]+-----|^(?:https?://)?[\w.\-]+\.[a-z]{2,}(?:/[a-z]+)+/")


def fully_redacted(redact, text: str, secrets: tuple[str, ...]) -> bool:
    """No piece of any secret is left: no 6 characters of it that the text holds nowhere else.
    A PEM block's frame and a webhook's host and fixed path are not secret material."""
    out = redact(text)
    for whole in secrets:
        secret = _FRAME.sub("\0", whole)
        text = text.replace(whole, secret)
        if len(secret) < 6:
            if secret in out:
                return False
            continue
        elsewhere = text.replace(secret, "\0")
        for i in range(len(secret) - 5):
            piece = secret[i:i + 6]
            if "\0" not in piece and piece in out and piece not in elsewhere:
                return False
    return True


def measure(name: str, redact, cases, everyday, show: int) -> dict:
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_rule: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    alone = [0, 0]
    alone_rules: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    misses: dict[str, list[str]] = defaultdict(list)
    seen_alone: set[str] = set()
    for case in cases:
        ok = fully_redacted(redact, case.text, case.secrets)
        for key in (case.source, "all"):
            by_source[key][0] += ok
            by_source[key][1] += 1
        per_rule[(case.source, case.rule)][0] += ok
        per_rule[(case.source, case.rule)][1] += 1
        if not ok and len(misses[case.source]) < show:
            misses[case.source].append(f"[{case.rule}] {case.text[:300]!r} -> {redact(case.text)[:300]!r}")
        if case.self_identifying:
            for secret in case.secrets:
                if secret in seen_alone:
                    continue
                seen_alone.add(secret)
                ok_alone = fully_redacted(redact, secret, (secret,))
                alone[0] += ok_alone
                alone[1] += 1
                alone_rules[(case.source, case.rule)][0] += ok_alone
                alone_rules[(case.source, case.rule)][1] += 1
                if not ok_alone and len(misses["alone"]) < show:
                    misses["alone"].append(f"[{case.source} {case.rule}] {secret!r}")
    changed = [label for label, text in everyday if redact(text) != text]
    sample = "\n".join(text for _, text in everyday)
    sample = (sample * (100_000 // max(1, len(sample)) + 1))[:100_000]
    timings = []
    for _ in range(7):
        start = time.perf_counter()
        redact(sample)
        timings.append(time.perf_counter() - start)
    return {"name": name, "by_source": dict(by_source), "alone": alone, "misses": misses,
            "rules": _rule_mean(per_rule), "alone_rules": _rule_mean(alone_rules),
            "changed": changed, "ms": statistics.median(timings) * 1000}


def _rule_mean(per_rule: dict) -> tuple[float, int, int]:
    """(mean share over rules, rules at 0%, rules)."""
    shares = [ok / n for ok, n in per_rule.values() if n]
    return (sum(shares) / len(shares) if shares else 0.0, sum(1 for s in shares if s == 0), len(shares))


def pct(pair) -> str:
    ok, n = pair
    return f"{100 * ok / n:5.1f}% ({ok}/{n})" if n else "   -"


def corpus_changes(redact, roots: list[Path], limit_mb: float, show: int) -> tuple[int, int, int, list[str]]:
    """(files, bytes, spans changed, samples) over real text that holds no secret (source trees,
    documentation): every change there is a false positive to look at."""
    files = size = changed = 0
    samples: list[str] = []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            if size > limit_mb * 1e6:
                break
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            if len(text) > 1_000_000 or "\0" in text:
                continue
            files += 1
            size += len(text)
            out = redact(text)
            if out != text:
                for line in out.splitlines():
                    n = line.count("<secret") - (line in text and line.count("<secret"))
                    changed += n
                    if n and len(samples) < show:
                        samples.append(f"{path}: {line.strip()[:160]!r}")
    return files, size, changed, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fixtures", type=Path, help="directory holding the three scanners' checkouts")
    parser.add_argument("--baseline", default="4e10337", help="git revision of the redactor to compare with")
    parser.add_argument("--plugins", type=Path, help="extra detect-secrets plugins (a directory of .py files)")
    parser.add_argument("--only", help="measure only this redactor (aish, baseline, detect-secrets)")
    parser.add_argument("--show", type=int, default=0, help="print this many misses per source")
    parser.add_argument("--corpus", type=Path, nargs="*", default=[],
                        help="directories of real text without secrets (source trees, docs): lines changed there")
    parser.add_argument("--corpus-mb", type=float, default=20, help="read at most this much of --corpus")
    args = parser.parse_args()

    fixtures = scanner_fixtures.load(args.fixtures)
    cases = fixtures.cases
    everyday = everyday_texts()
    print(f"{len(cases)} examples in context from {len({(c.source, c.rule) for c in cases})} rules "
          f"({sum(c.self_identifying for c in cases)} self-identifying); "
          f"{len(everyday)} everyday texts ({sum(len(t) for _, t in everyday) // 1024} KB)")
    for why, n in sorted(fixtures.skipped.items()):
        print(f"  skipped {n:4d}: {why}")

    redactors = [("aish", secret_candidates.aish()),
                 (f"aish@{args.baseline}", secret_candidates.aish_at(args.baseline))]
    ds = secret_candidates.detect_secrets()
    if ds is not None:
        redactors.append(("detect-secrets", ds))
    if args.plugins and ds is not None:
        redactors.append(("detect-secrets+rules", secret_candidates.detect_secrets(args.plugins)))
    if args.only:
        redactors = [r for r in redactors if r[0] == args.only or (args.only == "baseline" and "@" in r[0])]

    results = [measure(name, redact, cases, everyday, args.show) for name, redact in redactors]
    base_ms = next((r["ms"] for r in results if "@" in r["name"]), None)
    sources = sorted({c.source for c in cases})
    print()
    print(f"{'redactor':22s} {'in context':>20s} " + " ".join(f"{s:>20s}" for s in sources)
          + f" {'alone':>20s} {'rules (0%)':>14s} {'everyday changed':>17s} {'ms/100KB':>9s}")
    for r in results:
        mean, zero, n = r["rules"]
        ratio = f" {r['ms'] / base_ms:4.1f}x" if base_ms else ""
        print(f"{r['name']:22s} {pct(r['by_source'].get('all', (0, 0))):>20s} "
              + " ".join(f"{pct(r['by_source'].get(s, (0, 0))):>20s}" for s in sources)
              + f" {pct(r['alone']):>20s} {100 * mean:5.1f}% ({zero:3d})"
              + f" {len(r['changed']):>8d}/{len(everyday):<8d} {r['ms']:8.1f}{ratio}")
        amean, azero, an = r["alone_rules"]
        print(f"{'':22s} self-identifying rules: {an}, mean alone {100 * amean:.1f}%, at 0%: {azero}")
        if args.show:
            for label in r["changed"][:args.show]:
                print(f"    changed: {label}")
            for source, lines in r["misses"].items():
                for line in lines:
                    print(f"    miss {source}: {line}")
    if args.corpus:
        print()
        for name, redact in redactors:
            files, size, changed, samples = corpus_changes(redact, args.corpus, args.corpus_mb, args.show)
            print(f"{name:22s} corpus: {files} files, {size / 1e6:.1f} MB, {changed} replacements "
                  f"({changed / max(size / 1e6, 1e-9):.1f} per MB)")
            for sample in samples:
                print(f"    changed: {sample}")


if __name__ == "__main__":
    main()
