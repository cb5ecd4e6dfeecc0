"""Things stopped broadly by mechanism, for any program that shows it: a product's own stop program
(named for the verb) told to stop at once or everywhere, the network a remote user stands on cut, a
port's owner killed, every window closed through desktop automation, the OS release upgraded
without asking."""
from __future__ import annotations

import pytest

from tests.safety.test_long_tail import judged, reaches, stays_quiet


@pytest.mark.parametrize("command", [
    # S1: a program named for the stop verb of a product, with force/immediate/all
    "db2stop force",
    "ingstop -force",
    "ingstop -kill",
    "gpstop -a -M immediate",
    "gpstop -M fast -a",
    "mqsistop BROKER1 -i",
    "proshut sports2000 -by",
    "mmshutdown -a",
    "cmhaltcl -f -v",
    "cmhaltnode -f node2",
    "hastop -all -force",
    "hastop -local -force",
    "endmqm -i QM1",
    "endmqm -p QMGR.PROD",
    "tmshutdown -y",
    "scshutdown -y -g0",
    "stopsrc -a",
    "stopsrc -g tcpip",
    "stopsap all",
    "lsfshutdown",
    "qterm -t immediate",
    "qterm -t quick",
    "qconf -ke all",
    "qconf -km",
    "srvctl stop database -d ORCL -o abort",
    "crsctl stop crs -f",
    "crsctl stop cluster -all",
    "emctl stop dbconsole",
    "lsnrctl stop LISTENER",
    "opmnctl stopall",
    "ndb_mgm -e shutdown",
    "sendevent -E STOP_DEMON",
    "ccontrol stop CACHE quietly",
    "iris stop IRIS quietly",
    "asmcmd shutdown --abort",
    "monit stop all",
    "vmctl stop -a -f",
    "xl shutdown -a -F",
    "sapcontrol -nr 00 -function StopSystem ALL",
    "ttDaemonAdmin -stop",
    "dbshut $ORACLE_HOME",
])
def test_products_stopped_by_their_own_stop_programs_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@pytest.mark.parametrize("command", [
    "db2start",
    "gpstart -a",
    "gpstate -s",
    "hastatus -sum",
    "mqsilist",
    "dspmq",
    "lssrc -a",
    "startsrc -s sshd",
    "qstat -f",
    "qconf -sql",
    "crsctl check crs",
    "srvctl status database -d ORCL",
    "lsnrctl status",
    "emctl status dbconsole",
    "monit status",
    "monit summary",
    "xl list",
    "xterm -t",
    "xterm -e htop",
    "endlessh -v",
    "killsnoop -p 1234",
    "htop -t",
    "ndb_mgm -e show",
    "sapcontrol -nr 00 -function GetProcessList",
    "stopwatch 5m",
    "termdown 25m",
    "backstop test",
    "nonstop --help",
])
def test_product_status_and_starts_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
