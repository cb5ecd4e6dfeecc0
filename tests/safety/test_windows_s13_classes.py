"""Session 13's Windows classes, each shown on cmdlets and tools beyond the ones that showed it (one case a
class, naming every line that fails): a Set-'s value that switches off, expires, blocks or opens to anyone; a
Dismount-/Disconnect- of what others use; an SDDL grant to everyone; a slash verb over every item; a Stop- of
what serves others; the Deny- verb; dism's hyphenated /remove-… and /discard."""
from __future__ import annotations

from tests.safety.kept import assess


def _flagged(command: str) -> bool:
    verdict = assess(command)
    return verdict is not None and verdict.level in ("medium", "high")


def _check(loud: list[str], quiet: list[str]) -> None:
    wrong = [f"missed: {c}" for c in loud if not _flagged(c)] + [f"loud: {c}" for c in quiet if _flagged(c)]
    assert not wrong, "\n".join(wrong)


def test_set_value_switches_off_expires_blocks_or_opens() -> None:
    _check([
        "Set-DhcpServerv4Scope -ScopeId 10.0.0.0 -State InActive",
        "Set-PnPSite -Identity https://contoso.sharepoint.com/sites/hr -LockState NoAccess",
        "Set-CertificateAutoEnrollmentPolicy -PolicyState Disabled -Context Machine",
        "Set-AzSqlDatabaseGeoBackupPolicy -ResourceGroupName rg -ServerName s1 -DatabaseName dw -State Disabled",
        "Set-AzFrontDoorWafPolicy -Name waf -ResourceGroupName rg -EnabledState Disabled",
        "Write-S3BucketVersioning -BucketName corp-archive -VersioningConfig_Status Suspended",
        "Set-DbaDbState -SqlInstance sql01 -Database Sales -Offline -Force",
        "Set-GPInheritance -Target \"OU=Servers,DC=corp,DC=local\" -IsBlocked Yes",
        "Set-AzKeyVaultCertificateAttribute -VaultName kv -Name web -Enable $false",
        "Set-AzKeyVaultKeyAttribute -VaultName kv -Name k1 -Expires (Get-Date)",
        "Set-SafeLinksPolicy -Identity Default -EnableSafeLinksForEmail $false",
        "Set-AntiPhishPolicy -Identity Office365 -EnableMailboxIntelligenceProtection $false",
        "Set-PnPTenant -SharingCapability ExternalUserAndGuestSharing",
        "Set-MgPolicyAuthorizationPolicy -AllowInvitesFrom everyone",
        "Set-UnifiedGroup -Identity Sales -AccessType Public",
    ], [
        "Set-DhcpServerv4Scope -ScopeId 10.0.0.0 -State Active",
        "Set-PnPSite -Identity https://contoso.sharepoint.com/sites/hr -LockState Unlock",
        "Write-Progress -Activity Sync -Status Offline",
        "Set-PSReadLineOption -EditMode Emacs",
        "Set-AzKeyVaultKeyAttribute -VaultName kv -Name k1 -Expires (Get-Date).AddYears(1)",
        "Set-Team -GroupId 31f1 -Visibility Private",
        "Set-CsOnlineVoicemailPolicy -Identity Tag:x -EnableTranscription $false",
        "Update-MgUser -UserId bob@contoso.com -AccountEnabled:$true",
        "Update-MgUser -UserId bob@contoso.com -AccountEnabled:$false",
        "Set-MsolUser -UserPrincipalName bob@contoso.com -BlockCredential $true",
        "Set-Service -Name Spooler -Status Stopped",
        "Set-DhcpServerv4Scope -ScopeId 10.0.0.0 -State InActive -WhatIf",
    ])


def test_detached_store_or_link_of_others() -> None:
    _check([
        "Dismount-MailboxDatabase -Identity DB01 -Confirm:$false",
        "Dismount-SPContentDatabase -Identity WSS_Content_HR -Confirm:$false",
        "Dismount-AppxVolume -Volume E:\\WindowsApps",
        "Disconnect-IscsiTarget -NodeAddress iqn.1991-05.com.microsoft:lun1 -Confirm:$false",
        "Disconnect-VirtualDisk -FriendlyName DataVD -Confirm:$false",
        "Disconnect-VMNetworkAdapter -VMName web01",
        "Disconnect-RDUser -HostServer rdsh01 -UnifiedSessionID 2 -Force",
        "Disconnect-NfsSession -SessionId 3 -Confirm:$false",
        "Disconnect-VMSan -Name Fabric1 -WorldWideNodeName C003FF0000FFFF00",
    ], [
        "Disconnect-AzAccount", "Disconnect-MgGraph", "Disconnect-ExchangeOnline -Confirm:$false",
        "Disconnect-PSSession -Name s1", "Disconnect-VIServer -Server vc01 -Confirm:$false",
        "Dismount-DiskImage -ImagePath C:\\iso\\tools.iso", "Dismount-MailboxDatabase -Identity DB01 -WhatIf",
    ])


def test_sddl_grant_to_everyone() -> None:
    _check([
        "sc sdset scmanager D:(A;;GA;;;WD)",
        "sc.exe sdset Spooler \"D:(A;;CCLCSWRPWPDTLOCRRC;;;SY)(A;;CCDCLCSWRPWPDTLOCRSDRCWDWO;;;AU)\"",
        "Set-Service -Name Spooler -SecurityDescriptorSddl 'D:(A;;CCLCSWRPWPDTLOCRRCDC;;;AU)'",
        "Set-PSSessionConfiguration -Name Ops -SecurityDescriptorSddl \"O:NSG:BAD:P(A;;GA;;;WD)\" -Force",
        "Register-PSSessionConfiguration -Name ops -SecurityDescriptorSddl 'O:NSG:BAD:P(A;;GA;;;BU)'",
        "wevtutil sl Security /ca:O:BAG:SYD:(A;;0xf0007;;;WD)",
        "$acl.SetSecurityDescriptorSddlForm('O:BAD:(A;OICI;FA;;;WD)')",
    ], [
        "netsh http add urlacl url=http://+:80/ sddl=D:(A;;GX;;;WD)",
        "sc sdset Spooler D:(A;;CCLCSWLOCRRC;;;AU)(A;;CCDCLCSWRPWPDTLOCRSDRCWDWO;;;BA)",
        "sc sdshow scmanager",
        "echo a;; b",
    ])


def test_slash_verb_over_every_item() -> None:
    _check([
        "bitsadmin /reset /allusers",
        "cmdkey /delete:*",
        "openfiles /disconnect /a *",
        "schtasks /delete /tn * /f",
        "vssadmin delete shadows /all /quiet",
        "bitsadmin /cancel /allusers",
    ], [
        "net use Z: /delete", "net use * /delete /y", "bitsadmin /reset", "icacls * /reset", "dir /a *",
        "attrib -r /s /d *", "xcopy * D:\\bak /a", "findstr /a:0A *",
    ])


def test_stop_of_what_serves_others() -> None:
    _check([
        "Stop-WebSite -Name \"Default Web Site\"",
        "Stop-WebAppPool -Name ShopPool",
        "Stop-AzWebApp -ResourceGroupName rg -Name shop-prod",
        "Stop-AzFunctionApp -Name billing -ResourceGroupName rg -Force",
        "Stop-AzContainerGroup -ResourceGroupName rg -Name aci-prod",
        "Stop-AzAksCluster -ResourceGroupName rg -Name aks-prod",
        "Stop-AzApplicationGateway -ApplicationGateway $gw",
        "Stop-AzVmss -ResourceGroupName rg -VMScaleSetName web-ss -Force",
        "Stop-AzMySqlFlexibleServer -ResourceGroupName rg -Name mysql-prod",
    ], [
        "Stop-Transcript", "Stop-NetEventSession -Name trace", "Stop-WebSite -Name x -WhatIf", "Stop-Job -Id 3",
    ])


def test_deny_verb_and_hyphenated_removals() -> None:
    _check([
        "Deny-WsusUpdate -UpdateId 4fb2bf25",
        "Get-WsusUpdate -Approval Approved | Deny-WsusUpdate",
        "dism /image:C:\\mount /remove-driver /driver:oem12.inf",
        "dism /online /remove-capability /capabilityname:OpenSSH.Server~~~~0.0.1.0",
        "dism /unmount-wim /mountdir:C:\\mount /discard",
        "dism /unmount-image /mountdir:C:\\mount /discard",
    ], [
        "Get-WsusUpdate -Approval Unapproved", "dism /unmount-wim /mountdir:C:\\mount /commit",
        "dism /online /get-capabilities", "dism /image:C:\\mount /get-drivers",
    ])


def test_script_written_then_run_by_name_or_fed_to_its_tool() -> None:
    _check([
        "echo rd /s /q D:\\Shares > x.bat & x.bat",
        "echo rd /s /q D:\\Shares > x.cmd && call x.cmd",
        "echo del /f /s /q C:\\Users\\* > c.bat & cmd /c c.bat",
        "echo vssadmin delete shadows /all /quiet > v.cmd & .\\v.cmd",
        "echo format E: /q /y > f.bat & start f.bat",
        "echo rm -rf ~/projects > w.sh && sh w.sh",
        "echo DROP DATABASE Sales > d.sql & sqlcmd -S sql01 -i d.sql",
        "echo DROP TABLE dbo.Orders > t.sql && osql -E -S sql01 -i t.sql",
    ], [
        "echo @echo off > hello.bat & echo echo hi >> hello.bat & hello.bat",
        "echo dir > d.bat & d.bat",
        "echo SELECT 1 > q.sql & sqlcmd -S sql01 -i q.sql",
        "echo rd /s /q D:\\Shares > x.bat & type x.bat",
    ])


def test_reset_and_uninstall_verbs_of_any_module() -> None:
    _check([
        "Reset-AzVpnGateway -VirtualNetworkGateway $gw",
        "Reset-CsPoolRegistrarState -PoolFqdn pool01.corp.local -ResetType FullReset",
        "Reset-DAClientExperienceConfiguration -Confirm:$false",
        "Reset-MsolStrongAuthenticationMethodByUpn -UserPrincipalName ceo@contoso.com",
        "Reset-AzWebAppSlotPublishingProfile -ResourceGroupName rg -Name app -Slot staging",
        "Reset-AzAttestationPolicy -Name att1 -ResourceGroupName rg -Tee SgxEnclave",
        "Uninstall-ADServiceAccount -Identity svc_sql01",
        "Uninstall-AdcsWebEnrollment -Force",
        "Uninstall-NAVApp -ServerInstance BC -Name \"Sales Ext\"",
        "Uninstall-SPSolution -Identity contoso.wsp -AllWebApplications",
    ], [
        "Reset-VMResourceMetering -VMName web01", "Reset-IISServerManager -Confirm:$false",
        "Reset-WinhttpProxy -Direct", "Uninstall-Module Az -AllVersions", "Uninstall-Package -Name git",
        "Reset-AzVpnGateway -VirtualNetworkGateway $gw -WhatIf",
    ])


def test_set_keep_or_limit_to_zero() -> None:
    _check([
        "Set-Mailbox -Identity ceo -RetainDeletedItemsFor 0",
        "Set-MailboxDatabase -Identity DB01 -DeletedItemRetention 0.00:00:00",
        "Set-AdminAuditLogConfig -AdminAuditLogAgeLimit 0",
        "Set-TransportConfig -MaxSendSize 0KB -MaxReceiveSize 0KB",
        "Set-Mailbox -Identity bob -ProhibitSendReceiveQuota 0MB",
        "Set-RetentionPolicyTag -Identity \"Deleted Items\" -AgeLimitForRetention 0",
        "Set-AzSqlDatabaseBackupShortTermRetentionPolicy -ResourceGroupName rg -ServerName s -DatabaseName d "
        "-RetentionDays 0",
    ], [
        "Set-Mailbox -Identity ceo -RetainDeletedItemsFor 30",
        "Set-MailboxDatabase -Identity DB01 -DeletedItemRetention 14.00:00:00",
        "Set-Mailbox -Identity bob -ProhibitSendReceiveQuota 50GB", "Set-Mailbox -Identity bob -IssueWarningQuota 0",
    ])


def test_acronym_in_a_cmdlet_noun_is_no_fused_rm() -> None:
    _check([
        "Remove-FsrmQuota -Path D:\\Shares\\Home -Confirm:$false",
        "dsrm \"OU=Sales,DC=corp,DC=local\" -subtree -noprompt",
    ], [
        "Get-FsrmFileGroup", "Get-FsrmQuota -Path D:\\Shares\\*", "Get-FsrmFileScreen",
        "New-FsrmQuota -Path D:\\Shares\\Home -Size 10GB", "Get-FsrmSetting", "Get-FsrmStorageReport -Name weekly",
    ])
