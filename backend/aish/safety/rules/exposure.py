"""Effect: private files or the way in exposed to the network, by any server or tunnel.

An ad-hoc file server of any make (``python3 -m http.server``, ``busybox httpd``, ``caddy
file-server``, ``rclone serve``, ``dufs``, ``pyftpdlib``, ``twistd web``, ``tailscale funnel``,
``ngrok http file://…``) hands out everything under the directory it serves to whoever reaches
the port: the home directory, ``/`` or ``~/.ssh`` served on any address but loopback gives away
keys and credentials.  A server with no directory serves where it stands (``cd ~ && python3 -m
http.server``).  A reverse tunnel (``ssh -R 2222:localhost:22 host``, ``chisel … R:…:22``,
``ngrok tcp 22``, ``bore local 22``, ``cloudflared tunnel --url ssh://…``) publishes this
machine's SSH or remote desktop on another host (high); ``ssh -R`` to a public relay or on every
interface of the far side publishes a local service to anyone.  Serving a build directory, a
port on loopback, or a local web app through a tunnel stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.program_names import alias
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment, target
from aish.safety.rules.exfil import secret_path
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

# Programs that are file servers whatever their arguments.
_FILE_SERVERS = frozenset({"miniserve", "dufs", "updog", "woof", "darkhttpd", "thttpd", "webfsd", "webfs", "gossa",
                           "goshs", "sfz", "filebrowser", "static-web-server", "simple-http-server", "http-server",
                           "serve",
                           "servez", "live-server", "gohttpserver", "chfs", "hfs", "httpd", "mini_httpd",
                           "uploadserver", "pyftpdlib", "webdav", "rclone", "caddy", "twistd", "busybox", "tailscale",
                           "ngrok", "php", "ruby"}) | {"python", "python2", "python3", "py", "pypy3"}
# Subcommands or modules that make a general program serve files (`rclone serve`, `caddy file-server`).
_SERVE_WORDS = {"rclone": {"serve"}, "caddy": {"file-server"}, "twistd": {"web", "ftp"}, "busybox": {"httpd"},
                "tailscale": {"funnel", "serve"}, "ngrok": {"http", "https", "tls"}, "ruby": {"httpd"},
                "php": {"-S"}}
_PY_MODULES = {"http.server", "SimpleHTTPServer", "pyftpdlib", "uploadserver", "RangeHTTPServer", "updog",
               "twisted"}
# Options whose value is the directory served.
_ROOT_OPTIONS = {"-d", "--directory", "--dir", "-t", "--root", "-r", "-h", "--path", "--root-dir", "--docroot",
                 "--document-root", "--serve-path", "--public", "--base"}
# Options whose value is an address or a port, not a directory.
_VALUED = {"-p", "--port", "-b", "--bind", "-a", "--address", "--addr", "-i", "--interfaces", "--listen", "-l",
           "--host", "-H", "--cert", "--key", "--tls-cert", "--tls-key", "-c", "--config", "--auth", "-u",
           "--user", "--pass", "--password", "-P", "--name", "--log-file", "--set-path", "-M", "--region",
           "--domain", "--hostname", "--url"}
_LOOPBACK = lazy(r"(^|[=:@/\[])(127\.\d+\.\d+\.\d+|localhost|::1)(\]|:|$)", re.IGNORECASE)
_ADDRESS_OR_PORT = lazy(r"^(\d+|[\d.]+:\d+|:\d+|\[?[\da-f:]+\]?(:\d+)?|tcp:\d+.*|\d+\.\d+\.\d+\.\d+)$",
                        re.IGNORECASE)
_EXPOSED = {"root": HIGH, "home": HIGH, "dot-critical": HIGH, "userhome": MEDIUM, "system-top": MEDIUM}


def _serving(c: Ctx) -> bool:
    texts = c.texts
    prog = re.sub(r"\.(py|js|exe)$", "", c.prog)
    prog = prog if prog in NAMES else alias(prog) or prog  # php8.2 -S, ruby3.2 -run -e httpd, python3.12 -m
    if re.fullmatch(r"python[\d.]*|py|pypy3?", prog):
        return "-m" in texts and texts.index("-m") + 1 < len(texts) and texts[texts.index("-m") + 1] in _PY_MODULES
    words = _SERVE_WORDS.get(prog)
    if words is None:
        return prog in _FILE_SERVERS
    return bool(words & set(texts[:4])) or prog == "ruby" and "-ehttpd" in texts[:3]  # `ruby -run -ehttpd`


def _served(c: Ctx) -> list:
    """The directories a server hands out: its root option's value, its operands, or where it stands."""
    texts = [t[len("file://"):] if t.startswith("file://") else t for t in c.texts]
    given = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _ROOT_OPTIONS]
    given += [t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in _ROOT_OPTIONS and "=" in t]
    prog = c.prog if c.prog in NAMES else alias(c.prog) or c.prog
    if prog in ("php", "ruby") or re.fullmatch(r"python[\d.]*|py|pypy3?", prog):
        if prog == "ruby":
            at = next(k for k, t in enumerate(texts) if t in ("httpd", "-ehttpd"))
            given += [t for t in texts[at + 1:] if not t.startswith("-")][:1]
        return given or ["."]
    skip, operands = False, []
    for t in texts:
        if skip:
            skip = False
            continue
        if t in _VALUED or t in _ROOT_OPTIONS:
            skip = True
            continue
        if not t.startswith("-") and t[:1] in "/~.$" and not _ADDRESS_OR_PORT.match(t):
            operands.append(t)
    return given + operands or (["."] if c.prog in ("busybox", "twistd") else [])


def rule_exposed(c: Ctx) -> Optional[tuple]:
    """Private files or this machine's SSH handed to the network by a server or a tunnel."""
    if c.prog in ("ssh", "autossh"):
        return _reverse_tunnel(c)
    if c.prog in ("docker", "podman", "nerdctl"):
        return _container_web_root(c)
    if c.prog in _TUNNELS:
        return _tunnel_to_remote_access(c)
    if c.prog == "exportfs":
        return _nfs_export(c)
    if c.prog in _WEB_SHELLS or c.prog in ("jupyter", "jupyter-notebook", "jupyter-lab") or c.prog == "net":
        return _shell_or_share(c)
    if not _serving(c) or any(_LOOPBACK.search(t) for t in c.texts):
        return None
    for path in _served(c):
        word = Word(path, path, has_var="$" in path)
        where = target(word)
        level = _EXPOSED.get(where.kind) or (HIGH if secret_path(word) == "high" else None)
        if level is not None:
            public = " to the internet" if c.prog in ("tailscale", "ngrok") else " to the network"
            return level, (f"serves {where.path or path}{public}: every file under it, keys included, for anyone "
                           f"who reaches it ({c.text})")
    return None


# ports of remote access: SSH, telnet, RPC, SMB, RDP, VNC, WinRM
_REMOTE_ACCESS = lazy(r"(^|[:/])(22|23|135|139|445|2222|3389|5900|5901|5985|5986)$")
_PUBLIC_RELAYS = lazy(r"(^|[@.])(serveo\.net|localhost\.run|pinggy\.io|srv\.us|ngrok\.com|localtunnel\.me|"
                      r"tunnel\.pyjam\.as|beeceptor\.com)$", re.IGNORECASE)


def ssh_reverse_specs(texts: list) -> list:
    """The remote forwards an ssh-like client is told (`-R SPEC`, `-fNR SPEC`, `-RSPEC`, `-o RemoteForward=…`)."""
    specs = []
    for k, t in enumerate(texts):
        if re.fullmatch(r"-[a-zA-Z]*R", t) and k + 1 < len(texts):
            specs.append(texts[k + 1])
        elif re.fullmatch(r"-R\S+", t):
            specs.append(t[2:])
        elif t.lower().startswith("remoteforward="):
            specs.append(t.split("=", 1)[1].replace(" ", ":"))
    return specs


def _reverse_tunnel(c: Ctx) -> Optional[tuple]:
    """``ssh -R 2222:localhost:22 host``: this machine's SSH reachable from the far side."""
    texts = c.texts
    specs = ssh_reverse_specs(texts)
    dynamic = [texts[k + 1] for k, t in enumerate(texts[:-1]) if re.fullmatch(r"-[a-zA-Z]*D", t)]
    if any(re.match(r"^(0\.0\.0\.0|\*|\[::\]|):\d+$", d) for d in dynamic):
        return MEDIUM, f"opens a proxy into the far network for anyone who reaches this machine ({c.text})"
    if not specs:
        return None
    hosts = [t for t in texts if not t.startswith("-") and t not in specs]
    relay = any(_PUBLIC_RELAYS.search(h) for h in hosts)
    for spec in specs:
        parts = spec.split(":")
        local = parts[-1] if len(parts) >= 3 else ""
        wide = len(parts) >= 4 and parts[0] in ("", "*", "0.0.0.0", "[::]")
        if _REMOTE_ACCESS.search(":" + local) or len(parts) == 1 and re.fullmatch(r"\d+", spec):
            return HIGH, (f"publishes this machine's SSH or remote desktop (or a way into its network) on another "
                            f"host ({c.text})")
        if relay or wide:
            through = "a public relay" if relay else "the far side"
            return MEDIUM, f"publishes a local service to anyone through {through} ({c.text})"
    return None


_TUNNELS = frozenset({"ngrok", "bore", "chisel", "cloudflared", "lt", "localtunnel", "zrok", "pagekite",
                      "pagekite.py", "tunnelto", "loclx", "expose", "frpc", "rathole", "inlets", "telebit", "tmole",
                      "pinggy", "devtunnel", "playit", "tunwg", "sish", "jprq", "pgrok"})


def _tunnel_to_remote_access(c: Ctx) -> Optional[tuple]:
    """``ngrok tcp 22``, ``bore local 22 --to bore.pub``, ``chisel client HOST R:2222:localhost:22``,
    ``cloudflared tunnel --url ssh://localhost:22``: SSH or remote desktop published through a tunnel."""
    for t in c.texts:
        if re.match(r"^(ssh|rdp|vnc|winrm)://", t, re.IGNORECASE) or _REMOTE_ACCESS.search(t) and \
                (not t.startswith("-") or t.startswith("-R")) and not re.match(r"^https?://", t):
            return HIGH, f"publishes this machine's SSH or remote desktop through a public tunnel ({c.text})"
    served = [t[len("file://"):] for t in c.texts if t.startswith("file://")]
    for path in served:
        kind = target(Word(path, path)).kind
        if kind in _EXPOSED:
            return _EXPOSED[kind], f"serves {path} to the internet through a tunnel ({c.text})"
    return None


_WEB_ROOTS = lazy(r"^/(usr/share/nginx/html|var/www(/html)?|usr/local/apache2/htdocs|usr/share/caddy|srv|"
                  r"public|web|site|data|static)/?$")


def _container_web_root(c: Ctx) -> Optional[tuple]:
    """``docker run -p 8080:80 -v ~:/usr/share/nginx/html nginx``: home or / as a published web server's root."""
    texts = c.texts
    if "run" not in texts[:2]:
        return None
    published = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-p", "--publish")] + \
        [t.split("=", 1)[1] for t in texts if t.startswith("--publish=")]
    wide = any(not _LOOPBACK.search(p) for p in published) or "-P" in texts or \
        any(t in ("--network=host", "--net=host") for t in texts)
    volumes = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-v", "--volume")]
    for volume in volumes if wide else []:
        host, _, inside = volume.partition(":")
        kind = target(Word(host, host, has_var="$" in host)).kind
        if _WEB_ROOTS.match(inside.split(":", 1)[0]) and kind in _EXPOSED:
            return _EXPOSED[kind], f"serves {host} to the network as a web server's root ({c.text})"
    return None


_WEB_SHELLS = frozenset({"ttyd", "gotty", "wetty", "shellinaboxd", "webssh", "wssh", "butterfly", "tty-share",
                          "websocketd"})


def _shell_or_share(c: Ctx) -> Optional[tuple]:
    """A terminal served on the web (``ttyd -W bash``), a notebook server with no token on every address,
    a Samba share of a whole tree for guests (``net usershare add x / "" Everyone:F guest_ok=y``)."""
    texts = c.texts
    if any(_LOOPBACK.search(t) for t in texts) or any(t in ("-i", "--interface") and k + 1 < len(texts) and
                                                      texts[k + 1] == "lo" for k, t in enumerate(texts)):
        return None
    if c.prog in _WEB_SHELLS:
        shell = any(re.fullmatch(r"(/\w+)*/?(ba|z|da|k|fi)?sh|login|cmd(\.exe)?|powershell|pwsh", t) for t in texts)
        # ttyd and gotty serve read-only terminals unless told to let the browser type
        writable = c.prog not in ("ttyd", "gotty") or bool({"-W", "--writable", "-w", "--permit-write"} & set(texts))
        if shell and writable or c.prog in ("wetty", "shellinaboxd", "webssh", "wssh"):
            return HIGH, f"serves a shell on the network: whoever reaches the port runs commands here ({c.text})"
        return None
    if c.prog.startswith("jupyter"):
        no_token = any(re.match(r"^--(NotebookApp|ServerApp|IdentityProvider)\.(token|password)=(''|\"\")?$", t)
                       for t in texts)
        wide = any(re.match(r"^--ip=?(0\.0\.0\.0|\*|::)?$", t) for t in texts) and \
            any(t in ("0.0.0.0", "*", "::") or t.endswith(("=0.0.0.0", "=*", "=::")) for t in texts)
        return (HIGH, f"runs a notebook server with no token on every address: anyone can run code here "
                      f"({c.text})") if no_token and wide else None
    if texts[:2] == ["usershare", "add"] and len(texts) > 3 and re.search(r"everyone:[fr]|guest_ok=y", " ".join(
            texts).lower()):
        kind = target(Word(texts[3], texts[3])).kind
        if kind in _EXPOSED:
            return _EXPOSED[kind], f"shares {texts[3]} with anyone on the network ({c.text})"
    return None


def _nfs_export(c: Ctx) -> Optional[tuple]:
    """``exportfs -o rw,no_root_squash '*:/'``: a whole file system shared with every host."""
    texts = c.texts
    for t in texts:
        client, sep, path = t.partition(":")
        if not sep or not path.startswith("/") or client not in ("*", "0.0.0.0/0", "::/0", "*.*"):
            continue
        kind = target(Word(path, path)).kind
        if kind in _EXPOSED or "no_root_squash" in " ".join(texts):
            return (HIGH if kind in ("root", "home") or "no_root_squash" in " ".join(texts) else MEDIUM,
                    f"exports {path} over NFS to every host ({fragment(c.texts, 50)})")
    return None


NAMES = _FILE_SERVERS | _TUNNELS | _WEB_SHELLS | {"ssh", "autossh", "exportfs", "docker", "podman", "nerdctl",
                                                  "jupyter", "jupyter-notebook", "jupyter-lab", "net"}


def rule_versioned_server(c: Ctx) -> Optional[tuple]:
    """``php8.2 -S 0.0.0.0:8000 -t ~``, ``python3.12 -m http.server``: a versioned interpreter's server (the plain
    names are in NAMES, read by ``broad_reading``)."""
    return None if c.prog in NAMES else rule_exposed(c)


# read through the table's versioned names (php8.2 -> php, python3.12 -> python, ruby3.2 -> ruby)
RULES: dict = {p: [rule_versioned_server] for p in ("php", "ruby", "python")}
