"""A personal folder emptied by a wildcard in cmd or PowerShell, a file or directory object's own Delete(),
cipher /w; and the Windows spellings a POSIX reading takes apart (a drive path ending in a backslash before a
space, a script block glued to its cmdlet, a Get-Item piped into Remove-Item)."""
from __future__ import annotations

from aish.safety.win_quotes import closed
from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("del C:\\Users\\alice\\Documents\\*.* /q", "medium"),
    ("del /q %USERPROFILE%\\Documents\\*.*", "medium"),
    ("erase %USERPROFILE%\\Pictures\\*", "medium"),
    ("Remove-Item $env:USERPROFILE\\Desktop\\*", "medium"),
    ("Remove-Item C:\\Users\\bob\\OneDrive\\Finance\\*.xlsx", "medium"),
    ("ri \"$HOME\\Music\\*.mp3\"", "medium"),
    ("(Get-Item C:\\Users\\alice\\Documents).Delete($true)", "medium"),
    ("(Get-Item D:\\Projects).Delete($true)", "medium"),
    ("[IO.DirectoryInfo]::new('C:\\Data').Delete($true)", "medium"),
    ("(New-Object System.IO.DirectoryInfo 'C:\\Users\\alice\\Pictures').Delete($true)", "medium"),
    ("cipher /w:C:\\", "medium"),
    ("cipher.exe /w:D:\\Data", "medium"),
    ("Remove-Item C:\\ -Recurse -Force", "high"),
    ("Remove-Item -Path D:\\ -Recurse -Force", "high"),
    ("rd /s /q C:\\Users\\alice\\ && echo done", "medium"),
    ("&{Stop-Computer -Force}", "medium"),
    ("powershell -Command \"& {Stop-Computer -Force}\"", "medium"),
    ("pwsh -c \"&{Remove-Item C:\\Data -Recurse -Force}\"", "medium"),
    ("Get-Item C:\\Users\\alice\\Documents | Remove-Item -Recurse -Force", "medium"),
    ("gi D:\\Projects | ri -Recurse -Force", "medium"),
])
def test_windows_file_losses_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "del /q C:\\Users\\alice\\Downloads\\*",
    "del /q %TEMP%\\*",
    "del /q .\\build\\*",
    "Remove-Item .\\dist\\*",
    "(Get-Item .\\build).Delete($true)",
    "(Get-Item .\\notes.tmp).Delete()",
    "Get-Item .\\build | Remove-Item -Recurse -Force",
    "cipher /c report.docx",
    "cipher /e /s:C:\\Users\\alice\\Private",
    "Get-ChildItem .\\build\\ -Recurse",
    "Invoke-Command {Get-Date}",
])
def test_their_everyday_forms_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("text", [
    "cd My\\ Documents",
    "rm -rf ~/My\\ Files",
    "echo ${HOME}",
    "$h = @{Name=1}",
    "find . -exec rm {} \\;",
])
def test_posix_spellings_are_left_as_they_are(text: str) -> None:
    assert closed(text) == text


@each_form("command,at_least", [
    ("Get-ChildItem -Path C:\\Users\\alice\\Documents -Recurse -File | Set-Content -Value \"\"", "medium"),
    ("Get-ChildItem D:\\Data -Recurse -Include *.docx | ForEach-Object { Set-Content $_.FullName -Value $null }",
     "medium"),
    ("gci C:\\Users\\alice\\Documents -r | % { [IO.File]::WriteAllBytes($_.FullName, [byte[]]@()) }", "medium"),
    ("Get-ChildItem C:\\Users\\alice\\Documents -Recurse -File | ForEach-Object { Out-File -FilePath $_.FullName "
     "-InputObject '' }", "medium"),
    ("gci $env:USERPROFILE\\Pictures -Recurse | % { [System.IO.File]::WriteAllText($_.FullName, '') }", "medium"),
    ("ls C:\\Users\\alice\\Documents | ? { $_.LastWriteTime -lt (Get-Date).AddDays(-1) } | rm", "medium"),
    ("dir C:\\Users\\alice\\Desktop | Remove-Item -Force", "medium"),
])
def test_every_file_a_listing_walks_written_over_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Get-ChildItem .\\build -Recurse | Set-Content -Value \"\"",
    "Get-ChildItem .\\logs *.log | Remove-Item",
    "Get-ChildItem $env:TEMP | Remove-Item -Force",
    "Get-ChildItem C:\\Users\\alice\\Documents -Recurse | Select-Object Name",
    "Get-ChildItem C:\\Users\\alice\\Documents -Recurse | Out-File .\\listing.txt",
    "Get-ChildItem C:\\Users\\alice\\Documents -Recurse | Set-Content -Path .\\listing.txt",
    "ls -la | grep foo",
])
def test_listings_read_or_of_own_output_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
