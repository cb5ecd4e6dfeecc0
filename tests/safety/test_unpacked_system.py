"""Archives unpacked, or files copied, over the system's own directories by PowerShell, .NET, cmd's
extractors and the tools unpacked_over does not read; libarchive's bsdtar/bsdcpio/bsdunzip as their
plain names."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("Expand-Archive -Path x.zip -DestinationPath C:\\Windows\\System32 -Force", "medium"),
    ("Expand-Archive .\\update.zip -DestinationPath $env:windir -Force", "medium"),
    ("Expand-Archive -LiteralPath C:\\Temp\\p.zip C:\\Windows -Force", "medium"),
    ("Expand-Archive -Path drivers.zip -DestinationPath 'C:\\Program Files' -Force", "medium"),
    ("[System.IO.Compression.ZipFile]::ExtractToDirectory('C:\\Temp\\p.zip', 'C:\\Windows\\System32', $true)",
     "medium"),
    ("7z x update.7z -oC:\\Windows\\System32 -y", "medium"),
    ("extrac32 /Y /E update.cab /L C:\\Windows\\System32", "medium"),
    ("dpkg -x pkg.deb /", "high"),
    ("python3 -m zipfile -e etc.zip /", "high"),
    ("lha xfw=/ backup.lzh", "high"),
    ("pax -rw -pe ./root /", "high"),
    ("bsdunzip -o -d / etc-backup.zip", "high"),
    ("bsdtar -xpf rootfs.tar -C /", "high"),
    ("cd / && bsdcpio -idmu < root.cpio", "high"),
])
def test_unpacked_over_the_system_is_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "Expand-Archive -Path x.zip -DestinationPath .\\x -Force",
    "Expand-Archive x.zip C:\\Temp\\x",
    "Expand-Archive -Path x.zip -DestinationPath C:\\Windows\\Temp\\x",
    "Expand-Archive -Path tools.zip -DestinationPath $env:USERPROFILE\\tools -Force",
    "Compress-Archive -Path C:\\Windows\\Logs -DestinationPath logs.zip",
    "[System.IO.Compression.ZipFile]::ExtractToDirectory('p.zip', 'C:\\Windows\\System32')",
    "7z x update.7z -oC:\\Temp\\update -y",
    "dpkg -x pkg.deb ./extracted",
    "python3 -m zipfile -l etc.zip",
    "bsdunzip -l backup.zip",
    "bsdunzip -o backup.zip -d ./restore",
    "bsdtar -tf backup.tar",
    "bsdtar -xf backup.tar -C /tmp/restore",
    "bsdtar -czf backup.tgz /etc",
    "bsdcpio -it < root.cpio",
    "Copy-Item -Path .\\app\\* -Destination C:\\inetpub\\staging -Recurse",
])
def test_everyday_unpacking_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
