"""A daemon handler for tests/e2e/test_mcp_import.py: the real (lazy) service, plus one status
line per request naming the MCP SDK's modules this daemon process has imported so far."""
import logging
import sys
import time

from aish.daemon.__main__ import LazyService

_service = LazyService(logging.getLogger("aish"))
SDK = ("mcp", "mcp_types", "httpx2")


def handle(request, reply):
    result = _service.handle(request, reply)
    time.sleep(0.5)  # the warm-up runs beside the first request: give it time to import, if it would
    loaded = sorted({name.split(".")[0] for name in sys.modules} & set(SDK))
    reply.status("sdk-modules: " + (",".join(loaded) or "none"))
    return result
