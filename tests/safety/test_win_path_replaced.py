"""The stored search path replaced or emptied (setx, [Environment]::SetEnvironmentVariable with Machine or User,
the registry's Environment keys); adding to the old path, other variables and this session's $env:Path stay quiet."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("setx PATH \"\" /M", "medium"),
    ("setx /M PATH \"C:\\Tools\"", "medium"),
    ("setx PATH C:\\Tools", "medium"),
    ("setx /s SRV01 /u corp\\admin /p Hunter2 PATH C:\\Tools /M", "medium"),
    ("setx PATHEXT .EXE /M", "medium"),
    ("[Environment]::SetEnvironmentVariable('Path', '', 'Machine')", "medium"),
    ("[Environment]::SetEnvironmentVariable(\"PATH\", $null, \"Machine\")", "medium"),
    ("[Environment]::SetEnvironmentVariable(\"Path\", \"C:\\Tools\", [EnvironmentVariableTarget]::User)", "medium"),
    ("[System.Environment]::SetEnvironmentVariable('PSModulePath', 'C:\\Modules', 'Machine')", "medium"),
    ("reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment\" /v Path /t REG_EXPAND_SZ "
     "/d \"C:\\Tools\" /f", "medium"),
    ("Set-ItemProperty -Path HKCU:\\Environment -Name Path -Value \"C:\\Tools\"", "medium"),
])
def test_the_stored_search_path_replaced_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "setx PATH \"%PATH%;C:\\Tools\"",
    "setx JAVA_HOME \"C:\\Program Files\\Java\\jdk-21\"",
    "setx variable value /M",
    "setx /s hostname /u username /p password variable value",
    "[Environment]::SetEnvironmentVariable(\"Path\", $env:Path + \";C:\\Tools\", \"Machine\")",
    "[Environment]::SetEnvironmentVariable(\"JAVA_HOME\", \"C:\\Java\", \"Machine\")",
    "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment' -Name Path "
    "-Value \"$oldPath;C:\\Tools\"",
    "$env:Path = \"C:\\Tools\"",
])
def test_adding_to_it_and_other_variables_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
