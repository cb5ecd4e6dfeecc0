"""What programs' own options and verbs mean, by kind of program, as their manuals document them.

The vocabulary (``verbs``) reads words that say what they do (``delete``, ``--wipe-data``); many
programs say it with a letter or a word of their own instead: a mail queue's ``postsuper -d``, a
directory service's ``dscl . -delete``, a key's ``fido2-token -R``, a volume manager's
``lvconvert --merge`` (the origin goes back to the snapshot).  Each row is a kind of program
and what an option or subcommand means for it; the programs are the ones whose manual says so.

A key is matched against the command's words: ``-d`` an option (also inside a bundle of letters,
``-yD``), ``uninstall`` a subcommand word (one of the first three operands), ``snapshot -d`` a
subcommand then an option, ``secrets disable`` two subcommand words, ``-s=stop`` an option with
that value (``-s stop`` or ``-s=stop``).  The value is what it does, for the warning line.
"""
from __future__ import annotations

# ----------------------------------------------------------------- mail queues and mail stores
_MAIL = {
    "postsuper": {"-d": "deletes queued mail"},  # -d ID|ALL [queue]
    "exim": {"-Mrm": "deletes queued messages", "-Mg": "gives up on queued messages (bounced, removed)"},
    "exim4": {"-Mrm": "deletes queued messages", "-Mg": "gives up on queued messages (bounced, removed)"},
    "qmhandle": {"-d": "deletes a queued message", "-D": "deletes every queued message",
                 "-S": "deletes the queued messages with that subject"},
    "qmHandle": {"-d": "deletes a queued message", "-D": "deletes every queued message",
                 "-S": "deletes the queued messages with that subject"},
    "doveadm": {"expunge": "deletes the mail the query matches", "purge": "removes expunged mail for good",
                "deduplicate": "deletes the messages it takes for duplicates",
                "mailbox delete": "deletes mailboxes and their mail"},
    "cyrus": {"expire": "deletes expired mail"},
    "rmlist": {"*": "deletes the mailing list (with -a, its archives too)"},
    "remove_members": {"*": "removes members from the mailing list", "-a": "removes every member of the list"},
    "fetchmail": {"--flush": "deletes old messages on the server", "-F": "deletes old messages on the server"},
    "getmail": {"--delete": "deletes the messages on the server after fetching"},
    "sa-learn": {"--clear": "wipes the spam filter's learned database", "--forget": "forgets learned messages"},
    "ipurge": {"-f": "deletes mail from the mailboxes"},
}
# ----------------------------------------------------------------- directory services and accounts
_DIRECTORY = {
    "dscl": {"-delete": "deletes a directory record or its values (a user, a group)",
             "-remove": "removes values from a directory record"},
    "dseditgroup": {"-o=delete": "deletes a group"},
    "sysadminctl": {"-deleteUser": "deletes a user account"},
    "kadmin": {"delprinc": "deletes a Kerberos principal", "delete_principal": "deletes a Kerberos principal",
               "ktremove": "removes keys from a keytab", "delpol": "deletes a password policy"},
    "kadmin.local": {"delprinc": "deletes a Kerberos principal", "delete_principal": "deletes a Kerberos principal",
                     "ktremove": "removes keys from a keytab", "delpol": "deletes a password policy"},
    "kdb5_util": {"destroy": "destroys the Kerberos database"},
    "samba-tool": {"domain demote": "demotes the domain controller (its directory goes)"},
    "pw": {"userdel": "deletes a user", "groupdel": "deletes a group"},
    "mosquitto_passwd": {"-D": "deletes a user from the password file"},
    "realm": {"leave": "leaves the domain: its accounts can no longer log in"},
    "domainjoin-cli": {"leave": "leaves the domain: its accounts can no longer log in"},
    "pbis": {"leave": "leaves the domain: its accounts can no longer log in"},
    "adjoin": {"-r": "removes the machine from the domain: its accounts can no longer log in"},
    "zmprov": {"da": "deletes a mail account", "deleteAccount": "deletes a mail account", "dd": "deletes a domain",
               "deleteDomain": "deletes a domain", "ddl": "deletes a distribution list", "dc": "deletes a COS"},
    "ipa-server-install": {"--uninstall": "uninstalls the identity server: its directory and CA go"},
    "ipa-replica-install": {"--uninstall": "uninstalls the replica: its directory goes"},
    "ipa-client-install": {"--uninstall": "unenrolls the machine from the domain"},
}
# ----------------------------------------------------------------- keys, tokens and certificate stores
_KEYS = {
    "fido2-token": {"-R": "resets the security key: every credential on it is lost",
                    "-D": "deletes a credential or the PIN from the security key"},
    "certutil": {"-D": "deletes a certificate from the NSS database", "-F": "deletes a key from the NSS database",
                 "-delstore": "deletes a certificate from the store"},
    "keytool": {"-delete": "deletes an entry (a key or certificate) from the keystore"},
    "salt-key": {"-d": "deletes minion keys", "-D": "deletes every minion key", "--delete": "deletes minion keys",
                 "--delete-all": "deletes every minion key"},
    "nvram": {"-c": "clears every firmware variable", "-d": "deletes a firmware variable"},
    "mokutil": {"--reset": "resets the Machine Owner Key list", "--delete": "deletes enrolled keys",
                "--delete-hash": "deletes enrolled hashes"},
    "tpm2_evictcontrol": {"-c=0x81*": "evicts a persistent key from the TPM"},
    "tpm2_nvundefine": {"*": "deletes a TPM NV index and its data"},
    "pkcs15-init": {"--erase-card": "erases the smart card", "-E": "erases the smart card"},
    "pkcs11-tool": {"--delete-object": "deletes an object (a key or certificate) from the token"},
    "keyctl": {"clear": "empties a keyring", "purge": "deletes keys", "unlink": "removes keys from a keyring",
               "revoke": "revokes a key", "invalidate": "invalidates a key"},
    "trust": {"anchor --remove": "removes a trusted certificate authority"},
    "vault": {"secrets disable": "disables a secrets engine: every secret in it is deleted",
              "auth disable": "disables an auth method: its tokens are revoked",
              "lease revoke": "revokes leases"},
    "step": {"ca revoke": "revokes a certificate"},
    "certbot": {"revoke": "revokes the certificate (and deletes it)"},
    "sedutil-cli": {"--PSIDrevert": "reverts the drive to factory state: every byte on it is lost",
                    "--revertTPer": "reverts the drive to factory state: its data is lost",
                    "--yesIreallywanttoERASEALLmydatausingthePSID": "erases every byte on the drive"},
}
# ----------------------------------------------------------------- VMs, zones and snapshots
_RESTORES = "restores it to a snapshot (what changed since is lost)"
_MACHINES = {
    "zoneadm": {"uninstall": "uninstalls the zone: its root filesystem is deleted",
                "halt": "halts the zone at once (no shutdown scripts)"},
    "zonecfg": {"delete": "deletes the zone's configuration"},
    "qemu-img": {"snapshot -d": "deletes a disk snapshot", "snapshot -a": "reverts the disk to a snapshot "
                                                                          "(what changed since is lost)"},
    "lvconvert": {"--merge": "merges the snapshot back: the origin returns to the snapshot's state"},
    "lxc": {"restore": _RESTORES},
    "incus": {"restore": _RESTORES,
              "snapshot restore": _RESTORES},
    "multipass": {"restore": _RESTORES},
    "vagrant": {"snapshot restore": _RESTORES,
                "snapshot pop": "restores the machine to the last snapshot and deletes it"},
    "VBoxManage": {"closemedium --delete": "deletes the disk image file", "snapshot restore": _RESTORES,
                   "snapshot restorecurrent": "restores the machine to its current snapshot",
                   "controlvm poweroff": "pulls the plug on the machine"},
    "vboxmanage": {"closemedium --delete": "deletes the disk image file", "snapshot restore": _RESTORES,
                   "controlvm poweroff": "pulls the plug on the machine"},
    "prlctl": {"snapshot-switch": "switches the machine to a snapshot (what changed since is lost)",
               "stop --kill": "stops the machine at once (unsaved state is lost)"},
    "virsh": {"destroy": "pulls the plug on the domain", "reset": "resets the domain like a reset button"},
    "xe": {"vm-uninstall": "destroys the VM and its disks", "vm-destroy": "destroys the VM",
           "vm-shutdown --multiple": "shuts down every VM the filter matches", "sr-destroy": "destroys a storage "
           "repository and its disks", "vdi-destroy": "destroys a virtual disk", "snapshot-revert": "reverts to a "
           "snapshot (what changed since is lost)", "vm-reset-powerstate": "forgets the VM's power state"},
    "pvesm": {"free": "deletes a storage volume"},
    "lxc-snapshot": {"-d": "deletes a snapshot", "-r": "restores a snapshot (what changed since is lost)"},
    "qvm-shutdown": {"--all": "shuts every qube down"},
    "qvm-kill": {"*": "kills the qube at once, like pulling the plug"},
    "xl": {"destroy": "pulls the plug on the domain"},
    "qm": {"stop": "stops the VM at once, like pulling the plug", "rollback": "rolls the VM back to a snapshot",
           "delsnapshot": "deletes a snapshot"},
    "pct": {"stop": "stops the container at once", "rollback": "rolls the container back to a snapshot",
            "delsnapshot": "deletes a snapshot"},
    "vmrun": {"revertToSnapshot": "reverts the machine to a snapshot (what changed since is lost)",
              "deleteVM": "deletes the machine and its files"},
    "govc": {"snapshot.revert": "reverts the machine to a snapshot", "vm.power -off": "powers the machine off"},
    "snapper": {"rollback": "rolls the system back to a snapshot", "undochange": "undoes the changes since"},
    "timeshift": {"--restore": "restores the system to a snapshot (what changed since is lost)"},
    "kexec": {"-e": "reboots into the loaded kernel at once, without shutting down",
              "--exec": "reboots into the loaded kernel at once, without shutting down"},
    "slay": {"*": "kills every process of the user"},
    "screen": {"-X=quit": "ends the screen session and what runs in it"},
    "byobu": {"kill-server": "ends every session and what runs in it"},
    "ebtables": {"-F": "deletes every bridge firewall rule", "--flush": "deletes every bridge firewall rule"},
    "arptables": {"-F": "deletes every ARP firewall rule", "--flush": "deletes every ARP firewall rule"},
    "ipvsadm": {"-C": "clears the load balancer's table: its services stop", "--clear": "clears the load "
                "balancer's table: its services stop"},
    "conntrack": {"-F": "flushes the connection table: established connections may drop",
                  "-D": "deletes tracked connections"},
    "xkill": {"-all": "kills every X client: every window closes"},
    "zellij": {"kill-all-sessions": "kills every session and what runs in it",
               "delete-all-sessions": "deletes every session"},
    "swaymsg": {"exit": "ends the session: every window closes"},
    "i3-msg": {"exit": "ends the session: every window closes"},
    "hyprctl": {"dispatch exit": "ends the session: every window closes"},
    "bspc": {"quit": "ends the session: every window closes"},
    "herbstclient": {"quit": "ends the session: every window closes"},
    "riverctl": {"exit": "ends the session: every window closes"},
    "openbox": {"--exit": "ends the session: every window closes"},
    "fsutil": {"deletejournal": "deletes the volume's change journal", "setzerodata": "zeroes a range of the file"},
}
# ----------------------------------------------------------------- disks: repairs that discard, fixers that rewrite
_DISKS = {
    "xfs_repair": {"-L": "zeroes the filesystem's log: the changes in it are lost"},
    "btrfs": {"check --repair": "repairs in place (its manual warns it may lose data)",
              "rescue zero-log": "clears the log tree: the last changes are lost"},
    "rdfind": {"-deleteduplicates=true": "deletes every duplicate it finds"},
    "bleachbit": {"--clean": "deletes what its cleaners name (histories, cookies, caches)", "-c": "deletes what its "
                  "cleaners name (histories, cookies, caches)", "--shred": "shreds the files it is given"},
    "ipcrm": {"-a": "removes every shared-memory segment, semaphore and queue (programs using them fail)",
              "--all": "removes every shared-memory segment, semaphore and queue (programs using them fail)"},
    "flash_eraseall": {"*": "erases the flash partition"},
    "ubiformat": {"*": "formats the flash device: its data is lost"},
    "ubirmvol": {"*": "deletes a UBI volume"},
    "sg_sanitize": {"*": "sanitizes the drive: its data is erased"},
    "trash-rm": {"*": "deletes the matching files from the trash for good"},
    "f3fix": {"*": "rewrites the partition table of the drive"},
    "f3probe": {"--destructive": "overwrites the drive while testing it"},
    "ntfsfix": {"-b": "clears the bad-sector list", "-d": "clears the dirty flag"},
    "ms-sys": {"*": "writes a boot record onto the device"},
    "install-mbr": {"*": "writes a master boot record onto the device"},
    "syslinux": {"*": "installs a boot loader onto the partition"},
    "dc3dd": {"wipe": "wipes the device", "hwipe": "wipes the device"},
    "rkdeveloptool": {"ef": "erases the board's flash", "wl": "writes the board's flash"},
    "upgrade_tool": {"ef": "erases the board's flash", "uf": "writes the board's flash"},
    "edl": {"e": "erases a partition of the phone", "w": "writes a partition of the phone",
            "wl": "writes the phone's partitions", "wf": "writes the phone's whole flash"},
    "mtk": {"e": "erases a partition of the phone", "w": "writes a partition of the phone",
            "wl": "writes the phone's partitions", "wf": "writes the phone's whole flash"},
    "uuu": {"-b": "writes an image onto the board's storage"},
    "odin4": {"-a": "flashes the phone", "-b": "flashes the phone's boot loader"},
    "diskutil": {"zeroDisk": "writes zeros over the whole disk", "randomDisk": "writes random data over the disk",
                 "secureErase": "erases the disk", "reformat": "reformats the volume (its data is lost)"},
}
# ----------------------------------------------------------------- orchestrators, cluster add-ons, hosting
_CLUSTER_ADDONS = {p: {"uninstall": "removes it from the cluster, with the resources it manages"}
                   for p in ("cilium", "flux", "linkerd", "istioctl", "dapr", "velero", "osm", "kuma", "kumactl",
                             "consul-k8s", "vcluster", "karmadactl", "kubevela", "vela", "kyverno", "cmctl", "odo",
                             "kots", "kubectl-kots", "keptn", "rook", "longhornctl", "tkn", "kn", "crossplane",
                             "argocd-autopilot", "eksctl", "k0sctl", "clusterctl")}
_HOSTING = {
    "railway": {"down": "removes the latest deployment"},
    "azd": {"down": "deletes every Azure resource of the environment"},
    "pulumi": {"down": "destroys every resource of the stack"},
    "sst": {"remove": "removes every resource of the stage"},
    "kamal": {"remove": "removes the app, its containers and accessories from the servers"},
    "dokku": {"apps:destroy": "destroys the app"},
    "gitlab-ctl": {"cleanse": "deletes every piece of GitLab's data", "remove-accounts": "removes GitLab's accounts"},
    "gitlab-rake": {"gitlab:backup:restore": "restores a backup over the database"},
    "magento": {"setup:uninstall": "drops the store's database and its configuration"},
    "ghost": {"uninstall": "removes the site, its content and its database"},
    "firebase": {"hosting:disable": "takes the site offline"},
    "cf": {"delete-space": "deletes the space and its apps", "delete-org": "deletes the org and everything in it"},
    "nginx": {"-s=stop": "stops the web server at once (fast shutdown)"},
    "apachectl": {"-k=stop": "stops the web server at once", "stop": "stops the web server at once"},
    "apache2ctl": {"-k=stop": "stops the web server at once", "stop": "stops the web server at once"},
    "gnome-session-quit": {"--no-prompt": "logs out or powers off without asking: unsaved work is lost"},
    "cinnamon-session-quit": {"--no-prompt": "logs out or powers off without asking: unsaved work is lost"},
    "mate-session-save": {"--force-logout": "logs out without asking: unsaved work is lost"},
    "xfce4-session-logout": {"--fast": "logs out at once: unsaved work is lost"},
}
# ----------------------------------------------------------------- package managers: removing every package
_PACKAGES = {
    "nix-collect-garbage": {"-d": "deletes every old generation: no rollback is left",
                            "--delete-old": "deletes every old generation: no rollback is left",
                            "--delete-older-than": "deletes the older generations: no rollback to them"},
    "nix-env": {"--delete-generations": "deletes profile generations: no rollback to them"},
    "eselect": {"news purge": "deletes every news item", "kernel remove": "removes a kernel"},
    "scoop": {"uninstall scoop": "uninstalls scoop and every app it installed"},
    "rustup": {"self uninstall": "uninstalls rustup with every toolchain it installed"},
    "rvm": {"implode": "removes rvm with every Ruby and gem it installed"},
    "gem": {"yank": "removes a published version from the registry: no one can install it"},
    "cargo": {"yank": "marks a published version as withdrawn from the registry"},
    "pkg_delete": {"-a": "deletes every installed package", "-X": "deletes every package but the named ones"},
}
# ----------------------------------------------------------------- databases: tools named for maintenance
_DATABASES = {
    "gbak": {"-rep": "restores over the existing database (replaced)", "-replace_database": "restores over the "
             "existing database (replaced)", "-r": "restores over the existing database (replaced)"},
    "pg_resetwal": {"*": "resets PostgreSQL's write-ahead log: committed data may be lost"},
    "pg_resetxlog": {"*": "resets PostgreSQL's write-ahead log: committed data may be lost"},
    "pg_archivecleanup": {"*": "deletes WAL files from the archive"},
    "pg_rewind": {"*": "rewinds the data directory to the source's: its own later changes are lost"},
    "mysqlimport": {"--delete": "empties each table before importing", "-d": "empties each table before importing"},
    "ipfw": {"flush": "deletes every firewall rule (with a default deny, the way in goes)"},
    "socketfilterfw": {"--setglobalstate=off": "turns the application firewall off"},
    "pgbench": {"-I=d": "drops the benchmark tables"},
    "memcflush": {"*": "deletes every item in the memcached servers"},
    "mongod": {"--shutdown": "shuts the database server down",
               "--repair": "repairs the data files (what cannot be read is dropped)"},
    "myisamchk": {"--recover": "rebuilds the tables (rows it cannot read are lost)"},
    "influx": {"bucket delete": "deletes the bucket and its data"},
}
# ----------------------------------------------------------------- shared storage and cluster services taken away
_SERVICES = {
    # Grid Engine's configuration: -d… deletes a queue, an execution host, a parallel environment, a project…
    "qconf": {**{f"-d{k}": f"deletes {v} from the cluster's configuration" for k, v in (
        ("q", "a queue"), ("e", "an execution host"), ("h", "an administrative host"), ("s", "a submit host"),
        ("p", "a parallel environment"), ("c", "a complex"), ("ckpt", "a checkpointing interface"),
        ("cal", "a calendar"), ("prj", "a project"), ("u", "a user access list"), ("ul", "a user list"),
        ("rqs", "a resource quota set"), ("conf", "a host's configuration"), ("attr", "an attribute"),
        ("m", "a manager"), ("o", "an operator"), ("hgrp", "a host group"), ("stree", "the share tree"))},
        # -k…: kills the cluster's daemons (execution hosts', with their jobs; the master; the scheduler)
        "-ke": "kills execution daemons (-ke all: on every host)", "-kej": "kills execution daemons and their jobs",
        "-km": "kills the cluster's master daemon", "-ks": "kills the cluster's scheduler"},
    "onmode": {"-k": "takes the database server offline: every session ends",
               "-u": "ends every session and takes the database server offline"},
    "gabconfig": {"-U": "unconfigures the cluster's membership layer: the node leaves the cluster"},
    "lltconfig": {"-U": "stops the cluster's heartbeat links: the node leaves the cluster"},
    "apcupsd": {"--killpower": "tells the UPS to cut its output: what it feeds loses power"},
    "upsmon": {"-c=fsd": "forces the UPS's shutdown: every machine it feeds powers off"},
    "upscmd": {**{k: "cuts or cycles the UPS's output: what it feeds loses power" for k in (
        "load.off", "load.off.delay", "load.cycle", "shutdown.return", "shutdown.stayoff", "shutdown.reboot",
        "shutdown.reboot.graceful", "outlet.1.load.off", "outlet.2.load.off")}},
    "s6-rc": {"-d": "brings the named services down, with every service that depends on them"},
    "vim-cmd": {**{f"vmsvc/power.{k}": "cuts the virtual machine's power: what it had not written is lost"
                   for k in ("off", "reset", "suspend")},
                "vmsvc/snapshot.revert": "puts the virtual machine back to a snapshot: what changed since is lost"},
    "crictl": {"rmp": "removes pods", "stopp": "stops pods", "rm -a": "removes every container",
               "rmp -a": "removes every pod", "stopp -a": "stops every pod"},
    # ESXi's own tools: a virtual disk deleted, a datastore built over a device, a VM destroyed
    "vmkfstools": {"-U": "deletes the virtual disk", "--deletevirtualdisk": "deletes the virtual disk",
                   "-C": "creates a VMFS datastore over the partition (what it held is lost)",
                   "--createfs": "creates a VMFS datastore over the partition (what it held is lost)",
                   "-w": "writes zeros over the virtual disk", "--writezeros": "writes zeros over the virtual disk"},
    "exportfs": {"-u": "unexports NFS shares: the clients lose them"},
    "losetup": {"-D": "detaches every loop device: what was mounted from them goes",
                "--detach-all": "detaches every loop device: what was mounted from them goes"},
    "multipath": {"-F": "flushes every multipath map"},
    "drbdadm": {"invalidate": "discards this node's copy of the data (it is copied again from the peer)",
                "down": "takes the replicated resource down: its device goes away",
                "create-md": "writes new replication metadata over the device"},
    "corosync-cfgtool": {"-H": "shuts corosync down: the node leaves the cluster"},
    "smbcontrol": {"shutdown": "shuts the Samba daemons down: every share goes offline"},
    "ctdb": {"disable": "disables the cluster node: its addresses move away", "shutdown": "shuts the cluster node down",
             "stop": "stops the cluster node"},
    "sedutil-cli": {"--revertTPer": "reverts the drive to its factory state: its data is erased",
                    "--revertnoerase": "reverts the drive's locking setup"},
    "lego": {"revoke": "revokes the certificate: it cannot be undone"},
    "skeema": {"push --allow-unsafe": "applies the schema with its drops: the dropped tables' rows are lost"},
    "emqx": {"kick-all": "disconnects every client"},
}

PROGRAM_OPTIONS: dict = {}
for _kind in (_MAIL, _DIRECTORY, _KEYS, _MACHINES, _DISKS, _CLUSTER_ADDONS, _HOSTING, _PACKAGES, _DATABASES,
              _SERVICES):
    for _prog, _meanings in _kind.items():
        _kept = {k: v for k, v in _meanings.items() if v}
        if _kept:
            PROGRAM_OPTIONS.setdefault(_prog, {}).update(_kept)

# Options that run their value as the program's own command (an admin shell's one-shot mode):
# `kadmin -q "delprinc alice"`, `lftp -c "rm -r dir"`, `bconsole`'s input, `virsh` given a command line.
COMMAND_OPTIONS: frozenset = frozenset({"-q", "--query", "-e", "--execute", "-x", "--exec", "-c", "--command",
                                        "--cmd", "-cmd", "-ex", "--eval", "-Q"})
# Arguments that make a verb take everything (`postsuper -d ALL`, `qdel all`).
EVERY_VALUE: frozenset = frozenset({"ALL", "all", "*", "'*'", "-a", "--all", "%"})
