"""Effect: the user's data made unreadable in place, by any program: what ransomware does with everyday tools.

Deleting is ``delete``'s and the broad readings'; overwriting one named file ``dd``'s, ``shred``'s and
``documents``'; archives that delete what they pack (``7z -sdel``, ``zip -m``, ``rar -df``) ``mass``'.  This is the
rest of the class, read by the effect on a kind of target, whatever the program is called:

- files **encrypted in place**: a program named for encrypting that replaces what it is given by default
  (``ccencrypt``, ``ccrypt``, ``bcrypt``), any encryptor told to remove the original (``mcrypt -u``,
  ``--unlink``, ``--delete``, ``--shred``, ``--remove-input``…) or to write its output over its input
  (``openssl enc -in F -out F``, ``gpg --yes -o F F``, ``age -o F F``, ``scrypt enc F F``);
- an encrypted file system **mounted over** a folder of the user's data (``encfs ~/.enc ~/Documents``,
  ``gocryptfs``, ``cryfs``, ``securefs mount``): the files there are hidden behind it;
- **every file renamed** to a new ending (``rename 's/$/.locked/' *``, ``mmv '*' '#1.enc'``, ``zmv``, cmd's
  ``ren *.* *.crypt``, ``Rename-Item -NewName { $_.Name + '.x' }``, a loop's ``mv "$f" "$f.x"``): nothing opens them;
- a **ransom note** written where the user will see it (``echo … Ransom … > %USERPROFILE%\\Desktop\\x.txt``);
- **code** in any language that lists files and writes random or encrypted bytes into them (``os.urandom``,
  ``crypto.randomBytes``, ``Random.bytes``, ``Fernet``, ``createCipheriv``… with ``glob``, ``os.walk``,
  ``readdirSync``, ``Dir.glob``, ``filepath.Walk``).

Levels: high when the whole of a tree of data goes (a recursive run or a glob over home, a personal folder, a
share, a mount, another user's home, a drive); medium for a few files or a tree of no known worth.
Quiet: encrypting to send or keep a copy (``gpg -c report.pdf``, ``age -r KEY -o x.age x``, ``aescrypt -e f``),
one named file encrypted by its own tool (``ccencrypt notes.txt``), decrypting, an encrypted view of a folder
(``encfs --reverse``), renames that change one ending to another (``rename 's/\\.jpeg$/.jpg/' *.jpeg``) or add
an everyday one, a README written into a project.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, classify, target
from aish.safety.rules.triggers import triggered_by

# Whole trees: losing every file under one of these is the user's data, a share or a machine gone.
_WHOLE_KINDS = frozenset({"home", "userhome", "root", "system-top"})
_DATA_PLACE = lazy(
    r"^(?:~|\$\{?home\}?|/home/[^/]+|/users/[^/]+|/root)/(?:documents|desktop|pictures|photos|music|videos|movies|"
    r"dropbox|onedrive|nextcloud|obsidian|notes|projects|work|downloads|google drive)(?:/|$)|"
    r"^/(?:srv|data|mnt|media|volumes|shares?|export|backups?|nas)(?:/|$)|"
    r"^/var/lib/(?:mysql|postgresql|pgsql|mongodb|mariadb|redis|elasticsearch|docker/volumes)(?:/|$)|"
    r"^[a-z]:[\\/](?:users|shares?|data|backups?)?(?:[\\/]|$)|^\\\\[^\\]+\\|^%userprofile%|^\$env:userprofile",
    re.IGNORECASE)


def _place(path: str) -> str:
    """``whole`` (home, a personal folder, a share, a drive, the system), ``data`` (a tree of no known worth
    given whole), or ``""``."""
    kind = classify(path)
    if kind in _WHOLE_KINDS or _DATA_PLACE.search(path.strip("'\"")):
        return "whole"
    return ""


# A path that names a folder, not a file: it ends in a slash, or its last part has no type (`~/Documents`).
_FOLDER = lazy(r"(?:^|[/\\])[^./\\]+[/\\]?$|[/\\]$")


def _said(where: str) -> str:
    return f"every file under {where}"


# ---------------------------------------------------------------- encrypted in place

# Encryptors that replace what they are given by default, and the options that make them keep it.
_IN_PLACE = {"ccencrypt": {"c", "cat", "--cat", "d", "--decrypt", "--help", "h", "V", "--version"},
             "ccrypt": {"c", "--cat", "d", "--decrypt", "x", "--keychange", "--help", "h", "V", "--version"},
             "bcrypt": {"r", "o"}}
_ENCRYPTORS = frozenset({"gpg", "gpg2", "openssl", "age", "rage", "kryptor", "pgp", "rnp", "sq", "scrypt", "mcrypt",
                         "aescrypt", "axcrypt", "picocrypt", "encpipe", "ncrypt", "xorcrypt", "ccencrypt", "ccrypt",
                         "bcrypt", "crypt", "encrypt", "filecrypt", "pyaescrypt"})
_DECRYPT = frozenset({"-d", "--decrypt", "dec", "decrypt", "-decrypt", "--list-packets", "--verify", "--import",
                      "--export", "--sign", "--clearsign", "--detach-sign", "--list-keys"})
# An encryptor told to remove what it encrypted (mcrypt's -u, anyone's --unlink/--delete/--shred…).
_REMOVES_INPUT = lazy(r"^--(?:unlink|delete|remove|shred|wipe|rm)(?:[-_](?:input|inputs|original|originals|source|"
                      r"sources|plain(?:text)?|files?|after))?$")
_OUTPUT_OPTIONS = frozenset({"-o", "-out", "--output", "-outfile", "--out"})
_INPUT_OPTIONS = frozenset({"-in", "-i", "--input", "-infile", "--in"})
# Options that take a value (a key, a passphrase, a cipher, a file); -r is a recipient to gpg and age.
_VALUED = _OUTPUT_OPTIONS | _INPUT_OPTIONS | {"--key", "-p", "--pass", "--passphrase", "--recipient", "-pass",
                                            "-kfile", "-inkey", "-a", "-m", "--cipher-algo", "-K", "-k"}
_RECIPIENTS = frozenset({"gpg", "gpg2", "age", "rage", "sq", "rnp", "pgp", "kryptor"})
_RECURSIVE = frozenset({"-r", "-R", "--recursive", "--recurse"})


def _encryptor(prog: str, lowered: list) -> bool:
    name = prog.lower().removesuffix(".exe")
    if name not in _ENCRYPTORS and "crypt" not in name:
        return False
    if name in ("openssl",):
        return bool(lowered) and lowered[0] in ("enc", "aes-256-cbc", "aes-128-cbc", "des3", "smime", "cms",
                                                "rsautl", "pkeyutl") and "-d" not in lowered and \
            "-decrypt" not in lowered
    if name in ("scrypt",) and lowered[:1] != ["enc"]:
        return False
    return not any(t in _DECRYPT for t in lowered)


@triggered_by(("crypt", "gpg", "openssl", "age", "kryptor", "pgp", "rnp", "sq"))
def rule_encrypted_in_place(c: Ctx) -> Optional[tuple]:
    """``ccencrypt -r ~/Documents``, ``mcrypt -u ~/Pictures/*``, ``openssl enc … -in F -out F``."""
    name = c.prog.lower().removesuffix(".exe")
    if name not in _ENCRYPTORS and "crypt" not in name:
        return None  # woken by a word anywhere (`package`, `sql`): the program decides, first
    texts = c.texts[:64]
    lowered = [t.lower() for t in texts]
    if not texts or not _encryptor(c.prog, lowered):
        return None
    letters = {t[1:] for t in texts if t.startswith("-") and not t.startswith("--") and len(t) == 2}
    longs = {t.partition("=")[0] for t in lowered if t.startswith("--")}
    keeps = _IN_PLACE.get(name)
    removed = next((t for t in longs if _REMOVES_INPUT.match(t)), None) or \
        ("-u" if name == "mcrypt" and ("u" in letters or "--unlink" in longs) else None)
    outputs = [texts[k + 1] for k in range(len(texts) - 1) if lowered[k] in _OUTPUT_OPTIONS]
    inputs = [texts[k + 1] for k in range(len(texts) - 1) if lowered[k] in _INPUT_OPTIONS]
    takes = _VALUED | ({"-r", "-R"} if name in _RECIPIENTS else set()) | ({"-k"} if name in _IN_PLACE else set())
    valued = {k + 1 for k in range(len(texts) - 1) if lowered[k] in takes}
    operands = [c.args[k] for k, t in enumerate(texts) if k not in valued and not t.startswith("-") and
                not (name == "scrypt" and k == 0) and not (name == "openssl" and k == 0)]
    named = [w.text for w in operands]
    over_itself = next((o for o in outputs if o in inputs or o in named), None) or \
        (named[0] if len(named) == 2 and named[0] == named[1] else None)  # `scrypt enc F F`: input, output
    in_place = keeps is not None and not (letters & keeps or longs & keeps)
    if not (in_place or removed or over_itself):
        return None
    recursive = bool(set(texts) & _RECURSIVE) and (in_place or removed)
    how = f"replaced by an encrypted copy ({c.prog} {removed})" if removed and not in_place else \
        "written over by its encrypted copy" if over_itself and not in_place else "encrypted in place"
    for w in operands:
        where = target(w).path or w.text
        tree = recursive or w.glob or "*" in w.text or (in_place or removed) and _FOLDER.search(where)
        if tree and _place(where):  # a folder's name stands for its files (`find ~/Documents -exec ccencrypt {} +`)
            return HIGH, f"{c.prog} leaves {_said(where)} {how}: without the key nothing there can be read " \
                f"({c.text})"
    if over_itself:
        return MEDIUM, f"{c.prog} writes over {over_itself} with its encrypted copy: the original is gone, " \
            f"and the output may be cut short before it was read ({c.text})"
    if recursive or any(w.glob or "*" in w.text for w in operands) or len(operands) > 2 or \
            removed and any(_place(w.text) for w in operands):
        shown = " ".join(w.text for w in operands[:3])
        return MEDIUM, f"{c.prog} leaves {shown} {how}: without the key they cannot be read ({c.text})"
    return None


# -------------------------------------------------------- a tree overwritten, or any program told to encrypt one

# Programs whose purpose is to overwrite before deleting: what they reach cannot be undeleted.
_OVERWRITERS = frozenset({"shred", "gshred", "wipe", "srm", "sdelete", "sdelete64", "bcwipe", "scrub", "secure-delete",
                          "sfill", "wipefile"})
_ENCRYPT_WORD = frozenset({"encrypt", "--encrypt", "-encrypt", "/encrypt", "--encrypt-all"})


@triggered_by(("shred", "wipe", "srm", "sdelete", "scrub", "secure-delete", "sfill", "encrypt"))
def rule_tree_overwritten(c: Ctx) -> Optional[tuple]:
    """``shred -u ~/Documents/*``, ``wipe -rf /srv/share``, ``sdelete -s C:\\Users\\bob\\Documents``: every file of a
    tree of data overwritten beyond recovery; ``python3 x.py --encrypt /home``: any program told to encrypt one."""
    name = c.prog.lower().removesuffix(".exe")
    texts = c.texts[:64]
    if name in _OVERWRITERS:
        deep = any(t in ("-r", "-R", "-rf", "-fr", "-rfq", "-s", "/s", "--recursive") or
                   t.startswith("-") and not t.startswith("--") and "r" in t and name != "sdelete" for t in texts)
        for w in c.args[:64]:
            if w.text.startswith(("-", "/")) and len(w.text) <= 4 and not w.text.startswith("//"):
                continue
            where = target(w).path or w.text
            spread = deep or w.glob or "*" in w.text
            if spread and _place(where.rstrip("/*") or where) and _FOLDER.search(where.rstrip("/*") or where):
                return HIGH, f"{c.prog} overwrites {_said(where.rstrip('/*') or where)} beyond recovery: no undelete " \
                    f"or backup tool can bring them back ({c.text})"
        return None
    lowered = [t.lower() for t in texts]
    if not _ENCRYPT_WORD.intersection(lowered[:4]) or any(t in _DECRYPT for t in lowered):
        return None
    for w in c.args[:64]:
        kind = target(w).kind
        if kind in _WHOLE_KINDS and not w.text.startswith("-"):
            return MEDIUM, f"{c.prog} is told to encrypt {w.text}: every file there unreadable without its key " \
                f"({c.text})"
    return None


# ---------------------------------------------------------------- packed into a locked archive, the originals deleted

_ARCHIVERS = frozenset({"7z", "7za", "7zz", "7zr", "zip", "rar", "winrar", "rar.exe", "7z.exe", "winrar.exe"})


@triggered_by(("7z", "zip", "rar"))
def rule_locked_archive(c: Ctx) -> Optional[tuple]:
    """``7z a -pX -sdel x.7z ~/Documents``, ``zip -r -e -m -P X x.zip ~/Pictures``, ``rar m -hpX x.rar /srv/share``:
    a tree packed into an archive only the password opens, and the originals deleted (``mass`` reads the delete)."""
    name = c.prog.lower().removesuffix(".exe")
    if name not in _ARCHIVERS:
        return None
    texts = c.texts[:64]
    lowered = [t.lower() for t in texts]
    password = any(t.startswith(("-p", "-hp")) and len(t) > 2 or t in ("-e", "--encrypt", "-p") or
                   t.startswith("--password") or name == "zip" and re.fullmatch(r"-\w*[eP]\w*", t) is not None
                   for t in texts)
    deletes = any(t in ("-sdel", "-df", "-dr", "-m", "--move") for t in lowered) or \
        name.startswith(("rar", "winrar")) and lowered[:1] == ["m"] or \
        name == "zip" and any(re.fullmatch(r"-\w*m\w*", t) for t in texts if not t.startswith("--"))
    if not (password and deletes):
        return None
    for w in c.args[:64]:
        if w.text.startswith("-"):
            continue
        where = target(w).path or w.text
        bare = where.rstrip("/*") or where
        if _place(bare) and (_FOLDER.search(bare) or w.glob or "*" in w.text):
            return HIGH, f"{c.prog} packs {_said(bare)} into an archive only the password opens and deletes the " \
                f"originals ({c.text})"
    return None


# ---------------------------------------------------------------- encrypted file systems mounted over data

_MOUNTERS = frozenset({"encfs", "gocryptfs", "cryfs", "securefs", "cppcryptfs", "sirikali"})
_NOT_A_MOUNT = frozenset({"--reverse", "-reverse", "-init", "--init", "-info", "-passwd", "-fsck", "--unmount",
                          "-u", "--version", "-version", "-h", "--help", "create", "info", "chpass", "version"})


@triggered_by(("encfs", "cryptfs", "cryfs", "securefs"))
def rule_mounted_over(c: Ctx) -> Optional[tuple]:
    """``encfs ~/.enc ~/Documents``: the folder's own files are hidden behind the encrypted mount."""
    if c.prog.lower() not in _MOUNTERS:
        return None
    texts = c.texts[:32]
    if set(t.lower() for t in texts) & _NOT_A_MOUNT:
        return None
    operands = [w for w in c.args[:32] if not w.text.startswith("-") and w.text != "mount"]
    if len(operands) < 2:
        return None
    mount = target(operands[-1]).path or operands[-1].text
    if not _place(mount) or operands[-1].text.rstrip("/").endswith(("/.", "/..")):
        return None
    return MEDIUM, f"{c.prog} mounts an encrypted file system over {mount}: the files there are hidden behind it " \
        f"and what is saved there lands encrypted ({c.text})"


# ---------------------------------------------------------------- every file renamed to a new ending

# Endings a rename may add to every file and still be everyday (a backup copy, a type the files lacked).
_EVERYDAY_ENDINGS = frozenset("""bak old orig backup save tmp txt md markdown log csv json xml yaml yml html htm pdf jpg
jpeg png gif webp heic tif tiff mp3 mp4 mkv mov wav flac ogg zip gz tar tgz bz2 xz zst 7z sh py js ts rs go c h
done processed disabled sample example dist in out 1 2 new""".split())
_PERL_APPEND = lazy(r"^s(.)(?:\$|\^?\(?\.\*\)?\$?|\(\.\+\)\$?|\(\.\*\)\$?)\1(?:\$1|\$&|\\1)?\.([\w-]+)\1\w*$|"
                    r"^\$_\s*\.=\s*['\"]\.([\w-]+)['\"]$")
_RENAMERS = frozenset({"rename", "prename", "perl-rename", "file-rename", "rename.pl", "mmv", "zmv", "ren"})
_PS_APPEND = lazy(r"\$_\.(?:name|fullname)\s*\+\s*['\"]?\.([\w-]+)|\$\(\$_\.(?:name|fullname)\)\.([\w-]+)",
                  re.IGNORECASE)
_EVERYTHING = frozenset({"*", "*.*", "**", "**/*", "./*", "(*)", "(**/)(*)", "(**/*)", ".", "-r", "/s"})


def _new_ending(ending: str) -> Optional[str]:
    ending = ending.lower()
    return None if ending in _EVERYDAY_ENDINGS else ending


@triggered_by(("ren", "mmv", "zmv", "newname"))
def rule_renamed_away(c: Ctx) -> Optional[tuple]:
    """``rename 's/$/.locked/' ~/Documents/*``, ``mmv '*' '#1.enc'``, ``ren *.* *.crypt``,
    ``… | Rename-Item -NewName { $_.Name + '.locked' }``."""
    name = c.prog.lower().removesuffix(".exe")
    if name not in _RENAMERS and name not in ("rename-item", "rni"):
        return None  # woken by `current`, `parent`, `children`: the program decides, first
    texts = c.texts[:64]
    if name in ("rename-item", "rni") or (name == "ren" and any(t.lower() == "-newname" for t in texts)):
        at = next((k for k in range(len(texts) - 1) if texts[k].lower() == "-newname"), None)
        new = " ".join(texts[at + 1:at + 8]) if at is not None else ""
        m = _PS_APPEND.search(new)
        ending = _new_ending(next(g for g in m.groups() if g)) if m else None
        if ending and c.chain:
            return MEDIUM, f"renames every file it is fed to *.{ending}: nothing opens them by their old type " \
                f"any more, the way ransomware marks what it encrypted ({c.text})"
        return None
    if name not in _RENAMERS:
        return None
    plain = [t for t in texts if not t.startswith("-") or t in ("-r",)]
    ending = None
    if name in ("mmv", "zmv") and len(plain) >= 2:
        m = re.fullmatch(r"(?:#1|\$1|\$1\$2|#1#2)\.([\w-]+)", plain[1])
        ending = m.group(1) if m and plain[0] in _EVERYTHING else None
    elif name == "ren" or name == "rename" and len(plain) == 2 and plain[0] in ("*.*", "*"):
        m = re.fullmatch(r"\*\.([\w-]+)", plain[1]) if len(plain) >= 2 else None  # cmd's `ren *.* *.crypt`
        ending = m.group(1) if m and plain[0] in ("*.*", "*") else None
    elif plain:
        m = _PERL_APPEND.match(plain[0])
        files = plain[1:]
        if m and files and all(("*" in f and not re.search(r"\*\.\w", f)) or f in _EVERYTHING for f in files):
            ending = m.group(2) or m.group(3)
    ending = _new_ending(ending) if ending else None
    if ending is None:
        return None
    return MEDIUM, f"{c.prog} renames every file to *.{ending}: nothing opens them by their old type any more, " \
        f"the way ransomware marks what it encrypted ({c.text})"


# A loop's `mv "$f" "$f.x"`, xargs' `mv {} {}.x`: the same name with an ending added, for every file listed.
_LOOP_APPEND = lazy(r"\bmv\s+(?:-\w+\s+)*(['\"]?)(\$\{?\w+\}?|\{\}|%)\1\s+(['\"]?)\2\.([\w-]+)\3(?=[\s;)&|]|$)")
_LOOPS = ("for ", "while ", "xargs", "-exec", "foreach", "ForEach")
_FILTERED = lazy(r"\*\.\w|-i?name\s+['\"]?[^'\"\s]*\.\w")


def line_loop_renamed(text: str) -> Optional[tuple]:
    """``for f in ~/Pictures/*; do mv "$f" "$f.locked"; done``: every file listed given a new ending."""
    if "mv" not in text or not any(w in text for w in _LOOPS):
        return None
    m = _LOOP_APPEND.search(text)
    if m is None or _new_ending(m.group(4)) is None or _FILTERED.search(text[:m.start()]):
        return None
    return MEDIUM, f"renames every file the loop lists to *.{m.group(4)}: nothing opens them by their old type any " \
        f"more, the way ransomware marks what it encrypted ({' '.join(text.split()[:8])}…)"


# ---------------------------------------------------------------- a loop that encrypts each file, then removes it

_FOR_LOOP = lazy(r"\bfor\s+(\w+)\s+in\s+([^;]+?)\s*;\s*do\b(.*?)\bdone\b", re.DOTALL)
_READ_LOOP = lazy(r"\bfind\s+(\S+)[^|]*\|\s*while\s+(?:IFS=\S*\s+)?read\s+(?:-\w+\s+)*(\w+)\s*;\s*do\b(.*?)\bdone\b|"
                  r"\bwhile\s+(?:IFS=\S*\s+)?read\s+(?:-\w+\s+)*(\w+)\s*;\s*do\b(.*?)\bdone\s*<\s*<\(\s*find\s+(\S+)",
                  re.DOTALL)
_ENCRYPTING = lazy(r"\b(?:gpg2?|openssl|age|rage|ccencrypt|ccrypt|mcrypt|aescrypt|scrypt|bcrypt|kryptor|rnp|sq|"
                   r"7z|7za|zip|rar|pyaescrypt)\b[^;&|]*")
_REMOVING = lazy(r"\b(?:rm|shred|unlink|srm|wipe)\b[^;&|]*")


def _names_var(command: str, var: str) -> bool:
    """Does ``command`` name the loop's file itself (``"$f"``, ``${f}``), not a file made from it (``"$f.enc"``)?"""
    return re.search(r"\$\{?" + var + r"\}?(?![\w.}\-])", command) is not None


def _encrypts(command: str) -> bool:
    """An archiver encrypts only when given a password (`7z a -pX`, `zip -e`, `rar a -hpX`); gpg and the rest do."""
    if re.match(r"(?:7za?|zip|rar)\b", command):
        return re.search(r"\s-(?:p|P|e|hp|mhe)|--password|--encrypt", command) is not None
    return True


def line_loop_encrypted(text: str) -> Optional[tuple]:
    """``for f in ~/Documents/*; do gpg -c "$f" && rm "$f"; done``, ``find ~/Pictures -type f | while read f; do
    age -p -o "$f.age" "$f" && rm "$f"; done``: every file of a tree replaced by its encrypted copy."""
    for m in _FOR_LOOP.finditer(text):
        var, listed, body = m.group(1), m.group(2), m.group(3)
        found = re.search(r"\bfind\s+(\S+)", listed)
        root = found.group(1) if found else listed.split()[0] if listed.split() else ""
        said = _encrypted_then_removed(var, body, root, listed)
        if said:
            return said
    for m in _READ_LOOP.finditer(text):
        root, var, body = (m.group(1), m.group(2), m.group(3)) if m.group(2) else (m.group(6), m.group(4), m.group(5))
        said = _encrypted_then_removed(var, body, root, text)
        if said:
            return said
    return None


def _encrypted_then_removed(var: str, body: str, root: str, listed: str) -> Optional[tuple]:
    if not any(_names_var(e.group(0), var) and _encrypts(e.group(0)) for e in _ENCRYPTING.finditer(body)) or \
            not any(_names_var(r.group(0), var) for r in _REMOVING.finditer(body)):
        return None
    if _FILTERED.search(listed):
        return None  # `*.pdf`, `-name '*.docx'`: a chosen kind, the removal's own reading (medium) stands
    where = root.strip("'\"").rstrip("/*") or root
    if not _place(where):
        return None
    return HIGH, f"encrypts every file under {where} and removes each original: without the key nothing there " \
        f"can be read"


# ---------------------------------------------------------------- ransom notes

# A note says two things: the data is held (or the word ransom), and how to pay or get it back.
_HELD = lazy(r"\bransom|\b(?:your|all|our)\b[^.\n]{0,40}\b(?:files?|data|documents|network|servers?|photos)\b"
             r"[^.\n]{0,60}\b(?:encrypted|locked|stolen)\b|\b(?:prior to|after|before) encryption\b|"
             r"\blocking your\b", re.IGNORECASE)
_DEMAND = lazy(r"\bransom|\bbitcoin|\bbtc\b|\bmonero\b|\bxmr\b|\bwallet\b|\.onion\b|\btor browser\b|"
               r"\bpay(?:ing|ment)?\b|\bdecrypt(?:or|ion|er)?\b|\bnegotiat", re.IGNORECASE)
# Where a note is left to be seen: the desktop, the documents folder, home, a public folder, every folder.
_SEEN_PLACE = lazy(r"[^\s'\"<>|]*(?:desktop|documents|userprofile|public|\bhome\b|~/|/users/|/home/|\\users\\)[^\s'\"]*"
                   r"\.(?:txt|html?|hta|rtf|png|bmp|jpe?g|url)\b", re.IGNORECASE)
_WRITES_NOTE = lazy(r">|\b(?:set-content|add-content|out-file|tee|writealltext|writealllines|copy|cp)\b",
                    re.IGNORECASE)


def line_ransom_note(text: str) -> Optional[tuple]:
    """``echo … Ransom Note > %USERPROFILE%\\Desktop\\YOUR_FILES.txt``: a demand left where it will be read."""
    place = _SEEN_PLACE.search(text) if _HELD.search(text) and _DEMAND.search(text) else None
    if place is None or not _WRITES_NOTE.search(text):
        return None
    return MEDIUM, f"leaves a ransom note ({place.group(0)}): the line says the data is encrypted or held for " \
        f"payment ({' '.join(text.split()[:8])}…)"


# ---------------------------------------------------------------- code writing random or encrypted bytes over files

_RANDOM = lazy(r"urandom|randbytes|token_bytes|getrandbits|randomBytes|Random\.bytes|SecureRandom|rand\.Read|"
               r"NextBytes|random_bytes|openssl_random_pseudo_bytes")
_ENCRYPTS = lazy(r"Fernet|\bAES\b|AES\.new|Cipher(?:iv)?\b|createCipheriv|\.encrypt\(|ChaCha|Salsa20|"
                 r"openssl_encrypt|sodium_crypto")
_LISTS = lazy(r"\bglob\.i?glob\(|\bos\.walk\(|\bos\.listdir\(|\bos\.scandir\(|\bPath\([^)]*\)\.(?:r?glob|iterdir)\(|"
              r"\breaddirSync\(|\bDir\.glob\(|\bDir\[|\bDir\.(?:entries|children|each_child)\(|\bFind\.find\(|"
              r"\bfilepath\.Walk(?:Dir)?\(|\bos\.ReadDir\(|\bFiles\.(?:walk|list)\(|\bglob\(|\bscandir\(|"
              r"\bfs\.readdir\(|\bwalkdir\b|\bread_dir\(|\bopendir\(|\bFile::Find\b")
_WRITES = lazy(r"open\((?:[^()]|\([^()]*\))*?['\"](?:wb|r\+b|w|w\+b|rb\+|ab)['\"]|\.write_bytes\(|writeFileSync\(|"
               r"fs\.writeFile\(|"
               r"File\.(?:binwrite|write|open\([^)]*['\"][wr]\+?b?['\"])|os\.WriteFile\(|ioutil\.WriteFile\(|"
               r"Files\.write\(|file_put_contents\(|fs::write\(|syswrite|print\s*\{?\s*\$\w+\s*\}?")
# Where a listing starts, as written in the code: a quoted path, or the user's home said in the language's words.
_LISTED_ROOT = lazy(r"(?:glob\.i?glob|os\.walk|os\.listdir|os\.scandir|Path|readdirSync|Dir\.glob|Dir\[|"
                    r"filepath\.Walk(?:Dir)?|os\.ReadDir|Files\.(?:walk|list)\(Paths\.get|glob|scandir|opendir)"
                    r"\(\s*(?:File\.expand_path\(|os\.path\.expanduser\(|path\.join\()?\s*['\"]([^'\"]+)['\"]")
_HOME_CODE = lazy(r"expanduser\(\s*['\"]~['\"]\s*\)|Path\.home\(\)|os\.homedir\(\)|ENV\[['\"]HOME['\"]\]|"
                  r"os\.getenv\(['\"](?:HOME|USERPROFILE)['\"]\)|os\.UserHomeDir\(\)|\$ENV\{HOME\}|"
                  r"os\.environ\[['\"](?:HOME|USERPROFILE)['\"]\]|System\.getProperty\(['\"]user\.home['\"]\)")


def line_code_scrambles(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """``python3 -c "… for f in glob.glob('/home/*/Documents/*'): open(f,'wb').write(os.urandom(…))"``, and the
    same in node, ruby, perl, php, go or java: every file a listing names written over with noise or ciphertext."""
    random = _RANDOM.search(text)
    encrypts = None if random else _ENCRYPTS.search(text)
    if not (random or encrypts) or not _LISTS.search(text) or not _WRITES.search(text):
        return None
    root = _LISTED_ROOT.search(text)
    where = "~" if _HOME_CODE.search(text) else root.group(1) if root else ""
    what = "random bytes" if random else "their encrypted copies"
    found = recurse(f"rm -rf {where.rstrip('*/') or '.'}/*") if where else None
    level = HIGH if where and (_place(where.rstrip("*/") or "/") or (found and found[0] >= HIGH)) else MEDIUM
    return level, f"code writes {what} over {_said(where) if where else 'every file it lists'}: what they held " \
        f"cannot be read again ({' '.join(text.split()[:6])}…)"


def line_data_locked(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """The line readings of this module, behind tests of the raw line first (a note is written: a redirect, tee,
    a cmdlet's content or file; code calls: a parenthesis), then one lowering and a few words (written out:
    ``any()`` over a tuple costs more than the tests themselves)."""
    found = line_loop_renamed(text) if "mv" in text else None
    if "done" in text and ("rm" in text or "shred" in text or "unlink" in text or "wipe" in text):
        found = found or line_loop_encrypted(text)  # `for f in DIR/*; do gpg -c "$f" && rm "$f"; done`
    note = ">" in text or "tee" in text or "ontent" in text or "-File" in text or "rite" in text
    code = "(" in text
    if not (note or code):
        return found
    low = text.lower()
    if note and ("crypt" in low or "ransom" in low or "lock" in low or "stolen" in low):  # a note's claim
        found = found or line_ransom_note(text)
    if code and ("rand" in low or "crypt" in low or "aes" in low or "cipher" in low or "fernet" in low or
                 "token_bytes" in low or "nextbytes" in low or "chacha" in low):  # code's noise or cipher
        scrambled = line_code_scrambles(text, recurse)
        if scrambled is not None and (found is None or scrambled[0] > found[0]):
            found = scrambled
    return found


RULES: dict = {}
