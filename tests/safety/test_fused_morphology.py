"""The vocabulary's morphology: destructive verbs fused into program, subcommand and option names
(an uninstaller's other names, a long verb run into an unlisted object, ``rm``/``del`` before a suite's
short object, a verb fused before ``all``, a product's abbreviated stop), and the options that make the
same programs harmless as a class (a report option, ``-help``, a flasher's save into a copy, an image
builder's output file)."""
from __future__ import annotations

from aish.safety.verb_words import split_word
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "db2_deinstall -a",
    "ora_deinstall -silent -paramfile /tmp/deinstall.rsp",
    "appmgr -s uninstall -y payroll",
    "hdbuninst --sid=PRD --batch",
    "acme_deinstall --silent",
    "influx_inspect deletetsm -measurement cpu /var/lib/influxdb/data",
    "storadm destroyvm --force web01",
    "dscli rmfbvol -quiet 1000-10FF",
    "rmdef -t node -o compute01-compute64",
    "rmlv -f datalv01",
    "clusterctl --delnode=worker7 --force",
    "fsadmin --remove-directory /srv/data",
    "lncli closeallchannels --force",
    "db2idrop -f db2inst1",
    "gridadm unprovision --all-nodes --yes",
    "stopsap r3",
    "adstpall.sh apps/appspass",
    "shutdown-agent --all",
    "appctl --action=stop_db --env prod",
    "ubus call rpc-sys factory",
    "urpme --auto --force glibc",
])
def test_verbs_fused_into_names_are_read(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "purgecss --css build/app.css --content index.html",
    "rmate notes.txt",
    "rmadison bash",
    "cmstp /s profile.inf",
    "dunstctl close-all",
    "gh issue close 12",
    "rails g factory",
    "db2_deinstall -h",
    "dscli lsfbvol",
    "appctl --action=status",
    "fsadmin --list-directory /srv/data",
    "tool --delete-dir /tmp/x",
])
def test_names_that_only_look_fused_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "SeaChest_Erase -d /dev/sg4 --showEraseSupport",
    "openSeaChest_Erase -d /dev/sg2 --showEraseSupport",
    "SeaChest_Format -d /dev/sg3 --showSupportedFormats",
    "SeaChest_Erase --scan",
    "stopServer.sh -help",
    "aws s3 rm help",
    "stopNodeManager.sh -help",
    "atiflash -s 0 backup.rom",
    "amdvbflash -s 0 backup.rom",
    "nvflash -b backup.rom",
    "fptw64 -d backup.bin",
    "mkfs.ubifs -r rootfs/ -m 2048 -e 129024 -c 2047 -o rootfs.ubifs",
    "mkfs.jffs2 -r rootfs -e 0x20000 -o rootfs.jffs2",
])
def test_show_save_help_and_output_files_make_these_programs_harmless(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    "SeaChest_Erase -d /dev/sg4 --overwrite 0 --showEraseSupport",
    "git push --force origin main --show-forced-updates",
    "clickhouse-client --query 'DROP TABLE logs.events'",
    "atiflash -p 0 backup.rom",
    "mkfs.ubifs -r rootfs/ /dev/ubi0_0",
    "aws s3 rm s3://bucket/x help",
])
def test_a_report_word_beside_an_action_does_not_excuse_it(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("word,parts", [
    ("hdbuninst", ["hdb", "uninstall"]),
    ("deletetsm", ["delete", "tsm"]),
    ("closeallchannels", ["close", "all", "channels"]),
    ("rmfbvol", ["rm", "fbvol"]),
    ("removable", ["removable"]),
])
def test_the_split_of_fused_words(word: str, parts: list) -> None:
    assert split_word(word) == parts
