"""Effect: what a manifest deployed, taken down.

``podman kube down web-pod.yaml``, ``podman play kube --down web-pod.yaml`` and ``kompose down -f
stack.yml`` delete every pod, service and deployment the manifest made, as ``kubectl delete -f``
does.  Compose's own ``down`` (the containers of one project on this machine, their volumes kept)
stays quiet, as it always has, and so does deploying."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_MANIFEST = lazy(r"\.(ya?ml|json)$", re.IGNORECASE)
_DOWNS = frozenset({"down", "--down", "teardown", "--teardown"})


@triggered_by(_DOWNS)
def rule_manifest_down(c: Ctx) -> Optional[tuple]:
    """``down`` (or ``--down``) with a manifest, on anything but compose."""
    texts = c.texts
    if not set(texts[:4]) & _DOWNS or c.prog.endswith("compose") or "compose" in texts[:2]:
        return None
    manifest = next((t for t in texts if _MANIFEST.search(t) and not t.startswith("-")), None)
    if manifest is None:
        return None
    return MEDIUM, f"{c.prog} takes down everything {manifest} deployed ({c.text})"
