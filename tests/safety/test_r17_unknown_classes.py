"""Round 17's classes F and G, read for any program: what a tool's default does when it only says what it would
do (documentation viewers, dry runs by default, print-only letters, requests built offline), and what moves money,
removes the parts a system needs or cleans up with force in the words of tools no rule names."""
from tests.safety.forms import misjudged


def test_documentation_viewers_read_about_what_they_name():
    quiet = ["tldr killall", "man shutdown", "info rm", "cheat kill", "whatis halt", "apropos delete", "help kill",
             "pinfo rm", "tealdeer shutdown", "tlrc reboot", "woman rm", "run-help kill", "perldoc -f unlink",
             "pydoc shutil.rmtree", "ri FileUtils.rm_rf", "man 8 reboot", "tldr --platform linux poweroff"]
    flagged = ["man rm > /etc/passwd", "info -o /etc/passwd rm", "sudo shutdown -h now"]
    assert misjudged(flagged, quiet) == []


def test_tools_whose_default_is_a_dry_run_act_only_when_told():
    quiet = ["aws-nuke -c cfg.yaml", "aws-nuke run --config nuke-config.yml --profile prod",
             "azure-nuke run --config cfg.yaml", "gcp-nuke run --config cfg.yaml --project-id p1",
             "octodns-sync --config-file prod.yaml", "rdfind ~/Pictures", "duperemove -r /srv/data",
             "cloud-nuke inspect-aws", "cloud-nuke inspect-gcp --region us-east1", "git-sweep preview",
             "pulumi preview --diff", "terraform plan -destroy", "tofu plan -destroy", "dnscontrol preview",
             "az deployment group what-if -g rg1 -f main.bicep", "tfmigrate plan"]
    flagged = ["aws-nuke -c cfg.yaml --no-dry-run", "azure-nuke run --config cfg.yaml --no-dry-run",
               "gcp-nuke run --config cfg.yaml --no-dry-run --force", "cloud-nuke aws",
               "octodns-sync --config-file prod.yaml --doit", "octodns-sync --doit --force",
               "rdfind -deleteduplicates true ~/Pictures", "pulumi destroy --yes", "terraform destroy -auto-approve",
               "ldap-sync --doit --force", "s3-cleanup --no-dry-run --yes", "branch-cleaner --for-real -f",
               "gh-prune --dry-run=false --yes", "dns-sync --no-dry-run --force"]
    quiet += ["ldap-sync --doit", "s3-cleanup --dry-run --yes", "gh-prune --dry-run=true --yes"]
    assert misjudged(flagged, quiet) == []


def test_print_only_letters_and_offline_requests():
    quiet = ["newfs_exfat -N /dev/disk2s1", "newfs_hfs -N /dev/disk2s2", "newfs -N /dev/ada0p2",
             "newfs_msdos -N /dev/da0s1", "mkfs.ext4 -n /dev/sdb1", "mke2fs -n /dev/sdb1", "mkfs.xfs -N /dev/sdb1",
             "mkntfs -n /dev/sdb1", "http --offline DELETE example.com/api/x", "https --offline DELETE example.com/x",
             "xh --offline DELETE example.com/api/items/7", "xhs --offline DELETE example.com/api/items/7"]
    flagged = ["newfs_exfat /dev/disk2s1", "newfs_hfs /dev/disk2s2", "mkfs.ext4 /dev/sdb1",
               "http DELETE example.com/api/x", "xh DELETE example.com/api/items/7"]
    assert misjudged(flagged, quiet) == []


def test_money_moved_by_any_wallet_or_chain_command_line():
    flagged = ["bitcoin-cli sendtoaddress bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh 4.2",
               "bitcoin-cli sendtoaddress ADDR 4.2", "lightning-cli withdraw ADDR all",
               "monero-wallet-cli --command sweep_all 44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsa"
               "BYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A",
               'cast send $TOKEN "transfer(address,uint256)" $TO 1000 --private-key $PK',
               "litecoin-cli sendtoaddress ltc1qg82tj7hgmq6tjhzxr6ylz4nf3a3d9rcgj5mqjy 10",
               "dogecoin-cli sendmany \"\" '{\"DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L\":100}'",
               "zcash-cli z_sendmany zs1abc '[{\"address\":\"t1abc\",\"amount\":1}]'",
               "solana transfer 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU 10 --allow-unfunded-recipient",
               "spl-token transfer EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v 100 "
               "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
               "lncli sendcoins --addr bc1qabc --sweepall",
               "lncli payinvoice lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3",
               "electrum payto bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh !",
               "sui client transfer-sui --to 0x1a2b --sui-coin-object-id 0x3c --gas-budget 1000",
               "aptos account transfer --account 0x1 --amount 100", "near send alice.near bob.near 10",
               "bitcoin-cli send '{\"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh\": 0.1}'",
               "geth attach --exec 'eth.sendTransaction({from:eth.accounts[0],to:\"0xabc\",value:1e18})'"]
    quiet = ["bitcoin-cli getbalance", "bitcoin-cli listunspent", "solana balance", "lncli walletbalance",
             "git send-email --to x@y.z 0001.patch", "croc send ~/file.txt", "wormhole send report.pdf",
             "globus transfer a:/x b:/y", "exabgp withdraw route 10.0.0.0/24", "electrum help payto",
             "npm run send 3", "geth attach --exec 'eth.getBalance(eth.accounts[0])'",
             "cast call $TOKEN 'balanceOf(address)' $ME"]
    assert misjudged(flagged, quiet) == []


def test_essential_packages_removed_by_any_package_manager():
    flagged = ["pikaur -Rdd --noconfirm glibc", "kiss r musl", "trizen -R systemd", "pakku -Rdd glibc", "aura -R sudo",
               "pacaur -Rns linux", "nala remove libc6", "nala purge sudo", "prt-get remove glibc", "pisi remove sudo",
               "tdnf remove systemd", "microdnf remove glibc", "pkgin remove sudo", "rpm-ostree override remove sudo",
               "equo remove sys-libs/glibc", "cave uninstall sys-apps/systemd", "guix remove bash",
               "pacman -Rdd glibc", "rpm -e --nodeps glibc", "apt remove libc6"]
    quiet = ["kiss r htop", "pikaur -Rs htop", "pacman -Rs htop", "apt remove cowsay", "pikaur -Ss glibc",
             "kiss b musl", "nala show libc6", "guix install bash", "conda remove python", "git rm bash",
             "docker rm init"]
    assert misjudged(flagged, quiet) == []


def test_clones_and_wrappers_judged_as_the_tool_they_stand_for():
    flagged = ["bfs / -type f -delete", "rmz dir1 dir2", "rmz ~/Documents", "rip ~/Documents", "rip2 ~/Documents",
               "etckeeper vcs reset --hard HEAD~5", "etckeeper vcs clean -fdx", "git-sweep cleanup --force",
               "git-trim --no-confirm", "git-gone --force", "git-clean-branches -f", "git-branch-cleaner --yes",
               "git-delete-squashed-branches --force", "safe-rm -rf ~/Documents", "hub reset --hard HEAD~5"]
    quiet = ["bfs . -name '*.o'", "rip -u", "rip2 --seance", "rmz build/", "etckeeper vcs log",
             "etckeeper vcs status", "git-sweep preview", "git-sweep cleanup", "git-trim --dry-run", "git-trim",
             "git-open --force"]
    assert misjudged(flagged, quiet) == []


def test_uploads_that_delete_the_local_copy_and_whole_key_ranges():
    flagged = ["immich upload --delete --recursive ~/Pictures", "gphotos-uploader-cli push --delete",
               "icloudpd --directory ~/p --delete-after-download", "immich-go upload --delete ~/Photos",
               "osxphotos import ~/x --delete-originals", "gdrive upload --delete ~/a.txt",
               "mega-put --move ~/x /Cloud",
               "rsync -av --remove-source-files ~/d b:/srv",
               "fdbcli --exec 'writemode on; clearrange \"\" \\xff'",
               "fdbcli -C fdb.cluster --exec \"writemode on; clearrange '' \\xff\"",
               "ldb --db=/var/lib/app/db deleterange \"\" \"\\xff\"",
               "python3 -c 'db.clear_range(b\"\", b\"\\xff\")'"]
    quiet = ["immich upload --recursive ~/Pictures", "gdrive upload ~/a.txt", "s3cmd sync --delete-after ~/x s3://b",
             "rclone copy ~/x remote: --delete-after", "fdbcli --exec 'writemode on; clearrange a b'",
             "fdbcli --exec 'getrange \"\" \\xff'"]
    assert misjudged(flagged, quiet) == []


def test_key_holders_initialised_or_unbound_and_clones_forced_over_data():
    flagged = ["p11tool --initialize 'pkcs11:token=mytoken'", "clevis luks unbind -d /dev/vda2 -s 2 -f",
               "clevis-luks-unbind -d /dev/vda2 -s 2 -f", "pkcs11-tool --init-token --label x --so-pin 1234",
               "sc-hsm-tool --initialize --so-pin 35 --pin 64", "openpgp-tool --erase", "cardos-tool --format",
               "softhsm2-util --init-token --slot 0 --label t --so-pin 1 --pin 2",
               "repmgr standby clone -h primary -D /var/lib/postgresql/16/main --force", "yadm clone -f https://x/y",
               "dvc init -f"]
    quiet = ["p11tool --list-tokens", "clevis luks list -d /dev/vda2", "pkcs11-tool --list-slots",
             "p11tool --initialize-pin 'pkcs11:token=x'", "clevis luks bind -d /dev/vda2 tang '{}'",
             "yubico-piv-tool -a status", "repmgr standby clone -h primary --dry-run",
             "repmgr standby clone -h primary"]
    assert misjudged(flagged, quiet) == []


def test_an_image_of_ones_own_filled_with_noise_in_place():
    flagged = ["dd if=/dev/urandom of=$HOME/vault.img conv=notrunc",
               "dd if=/dev/zero of=~/vms/win.qcow2 bs=1M count=64 conv=notrunc",
               "dd if=/dev/urandom of=/home/dev/backup.iso conv=notrunc,fsync",
               "dd if=/dev/zero of=~/data.db bs=1M count=10 conv=notrunc"]
    quiet = ["dd if=/dev/urandom of=disk.img bs=1M count=100", "dd if=boot.bin of=~/os/disk.img conv=notrunc",
             "dd if=/dev/zero of=build/os.img bs=512 count=1 conv=notrunc",
             "dd if=/dev/zero of=~/swap.img bs=1M count=1024"]
    assert misjudged(flagged, quiet) == []


def test_a_replica_mode_from_an_empty_source():
    flagged = ["mutagen sync create --sync-mode=one-way-replica ~/empty host:/srv/www",
               "mutagen sync create --sync-mode one-way-replica /tmp/empty user@host:/home/dev",
               "mutagen sync create --name=web --sync-mode=one-way-replica ./blank host:/var/www"]
    quiet = ["mutagen sync create --sync-mode=one-way-safe ~/empty host:/srv/www",
             "mutagen sync create --sync-mode=one-way-replica ~/site host:/srv/staging", "mutagen sync list"]
    assert misjudged(flagged, quiet) == []
