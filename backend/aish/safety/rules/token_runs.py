"""Effect: a command run as SYSTEM or with another account's token, by any tool (privilege raised).

Whoever can make a service or a privileged token run their command owns the machine.  Three ways, each read for
any tool:

- a tool made to steal or impersonate a token, told to run a command: the "potato" family and kin
  (``JuicyPotato -p cmd.exe -a "/c …"``, ``GodPotato -cmd "…"``, ``PrintSpoofer -i -c cmd``, ``EfsPotato whoami``,
  ``incognito execute -c TOKEN cmd.exe``, ``Tokenvator Steal_Token PID cmd.exe``, ``FullPowers -c …``): a program
  whose name says potato, spoofer, impersonation or token theft, given a command or any argument;
- any launcher told to run a program as SYSTEM or TrustedInstaller (``NSudoLC -U:T -P:E cmd``, ``AdvancedRun
  /RunAs 4 /EXEFilename cmd.exe``, ``gsudo --system cmd``, ``Invoke-TokenManipulation -ImpersonateUser -Username
  "NT AUTHORITY\\SYSTEM"``, ``Invoke-CommandAs -AsSystem``), and RunasCs's shell sent to another machine (``-r H:P``);
- a shell entered in the host as root from a container the container service starts (``docker run -v /:/mnt
  alpine chroot /mnt sh``, ``--pid=host … nsenter -t 1 -a sh``, a pod's ``hostPID`` with ``nsenter -t 1``);
- a service (which runs as SYSTEM) given a shell or an account tool as its program: ``sc config SVC binpath= "net
  user x y /add"``, ``wmic service … call change PathName="cmd /c …"``, ``Set-Service -BinaryPathName …``, a
  service's ``ImagePath`` written by ``reg add``/``Set-ItemProperty``, PowerUp's ``Invoke-ServiceAbuse``.

High.  Quiet: ``runas /user:admin cmd`` and ``Start-Process -Verb RunAs`` (the user types the password),
``sudo -i``, ``psexec -s cmd`` (an administrator's own tool, run as SYSTEM on purpose; ``psexec \\\\host
ipconfig`` is ``fleets``'), a service pointed at its own binary (``sc config X binPath= "C:\\Program
Files\\App\\svc.exe"``), ``schtasks /ru SYSTEM`` (a kept job: autostart's), building a tool's source (``csc
EfsPotato.cs``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, Ctx, fragment
from aish.safety.rules.triggers import triggered_by

# Tools named for taking another account's token (JuicyPotato, PrintSpoofer, SharpImpersonation, Tokenvator…).
_TOKEN_TOOL = lazy(r"potato|spoofer|impersonat|tokenvator|token_?(steal|thief|manipulat|player)|steal_?token|"
                   r"fullpowers|incognito|runasti$|^powerrun|"
                   r"^paexec$|^invoke-commandas$|^invoke-tokenmanipulation$|^invoke-service(abuse|useradd|cmd)$|"
                   r"^(write|install)-servicebinary$", re.IGNORECASE)
# Naming SYSTEM or TrustedInstaller as the account to run as, in any launcher's spelling.
_AS_SYSTEM = lazy(r"^((/user:|/u:|-u:|--user=|-user:)?(nt authority\\system|nt service\\trustedinstaller|"
                  r"trustedinstaller|localsystem)|/user:system|-u:[st]|-assystem)$", re.IGNORECASE)
_USER_OPTIONS = frozenset({"-u", "--user", "/user", "-username", "/u"})
# A program a service or a launcher is given that runs commands or makes accounts, not a service's own binary.
_COMMAND_PROGRAMS = frozenset({"cmd", "powershell", "pwsh", "net", "net1", "nc", "nc64", "ncat", "netcat", "rundll32",
                               "mshta", "regsvr32", "wscript", "cscript", "bash", "sh", "whoami", "certutil",
                               "bitsadmin", "msiexec", "wmic", "reg", "schtasks", "sc", "curl", "wget", "python",
                               "python3", "perl", "ruby", "node", "conhost", "forfiles", "msbuild", "installutil"})
_MOST_ARGUMENTS = 64  # these tools take a few words: a command with thousands (`rm -rf …`) is not one of them
_SERVICE_PROGRAMS = frozenset({"sc", "wmic", "set-service", "reg", "set-itemproperty", "sp", "new-itemproperty"})
_SYSTEM_WORDS = ("system", "trustedinstaller", "-u:", "/runas")
_SERVICE_PATH_NAMES = frozenset({"binpath=", "binpath", "-binarypathname", "pathname", "imagepath"})
_WORDS = ("potato", "spoofer", "impersonat", "token", "fullpowers", "incognito", "runasti", "powerrun", "runascs",
          "commandas", "invoke-service", "servicebinary", "binpath", "pathname", "imagepath", "trustedinstaller",
          "nt authority", "localsystem", "-u:s", "-u:t", "-assystem", "gsudo", "/runas", "/user:", "-u system",
          "--user system", "/user system", "-username system", "/u system", "chroot", "nsenter")


def _program_of(command: str) -> str:
    """The program a command line starts: ``"C:\\nc.exe -nv …"`` -> ``nc``, ``cmd /c …`` -> ``cmd``."""
    command = command.strip().strip("'\"").strip()
    m = re.match(r"(?i)^(\w:\\[^\"']*?\.(?:exe|bat|cmd|com)\b|\S+)", command)
    first = m.group(1) if m else ""
    return re.split(r"[\\/]", first)[-1].lower().removesuffix(".exe").strip("'\"")


def _as_system(texts: list) -> bool:
    """SYSTEM or TrustedInstaller named as the account: ``-U:T``, ``/user:TrustedInstaller``, ``-AsSystem``,
    ``-u SYSTEM``, AdvancedRun's ``/RunAs 4`` (SYSTEM) or ``8`` (TrustedInstaller)."""
    for k, t in enumerate(texts):
        if _AS_SYSTEM.match(t):
            return True
        before = texts[k - 1].lower() if k else ""
        if before in _USER_OPTIONS and t.lower() == "system" or before == "/runas" and t in ("4", "8"):
            return True
    return False


def _names_command(texts: list) -> bool:
    """Some argument starts a command: a shell, an account tool, a netcat, or any ``.exe``/``.bat``/``.ps1``."""
    for t in texts:
        value = t.split(":", 1)[1] if re.match(r"^(binary|command|cmd|exe\w*|program):", t, re.IGNORECASE) else t
        name = _program_of(value)
        if name in _COMMAND_PROGRAMS or re.search(r"\.(exe|bat|cmd|ps1|vbs|hta)$", name):
            return True
    return False


_CONTAINER_RUNNERS = frozenset({"docker", "podman", "nerdctl", "ctr", "crictl", "kubectl", "oc", "lxc", "incus",
                                "finch", "lima", "nerdctl.lima"})
# The host's root mounted into a container: `-v /:/mnt`, `--volume=/:/host`, `--mount type=bind,src=/,dst=/host`.
_HOST_ROOT_MOUNT = lazy(r"(?:^|\s)(?:-v|--volume)[ =]/:(/[^\s:]*)|\b(?:src|source)=/,(?:[\w-]+=[^,\s]*,)*?"
                        r"(?:dst|destination|target)=(/[^\s,]*)")


def _host_entered(c: Ctx, lowered: list, shown: str) -> Optional[tuple]:
    """A shell in the host entered from a container the container service started as root: ``chroot`` into the
    host's root mounted in it (``docker run -v /:/mnt alpine chroot /mnt sh``), or ``nsenter`` into process 1's
    namespaces with the host's processes shared (``--pid=host … nsenter -t 1 -a sh``, a pod's ``hostPID``)."""
    joined = " ".join(lowered)
    if "chroot" not in lowered and "nsenter" not in joined:
        return None
    entered = False
    if "chroot" in lowered:
        at = lowered.index("chroot")
        roots = {m.group(1) or m.group(2) for m in _HOST_ROOT_MOUNT.finditer(joined)}
        entered = at + 1 < len(lowered) and lowered[at + 1].rstrip("/") in {r.rstrip("/") for r in roots if r}
    if not entered and "nsenter" in joined:
        entered = bool(re.search(r"(^|\s|\")(-t|--target)[ =\",]*1\b", joined)) and \
            bool(re.search(r"--pid[ =]host|\"hostpid\"\s*:\s*true", joined))
    if entered:
        return HIGH, (f"enters the host as root from a container the container service started: a root shell "
                      f"past this account's rights ({shown})")
    return None


def _service_command(c: Ctx, lowered: list) -> str:
    """The command a service is given to run: ``binpath= CMD``, ``binpath="CMD"``, ``PathName=CMD``,
    ``-BinaryPathName CMD``, ``… /v ImagePath /d CMD``, ``-Name ImagePath -Value CMD``."""
    prog = c.prog.lower().removesuffix(".exe")
    texts = c.texts
    if prog == "sc" and lowered[:1] != ["config"]:
        return ""  # `sc create` makes a service of its own (autostart's reading)
    for k, t in enumerate(lowered):
        key, eq, value = t.partition("=")
        if eq and key in ("binpath", "pathname") and value:
            return texts[k].split("=", 1)[1]
        if t in _SERVICE_PATH_NAMES and k + 1 < len(texts):
            if t == "imagepath":
                rest = lowered[k + 1:]
                for flag in ("/d", "-value"):
                    if flag in rest and rest.index(flag) + 1 < len(rest):
                        return texts[k + 1 + rest.index(flag) + 1]
                return ""
            return texts[k + 1]
    return ""


@triggered_by(_WORDS)
def rule_run_as_another(c: Ctx) -> Optional[tuple]:
    """A command run as SYSTEM or with a stolen token (see the module's doc)."""
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
    texts = c.texts
    if not texts or len(texts) > _MOST_ARGUMENTS:
        return None
    named_tool = _TOKEN_TOOL.search(prog) is not None or prog == "gsudo" and bool({"-s", "--system"} & set(texts))
    if not named_tool and prog not in _SERVICE_PROGRAMS and prog != "runascs" and prog not in _CONTAINER_RUNNERS and \
            not any(word in c.lowered for word in _SYSTEM_WORDS):
        return None  # most lines leave here (a long `rm -rf …` wakes every rule)
    lowered = [t.lower() for t in texts]
    shown = fragment([c.prog] + texts, 70)
    if prog in ("sc", "wmic", "set-service", "reg", "set-itemproperty", "sp", "new-itemproperty") and \
            (prog != "reg" and prog not in ("set-itemproperty", "sp", "new-itemproperty") or
             any("\\services\\" in t for t in lowered)):
        command = _service_command(c, lowered)
        if command and _program_of(command) in _COMMAND_PROGRAMS:
            return HIGH, (f"makes a service run a command of its choosing as SYSTEM: whoever wrote it owns the "
                          f"machine ({shown})")
        return None
    if prog in _CONTAINER_RUNNERS:
        return _host_entered(c, lowered, shown)
    if prog in ("schtasks", "sc", "runas", "start-process", "sudo"):
        return None
    if prog == "runascs" and any(t in ("-r", "--remote") for t in lowered):
        return HIGH, f"hands a shell with another account's token to another machine ({shown})"
    if prog in ("psexec", "psexec64", "paexec"):
        return None  # an administrator's own tool (`psexec -s cmd`: tests/safety/test_win_launchers.py keeps it quiet)
    if named_tool and (re.search(r"potato|spoofer", prog) or _names_command(texts) or
                       _as_system(texts) or re.search(r"service|commandas", prog)):
        return HIGH, (f"runs a command with a taken token (SYSTEM or another account's): privileges raised past "
                      f"what this account was given ({shown})")
    if _as_system(texts) and (_names_command(texts) or named_tool):
        return HIGH, f"runs a program as SYSTEM or TrustedInstaller ({shown})"
    return None
