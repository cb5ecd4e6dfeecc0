"""What programs' own documentation says destroys (rules/documented.py, safety/documented_table.py,
tools/documented_table.py): forms from programs whose shell completions describe a destructive
subcommand or option no class word gives away, their everyday neighbours, the derived table's
shape, and the generator on snippets written here."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from tests.safety.kept import assess
from aish.safety.rules import documented
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet

ROOT = Path(__file__).resolve().parents[2]


@each_form("command,at_least", [
    # camera, optical and tape media
    ("gphoto2 --delete-file 1-50", "medium"),
    ("gphoto2 -d 1-50", "medium"),
    ("gphoto2 --rmdir /store_00010001/DCIM/101CANON", "medium"),
    ("gphoto2 -D --folder /store_00010001/DCIM/100CANON", "medium"),
    ("cdrdao blank --device /dev/sr0 --blank-mode full", "medium"),
    ("hdiutil burn backup.dmg -fullerase", "medium"),
    ("hdiutil burn archive.iso -erase", "medium"),
    ("mt -f /dev/nst0 erase", "medium"),
    # disks, volumes, pools
    ("zpool labelclear /dev/sdc1", "medium"),
    ("diskutil zeroDisk disk3", "medium"),
    ("diskutil randomDisk disk2", "medium"),
    ("diskutil secureErase 0 disk4", "medium"),
    ("diskutil eraseOptical quick disk5", "medium"),
    ("diskutil appleRAID delete RAIDSet1", "medium"),
    ("diskutil apfs deleteContainer disk6", "medium"),
    ("fastboot format userdata", "medium"),
    ("fastboot erase system", "medium"),
    ("nvme delete-ns /dev/nvme0 -n 1", "medium"),
    ("udisksctl loop-delete -b /dev/loop3", "medium"),
    ("systemd-cryptenroll --wipe-slot=all /dev/nvme0n1p3", "medium"),
    # machines, snapshots, backups
    ("virsh blockcommit web vda --active --pivot --delete", "medium"),
    ("virsh managedsave-remove web", "medium"),
    ("virsh iface-destroy eth1", "medium"),
    ("virsh nodedev-destroy scsi_host7", "medium"),
    ("machinectl remove fedora-39", "medium"),
    ("homectl remove alice", "medium"),
    ("lxc delete web --force", "medium"),
    ("tmutil deletelocalsnapshots 2024-01-01-120000", "medium"),
    ("tmutil removedestination 6A1B2C3D-1111-2222-3333-444455556666", "medium"),
    ("heroku pg:backups:delete b101 --app shop", "medium"),
    # hosted platforms and stores
    ("bosh -d cf delete-deployment", "medium"),
    ("bosh delete-disk disk-0a1b2c", "medium"),
    ("cf delete-service mysql-prod -f", "medium"),
    ("k3d node delete k3d-dev-agent-0", "medium"),
    ("sfdx force:data:record:delete -s Account -i 001xx000003DGb2", "medium"),
    ("s3cmd delcors s3://media-prod", "medium"),
    ("s3cmd setacl --acl-revoke=full_control:alice s3://reports", "medium"),
    ("getmail -d --rcfile work.rc", "medium"),
    # the network a remote user stands on, every one
    ("sudo poff -a", "medium"),
    ("vmctl stop -a", "medium"),
    ("netctl stop-all", "medium"),
    ("networksetup -removenetworkservice 'USB Ethernet'", "medium"),
    ("networksetup -deletepppoeservice DSL", "medium"),
    ("networksetup -removeallpreferredwirelessnetwork en0", "medium"),
    ("lppasswd -x alice", "medium"),
    # words only carapace's completers describe
    ("winetricks annihilate", "medium"),
    ("gh-stack unstack", "medium"),
    ("nix-store --delete /nix/store/abc-foo", "medium"),
    ("transmission-remote -t 3 --remove-and-delete", "medium"),  # kept when carapace's wording joined the vote
    # words only tldr's examples describe
    ("lvmdevices --delpvid 3A1B2C", "medium"),
    ("pdbedit --delete alice", "medium"),
    ("cli4 --delete /zones/:example.com/dns_records/:abc", "medium"),
    ("semanage user -d staff_u", "medium"),
    ("qm set 100 --delete scsi1", "medium"),
    # words only manual pages describe
    ("crlutil -E -d sql:/etc/pki/nssdb", "medium"),
    ("htdbm -x users.db alice", "medium"),
    ("ipvsadm -D -t 10.0.0.1:80", "medium"),
    ("cardos-tool --format", "medium"),
    ("tpmtool --delete tpmkey:uuid=7f4", "medium"),
    # broad targets make it high
    ("gphoto2 --rmdir / --recurse", "high"),
    ("diskutil zeroDisk /dev/disk3", "high"),
])
def test_documented_destruction_is_flagged(command, at_least):
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "gphoto2 --delete-file 1-50",
    "hdiutil burn backup.dmg -fullerase",
    "s3cmd delcors s3://media-prod",
    "sudo poff -a",
    "networksetup -deletepppoeservice DSL",
    "getmail -d --rcfile work.rc",
])
def test_the_reason_says_the_documentation_says_so(command):
    verdict = assess(command)
    assert verdict is not None and "by its own documentation" in verdict.reason, judged(command)


@each_form("command", [
    "zpool status -x", "zpool list -v", "cdrdao scanbus",
    "getmail --rcfile work.rc", "gphoto2 --list-files", "gphoto2 --get-all-files", "gphoto2 --auto-detect",
    "hdiutil attach disk.dmg", "hdiutil burn image.iso", "hdiutil create -size 1g -fs APFS -volname Notes n.dmg",
    "networksetup -listallnetworkservices", "networksetup -getinfo Wi-Fi", "networksetup -setairportpower en0 on",
    "pacman-key --list-keys", "pon provider", "s3cmd ls s3://media-prod", "s3cmd get s3://media-prod/a.jpg",
    "s3cmd put photo.jpg s3://media-prod/", "s3cmd info s3://media-prod", "tmutil listbackups",
    "tmutil startbackup", "vmctl status", "vmctl start web", "virsh list --all", "virsh start web",
    "virsh snapshot-list web", "virsh blockcommit web vda --active --pivot", "diskutil list", "diskutil info disk2",
    "fastboot devices", "fastboot getvar all", "nvme list", "nvme smart-log /dev/nvme0", "bosh deployments",
    "bosh -d cf vms", "cf apps", "cf push my-app", "cf logs my-app --recent", "heroku pg:backups:capture --app shop",
    "homectl list", "homectl inspect alice", "machinectl list-images", "machinectl start fedora-39", "lxc list",
    "lxc info web", "k3d node list", "k3d cluster list", "sfdx force:data:record:get -s Account -i 001xx000003DGb2",
    "udisksctl loop-setup -f disk.img", "udisksctl status", "mt -f /dev/nst0 status", "mt -f /dev/nst0 rewind",
    "netctl start home", "netctl list", "mvn clean install", "mvn test", "zip -r out.zip docs",
    "defaults read com.apple.dock", "systemd-cryptenroll --fido2-device=auto /dev/nvme0n1p3",
    "winetricks corefonts", "winetricks list-installed", "gh-stack view", "nix-store --gc --print-dead",
    "nix-store -q --references /run/current-system", "qmk clean -a", "typeset -Z 5 n",
    "qpdf --remove-page-labels in.pdf out.pdf", "curl --out-null https://example.org", "rustup override unset",
    "docker compose up --abort-on-container-failure", "gh issue edit 4 --remove-parent 3",
    "lvmdevices --adddev /dev/sdb", "pdbedit -L", "cli4 /zones/:example.com/dns_records", "semanage user -l",
    "qm set 100 --memory 4096", "fdroidcl repo add fdroid https://f-droid.org/repo", "git branch -d merged-topic",
    "crlutil -L -d sql:/etc/pki/nssdb", "htdbm -l users.db", "ipvsadm -L -n", "cardos-tool --info", "tpmtool --list",
    "tar -xUf backup.tar", "swig -Wall -python example.i", "ipfs repo gc",
])
def test_everyday_forms_of_the_same_programs_stay_quiet(command):
    assert stays_quiet(command), judged(command)


# ----------------------------------------------------------------- the derived table
def test_the_table_loads_and_every_row_is_well_formed():
    from aish.safety.documented_table import ROWS
    rows = ROWS.strip().splitlines()
    assert len(rows) > 100
    seen = set()
    for row in rows:
        fields = row.split("\t")
        assert len(fields) == 3, row
        prog, key, category = fields
        assert re.fullmatch(r"[A-Za-z][\w.:+-]*", prog), row
        words = key.split(" ")
        assert 1 <= len(words) <= 2 and all(re.fullmatch(r"\*|-{0,2}[\w][\w.:-]*", w) for w in words), row
        assert words[-1] != "*" and "*" not in words[1:], row
        assert category in documented._SAYS, row
        assert (prog, key) not in seen, row
        seen.add((prog, key))
    table = documented.table()
    assert sum(len(v) for v in table.values()) == len(rows)
    assert table["zpool"] and all(isinstance(k, tuple) for k, _ in table["zpool"])


def test_the_table_holds_only_derived_words():
    """No description, no file's text: three short fields a row, and a header that says where they come from."""
    text = (ROOT / "backend/aish/safety/documented_table.py").read_text()
    assert "tools/documented_table.py" in text.split("ROWS", 1)[0]
    for row in text.split('ROWS = """', 1)[1].split('"""', 1)[0].strip().splitlines():
        assert len(row) < 120 and " " not in row.split("\t")[0], row


# ----------------------------------------------------------------- the generator
def _generator():
    spec = importlib.util.spec_from_file_location("documented_table_tool", ROOT / "tools/documented_table.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


FISH = r"""
# a comment
complete -c vaultctl -f -n __fish_use_subcommand -a obliviate -d 'Destroy a vault and every secret in it'
complete -c vaultctl -f -n __fish_use_subcommand -a list -d 'List vaults'
complete -c vaultctl -f -n __fish_use_subcommand -a forget-alias -d 'Remove an alias'
complete -c vaultctl -n '__fish_seen_subcommand_from disk' -a scrub -d 'Erase the disk, writing zeros'
complete -c vaultctl -n '__fish_seen_subcommand_from disk' -l blank -d 'Zero the whole device'
complete -c vaultctl -n '__fish_seen_subcommand_from disk' -l verbose -d 'Print what is removed'
complete -c vaultctl -s Z -d 'Delete all snapshots' \
    -n '__fish_seen_subcommand_from snap'
complete -c vaultctl -l nokeep -d 'Do not keep the database after the run'
complete -c vaultctl -l tidy -d 'Delete the database'
complete -c vaultctl -n __fish_use_subcommand -a unstage -d 'Remove a user from the group'
complete -c vaultctl -n __fish_use_subcommand -a factory -d 'Reset the appliance to factory settings'
complete -c vaultctl -n __fish_use_subcommand -a halt-all -d 'Stop all running vaults'
"""

ZSH = r"""#compdef shelfctl shelf
_shelfctl() {
  local -a cmds
  cmds=(
    'expel:delete a shelf and every book on it'
    'show:show a shelf'
    'unpin:remove a bookmark'
  )
  _arguments \
    '(-w --wipe-all)'{-w,--wipe-all}'[erase every shelf on the server]' \
    '--stats[print statistics]' \
    '--purge-cache[remove the cache]'
}
"""


def test_the_generator_keeps_what_destroys_from_fish():
    gen = _generator()
    table = gen.derive(gen.parse_fish(FISH, "vaultctl"))
    assert table == {
        ("vaultctl", "obliviate"): "destroy",
        ("vaultctl", "disk scrub"): "wipe",
        ("vaultctl", "disk --blank"): "wipe",
        ("vaultctl", "snap -Z"): "delete",
        ("vaultctl", "factory"): "reset",
        ("vaultctl", "halt-all"): "stop-all",
    }, table  # not a listing, an alias, a preview, a negation, a routine key word or a group membership


def test_the_generator_keeps_what_destroys_from_zsh_for_every_program_it_names():
    gen = _generator()
    table = gen.derive(gen.parse_zsh(ZSH, "_shelfctl"))
    assert table == {("shelfctl", "* expel"): "delete", ("shelfctl", "-w"): "wipe",
                     ("shelfctl", "--wipe-all"): "wipe"}, table
    both = gen.derive(gen.parse_zsh(ZSH, "_shelves"))  # the file's name is not a program: every one it names
    assert ("shelf", "* expel") in both and ("shelfctl", "* expel") in both


SPEC = r"""
const gens: Fig.Generator = { postProcess: (out) => out.split("\n").map((l) => ({ name: l, description: "Row" })) };
const completionSpec: Fig.Spec = {
  name: "hostctl",
  description: "Hosting",
  subcommands: [
    {
      name: ["sites", "site"],
      description: "Manage sites",
      subcommands: [
        { name: "evict", description: "Deletes a site and all of its data. " + "It cannot be undone" },
        { name: "list", description: "List sites" },
        { name: "unlink", description: "Remove a collaborator from a site" },
      ],
      options: [{ name: ["-P", "--purge-all"], description: "Wipe every site's storage" }],
    },
    { name: "auth", subcommands: [{ name: "revoke", description: "Revoke the access token on this machine" }] },
  ],
  options: [{ name: "--verbose", description: "Print what is deleted" }],
};
export default completionSpec;
"""


def test_the_generator_reads_specs_written_as_object_literals():
    gen = _generator()
    table = gen.derive(gen.parse_spec(SPEC, "hostctl"))
    assert table == {("hostctl", "sites evict"): "delete", ("hostctl", "site evict"): "delete",
                     ("hostctl", "sites -P"): "wipe", ("hostctl", "site -P"): "wipe",
                     ("hostctl", "sites --purge-all"): "wipe", ("hostctl", "site --purge-all"): "wipe"}, table
    sub = gen.derive(gen.parse_spec(SPEC.replace('name: "hostctl"', 'name: "hosting"'), "hosting", "cloudctl"))
    assert ("cloudctl", "sites evict") in sub  # a file of its own under a program's folder: its subcommand


def test_the_generator_writes_rows_the_rule_reads(tmp_path):
    gen = _generator()
    out = tmp_path / "table.py"
    fish = tmp_path / "fish"
    fish.mkdir()
    (fish / "vaultctl.fish").write_text(FISH)
    zsh = tmp_path / "zsh"
    zsh.mkdir()
    (zsh / "_shelfctl").write_text(ZSH)
    assert gen.main(["--fish", str(fish), "--zsh", str(zsh), "--out", str(out)]) == 0
    namespace: dict = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    rows = namespace["ROWS"].strip().splitlines()
    assert "vaultctl\tdisk scrub\twipe" in rows and "shelfctl\t* expel\tdelete" in rows
    assert not any("every book on it" in r or "Erase" in r for r in rows)


COBRA = r'''
package cmd

import "github.com/spf13/cobra"

var rootCmd = &cobra.Command{
	Use:   "stackctl [OPTIONS] COMMAND",
	Short: "Stacks",
	Run:   func(cmd *cobra.Command, args []string) {},
}

var stackCmd = &cobra.Command{
	Use:     "stack",
	Short:   "Manage stacks",
	Aliases: []string{"stacks", "s"},
}

var stack_evictCmd = &cobra.Command{
	Use:     "evict [OPTIONS] STACK",
	Short:   "Remove one or more stacks",
	Aliases: []string{"rm"},
	Run:     func(cmd *cobra.Command, args []string) {},
}

var stack_lsCmd = &cobra.Command{
	Use:   "ls",
	Short: "List stacks",
}

var cleanCmd = &cobra.Command{
	Use:   "clean",
	Short: "Clean build output",
}

// built at run time: no literal name, never keyed
var dynamicCmd = &cobra.Command{Use: name, Short: "Delete every database"}

var orphanCmd = &cobra.Command{Use: "orphan", Short: "Destroy all volumes"}

func init() {
	rootCmd.PersistentFlags().BoolP("help", "h", false, "Print usage")
	rootCmd.Flags().Bool("obliterate", false, "Destroy every stack " +
		"and its volumes")
	rootCmd.Flags().StringS("Z", "Z", "", "zero fill")
	rootCmd.AddCommand(stackCmd, cleanCmd)
	stackCmd.AddCommand(stack_evictCmd)
	stackCmd.AddCommand(stack_lsCmd)
	rootCmd.AddCommand(dynamicCmd)
	stack_evictCmd.Flags().BoolP("purge-volumes", "p", false, `Delete the stack's volumes`)
	stack_evictCmd.Flags().StringSlice("label", []string{}, "Remove the label, keep the stack")
	stack_lsCmd.Flags().BoolN("all", "a", false, "Show all")
	cleanCmd.Flags().BoolP("all", "a", false, "Remove all files in the build directory as well")
}
'''


def test_the_generator_reads_cobra_commands_written_in_go():
    """carapace's completers: ``&cobra.Command{Use, Short, Aliases}`` joined by ``AddCommand``, flags by definer."""
    gen = _generator()
    entries = list(gen.parse_cobra(COBRA, "stackctl"))
    keys = {e.key for e in entries}
    assert {"stack", "stacks", "s", "clean", "stack evict", "stack rm", "stacks evict", "s rm", "stack ls",
            "--help", "-h", "--obliterate", "-Z", "evict --purge-volumes", "rm -p", "evict --label",
            "ls -all", "ls -a", "clean --all"} <= keys, keys
    assert not any("orphan" in k or k.startswith("name") for k in keys), keys  # joined to no root, or no name
    assert {e.description for e in entries if e.key == "--obliterate"} == {"Destroy every stack and its volumes"}
    table = gen.derive(entries)
    assert table == {("stackctl", "--obliterate"): "destroy",
                     ("stackctl", "stack evict"): "delete", ("stackctl", "stack rm"): "delete",
                     ("stackctl", "stacks evict"): "delete", ("stackctl", "stacks rm"): "delete",
                     ("stackctl", "s evict"): "delete", ("stackctl", "s rm"): "delete",
                     ("stackctl", "evict --purge-volumes"): "delete", ("stackctl", "rm --purge-volumes"): "delete",
                     ("stackctl", "evict -p"): "delete", ("stackctl", "rm -p"): "delete"}, table
    # not a listing, a kept label, a padding option (`zero fill`) or more of a routine cleanup (`clean --all`)


def test_the_generator_writes_rows_from_cobra_folders(tmp_path):
    gen = _generator()
    folder = tmp_path / "completers" / "common" / "stackctl_completer" / "cmd"
    folder.mkdir(parents=True)
    head, tail = COBRA.split("func init()")
    (folder / "root.go").write_text(head)
    (folder / "init.go").write_text("package cmd\n\nfunc init()" + tail)  # one program's commands span its files
    out = tmp_path / "table.py"
    empty = tmp_path / "none"
    assert gen.main(["--fish", str(empty), "--zsh", str(empty), "--cobra", str(tmp_path / "completers"),
                     "--out", str(out)]) == 0
    rows = out.read_text().split('ROWS = """', 1)[1].strip().strip('"').splitlines()
    assert "stackctl\tstack rm\tdelete" in rows and "stackctl\t--obliterate\tdestroy" in rows, rows
    assert "Remove one or more" not in out.read_text()


@each_form("description", [
    "zero fill and right justify",  # a padding option, not a wipe
    "Format for the target volume",  # the noun
    "Stops all containers if any container exited with failure",  # what happens on failure
    "Destroy machine if any fatal error happens",
    "Remove the override toolchain for a directory",
    "Discard response data into the void",
    "Remove the bottle block in addition to bumping the revision.",
    "Remove a physical link from a sub-issue",
    "Remove 'blocking' relationships by issue number or URL",
    "delete a substituted drive letter",
    "delete a volume mount point",
    "delete a Kpasswd server address for the realm",
    "Remove launchd service file ~/Library/LaunchAgents/x.plist",
    "remove explicit page numbers",
    "Remove, enable, or disable a repository",  # one of several things the word does
    "Delete or rename a volume",
    "remove each file prior to extracting over it",  # before something else is done
    "Only delete if user/group is a system user/group",  # a condition on a deletion asked for elsewhere
    "Remove all warning suppression, also implies -Wextra",
])
def test_terse_descriptions_that_do_not_destroy_are_read_so(description):
    assert _generator().classify(description) is None


@each_form("description,category", [
    ("Remove one or more containers", "delete"),
    ("Delete an existing project on GitLab.", "delete"),
    ("Drop all tables, views, and types", "delete"),
    ("Completely WIPE the entire USB storage device", "wipe"),
    ("Destroy an existing stack and its resources", "destroy"),
    ("Erase and format a volume", "wipe"),
    ("Deletes all digital twins within an instance, including all relationships for those twins", "delete"),
    ("Delete a deployment at tenant scope", "delete"),
    ("erase the disk and create the installer without prompting", "wipe"),  # done all the same, unasked
    ("Destroy without confirmation.", "destroy"),
    ("Remove the current torrent(s) and delete their downloaded data", "delete"),  # the data, not a download cache
    ("Remove the specified keyids", "delete"),
])
def test_terse_descriptions_that_destroy_are_read_so(description, category):
    assert _generator().classify(description) == category


# ----------------------------------------------------------------- example pages (tldr's)
TLDR = r"""# shelvectl

> Keep shelves of books.

- Destroy a shelf and every book on it:

`shelvectl expel {{shelf}}`

- List shelves:

`shelvectl list`

- Create a snapshot of a shelf:

`shelvectl snapshot {{name}}`

- List snapshots with their books:

`shelvectl snapshot {{[-a|--all]}} --books`

- [D]elete a snapshot:

`shelvectl snapshot {{[-D|--delete]}} {{name}}`

- Delete a user account:

`shelvectl {{username}}`

- Delete a user account on another host:

`shelvectl --host {{host}} {{username}}`

- Delete the records that match:

`shelvectl query {{shelf}} "{{delete from records where year < 1990}}"`

- Erase a disk, writing zeros:

`sudo shelvectl {{[dk|disk]}} {{[sc|scrub]}} {{/dev/sdX}} | tee {{log.txt}}`

- Remove an alias:

`shelvectl alias rm {{name}}`

- Delete every shelf:

`echo yes | shelvectl purge-all`
"""


def test_the_generator_reads_example_pages_for_the_word_that_destroys():
    gen = _generator()
    table = gen.derive(gen.example_entries(gen.parse_tldr(TLDR, "shelvectl")))
    assert table == {
        ("shelvectl", "expel"): "destroy",
        ("shelvectl", "snapshot -D"): "delete", ("shelvectl", "snapshot --delete"): "delete",
        ("shelvectl", "disk scrub"): "wipe", ("shelvectl", "dk sc"): "wipe",
        ("shelvectl", "dk scrub"): "wipe", ("shelvectl", "disk sc"): "wipe",
    }, table  # not `snapshot` (it lists and creates too), `--host` (the account goes without it), `query`
    # (its operand says delete), an alias, or a line another program starts


def test_a_words_own_description_outweighs_examples_and_pages_are_read_by_platform(tmp_path):
    gen = _generator()
    fish = tmp_path / "fish"
    fish.mkdir()
    (fish / "shelvectl.fish").write_text(
        "complete -c shelvectl -n __fish_use_subcommand -a expel -d 'Show expelled shelves'\n")
    pages = tmp_path / "pages"
    (pages / "common").mkdir(parents=True)
    (pages / "common" / "shelvectl.md").write_text(TLDR)
    (pages / "cisco-ios").mkdir()
    (pages / "cisco-ios" / "erase.md").write_text(
        "# erase\n\n- Erase the startup configuration:\n\n`erase startup-config`\n")
    out = tmp_path / "table.py"
    empty = tmp_path / "none"
    assert gen.main(["--fish", str(fish), "--zsh", str(empty), "--tldr", str(pages), "--out", str(out)]) == 0
    rows = out.read_text().split('ROWS = """', 1)[1].strip().strip('"').splitlines()
    assert "shelvectl\tsnapshot -D\tdelete" in rows, rows  # only the examples describe it
    assert not any(r.startswith(("shelvectl\texpel", "erase\t")) for r in rows), rows  # its own description
    # says it shows; a router's console is not a shell
    assert "every book" not in out.read_text()


# ----------------------------------------------------------------- manual pages, as man prints them
MAN = """SHELVECTL(8)                        System Administration                        SHELVECTL(8)

NAME
       shelvectl - keep shelves of books

OPTIONS
       -E, --erase-shelf shelf
              Erase every book on the shelf.  The shelf itself is kept.

       -l, --list
              List shelves.

       --expunge  Delete the archive of returned books.

       -f, --force
              Force deletion, even if the shelf is in use.

       --no-purge
              Do not purge the archive.

       -x shelf {-C|--create} --type kind --disk device
              Delete one or all existing shelves and create new ones.

       -r [-p|--purge] shelf
              Rename the shelf.

EXAMPLES
       shelvectl -E fiction
"""


def test_the_generator_reads_manual_pages_options():
    gen = _generator()
    table = gen.derive(gen.parse_man(MAN, "shelvectl"))
    assert table == {("shelvectl", "-E"): "wipe", ("shelvectl", "--erase-shelf"): "wipe",
                     ("shelvectl", "--expunge"): "delete"}, table
    # not a listing, a modifier (`--force`), a negation, a usage line's options or one in brackets


def test_examples_outweigh_manual_pages_and_manual_pages_fill_the_rest(tmp_path):
    gen = _generator()
    man = gen.parse_man(MAN.replace("Erase every book", "Show every book"), "shelvectl")
    example = gen.Entry("shelvectl", "-E", "Erase a shelf")
    table = gen.combine([], [example], list(man))
    assert table == {("shelvectl", "-E"): "wipe", ("shelvectl", "--expunge"): "delete"}, table
