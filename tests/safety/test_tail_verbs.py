"""The long tail's verbs for programs no rule names (rules/tail_verbs.py and the four readings it asks), one
(loud, quiet) table per mechanism: each loud form's program is one no rule or corpus knew, and the quiet forms
are the same programs' everyday words (or the everyday look-alikes of the mechanism)."""
from __future__ import annotations

from pathlib import Path

from tests.safety.forms import corpus_floor, loud_and_quiet, table_holds
from tests.safety.kept import assess

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "effects" / "tail_s16"

# An account, node, peer or registration taken out of service (rules/out_of_service.py).
OUT_OF_SERVICE = (
    ["zitadel-ctl users deactivate 18433", "authentik-admin user deactivate jdoe", "keycloak-cli users deactivate jdoe",
     "cellctl node unregister node3", "fabricctl peer deregister peer0.org1", "lmadmin deactivate-user bob",
     "idmctl account deactivate alice", "ccadm retire-node n17", "tenantctl offboard acme-corp",
     "beegfs-ctl --unregister --nodetype=meta 2", "srvtool -sr_unregister", "runnerctl deregister --runner-id 42",
     "mdmctl device unenroll LAPTOP-0042", "jamfctl computer unenroll 1042", "hubadmin member offboard 991",
     "lfsctl --device fs-OST0003-osc deactivate", "qryctl deactivateUser bob", "qryctl deregisterInstance i-1",
     "qryctl --server h1 users deactivate bob", "zorg-deregister node3", "deregister-node.sh n3",
     "unregister-runner.sh"],
    ["vpnkit deactivate", "wpx plugin deactivate akismet", "extmgr disable dark-mode", "envctl deactivate",
     "runnerctl unregister", "ssoadm user list", "idmctl account disable --help", "featurectl flag disable beta-ui",
     "portalctl users list", "lmadmin activate-user bob", "cellctl node register node3",
     "idmctl account disable alice", "ssoadm user suspend carol", "portalctl users lock dave",
     "finctl retirement calc 2040", "deactivate", "zorg-deactivate",
     "spack deactivate py-numpy", "cloudctl provider unregister --namespace Compute.Batch"])
# A cluster's or a storage system's member removed by an option fusing the verb with it (rules/fused_options.py).
FUSED_MEMBER_OPTIONS = (
    ["tgtctl --deletetarget 12", "beegfs-ctl --removenode --nodetype=storage 3", "gridadm --delete-node n3",
     "lbctl --remove-host web1", "clusteradm --removemember m2", "nfsadm --delete-export /srv/projects",
     "overlayctl --del-peer 10.0.0.4", "glusteradm --remove-brick srv2:/b1", "lustrectl --rmost=OST0004",
     "zorgadm --deletejob 12", "zorgadm --delete-run r1", "zorgadm --delete-experiment e1"],
    ["fooctl --remove-tag v1", "tagedit --remove-args quiet", "imgtool --deleteProperty profile x.png",
     "gridadm --list-nodes", "lbctl --add-host web1",
     "hostctl --remove-host myapp.local", "clusteradm --removemember", "tgtctl --deletetarget --help",
     "todoctl --remove-task t1"])
# A workflow's stored work cleaned, or a tool's whole state reset (rules/state_cleared.py).
STATE_CLEARED = (
    ["toil clean aws:us-west-2:my-jobstore", "toil clean file:/scratch/js", "flowrun clean -f", "jobstore clean --all",
     "wfengine clean run_2024_03", "dagctl clean -f", "pipeline-ctl cleanup --all", "logidx clean eventdata -f",
     "orbx reset", "rigctl reset --hard", "vaultlite reset", "ringctl reset -y",
     "cachectl clean --store s3://ci-bucket/cache", "buildcache clean --remote=gs://team-cache/bazel",
     "zorgq reset --children", "zorgq reset jobs", "zorgq reset queue orders", "ledgerd reset @main",
     "clusterkit uninstall", "edgeagent uninstall", "vpnbox uninstall", "dataplane deinstall"],
    ["xmake clean --all", "dune clean", "mill clean", "pants clean-all", "flowrun clean -n",
     "jobstore cache clean --all", "wfengine clean --dry-run", "lightctl reset gamma", "ringctl reset --soft",
     "docsgen clean", "colorctl reset", "rigctl reset sensor2", "nx reset",
     "task clean --force", "flowrun clean build", "orbx start", "zorg clean --url https://api.example.com",
     "zorgq reset key", "zorgq reset user bob", "zorgq reset /path/to/key", "zorgq reset --keep-data",
     "hookctl uninstall", "vpnbox uninstall -c", "vpnbox uninstall --keep-data", "vpnbox completion uninstall",
     "vpnbox uninstall --dry-run"])
# A server or a range of instances stopped, a node or cluster cleaned, by name or target (rules/named_stops.py).
NAMED_STOPS = (
    ["xyz-server-stop", "gateway-server-stop", "meshd-broker-stop", "stop-brokers.sh", "nodeclean",
     "cleanup-cluster.sh", "dbclean --all", "abc-cleanup.sh --all", "foo_multi stop 1-8", "ringctl stop node[01-08]",
     "xyzctl stop gateway", "brokerctl stop broker1", "mdsadm stop mds0", "pdsh -w host[01-06] xyz-server-stop",
     "lsfnodeclean", "cwltool-clean --all", "brokerctl stop all-brokers", "pdsh -w oss[1-8] lustre-ost-stop",
     "qryctl --host h stop gateway", "qryctl instance stop 1-8", "qryctl stop all-instances",
     "qryctl stop --name gateway", "zorg-server-reset", "clean-zorg-data.sh", "zorg-clean-data", "reset-db.sh"],
    ["stopwatch", "backstop test", "./cleanup.sh", "tmpclean --all", "svcmgr stop web", "xyzctl status gateway",
     "xyzctl start gateway", "xyz-server-stop --help", "foo_multi stop 3", "brokerctl stop consumer-app",
     "pm2 stop app", "limactl stop vm1", "dot_clean -f path/to/directory", "elm-clean", "cwltool-clean",
     "qryctl --host h stop web", "multipass stop primary", "pm2 stop server", "lxc stop server1", "pm2 stop 0-3",
     "reset-user-password bob", "docker-clean-data", "clean-build-data", "zorg-reset",
     "gradle-cleanup --force"])


def test_out_of_service():
    table_holds(OUT_OF_SERVICE)


def test_fused_member_options():
    table_holds(FUSED_MEMBER_OPTIONS)


def test_state_cleared():
    table_holds(STATE_CLEARED)


def test_named_stops():
    table_holds(NAMED_STOPS)


def test_tail_corpus_destructive_forms_are_flagged():
    corpus_floor(CORPUS / "destructive.txt", 0.9, 100)  # 540b16c: 41.9% and 31.2% of its two batches


def test_tail_corpus_everyday_forms_stay_quiet():
    loud, quiet = loud_and_quiet(CORPUS / "everyday.txt")
    assert len(quiet) >= 240 and len(loud) <= 6, "\n".join(loud)  # older rules' prunes and purges (see the file)


def test_tail_reasons_read_as_one_short_line_naming_the_program():
    tables = (OUT_OF_SERVICE, FUSED_MEMBER_OPTIONS, STATE_CLEARED, NAMED_STOPS)
    bad = []
    for command in (c for loud, _ in tables for c in loud):
        verdict = assess(command)
        reason = verdict.reason if verdict else ""
        program = command.split()[0].rsplit("/", 1)[-1] if not command.startswith("pdsh") else "stop"
        if not reason or "\n" in reason or len(reason) > 200 or program not in reason:
            bad.append(f"{command}: {reason!r}")
    assert not bad, "\n".join(bad)
