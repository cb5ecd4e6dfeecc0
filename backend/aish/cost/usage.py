"""Per-conversation token and money totals, and the lines that show them.

Why buckets by (model, category): the question a user asks is "what did the
cloud cost me, and on what" -- the main answers, a delegate, the summarizer, a
safety probe -- so every call is credited to the model that served it and the
call site that made it.  Categories are free-form.

The totals outlive ``:reset`` (the user reset the conversation,
not the meter); only ``aish cost reset`` clears them and re-arms the warnings.
A cost the provider reports is always counted, local endpoint or not (a
LiteLLM or OpenRouter gateway on localhost reports real money); "local, free"
applies only when no cost is reported and no price is configured.  Local
endpoints are shown as ``(local)``.  Calls the server did not report are estimated with the token
counter and marked as such, so a local server without ``usage`` still counts.
"""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Iterable, Optional

from aish.llm.events import Usage

EST_DISAGREEMENT = 0.10  # show ~est=N when estimate and report differ by more than this share


@dataclass
class Bucket:
    """One (model, category) slot: what the calls there consumed."""

    calls: int = 0
    prompt: int = 0
    completion: int = 0
    cost: float = 0.0
    estimated_calls: int = 0
    est_prompt: int = 0  # local prompt estimates of the calls the server did report
    est_actual: int = 0  # the server's prompt tokens of those same calls (the ~est basis)
    local: bool = False

    def add(self, other: "Bucket") -> None:
        for f in fields(self):
            if f.name == "local":
                self.local = self.local or other.local
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def est_shown(self) -> Optional[int]:
        """The prompt estimate to print, or None when it agrees within 10 %."""
        if self.est_actual <= 0:
            return None
        if abs(self.est_actual - self.est_prompt) / self.est_actual <= EST_DISAGREEMENT:
            return None
        # the estimated calls' prompt is already an estimate: keep it in the shown figure
        return self.est_prompt + (self.prompt - self.est_actual)


# ---------------------------------------------------------------- formatting

def money(dollars: float) -> str:
    """``$0.0234``; sub-tenth-of-a-cent amounts keep six places (``$0.000219``), zero is ``$0``."""
    if not dollars:
        return "$0"
    if abs(dollars) < 0.001:
        return f"${dollars:.6f}"
    return f"${dollars:.4f}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def summary_text(label: str, rows: Iterable[dict]) -> str:
    """``<label>: 24 calls, prompt=12,450 / completion=3,210 tokens cost=$0.0234 (cloud $0.0234;
    local 14 calls, free)``: where the money went is worded from the rows, never assumed."""
    total, cloud, local = Bucket(), Bucket(), Bucket()
    for row in rows:
        bucket = _bucket(row)
        total.add(bucket)
        (local if bucket.local else cloud).add(bucket)
    text = (f"{label}: {plural(total.calls, 'call')}, prompt={total.prompt:,} / "
            f"completion={total.completion:,} tokens cost={money(total.cost)}")
    notes = []
    if cloud.calls:
        notes.append(f"cloud {money(cloud.cost)}")
    if local.calls:  # a local gateway or a priced local model costs money too
        notes.append(f"local {money(local.cost)}" if local.cost
                     else f"local {plural(local.calls, 'call')}, free")
    if total.estimated_calls:
        notes.append(f"estimated: {plural(total.estimated_calls, 'call')}")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def detail_rows_text(rows: list[dict]) -> list[str]:
    """A row: ``  cloud  main  8 calls, 3,850 / 980 tokens, $0.0180`` (rows already sorted)."""
    if not rows:
        return []
    mw = max(len(r["model"]) for r in rows)
    cw = max(len(r["category"]) for r in rows)
    lines = []
    for row in rows:
        b = _bucket(row)
        est = b.est_shown()
        prompt = f"{b.prompt:,}" + (f" ~est={est:,}" if est is not None else "")
        notes = ["local"] if b.local else []
        if b.estimated_calls:
            notes.append("estimated" if b.estimated_calls == b.calls else f"{b.estimated_calls} estimated")
        line = (f"  {row['model']:<{mw}}  {row['category']:<{cw}}  {plural(b.calls, 'call')}, "
                f"{prompt} / {b.completion:,} tokens, {money(b.cost)}")
        lines.append(line + (f" ({'; '.join(notes)})" if notes else ""))
    return lines


def sort_rows(rows: list[dict]) -> list[dict]:
    """Most expensive model first (then by name); inside a model, most expensive category first."""
    per_model: dict[str, float] = {}
    for row in rows:
        per_model[row["model"]] = per_model.get(row["model"], 0.0) + row["cost"]
    return sorted(rows, key=lambda r: (-per_model[r["model"]], r["model"], -r["cost"],
                                       -r["calls"], r["category"]))


def _bucket(row: dict) -> Bucket:
    return Bucket(**{f.name: row.get(f.name, f.default) for f in fields(Bucket)})


# ---------------------------------------------------------------- totals

class UsageTotals:
    """One per conversation.  A lock keeps a verb's read consistent with an ask's write."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buckets: dict[tuple[str, str], Bucket] = {}
        # threshold value each warning last fired at; None = armed
        self._fired: dict[str, Optional[float]] = {"dollars": None, "tokens": None}
        self.cap_extra = 0.0  # dollars `aish cost raise` added to this conversation's cap

    def add(self, model_name: str, category: str, usage: Usage, *, local: bool,
            est_prompt: Optional[int] = None) -> None:
        prompt = nonneg_int(usage.prompt_tokens)
        completion = nonneg_int(usage.completion_tokens)
        cost = max(0.0, finite_float(usage.cost))  # priced by price_usage: local and free is 0
        key = (model_name or "?", category or "main")
        with self._lock:
            b = self._buckets.setdefault(key, Bucket())
            b.calls += 1
            b.prompt += prompt
            b.completion += completion
            b.cost += cost
            b.local = b.local or local
            if usage.estimated:
                b.estimated_calls += 1
            elif est_prompt is not None:
                b.est_prompt += nonneg_int(est_prompt)
                b.est_actual += prompt

    def total_cost(self) -> float:
        with self._lock:
            return sum(b.cost for b in self._buckets.values())

    def total_tokens(self) -> tuple[int, int]:
        with self._lock:
            return (sum(b.prompt for b in self._buckets.values()),
                    sum(b.completion for b in self._buckets.values()))

    def check_warnings(self, cost_cfg: Any) -> list[str]:
        """Status lines for thresholds crossed by now; each fires once until ``reset``.

        Checked after every ``add`` so the warning comes with the call that
        crossed.  Raising a threshold in the config re-arms it.
        """
        lines: list[str] = []
        if cost_cfg is None:
            return lines
        limit = getattr(cost_cfg, "warn_at_dollars", None)
        cost = self.total_cost()
        if limit is not None and cost >= limit and self._arm("dollars", float(limit)):
            lines.append(f"session cost ${cost:.4f} has crossed warn_at_dollars=${float(limit):.4f}")
        limit = getattr(cost_cfg, "warn_at_tokens", None)
        tokens = sum(self.total_tokens())
        if limit is not None and tokens >= limit and self._arm("tokens", float(limit)):
            lines.append(f"session tokens {tokens:,} have crossed warn_at_tokens={int(limit):,}")
        return lines

    def _arm(self, kind: str, limit: float) -> bool:
        with self._lock:
            fired = self._fired[kind]
            if fired is not None and limit <= fired:
                return False
            self._fired[kind] = limit
            return True

    def raise_cap(self, dollars: float) -> None:
        with self._lock:
            self.cap_extra += max(0.0, dollars)

    def reset(self) -> None:
        with self._lock:
            self._buckets.clear()
            self._fired = {"dollars": None, "tokens": None}
            self.cap_extra = 0.0

    # ------------------------------------------------------------ views
    def rows(self) -> list[dict]:
        """Flat, sorted rows: {model, category, calls, prompt, completion, cost, ...}."""
        with self._lock:
            rows = [{"model": m, "category": c, **asdict(b)} for (m, c), b in self._buckets.items()]
        return sort_rows(rows)

    def summary_line(self) -> str:
        return "[aish] " + summary_text("session usage", self.rows())

    def detail_lines(self) -> list[str]:
        rows = self.rows()
        if not rows:
            return ["[aish] session usage detail: no calls yet"]
        return ["[aish] session usage detail:", *detail_rows_text(rows)]

    def to_json(self) -> dict:
        """What ``aish cost --json`` prints: totals plus the sorted rows (with ``est_shown``)."""
        rows = self.rows()
        prompt, completion = self.total_tokens()
        for row in rows:
            row["est_shown"] = _bucket(row).est_shown()
        return {"scope": "session", "calls": sum(r["calls"] for r in rows), "prompt": prompt,
                "completion": completion, "cost": round(self.total_cost(), 10),
                "estimated_calls": sum(r["estimated_calls"] for r in rows), "rows": rows}

    # ------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        with self._lock:
            return {"version": 1,
                    "buckets": [{"model": m, "category": c, **asdict(b)}
                                for (m, c), b in self._buckets.items()],
                    "fired": dict(self._fired), "cap_extra": self.cap_extra}

    @classmethod
    def from_dict(cls, d: Any) -> "UsageTotals":
        """Rebuild from ``to_dict``; unreadable parts are dropped, never raised (a log may be old)."""
        totals = cls()
        if not isinstance(d, dict):
            return totals
        for raw in d.get("buckets") or []:
            if not isinstance(raw, dict):
                continue
            try:
                b = Bucket(calls=nonneg_int(raw.get("calls")), prompt=nonneg_int(raw.get("prompt")),
                           completion=nonneg_int(raw.get("completion")),
                           cost=max(0.0, finite_float(raw.get("cost"))),
                           estimated_calls=nonneg_int(raw.get("estimated_calls")),
                           est_prompt=nonneg_int(raw.get("est_prompt")),
                           est_actual=nonneg_int(raw.get("est_actual")), local=bool(raw.get("local")))
            except (TypeError, ValueError):
                continue
            key = (str(raw.get("model") or "?"), str(raw.get("category") or "main"))
            totals._buckets.setdefault(key, Bucket()).add(b)
        fired = d.get("fired")
        if not isinstance(fired, dict):
            fired = {}
        for kind in ("dollars", "tokens"):
            value = fired.get(kind)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals._fired[kind] = float(value)
        totals.cap_extra = max(0.0, finite_float(d.get("cap_extra")))
        return totals


# ---------------------------------------------------------------- pricing and estimates

def price_usage(model_cfg: Any, usage: Usage) -> Usage:
    """Fill ``cost`` from ``price_in``/``price_out`` ($ per million) when the provider sent none.

    A provider's own ``cost`` always wins (it knows discounts and caching), on a
    loopback endpoint too (a local gateway to a paid provider); with neither a
    reported cost nor a price the call is free (None: nothing to add).
    """
    total = usage.total_tokens or (nonneg_int(usage.prompt_tokens) + nonneg_int(usage.completion_tokens))
    cost = usage.cost
    if cost is None and model_cfg is not None and (model_cfg.price_in or model_cfg.price_out):
        cost = (nonneg_int(usage.prompt_tokens) * (model_cfg.price_in or 0.0)
                + nonneg_int(usage.completion_tokens) * (model_cfg.price_out or 0.0)) / 1_000_000
    return replace(usage, cost=cost, total_tokens=total)


def estimate_usage(model_cfg: Any, prompt_messages: list, completion_text: str, counter: Any) -> Usage:
    """Usage for a server that sent none: counted by ``counter`` (the daemon's token
    counter, ``llm.tokens.TokenCounter``), marked ``estimated``."""
    prompt = nonneg_int(counter.count_messages(model_cfg, prompt_messages or []))
    completion = nonneg_int(counter.count(model_cfg, completion_text or ""))
    return Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion,
                 cost=None, estimated=True, model=getattr(model_cfg, "model", None) or None)


def nonneg_int(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def finite_float(value: Any) -> float:
    try:
        number = float(value or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return number if number == number and number not in (float("inf"), float("-inf")) else 0.0
