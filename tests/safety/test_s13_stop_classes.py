"""Session 13's stop, api and classic mechanisms, each on forms of programs beyond the ones that showed it:
power switched off in a program's own words (power_settings), bodies and request lines that destroy
(api_bodies), dd's and rm's spellings borrowed (borrowed_operands, delete's file-listing feeders), nodes
leaving and stops said by a name or a lone option (member_stops).  One test per table; quiet forms beside."""
from __future__ import annotations

from tests.safety.kept import assess


def _loud(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def _check(loud: list, quiet: list) -> None:
    missed = [c for c in loud if not _loud(c)]
    noisy = [c for c in quiet if _loud(c)]
    assert not missed and not noisy, f"missed: {missed}; loud: {noisy}"


def test_power_switched_off_in_own_words():
    _check([
        "obmcutil chassiskill",
        "samsungctl --host 192.168.1.60 KEY_POWEROFF",
        "hpilo_cli ilo-web3 set_host_power host_power=False",
        "hpilo_cli ilo-web3 cold_boot_server",
        "tplink-smarthome-api setPowerState 192.168.1.40 false",
        "mosquitto_pub -h broker -t cmnd/rack/POWER -m OFF",
        "hass-cli service call switch.turn_off --arguments entity_id=all",
        "upscmd -u admin -p pw ups@localhost load.off",
        "broadlink_cli --device @living.device --send @poweroff.ir",
        "lgtv-remote --host 10.0.0.8 power_off",
        "bmcweb-cli --host 10.0.0.3 reboot",
        'curl "http://192.168.1.50/relay/0?turn=off"',
        'wget -qO- "http://plug.lan/cm?cmnd=Power%20Off"',
    ], [
        "iw dev wlan0 set power_save off",
        "cbatticon -r 5 -c poweroff",
        "mosquitto_pub -h broker -t cmnd/rack/POWER -m ON",
        'curl "http://192.168.1.50/relay/0?turn=on"',
        "hpilo_cli ilo-web3 get_host_power_status",
        "setterm -powersave off",
        "upsc ups@localhost",
        "bluetoothctl power off",
        "udisksctl power-off -b /dev/sdc",
        "hass-cli service call light.turn_on --arguments entity_id=light.desk",
    ])


def test_api_bodies_and_request_lines_that_destroy():
    _check([
        "curl -XPOST 'http://localhost:8080/v1/sql' -d 'TRUNCATE TABLE audit_log'",
        "curl -X POST http://127.0.0.1:8000/sql -H 'NS: app' -d 'REMOVE DATABASE app'",
        """curl -X POST http://localhost:8529/_api/cursor -d '{"query":"FOR d IN users REMOVE d IN users"}'""",
        """curl http://localhost:9091/transmission/rpc -d '{"method":"torrent-remove","arguments":{"ids":[1]}}'""",
        """echo '{"op":"delete","collection":"sessions"}' | websocat ws://localhost:9001/admin""",
        """wscat -c ws://localhost:8080/ws -x '{"action":"deleteAll"}'""",
        "siege -r 1 -c 1 'http://localhost:8080/api/orders DELETE'",
        "xh post localhost:8123 --raw 'DROP TABLE events'",
        """gqlc -d '{"query":"mutation { removeAllUsers }"}' https://api.example.com/graphql""",
        """curl -X POST https://shop.example.com/graphql -d '{"query":"mutation { clearCart }"}'""",
    ], [
        """curl -d '{"jsonrpc":"2.0","id":1,"method":"aria2.tellActive"}' http://localhost:6800/jsonrpc""",
        """curl -X POST http://localhost:7474/db/neo4j/tx/commit """
        """-d '{"statements":[{"statement":"MATCH (n) RETURN count(n)"}]}'""",
        "curl -XPOST 'http://localhost:8080/v1/sql' -d 'SELECT count(*) FROM audit_log'",
        """wscat -c ws://localhost:8080/ws -x '{"action":"subscribe"}'""",
        """curl -X POST https://api.example.com/graphql """
        """-d '{"query":"mutation { updateSettings(deleteOld: false) { id } }"}'""",
        "siege -r 1 -c 1 'http://localhost:8080/api/orders'",
    ])


def test_dd_and_rm_spellings_borrowed():
    _check([
        "sdd if=/dev/zero of=/etc/passwd",
        "zdd if=/dev/urandom of=/var/lib/mysql/ibdata1",
        "dd_rescue -A /dev/zero /var/lib/libvirt/images/vm.img",
        "dc3dd wipe=/home/bob/vault.img",
        "bcwipe -rf /home/bob",
        "trash-d -rf ~/Documents",
        "gomi -rf ~/work",
        "ugrep -l password -r ~/notes | xargs rm",
        "pdfgrep -rl invoice ~/Documents | xargs rm -f",
        "walkdir ~ -type f -exec rm -rf {} \\;",
        "walk / -name '*.conf' -execdir shred -u {} +",
        "ffind ~/Pictures -e jpg -X rm",
    ], [
        "lsfind . -name '*.o' -exec rm {} \\;",
        "ffind . -x echo {}",
        "pax -rf source.tar",
        "ppmtompeg -fr first_frame last_frame params",
        "zdd if=/dev/sda of=disk.img",
        "zdd /dev/zero out.bin",
        "bcwipe -rf ./build",
        "ugrep -rl TODO src",
    ])


def test_nodes_leaving_and_stops_said_by_name_or_lone_option():
    _check([
        "consul leave",
        "serf leave",
        "cman_tool leave force",
        "hb_standby all",
        "vm-shutdown -a",
        "wsl --shutdown",
        "cec-ctl --to 0 --standby",
        "qemu-ctl --halt",
        "zork-agent --force-reboot",
        "fwctl firmware update --force-reboot",
        "pkgtool upgrade --yes --restart-now",
        "zork services stop",
        "killprocs --user bob --signal 9",
        "zork-port kill 3000",
        "proc-kill --uid 1001",
    ], [
        "pkgtool update --reboot-timeout 30",
        "zork kill 1234",
        "killprocs -u bob -s 0",
        "killsnoop -p 1234",
        "killwatch -u bob",
        "zork-agent --reboot-timeout 30",
        "consul members",
        "chatctl leave general",
        "zork --shutdown-timeout 30",
        "hb_standby --help",
        "cec-ctl --to 0 --give-device-power-status",
    ])
