"""Windows everyday forms read for what they do: diskpart fed only list/detail/select commands prints; robocopy
/L only lists; a copy's /Y into a directory, temporary files or build output replaces at most a file of the
same name (as Unix `cp -f` there); cmd's `erase FILE` is `del FILE`.  Their destructive forms stay flagged."""
from __future__ import annotations

from tests.safety.forms import each_form, table_holds
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    "echo list disk | diskpart",
    "echo list volume | diskpart",
    "echo list vol | diskpart",
    "(echo select disk 0 & echo detail disk) | diskpart",
    "(echo sel vol 2 & echo det vol) | diskpart",
    "robocopy .\\src .\\backup\\src /MIR /L",
    "robocopy C:\\Data \\\\nas\\backup /PURGE /L /NJH",
    "xcopy .\\assets .\\dist\\assets /E /I /Y",
    "copy /y x.dll build\\",
    "copy /Y .\\config.sample.json %TEMP%\\config.json",
    "erase tmp\\notes.txt",
    "erase build\\output.log",
    "erase *.bak",
])
def test_windows_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command,at_least", [
    ("echo select disk 1 ^& clean | diskpart", "high"),
    ("(echo select disk 2 & echo clean all) | diskpart", "high"),
    ("(echo sel disk 2 & echo form fs=ntfs quick) | diskpart", "high"),
    ("(echo select volume 3 & echo delete volume) | diskpart", "high"),
    ("(echo select disk 1 & echo create partition primary) | diskpart", "medium"),
    ("type wipe.txt | diskpart", "medium"),
    ("diskpart /s C:\\Temp\\wipe_disk.txt", "medium"),
    ("robocopy C:\\Empty D:\\Data /MIR", "medium"),
    ("xcopy C:\\Backup\\Windows C:\\Windows /E /I /Y", "medium"),
    ("copy /y C:\\Temp\\evil.dll C:\\Windows\\System32\\drivers\\netio.sys", "medium"),
    ("erase /s /q C:\\Users\\alice\\Documents\\*", "medium"),
])
def test_their_destructive_forms_stay_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


# A cmdlet whose approved verb reads or creates names its object with its noun: `Rm` in AzureRM's nouns is
# Resource Manager, and `Deleted` in `Get-SPDeletedSite` is a state, not a verb.  Its removing forms stay loud.
_CMDLET_NOUNS = (
    ["Remove-AzureRmResourceGroup -Name rg-old -Force",
     "Get-AzureRmResourceGroup | Remove-AzureRmResourceGroup -Force",
     "Remove-AzureRmVM -Name vm1 -ResourceGroupName rg -Force",
     "Request-KMSKeyDeletion -KeyId 1234abcd -PendingWindowInDay 7"],
    ["Get-AzureRmResourceGroup",
     "Get-AzureRmVM -ResourceGroupName rg1",
     "Get-AzureRmStorageAccount | Format-Table",
     "New-AzureRmResourceGroup -Name rg -Location westus",
     "Get-AzureRmResourceGroup | Remove-AzureRmResourceGroup -WhatIf",
     "Export-AzureRmResourceGroup -ResourceGroupName rg -Path .\\rg.json",
     "Select-AzureRmSubscription -SubscriptionName Dev",
     "Test-AzureRmResourceGroupDeployment -ResourceGroupName rg -TemplateFile .\\t.json",
     "Save-AzureRmContext -Path .\\ctx.json",
     "Get-AzureRmRoleAssignment -SignInName alice@example.com"],
)


def test_a_reading_cmdlets_noun_is_its_object_not_its_verb() -> None:
    table_holds(_CMDLET_NOUNS)
