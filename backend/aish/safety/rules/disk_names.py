"""Disks and partitions as manuals and cheat sheets name them (`/dev/sdX`, `/dev/sdXN`, `path/to/partition`):
placeholders a user copies and fills in, judged as the disks they stand for."""
from __future__ import annotations

import re
from aish.safety.lazy_regex import lazy

# Disk devices by their kernel names (raw flash `mtd`, SCSI generic `sg`: a write through either reaches the medium),
# and other systems' names for disks, raw and block alike: the BSDs' (`/dev/rsd1c`, `/dev/wd0d`, `/dev/ld0d`, GEOM's
# labels `/dev/gpt/NAME`, `/dev/diskid/…`), Solaris' and volume managers' (`/dev/md/rdsk/d10`, `/dev/vx/dsk/dg/v`),
# multipath and controller names (`/dev/emcpowera`, `/dev/cciss/c0d0p1`), replicated and network block devices.
DEVICE = re.compile(r"^/dev/(sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d|"
                    r"md\d|mapper/|dm-\d|loop\d|sr\d|fd\d|root\b|mtdblock|disk/by-|nbd\d|"
                    r"zd\d|bcache\d|ubi|mem$|kmem$|port$|mtd\d|sg\d|"
                    r"r?dsk/c\d|ada\d|da\d|nvd\d|vtbd\d|mfid\d|mmcsd\d|block/(sd|mmcblk|nvme|vd|dm-|loop)|"
                    r"r?(sd|wd|ld|cd|vnd|raid)\d+[a-p]?$|(gpt|gptid|diskid|label|ufs|ufsid)/.|(md|vx)/r?dsk/.|"
                    r"zvol/.|emcpower[a-z]|(cciss|ida|rd)/c\d|drbd\d|rbd\d|hdisk\d|dasd[a-z])")

# Disks as manuals and cheat sheets name them: a capital letter where the disk's letter or number goes
# (`/dev/sdX`, `/dev/sdXN`, `/dev/nvmeXnY`, `/dev/diskN`), or a name for one (`/dev/usb_drive`,
# `/dev/disk_device`, `path/to/partition`); not a serial port, a camera or an input device.
DEVICE_PLACEHOLDER = re.compile(r"^/dev/(r?disk[A-Z]|(sd|hd|vd|xvd)[A-Z]|nvme[A-Z]|mmcblk[A-Z])|"
                                r"^/dev/((usb|sd|dest|destination|target|source|block|flash|external|"
                                r"storage|removable|boot)_?)?(drive|disk|device|partition|stick|card)"
                                r"(_(device|name|path|drive|disk))?[A-Z\d]*$|^path/to/(block_)?(device|partition)\d*$")
# The same for one partition of a disk (`/dev/sdXN`, `/dev/sdXY`, `/dev/nvmeXnYpZ`, `path/to/partition`).
PARTITION_PLACEHOLDER = lazy(r"^/dev/(sd|hd|vd|xvd)[a-zA-Z][A-Z]$|^/dev/nvme\w+p[A-Z\d]$|^(/dev/|path/to/)"
                             r"(\w+_)?partition\d*$")

# Programs that write a new filesystem, by their name: `mkfs.xfs`, `newfs_msdos`, and the names that put the
# filesystem first (`jfs_mkfs`, `nilfs-mkfs`, `mkfs_xfs`, Android's `make_ext4fs`), and the image builders
# that write one onto their output (`genext2fs`, `genromfs`, `makefs`, `mkjffs2fs`, `genfatfs`): a device
# given them is formatted (an initramfs or ISO builder is not one of them).
MKFS_NAME = re.compile(r"^(mkfs|newfs_)|^\w+[_-]mkfs$|^make_\w*fs$|"
                       r"^(gen|make|mk)(ext\d?|rom|jffs2?|ubi|fat|ffs|ufs|yaffs2?|e2|hfs|xfs|btr|f2)?fs$")

# Disks by the names BSD and Solaris tools take without /dev (`ada1`, `da0`, `nvd0`, `c0t1d0`) and Linux's.
BARE_DISK = re.compile(r"^(ada|ad|da|nda|nvd|vtbd|mfid|mmcsd|sd[a-z]{1,2}|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d+n|"
                       r"mmcblk|c\d+t\d+d)\d*([ps]\d+)?$")


# What every name is_device takes, or a Windows physical drive (`\\\\.\\PhysicalDrive1`), holds.
DEVICE_PARTS = ("/dev/", "path/to/", "\\")


def is_device(path: str) -> bool:
    return bool(DEVICE.match(path) or DEVICE_PLACEHOLDER.match(path))
