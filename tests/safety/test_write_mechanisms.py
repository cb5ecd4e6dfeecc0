"""Writes that weaken a machine, by mechanism, for any program that shows it: security switches of
Windows, AD and SMB cmdlets turned the wrong way, full control granted to everyone, sensitive system
files edited by tools other than sed and tee, servers started with their checks off from the command
line, and the screen locker killed."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # W1: a cmdlet's boolean parameter that weakens a protection
    "Set-SmbServerConfiguration -RequireSecuritySignature $false -Force",
    "Set-SmbClientConfiguration -RequireSecuritySignature $false -Confirm:$false",
    "Set-SmbServerConfiguration -EncryptData $false -Force",
    "Set-SmbServerConfiguration -RejectUnencryptedAccess $false",
    "Set-SmbClientConfiguration -EnableInsecureGuestLogons $true -Force",
    "Set-ADAccountControl -Identity svc_sql -DoesNotRequirePreAuth $true",
    "Set-ADAccountControl -Identity bob -PasswordNotRequired $true",
    "Set-ADAccountControl -Identity web01$ -TrustedForDelegation $true",
    "Set-ADDefaultDomainPasswordPolicy -Identity corp.local -ComplexityEnabled $false -MinPasswordLength 0",
    "Set-ADUser -Identity alice -AllowReversiblePasswordEncryption $true",
    "Set-MpPreference -DisableBehaviorMonitoring $true",
    "Set-MpPreference -DisableIOAVProtection:$true",
    "Set-RDSessionCollectionConfiguration -CollectionName Desk -AuthenticateUsingNLA $false",
    "Set-AdminAuditLogConfig -UnifiedAuditLogIngestionEnabled $false",
    "Set-OrganizationConfig -AuditDisabled $true",
    "Set-MsolUser -UserPrincipalName a@corp.com -StrongPasswordRequired $false",
    "Set-VMFirmware -VMName web -EnableSecureBoot Off",
    "Set-SmbShare -Name data -EncryptData $false -Force",
    "Set-ProcessMitigation -System -Disable DEP,SEHOP,CFG",
    "Set-Item WSMan:\\localhost\\Service\\AllowUnencrypted -Value $true",
    "Set-Item -Path WSMan:\\localhost\\Service\\Auth\\Basic -Value $true",
    "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa' -Name RunAsPPL -Value 0",
    "Set-OrganizationConfig -OAuth2ClientProfileEnabled $false",
    "Set-DnsServerRecursion -Enable $true -SecureResponses $false",
    "Set-MailboxAuditBypassAssociation -Identity svc -AuditBypassEnabled $true",
    "Set-ADUser bob -Replace @{userAccountControl=4194304}",
    "Set-WebConfigurationProperty -Filter /system.webServer/security/authentication/anonymousAuthentication "
    "-Name enabled -Value true -PSPath IIS:\\",
    "appcmd set config /section:anonymousAuthentication /enabled:true",
    "Set-AzStorageAccount -ResourceGroupName rg -Name st1 -AllowBlobPublicAccess $true",
    "Set-AzStorageAccount -ResourceGroupName rg -Name st1 -EnableHttpsTrafficOnly $false",
    "Set-CsTenantFederationConfiguration -AllowPublicUsers $true",
])
def test_cmdlets_switching_protections_off_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "Set-SmbServerConfiguration -RequireSecuritySignature $true -Force",
    "Set-SmbServerConfiguration -EncryptData $true",
    "Set-SmbClientConfiguration -EnableInsecureGuestLogons $false",
    "Set-ADAccountControl -Identity svc_sql -DoesNotRequirePreAuth $false",
    "Set-ADDefaultDomainPasswordPolicy -Identity corp.local -ComplexityEnabled $true -MinPasswordLength 14",
    "Set-MpPreference -DisableBehaviorMonitoring $false",
    "Set-ADUser -Identity alice -Enabled $false",
    "Set-ADUser -Identity alice -Title Engineer",
    "Set-Mailbox -Identity bob -ProhibitSendQuota 5GB",
    "Set-VMFirmware -VMName web -EnableSecureBoot On",
    "Set-ProcessMitigation -System -Enable DEP,SEHOP",
    "Get-SmbServerConfiguration | Select RequireSecuritySignature",
    "Set-Location C:\\Users",
    "Set-Content -Path notes.txt -Value $false",
    "Add-AppxPackage -Path app.msix -AllowUnsigned",
    "Set-Item WSMan:\\localhost\\Service\\AllowUnencrypted -Value $false",
    "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa' -Name RunAsPPL -Value 1",
    "Set-MailboxAuditBypassAssociation -Identity svc -AuditBypassEnabled $false",
    "Set-ADUser bob -Replace @{userAccountControl=512}",
    "Set-AzStorageAccount -ResourceGroupName rg -Name st1 -AllowBlobPublicAccess $false",
    "appcmd set config /section:anonymousAuthentication /enabled:false",
])
def test_cmdlets_switching_protections_on_or_unrelated_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # W2: full control granted to everyone
    "icacls C:\\Windows\\System32 /grant Everyone:F /T",
    "icacls \"C:\\Program Files\" /grant '*S-1-1-0:(OI)(CI)F'",
    "icacls D:\\ /grant \"Authenticated Users:(OI)(CI)F\" /T /C",
    "icacls C:\\inetpub\\wwwroot /grant 'Users:(OI)(CI)M' /T",
    "cacls C:\\Windows /E /G Everyone:F",
    "xcacls C:\\ /G Everyone:F /Y",
    "subinacl /subdirectories C:\\Windows\\* /grant=Everyone=F",
    "dsacls \"DC=corp,DC=local\" /G \"Domain Users:GA\"",
    "dsacls \"CN=AdminSDHolder,CN=System,DC=corp,DC=local\" /G Everyone:GA",
    "smbcacls //srv/share / -U admin -a \"ACL:Everyone:ALLOWED/OI|CI/FULL\"",
    "smbcacls //nas/data '\\' -M \"ACL:S-1-1-0:ALLOWED/0x3/FULL\"",
    "setfacl -m o::rwx /etc",
    "setfacl -R -m other::rwx /var/lib/mysql",
    "setfacl -R -m o:rwx /usr/local/bin",
    "setfacl -d -m o::rwx /etc/ssl",
    "chacl u::rwx,g::rwx,o::rwx /etc/sudoers.d",
    "nfs4_setfacl -a A::EVERYONE@:rwaDxtTnNcCoy /srv/export",
    "Add-NTFSAccess -Path C:\\Windows -Account Everyone -AccessRights FullControl",
    "Grant-SmbShareAccess -Name C$ -AccountName Everyone -AccessRight Full -Force",
    "chmod -R +a 'everyone allow read,write,delete,add_file,add_subdirectory' /Library",
    "icacls C:\\ /grant Everyone:(F) /T /C /Q",
    "dsacls \"DC=corp,DC=local\" /G \"CORP\\Domain Users:CA;Replicating Directory Changes All\"",
    "setfacl -m d:o:rwx /var/www",
    "setfacl -Rm o:rwX /srv/data",
    "$acl = Get-Acl C:\\Windows; $rule = New-Object System.Security.AccessControl.FileSystemAccessRule("
    "\"Everyone\",\"FullControl\",\"ContainerInherit,ObjectInherit\",\"None\",\"Allow\"); "
    "$acl.SetAccessRule($rule); Set-Acl C:\\Windows $acl",
    "Add-MailboxPermission -Identity ceo -User Everyone -AccessRights FullAccess",
    "Set-MailboxFolderPermission -Identity ceo:\\Calendar -User Anonymous -AccessRights Owner",
    "setfacl -m g:users:rwx /etc/sudoers.d",
])
def test_full_control_granted_to_everyone_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "icacls C:\\data /grant alice:F",
    "icacls C:\\data",
    "icacls C:\\data /grant Everyone:R",
    "icacls C:\\data /remove Everyone",
    "cacls C:\\data",
    "dsacls \"OU=Sales,DC=corp,DC=local\"",
    "dsacls \"OU=Sales,DC=corp,DC=local\" /G \"CORP\\helpdesk:RP\"",
    "smbcacls //srv/share / -U admin",
    "smbcacls //srv/share / -a \"ACL:CORP\\alice:ALLOWED/OI|CI/READ\"",
    "setfacl -m u:alice:rwx ./shared",
    "setfacl -m o::r-x /srv/www",
    "setfacl -m o::rwx ./build",
    "getfacl /etc",
    "nfs4_getfacl /srv/export",
    "Grant-SmbShareAccess -Name docs -AccountName CORP\\alice -AccessRight Read -Force",
    "Add-MailboxPermission -Identity ceo -User assistant -AccessRights FullAccess",
    "Set-MailboxFolderPermission -Identity ceo:\\Calendar -User Default -AccessRights Reviewer",
    "setfacl -m g:admins:rwx /etc/sudoers.d",
])
def test_grants_to_someone_or_reading_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # W3: sensitive system files edited by tools other than sed and tee
    "ed -s /etc/ssh/sshd_config <<< $',s/^PermitRootLogin.*/PermitRootLogin yes/\\nw'",
    "printf '%s\\n' ',s/nullok_secure/nullok/' w q | ed -s /etc/pam.d/common-auth",
    "ex -sc '%s/^#\\?PasswordAuthentication.*/PasswordAuthentication yes/|x' /etc/ssh/sshd_config",
    "vim -es -c '%s/enforcing/disabled/|wq' /etc/selinux/config",
    "gsed -i 's/^root:[^:]*:/root::/' /etc/shadow",
    "busybox sed -i 's/^SELINUX=.*/SELINUX=disabled/' /etc/selinux/config",
    "rpl 'PermitRootLogin no' 'PermitRootLogin yes' /etc/ssh/sshd_config",
    "sd 'nullok_secure' 'nullok' /etc/pam.d/common-auth",
    "replace 'SELINUX=enforcing' 'SELINUX=disabled' -- /etc/selinux/config",
    "virt-edit -a disk.img /etc/shadow -e 's/^root:.*?:/root::/'",
    "virt-edit -d guest01 /etc/sudoers",
    "sysrc sshd_flags='-o PermitRootLogin=yes'",
    "sysrc pf_enable=NO",
    "pam-config -a --unix-nullok",
    "lokkit --disabled",
    "lokkit --selinux=disabled",
    "augtool set /files/etc/ssh/sshd_config/PermitRootLogin yes",
    "crudini --set /etc/selinux/config '' SELINUX disabled",
    "setconf /etc/ssh/sshd_config PermitEmptyPasswords yes",
    "rpl -R 'SELINUX=enforcing' 'SELINUX=permissive' /etc/selinux",
    "pam-config -d --pwquality",
    "authconfig --disableshadow --passalgo=md5 --update",
])
def test_sensitive_system_files_edited_by_other_tools_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "ed -s notes.txt <<< $',s/foo/bar/\\nw'",
    "vim -es -c '%s/foo/bar/|wq' README.md",
    "gsed -i 's/foo/bar/' src/main.c",
    "rpl old new src/*.py",
    "sd 'foo' 'bar' src/lib.rs",
    "replace foo bar -- notes.txt",
    "virt-edit -a disk.img /srv/app/config.yml",
    "virt-cat -a disk.img /etc/shadow",
    "sysrc sshd_enable=YES",
    "sysrc -a",
    "pam-config -q --unix",
    "lokkit --enabled --port=22:tcp",
    "augtool print /files/etc/ssh/sshd_config",
    "crudini --get /etc/selinux/config '' SELINUX",
    "setconf app.conf Debug yes",
    "pam-config -a --pwquality",
    "authconfig --enableshadow --passalgo=sha512 --update",
])
def test_everyday_edits_and_reads_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # W4: servers started with their checks off, from the command line
    "grafana-server cfg:default.auth.anonymous.enabled=true cfg:default.auth.anonymous.org_role=Admin",
    "grafana server cfg:default.auth.anonymous.enabled=true",
    "docker run -d -p 3000:3000 -e GF_AUTH_ANONYMOUS_ENABLED=true -e GF_AUTH_ANONYMOUS_ORG_ROLE=Admin grafana/grafana",
    "kafka-server-start.sh config/server.properties --override allow.everyone.if.no.acl.found=true "
    "--override listeners=PLAINTEXT://0.0.0.0:9092",
    "vncserver :1 -SecurityTypes None -localhost no",
    "tigervncserver :2 -SecurityTypes None --I-KNOW-THIS-IS-INSECURE",
    "Xvnc :1 -SecurityTypes None",
    "x11vnc -forever -nopw -display :0",
    "Xvfb :99 -listen tcp -ac",
    "java -Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false "
    "-Dcom.sun.management.jmxremote.ssl=false -jar app.jar",
    "cassandra -f -Dcassandra.authenticator=AllowAllAuthenticator",
    "INFLUXDB_HTTP_AUTH_ENABLED=false influxd",
    "prometheus --web.enable-admin-api --web.listen-address=0.0.0.0:9090",
    "consul agent -dev -client 0.0.0.0",
    "vault server -dev -dev-listen-address=0.0.0.0:8200",
    "kafka-server-start.sh -daemon config/server.properties --override super.users=User:ANONYMOUS",
    "JAVA_OPTS=\"-Dcom.sun.management.jmxremote.authenticate=false\" catalina.sh run",
    "zookeeper-server-start.sh config/zookeeper.properties --override skipACL=yes",
    "java -Dsonar.forceAuthentication=false -jar sonar.jar",
    "java -Dhudson.security.csrf.GlobalCrumbIssuerConfiguration.DISABLE_CSRF_PROTECTION=true -jar jenkins.war",
    "influxd --http-auth-enabled=false",
])
def test_servers_started_with_checks_off_are_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "grafana-server cfg:default.paths.logs=/var/log/grafana",
    "grafana-server cfg:default.auth.anonymous.enabled=false",
    "docker run -d -p 3000:3000 -e GF_SECURITY_ADMIN_PASSWORD__FILE=/run/secrets/pw grafana/grafana",
    "kafka-server-start.sh config/server.properties --override log.retention.hours=72",
    "vncserver :1 -localhost yes",
    "vncserver -kill :1",
    "x11vnc -usepw -display :0",
    "Xvfb :99 -screen 0 1280x1024x24",
    "Xephyr -br -ac -screen 1024x768 :2",
    "java -Dcom.sun.management.jmxremote.port=9010 -jar app.jar",
    "prometheus --config.file=prometheus.yml",
    "consul agent -dev",
    "vault server -dev",
    "influxd",
    "kafka-server-start.sh config/server.properties --override super.users=User:admin",
    "JAVA_OPTS=\"-Xmx2g -Dcom.sun.management.jmxremote.authenticate=true\" catalina.sh run",
    "git -c http.emptyAuth=false fetch",
    "influxd --http-auth-enabled=true",
    "curl --insecure https://localhost:8443/health",
])
def test_servers_started_with_checks_on_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    # W5: the screen locker killed
    "xscreensaver-command -exit",
    "mate-screensaver-command --exit",
    "cinnamon-screensaver-command --exit",
    "xfce4-screensaver-command --exit",
    "pkill xss-lock",
    "killall xautolock",
    "pkill -x swayidle",
    "killall -9 hypridle",
    "kill $(pidof xscreensaver)",
    "xautolock -disable",
    "xautolock -exit",
    "systemctl --user stop xss-lock",
    "systemctl --user mask --now hypridle.service",
    "pkill light-locker",
    "loginctl unlock-sessions",
    "reg add \"HKCU\\Control Panel\\Desktop\" /v ScreenSaverIsSecure /t REG_SZ /d 0 /f",
    "reg add \"HKCU\\Control Panel\\Desktop\" /v ScreenSaveActive /t REG_SZ /d 0 /f",
    "Set-ItemProperty -Path 'HKCU:\\Control Panel\\Desktop' -Name ScreenSaverIsSecure -Value 0",
])
def test_the_screen_locker_killed_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "xscreensaver-command -lock",
    "xscreensaver-command -activate",
    "xscreensaver-command -time",
    "mate-screensaver-command --lock",
    "xautolock -locknow",
    "xautolock -enable",
    "systemctl --user start xss-lock",
    "systemctl --user status hypridle",
    "loginctl lock-session",
    "pgrep swayidle",
    "pkill -HUP swayidle",
    "loginctl unlock-session 3",
    "reg add \"HKCU\\Control Panel\\Desktop\" /v ScreenSaverIsSecure /t REG_SZ /d 1 /f",
])
def test_locking_and_asking_the_locker_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
