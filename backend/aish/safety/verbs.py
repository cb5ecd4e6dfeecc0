"""The destructive vocabulary of command lines, as data: verbs, the nouns they act on, the
options that widen or force them.

Thousands of programs have no rule of their own, but their subcommands and options say
what they do (``vagrant destroy``, ``borg delete``, ``virsh undefine --remove-all-storage``,
``rails db:drop``).  ``rules/vocabulary`` judges that vocabulary for any program; the
level comes from the verb, the object and the scope.  The tables are plain so that other
judges (an autorun that must know what only reads) can reuse them with ``programs``.
"""
from __future__ import annotations

import re

# ----------------------------------------------------------------- verbs, by strength
# Destroy what they name, whatever it is: medium alone, high with a wide or forced scope.
HEAVY: frozenset = frozenset("""
destroy wipe erase nuke obliterate zap shred drop truncate unpublish deprovision decommission teardown
undefine sanitize cleanse factoryreset reformat reinitialize reinit flushall flushdb dropdb wipeout uninit zeroize
eradicate annihilate demolish
""".split())
# Delete what they name: medium on data or on a named thing, quiet on caches and packages.
DELETE: frozenset = frozenset("""
delete del rm rb rmi rmr remove purge prune forget expire terminate discard delvol empty gc undeploy expunge
tombstone
""".split())
# Put something back to an earlier or empty state: medium only where data is named (a database,
# a snapshot, a migration); `git revert`, `gsettings reset key` lose nothing.
RESET: frozenset = frozenset({"reset", "revert", "rollback", "downgrade", "restore-defaults", "clean-all", "reinstall",
                              "cleanall", "undo"})
# Verbs that end this machine's run or the desktop session, for the programs in SESSION_MANAGERS
# (elsewhere `vagrant halt`, `bazel shutdown` stop something smaller).
POWER: frozenset = frozenset({"poweroff", "shutdown", "reboot", "halt", "power-off", "shut-down", "logout",
                              "log-out", "logoff", "restart", "kill-session", "terminate-session",
                              "terminate-user", "kill-user", "lock-sessions", "terminate-seat"})
# Nouns that make a reset or rollback lose data (`ykman fido reset`, `rails db:rollback`).
RESET_NOUNS: frozenset = frozenset("""
db database databases migrate migration migrations snapshot snapshots schema table tables cluster node disk disks device
devices volume volumes fido fido2 u2f webauthn piv oath openpgp otp firmware tpm factory data storage
instance
instances repo repository nvram bios keystore keychain wallet vault wal account accounts profile profiles
offset offsets journal journals ledger ledgers metadata
""".split())
SESSION_MANAGERS: frozenset = frozenset("""
loginctl gnome-session-quit xfce4-session-logout lxqt-leave lxsession-logout cinnamon-session-quit
mate-session-save i3exit i3-msg swaymsg hyprctl qdbus qdbus6 dbus-send busctl gdbus shutdown.exe wsl
systemd-run ksmserver pmset rtcwake sway-exit wlogout xdg-screensaver openbox bspc herbstclient
""".split())
# Verbs to look out for only with a scope that takes everything, or with data nouns.
WEAK: frozenset = frozenset({"kill", "stop", "clean", "clear", "flush", "uninstall", "disable", "yank", "revoke",
                             "dismiss", "retire", "dispose", "scrap", "disband", "dissolve",
                             "unregister", "deregister", "deinit",
                             "detach", "unlink", "cancel", "abandon", "unset", "unmount", "down", "suspend",
                             "hibernate", "evict", "drain", "close"})
# Words that make a stop abrupt: unsaved state is lost (`redis-cli shutdown nosave`, `pg_ctl stop -m immediate`).
ABRUPT: frozenset = frozenset({"nosave", "immediate", "abort", "--abort", "hard", "--hard", "-9", "--kill", "force"})
# Weak verbs that a scope taking everything makes broad (`supervisorctl stop all`, `forever stopall`, `lxc stop
# --all`); cleaning, disabling or suspending everything loses nothing.
WEAK_BROAD: frozenset = frozenset({"stop", "kill", "clear", "flush", "empty", "uninstall", "unregister", "deinit",
                                   "deregister", "revoke", "evict", "drain", "cancel", "abandon", "down"})
# Whole-word subcommands with a meaning of their own (a migration tool's `migrate:fresh` drops
# every table first).
SPECIAL_WORDS: dict = {"migrate:fresh": "drop", "migrate:refresh": "reset", "migrate:reset": "reset",
                       "db:wipe": "wipe", "schema:drop": "drop", "database:drop": "drop", "db:purge": "drop",
                       "db:seed:replant": "reset", "flush-all": "flushall", "db:schema:load": "drop",
                       "db:structure:load": "drop", "ecto.reset": "drop", "ecto.drop": "drop",
                       # a site installed again over its database (Drupal's `site:install`, `si`), a shop's
                       # `setup:uninstall` (its database is dropped)
                       "site:install": "wipe", "site-install": "wipe", "setup:uninstall": "drop"}
# Programs whose name is the destructive verb (and that no rule names).
DESTRUCTIVE_PROGRAMS: dict = {"tpm2_clear": "wipe", "nwipe": "wipe", "sdelete": "delete", "scrub": "wipe",
                              "wipe": "wipe",
                              "mdelete": "delete",
                              "fprintd-delete": "delete", "hdd-wipe": "wipe", "dban": "wipe", "zerofree": "wipe",
                              "secure-delete": "delete", "trash-empty": "empty"}
# Programs whose plain `reset` wipes what they manage: a cluster node, a security key, a device.
RESET_WIPES: frozenset = frozenset({"kubeadm", "k0s", "k3s", "rke2", "microk8s", "talosctl", "kubespray", "kops",
                                    "ykman", "yubico-piv-tool", "solo", "solo2", "nitropy", "fido2-token",
                                    "onlykey-cli", "trezorctl", "ledgerctl", "tpm2", "rabbitmqctl", "pct", "qm",
                                    "lxd", "cloud-init", "kubectl-cnpg"})
# Nouns that name a destructive action (`schedule-key-deletion`).
NOMINAL_VERBS: dict = {"cleanup": "clean", "unprovision": "deprovision",
                       "deletion": "delete", "removal": "remove", "destruction": "destroy", "termination": "terminate",
                       "erasure": "erase", "purging": "purge", "wiping": "wipe", "deprovisioning": "deprovision"}
# Backup and snapshot tools: what they delete is an archive or a snapshot (`tarsnap -d`, `rusnapshot --del`).
BACKUP_TOOLS: frozenset = frozenset({"restic", "borg", "borgmatic", "tarsnap", "duplicity", "duply", "kopia",
                                     "rsnapshot", "rusnapshot", "timeshift", "snapper", "bup", "duplicacy",
                                     "rdiff-backup", "burp", "bacula", "bconsole", "zrepl", "sanoid", "syncoid",
                                     "btrbk", "urbackup", "vorta", "deja-dup", "tmutil", "wbadmin", "velero",
                                     "pgbackrest", "barman", "wal-g", "xtrabackup", "mariabackup"})
# Programs whose business is a database's schema: their clean, reset and downgrade act on the database (not dbt:
# its clean deletes its own build folders, target/ and dbt_packages/).
MIGRATION_TOOLS: frozenset = frozenset({"alembic", "flyway", "liquibase", "dbmate", "goose", "diesel", "sqlx",
                                        "knex", "prisma", "sequelize", "sequelize-cli", "typeorm", "migrate",
                                        "atlas", "sqitch", "skeema", "tern", "yoyo", "refinery", "ecto",
                                        "phinx", "propel", "db-migrate", "node-pg-migrate", "umzug", "mikro-orm",
                                        "drizzle-kit", "graphile-migrate", "shmig", "pgroll", "dbmigrate",
                                        "migrate-mongo", "ruby-migrate", "evolve", "grate", "roundhouse"})
# Programs that write to a device by nature (a phone, a board, a chip): no /dev path is needed.
DEVICE_PROGRAMS: dict = {"fastboot": {"-w", "erase", "format", "flash", "flashall", "unlock", "flashing", "wipe"},
                         "heimdall": {"flash"}, "esptool": {"erase_flash", "write_flash", "erase-flash", "write-flash"},
                         "esptool.py": {"erase_flash", "write_flash", "erase-flash", "write-flash"},
                         "st-flash": {"erase", "write"}, "avrdude": {"-e"}, "dfu-util": {"-D", "--download"},
                         "rpi-imager": {"--cli"}, "flash_erase": {"*"}, "nandwrite": {"*"}, "mtd": {"erase", "write"},
                         "minipro": {"-E", "--erase", "-w", "--write"}, "picotool": {"erase", "load"},
                         "openocd": {"flash"}, "stm32flash": {"-w", "-o"}, "teensy_loader_cli": {"*"}}
# Programs whose short option letter deletes (`fdupes -rdN`: delete duplicates without asking, `tarsnap -d`,
# `gphoto2 -D`: every file on the camera, `htpasswd -D`, `smbpasswd -x`: a user); inside bundles too.
DELETE_LETTERS: dict = {"fdupes": ("d", "files"), "jdupes": ("d", "files"), "findup": ("d", "files"),
                        "tarsnap": ("d", "archive"),
                        "gphoto2": ("D", "files"), "htpasswd": ("D", "user"), "smbpasswd": ("x", "user"),
                        "pdbedit": ("x", "user")}
# Subcommand aliases of CLIs (cobra's `d`/`rm` for delete...).
# (Never the first word: `doctl d` is `doctl databases`.)
ALIASES: dict = {"doctl": {"d": "delete", "rm": "delete"}, "hcloud": {"rm": "delete"}, "gh": {"rm": "delete"},
                 "fnm": {"uni": "uninstall"}, "pkg": {"un": "uninstall"}}
# Programs that take any unique prefix of a subcommand, the first word included (Proxmox's `qm des 100`,
# `pct des 100`, `pveum u d user`): the prefixes of their destructive subcommands.
FIRST_ALIASES: dict = {p: {"des": "destroy", "dest": "destroy", "destr": "destroy", "del": "delete"}
                       for p in ("qm", "pct", "pveum", "pvesm", "pvecm", "pveam", "pvesh", "pvenode", "pvesr")}
FIRST_ALIASES["drush"] = {"si": "site-install"}  # Drupal's shell: `drush si` installs the site again
# A one-letter `d` after a subcommand word is delete in many CLIs (`jj tag d NAME`, `tc q d dev eth0`), except
# after the short forms of create, show or list (`ng g d NAME` generates a directive).
SHORT_DELETE: frozenset = frozenset({"d"})
NOT_BEFORE_SHORT_DELETE: frozenset = frozenset({"g", "gen", "generate", "n", "new", "a", "add", "c", "create", "s",
                                                "show", "l", "ls", "list", "i", "info", "get", "mk", "make"})
# Options that write to a device named on the same line (with FLASH verbs: `bmaptool copy img /dev/sdb`,
# `ventoy -i /dev/sdb`, `badblocks -w /dev/sdb`).
DEVICE_WRITE_OPTIONS: frozenset = frozenset({"-w", "--write", "--format", "--erase", "--wipe", "--install",
                                             "--force-install", "--flash", "--burn"})
DEVICE_WRITE_BY_PROGRAM: dict = {"ventoy": frozenset({"-i", "-I", "-u"}), "badblocks": frozenset({"-w", "-n"}),
                                 "zpool": frozenset({"create", "add", "attach", "replace", "labelclear"}),
                                 "pvcreate": frozenset({"*"}), "vgcreate": frozenset({"*"}),
                                 "vgextend": frozenset({"*"}), "mkraid": frozenset({"*"}),
                                 "mdadm": frozenset({"--create", "-C", "--build", "--grow"}),
                                 "mkusb": frozenset({"-i"}), "woeusb": frozenset({"--device", "-d"}),
                                 "isohybrid": frozenset(), "popsicle": frozenset({"*"}),
                                 "caligula": frozenset({"burn"}), "etcher": frozenset({"*"}),
                                 "balena-etcher": frozenset({"*"}), "dcfldd": frozenset(),
                                 "usbimager": frozenset({"*"})}
# Verbs that write an image onto a device (they need a device among the arguments).
FLASH: frozenset = frozenset({"flash", "write", "burn", "copy", "clone", "image", "restore", "install",
                              "write_flash", "erase_flash", "format", "dd", "unlock", "flashing"})

# ----------------------------------------------------------------- the nouns verbs act on
# What holds data or access: losing it costs work, money or a way in.
DATA_NOUNS: frozenset = frozenset("""
volume volumes vol vols vdisk vdisks fileset filesets disk disks drive drives database databases db dbs schema schemas
table tables index
indices indexes collection collections keyspace keyspaces bucket buckets storage blob blobs container-registry
repo repos repository repositories project projects account accounts org orgs organization organizations
cluster clusters vcluster vclusters pool pools zpool dataset datasets snapshot snapshots snap backup backups
archive archives vm vms machine machines instance instances domain domains server servers app apps
application applications site sites stack stacks environment environments namespace namespaces secret secrets
key keys keystore keyring keychain certificate certificates cert certs user users home homes partition
partitions filesystem filesystems fs subvolume subvolumes lun luns data userdata mailbox mailboxes
messages mail release releases deployment deployments function functions zone zones record records topic
topics queue queues stream streams credential credentials vault vaults wallet wallets
tenant tenants workspace workspaces space spaces model models fido piv oath openpgp otp firmware flash
nvram bios efi partitiontable gpt mbr store stores graph graphs tablespace replica replicas shard shards
migration migrations generations group groups channel channels space file files dir
directory directories folder folders object objects item items entry entries book books note notes
password passwords token tokens state tfstate pvc pv persistentvolume persistentvolumes ns trash shadowcopy
shadows history team teams princ principal principals wal keytab card cards acct accts dns tape tapes
subscription subscriptions customer customers webspace mailinglist content contents person
""".split())
# What is cheap to lose: rebuilt, re-downloaded or reinstalled.
LIGHT_NOUNS: frozenset = frozenset("""
cache caches package packages pkg pkgs plugin plugins extension extensions module modules dependency
dependencies dep deps toolchain toolchains version versions runtime runtimes sdk sdks alias aliases remote
remotes source sources context contexts pin pins label labels bookmark bookmarks session sessions tab tabs
window windows pane panes notification notifications hook hooks watch watches breakpoint breakpoints tmp temp
build builds artifact artifacts news shim shims link links symlink symlinks provider providers gamma
completion completions theme themes font fonts alias-file lockfile tag tags stash stashes worktree
worktrees filter filters rule-cache thumbnail thumbnails preview previews log logs recent
""".split())

# ----------------------------------------------------------------- options
# Options that destroy on their own, on any program that has them.
HEAVY_OPTIONS_PATTERN = re.compile(r"^--(delete|remove|wipe|erase|destroy|drop|purge)-(disks?|data|volumes?|storage|"
                                   r"snapshots?|backups?|databases?|files|all|everything|images?|old|older-than|"
                                   r"raw|samples|blocks|chunks|series|records|rows|objects|messages|tables)$|"
                                   r"^--(destroy|wipe|erase|nuke|obliterate)-[a-z][\w-]*$")  # `--destroy-workers`
HEAVY_OPTIONS: frozenset = frozenset("""
--purge --wipe --wipe-data --wipe-all --erase --erase-all --destroy --drop --drop-database --delete-data
--delete-all --remove-all --remove-all-storage --delete-storage --delete-volumes --delete-snapshots
--zap --factory-reset --shred --nuke --obliterate --with-data --all-data --delete-everything --remove-data
--force-delete --delete-backups --wipe-storage --delete-disks --erase-data --delete-files --force-reset
--accept-data-loss
""".split())
# Options that take everything in reach.
SCOPE_OPTIONS: frozenset = frozenset("""
--all --everything --all-namespaces --all-projects --all-users --recursive -r -R --cascade --all-versions
--include-all --remove-all --delete-all --all-inactive --prefix -prefix -all -subtree -rmr
""".split())
# Options that skip the question a program would ask first.
FORCE_OPTIONS: frozenset = frozenset("""
--force -f --yes -y --assume-yes --no-confirm --noconfirm --confirm --quiet -q --non-interactive
--auto-approve -auto-approve --no-prompt --skip-confirmation --skip-final-snapshot --permanent
--permanently --hard --yes-i-really-mean-it --yes-i-really-really-mean-it --i-am-sure --no-interaction
-noprompt --noprompt -skipTrash -Force --skip-trash
""".split())
# Options that sound destructive but are routine (their deletions are the point and small).
ROUTINE_OPTIONS: frozenset = frozenset("""
--rm --remove-orphans --delete-branch --prune --clean --delete-after --delete-excluded-ro --no-delete
--keep --delete-merged-ro --rmi-local
""".split())
# Words after an option verb that make it modify another action or edit inside a file, not destroy
# (`--delete-after`, `--remove-source-files`, `--remove-all-unused-imports`, `--delete-metadata`).
OPTION_MODIFIERS: frozenset = frozenset("""
after before during delay excluded missing source orphans orphaned unused branch merged empty trailing leading
whitespace blank comments comment metadata meta tags tag property properties attr attribute attributes header
headers frames frame bom line lines newline newlines prefix suffix extension spaces color colors timestamp
timestamps dups duplicates signature signatures exif icc thumbnail args arg env var vars
""".split())
# Data nouns too vague to say an option deletes data (`--file`, `--group`: most tools have them).
WEAK_DATA_NOUNS: frozenset = frozenset("""
file files dir directory directories folder folders item items entry entries object objects group groups space
spaces note notes book books record records channel channels messages mail entry state fs
""".split())
# A word meaning "everything" where a name would go.
EVERYTHING: frozenset = frozenset({"all", "everything", "*", "'*'", "--all", ".*", "%"})

# ----------------------------------------------------------------- whose removals are cheap
# Package tools: their remove/uninstall/purge of named packages only costs a reinstall.
PACKAGE_TOOLS: frozenset = frozenset("""
pip pip3 pipx uv poetry pipenv conda mamba micromamba npm yarn pnpm bun gem bundle cargo rustup go brew
port apt apt-get aptitude dnf yum zypper apk pacman yay paru pkg snap flatpak nix-env choco scoop winget
tlmgr haxelib opam cabal stack luarocks cpan cpanm composer pecl vcpkg conan helm krew asdf mise pyenv
rbenv nodenv nvm fnm volta sdk sdkman code vsce apm ppm pio platformio hyprpm apt-key pixi rye pdm hatch
bower wapm jspm nrm yrm deno bunx gup goup juliaup ghcup elan nix guix xbps-remove removepkg opkg
""".split())
