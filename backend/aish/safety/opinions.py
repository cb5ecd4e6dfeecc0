"""Second opinions on suggested commands: cached per command text, never waited on past a deadline.

A probe runs in a worker thread; the suggestions wait for all probes up to
``safety.llm_timeout`` in total and then go out with whatever verdicts are in
(a late one still lands in the cache, so the same command next time gets it
at once).  Failures are not cached: the next ask tries again.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any, Callable, Optional

from aish.safety.assess import Verdict, second_opinion


class Opinions:
    def __init__(self, max_entries: int = 256, workers: int = 2) -> None:
        self._cache: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_entries
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aish-opinion")

    def cached(self, model: str, command: str) -> Optional[Verdict]:
        with self._lock:
            found = self._cache.get((model, command))
            if found is not None:
                self._cache.move_to_end((model, command))
            return found

    def gather(self, jobs: list, model_cfg: Any, complete: Callable[..., Any],
               timeout: float) -> dict:
        """``jobs``: (key, command text sent, local Verdict or None) -> {key: Verdict or None}."""
        deadline = time.monotonic() + timeout
        name = getattr(model_cfg, "name", str(model_cfg))
        results: dict = {}
        futures: dict = {}
        for key, shown, verdict in jobs:
            hit = self.cached(name, shown)
            if hit is not None:
                results[key] = hit
            else:
                futures[key] = self._pool.submit(self._ask, name, shown, verdict, model_cfg, complete, timeout)
        if futures:
            wait(list(futures.values()), timeout=max(0.0, deadline - time.monotonic()))
        for key, future in futures.items():
            results[key] = future.result() if future.done() else None
        return results

    def _ask(self, name: str, shown: str, verdict: Optional[Verdict], model_cfg: Any,
             complete: Callable[..., Any], timeout: float) -> Optional[Verdict]:
        found = second_opinion(shown, verdict, model_cfg, complete, timeout=timeout)
        if found is not None:
            with self._lock:
                self._cache[(name, shown)] = found
                while len(self._cache) > self._max:
                    self._cache.popitem(last=False)
        return found


SHARED = Opinions()
