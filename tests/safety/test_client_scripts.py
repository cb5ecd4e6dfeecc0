"""An interactive client's own commands, fed as a script (heredoc, here-string, echo) or given as one
quoted line, judged as if typed after the program's name, for any program."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "cadaver https://dav.example.com/ <<EOF\nrmcol nightly\nquit\nEOF",
    "JLinkExe -device STM32F407VG -if SWD -speed 4000 <<EOF\nconnect\nerase\nexit\nEOF",
    'mspdebug rf2500 "erase all"',
    'deluge-console "rm --remove_data *"',
    "ipmitool -I lanplus -H bmc -U admin -P x shell <<< 'chassis power off'",
    "vendor-console --batch 'delete pool tank'",
    "echo 'purge all' | somectl shell",
    "nvram-cli <<EOF\nerase all\ncommit\nEOF",
    "smbclient //nas/share -U admin -c 'deltree projects'",
    "openocd -c 'init; flash erase_address 0x08000000 0x10000; exit'",
    "(echo 'erase'; echo 'quit') | flashcli",
    "sqsh -S db <<EOF\nshutdown with nowait\ngo\nEOF",
    "loksh <<EOF\nrm -rf ~/work\nEOF",
])
def test_a_clients_own_destroying_commands_fed_or_given_whole_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "cadaver https://dav.example.com/ <<< 'ls'",
    "JLinkExe -device X <<EOF\nconnect\nloadfile fw.hex\nexit\nEOF",
    "mspdebug rf2500 'prog firmware.elf'",
    "deluge-console 'info'",
    "ipmitool -I lanplus -H bmc shell <<< 'chassis status'",
    "vendor-console --batch 'list pools'",
    "todo add 'delete old files --all'",
    "notify 'remove done'",
    "smbclient //nas/share -U admin -c 'ls; get report.pdf'",
    "pyocd commander -c 'reset'",
    "(echo 'status'; echo 'quit') | flashcli",
    "sqsh -S db <<EOF\nselect 1\ngo\nEOF",
])
def test_reads_names_and_messages_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
