"""Killing whatever listens on a port (issue 23, "stopping things broadly"), in PowerShell as in POSIX shells:
`Stop-Process -Id (Get-NetTCPConnection -LocalPort 8080).OwningProcess` was quiet while `kill $(lsof -t -i:8080)`,
`fuser -k 8080/tcp` and `npx kill-port 8080` are medium. Looking the port up and one process by number stay quiet."""
from __future__ import annotations

from tests.safety.forms import misjudged

PORT_KILLS = (
    ["Stop-Process -Id (Get-NetTCPConnection -LocalPort 8080).OwningProcess -Force",
     "spps -Id (Get-NetUDPEndpoint -LocalPort 53).OwningProcess", "kill $(lsof -t -i:8080)", "sudo fuser -k 8080/tcp",
     "npx kill-port 8080", "lsof -ti:3000 | xargs kill -9"],
    ["Stop-Process -Id 1234", "Get-NetTCPConnection -LocalPort 8080",
     "Get-Process -Id (Get-NetTCPConnection -LocalPort 8080).OwningProcess", "sudo lsof -i :8080", "kill -9 12345",
     "netstat -ano | findstr :8080"])


def test_whatever_listens_on_a_port_killed_is_flagged_in_every_shell():
    wrong = misjudged(*PORT_KILLS)
    assert not wrong, "\n".join(wrong)
