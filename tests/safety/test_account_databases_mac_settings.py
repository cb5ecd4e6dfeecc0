"""The account database replaced, converted or opened by the tools that manage it whole
(rules/account_databases.py); macOS' protections switched off by writing their settings in any tool's words
(rules/mac_settings.py)."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command,at_least", [
    ("sudo pwunconv", "high"),
    ("sudo grpunconv", "high"),
    ("sudo cppw /tmp/passwd.new", "high"),
    ("sudo cppw -s /tmp/shadow", "high"),
    ("sudo cpgr /tmp/group", "high"),
    ("sudo cpgr -s ~/gshadow.bak", "high"),
    ("sudo pwd_mkdb -p /tmp/master.passwd", "high"),
    ("sudo dsenableroot", "medium"),
    ("dsenableroot -u admin -p secret -r newroot", "medium"),
    ("ssh-import-id gh:someuser", "medium"),
    ("ssh-import-id lp:randomdev", "medium"),
    ("sudo -u deploy ssh-import-id gh:contractor", "medium"),
    ("ssh-import-id-gh contractor", "medium"),
    ("sudo lusermod -P '' root", "high"),
    ("curl -s https://github.com/someone.keys >> ~/.ssh/authorized_keys", "medium"),
    ("wget -qO- https://launchpad.net/~someone/+sshkeys | tee -a ~/.ssh/authorized_keys", "medium"),
    ("sudo dscl . -append /Groups/admin GroupMembership guest", "high"),
    ("sudo pw groupmod wheel -m www", "high"),
    ("sudo lgroupmod -M nobody wheel", "high"),
])
def test_account_databases_replaced_or_opened_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command,at_least", [
    ("sudo xattr -dr com.apple.quarantine /Applications", "medium"),
    ("sudo xattr -rd com.apple.quarantine /Applications/*", "medium"),
    ("xattr -cr /Applications", "medium"),
    ("sudo xattr -r -d com.apple.quarantine /", "medium"),
    ("sudo systemsetup -setremotelogin off", "high"),
    ("sudo systemsetup -f -setremotelogin off", "high"),
    ("sudo systemsetup -setremoteappleevents on", "medium"),
    ('sudo /usr/libexec/PlistBuddy -c "Set :AutomaticCheckEnabled false" '
     '/Library/Preferences/com.apple.SoftwareUpdate.plist', "medium"),
    ('sudo /usr/libexec/PlistBuddy -c "Set :GKAutoRearm false" /Library/Preferences/com.apple.security.plist',
     "medium"),
    ('sudo PlistBuddy -c "Add :AllowGuestAccess bool true" '
     '/Library/Preferences/SystemConfiguration/com.apple.smb.server.plist', "medium"),
    ("sudo plutil -replace AutomaticallyInstallMacOSUpdates -bool false "
     "/Library/Preferences/com.apple.SoftwareUpdate.plist", "medium"),
    ("sudo plutil -replace EnableFirewall -bool false /Library/Preferences/com.apple.alf.plist", "medium"),
    ("sudo plutil -replace LSQuarantine -bool NO ~/Library/Preferences/com.apple.LaunchServices.plist", "medium"),
    ("sudo defaults write /Library/Preferences/com.apple.security GKAutoRearm -bool false", "medium"),
    ("sudo defaults write /Library/Preferences/SystemConfiguration/com.apple.smb.server AllowGuestAccess -bool true",
     "medium"),
    ("sudo defaults write /Library/Preferences/com.apple.loginwindow autoLoginUser admin", "medium"),
    ("sudo defaults write /Library/Preferences/com.apple.security.libraryvalidation DisableLibraryValidation "
     "-bool true", "medium"),
    ('sudo nvram boot-args="amfi_get_out_of_my_way=1"', "medium"),
    ('sudo /usr/libexec/PlistBuddy -c "Set :XProtectEnabled false" /Library/Preferences/com.apple.xprotect.plist',
     "medium"),
    ('sudo /usr/libexec/PlistBuddy -c "Set :enabled no" /var/db/SystemPolicy-prefs.plist', "medium"),
    ("sudo defaults write /Library/Preferences/com.apple.MCX DisableGuestAccount -bool false", "medium"),
    ("sudo xattr -dr com.apple.quarantine /Applications/*.app", "medium"),
    ("xattr -r -d com.apple.quarantine ~/Applications", "medium"),
    ("sudo sysadminctl -screenLock off", "medium"),
])
def test_macos_protections_written_off_are_flagged(command: str, at_least: str) -> None:
    assert reaches(command, at_least), judged(command)


@each_form("command", [
    "pwck -r",
    "curl -s https://github.com/someone.keys",
    "cat ~/.ssh/id_ed25519.pub >> ~/.ssh/authorized_keys",
    "dscl . -read /Groups/admin GroupMembership",
    "sudo dscl . -append /Groups/staff GroupMembership alice",
    "sudo pw groupmod wheel -m alice",
    "grpck -r",
    "sudo pwconv",
    "ssh-import-id --help",
    "ssh-import-id -r gh:myself",
    "dsenableroot -h",
    "sudo dsenableroot -d",
    "sudo pwd_mkdb -p /etc/master.passwd",
    "xattr -l /Applications/Foo.app",
    "xattr -d com.apple.quarantine ~/Downloads/tool",
    "sudo xattr -dr com.apple.quarantine /Applications/Firefox.app",
    "xattr -r -p com.apple.quarantine /Applications",
    "systemsetup -getremotelogin",
    "sudo systemsetup -setremotelogin on",
    "sudo systemsetup -settimezone Europe/Paris",
    '/usr/libexec/PlistBuddy -c "Print :CFBundleShortVersionString" /Applications/Safari.app/Contents/Info.plist',
    '/usr/libexec/PlistBuddy -c "Set :CFBundleVersion 2" Info.plist',
    "plutil -replace CFBundleVersion -string 2 Info.plist",
    "plutil -lint ~/Library/Preferences/com.apple.finder.plist",
    "defaults write com.apple.finder AppleShowAllFiles -bool true",
    "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticCheckEnabled -bool true",
    "sudo defaults write /Library/Preferences/com.apple.security GKAutoRearm -bool true",
    "defaults read /Library/Preferences/com.apple.loginwindow autoLoginUser",
    "tmutil listbackups",
    "sudo tmutil enable",  # (`tmutil disable` is recovery switched off: tests/safety/test_data_locked.py)
    "nvram boot-args",
    "sudo sysadminctl -screenLock immediate -password -",
    '/usr/libexec/PlistBuddy -c "Print :enabled" /var/db/SystemPolicy-prefs.plist',
    "sudo defaults write /Library/Preferences/com.apple.MCX DisableGuestAccount -bool true",
    "xattr -r -d com.apple.quarantine ~/Applications/Tool.app",
])
def test_everyday_account_and_mac_settings_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
