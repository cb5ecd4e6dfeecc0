"""Who may log in widened or everyone shut out, in any account tool's words: every domain account
permitted or denied, the guest account switched on or made an administrator, an account given its own
name as password, a key's passphrase removed, empty passwords let in (rules/logins_opened.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'realm permit --all',
    'realm permit -a',
    'realm deny --all',
    'ipa hbacrule-enable allow_all',
    'Enable-LocalUser -Name Guest',
    'Enable-ADAccount -Identity Guest',
    'net user guest /active:yes',
    'sysadminctl -guestAccount on',
    'groupmems -g wheel -a guest',
    'gpasswd -a nobody sudo',
    'usermod -aG sudo guest',
    'adduser guest sudo',
    'dseditgroup -o edit -a guest -t user admin',
    'net localgroup administrators guest /add',
    'Add-LocalGroupMember -Group Administrators -Member Guest',
    "Add-ADGroupMember -Identity 'Domain Admins' -Members Guest",
    'htpasswd -b -c /etc/nginx/.htpasswd admin admin',
    'htpasswd -bc /etc/apache2/.htpasswd root root',
    'rabbitmqctl add_user admin admin',
    'rabbitmqctl change_password guest guest',
    'mosquitto_passwd -b /etc/mosquitto/passwd admin admin',
    "ssh-keygen -p -N '' -f ~/.ssh/id_ed25519",
    'ssh-keygen -p -P oldpass -N "" -f ~/.ssh/id_rsa',
    'puttygen server.ppk -o server.ppk --new-passphrase /dev/null',
    'dropbear -R -B -p 2222',
])
def test_logins_opened_to_anyone_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'realm list',
    'realm permit alice@example.com',
    'realm permit -g admins@example.com',
    'realm deny alice@example.com',
    'realm join example.com',
    'ipa hbacrule-disable allow_all',
    'sysadminctl -guestAccount off',
    'groupmems -g wheel -l',
    'groupmems -g wheel -a alice',
    'usermod -aG docker alice',
    'Get-LocalGroupMember -Group Administrators',
    'htpasswd -b -c /etc/nginx/.htpasswd alice "$PASSWORD"',
    'htpasswd -bc path/to/file username password',
    'rabbitmqctl add_user alice s3cret-Pass',
    "ssh-keygen -t ed25519 -N '' -f ~/.ssh/ci_key",
    'ssh-keygen -p -f ~/.ssh/id_ed25519',
    'dropbear -R -p 2222',
    'sudo -u nobody ls /tmp',
    'find / -user nobody -group root',
])
def test_reading_or_narrow_login_changes_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
