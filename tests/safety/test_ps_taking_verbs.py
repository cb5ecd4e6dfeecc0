"""PowerShell's Disable-, Unregister- and Revoke-<Noun> for any noun (one named target: medium); the shell's own
state, package sources and -WhatIf stay quiet.  Windows paths quoted with a closing backslash
("C:\\dir\\") close their quote where cmd and PowerShell close it."""
from __future__ import annotations

from aish.safety.win_quotes import closed
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("Disable-WindowsErrorReporting", "medium"),
    ("Disable-TpmAutoProvisioning", "medium"),
    ("Disable-NetIPsecRule -DisplayName 'Domain Isolation'", "medium"),
    ("Disable-Mailbox -Identity jsmith -Confirm:$false", "medium"),
    ("Disable-ADOptionalFeature -Identity 'Recycle Bin Feature' -Scope ForestOrConfigurationSet -Target corp.local",
     "medium"),
    ("Disable-ClusterS2D -Confirm:$false", "medium"),
    ("Disable-VMIntegrationService -VMName SQL01 -Name Heartbeat", "medium"),
    ("Disable-AzContextAutosave", "medium"),
    ("Disable-PSRemoting -Force", "medium"),
    ("Unregister-ScheduledTask -TaskName Backup -Confirm:$false", "medium"),
    ("Unregister-PSSessionConfiguration -Name Microsoft.PowerShell -Force", "medium"),
    ("Unregister-AzResourceProvider -ProviderNamespace Microsoft.Compute", "medium"),
    ("Unregister-ScheduledJob -Name NightlyReport", "medium"),
    ("Unregister-ClusterResourceType -Name 'Virtual Machine'", "medium"),
    ("Revoke-SmbShareAccess -Name Finance -AccountName 'CORP\\Finance' -Force", "medium"),
    ("Revoke-MgUserSignInSession -UserId alice@contoso.com", "medium"),
    ("Revoke-AzStorageAccountUserDelegationKeys -ResourceGroupName rg -StorageAccountName st01", "medium"),
    ("Revoke-VMConnectAccess -VMName WEB01 -UserName CORP\\alice", "medium"),
    ("Revoke-SPOUserSession -User alice@contoso.com", "medium"),
    ("Revoke-CsClientCertificate -Identity alice@contoso.com", "medium"),
])
def test_taking_verbs_are_flagged_for_any_noun(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Disable-PSBreakpoint -Id 1",
    "Disable-PSTrace",
    "Disable-RunspaceDebug",
    "Disable-ExperimentalFeature -Name PSNativeCommandErrorActionPreference",
    "Unregister-Event -SourceIdentifier FileWatcher",
    "Unregister-PSRepository -Name Internal",
    "Unregister-PackageSource -Name LocalFeed",
    "Disable-ScheduledTask -TaskName Backup -WhatIf",
    "Get-Command -Verb Disable",
    "Enable-ScheduledTask -TaskName Backup",
])
def test_taking_verbs_on_the_shells_own_state_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("Get-ScheduledTask -TaskPath \"\\Microsoft\\Windows\\Windows Defender\\\" | Disable-ScheduledTask", "medium"),
    ("schtasks /query /tn \"\\Microsoft\\Windows\\\" | findstr x & rd /s /q C:\\Users\\alice", "medium"),
    ("robocopy \"C:\\Empty\\\" \"C:\\Users\\alice\\\" /MIR", "medium"),
    ("icacls \"C:\\Windows\\System32\\\" /grant Everyone:F /t", "high"),
    ("takeown /f \"C:\\Program Files\\WindowsApps\\\" /r /d y", "high"),
    ("dir \"C:\\Users\\alice\\\" & del /s /q C:\\Users\\alice\\Documents\\*", "medium"),
])
def test_a_quoted_windows_path_closes_after_its_last_backslash(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("text", [
    'echo "He said \\"hi\\" to me"',
    'bash -c "rm -rf \\"$DIR\\" && ls"',
    'printf "a\\tb \\"q\\" end"',
    'x "C:\\dir\\\\" y',
])
def test_posix_escaped_quotes_are_left_as_they_are(text: str) -> None:
    assert closed(text) == text


@each_form("command", [
    "Disable-WSManCredSSP -Role Server",
    "Disable-TlsCipherSuite -Name TLS_RSA_WITH_3DES_EDE_CBC_SHA",
    "Disable-LlmnrResolution",
    "Disable-GuestAccount",
    "Disable-SmbLegacyDialects",
    "Disable-TelemetryCollection",
])
def test_switching_a_risk_off_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("Set-GPLink -Name 'Security Baseline' -Target 'DC=corp,DC=com' -LinkEnabled No", "medium"),
    ("Set-DlpCompliancePolicy -Identity 'PII Policy' -Enabled $false", "medium"),
    ("Set-JournalRule -Identity 'Legal hold' -Enabled $false", "medium"),
    ("Set-RetentionCompliancePolicy -Identity 'Keep 7 years' -Enabled $false", "medium"),
    ("Set-AdminAuditLogConfig -AdminAuditLogEnabled $false", "medium"),
    ("Set-AntiPhishPolicy -Identity Default -Enabled:$false", "medium"),
    ("Set-NetIPsecRule -DisplayName 'Domain Isolation' -Enabled False", "medium"),
    ("Set-NetAdapterBinding -Name Ethernet -ComponentID ms_tcpip -Enabled $false", "medium"),
])
def test_a_set_that_switches_its_noun_off_is_a_disable(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Set-ADUser bob -Enabled $true",
    "Set-ADUser -Identity alice -Enabled $false",
    "Update-MgUser -UserId bob@contoso.com -AccountEnabled:$false",
    "Set-NetFirewallRule -DisplayName 'Block Telemetry' -Enabled False",
    "Set-ADUser bob -Title 'Enabled accounts lead'",
    "Set-DlpCompliancePolicy -Identity 'PII Policy' -Enabled $true",
    "Set-MailboxAuditBypassAssociation -Identity svc -AuditBypassEnabled $false",
])
def test_a_set_that_switches_on_or_an_account_off_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
