"""The preview of what a flagged command would touch: expansion as the shell would, blast radius
from files, nothing run; and the `var`/`vars` request keys that carry the shell's variables."""
from __future__ import annotations

from aish.ipc.protocol import Request, format_request, parse_request
from aish.ipc.protocol import env_from
from aish.safety.preview import ShellView, preview


def view(tmp_path, env=None, complete=True):
    return ShellView(cwd=str(tmp_path), env={"HOME": str(tmp_path / "home"), **(env or {})}, complete=complete)


def test_unset_variable_expands_to_nothing_so_the_target_is_root(tmp_path):
    line = preview('rm -rf "$DIR"/*', view(tmp_path))
    assert "would run: rm -rf /*" in line and "DIR is not set" in line


def test_set_variable_is_used_and_its_directory_counted(tmp_path):
    (tmp_path / "out" / "a").mkdir(parents=True)
    (tmp_path / "out" / "a" / "f").write_text("x")
    line = preview('rm -rf "$DIR"', view(tmp_path, {"DIR": str(tmp_path / "out")}))
    assert f"would run: rm -rf {tmp_path}/out" in line and "holds 2 entries" in line


def test_glob_counts_matches_in_the_users_cwd(memory_dir):
    """1,204 files (a count with a thousands separator) on the memory file system where there is
    one (tests/conftest.py): on the disk they were a third of what a unit run left to delete."""
    for i in range(1204):
        (memory_dir / f"f{i}.log").touch()
    (memory_dir / ".hidden.log").touch()
    line = preview("rm *.log", view(memory_dir))
    assert "*.log matches 1,204 entries" in line


def test_glob_with_no_match_says_so(tmp_path):
    assert "*.bak matches nothing" in preview("rm *.bak", view(tmp_path))


def test_unknown_variable_when_the_shell_did_not_send_all(tmp_path):
    line = preview("rm -rf $DIR/", view(tmp_path, complete=False))
    assert "DIR is unknown here; if it is unset this is /" in line


def test_withheld_secret_value_is_not_called_unset(tmp_path):
    line = preview('rm -rf "$API_TOKEN"/x', view(tmp_path, {"API_TOKEN": None}))
    assert "API_TOKEN is set (value withheld)" in line and "not set" not in line


def test_guarded_variable_stops_the_shell(tmp_path):
    line = preview('rm -rf "${DIR:?}"/', view(tmp_path))
    assert "stops with an error" in line and "would run" not in line and "holds" not in line


def test_command_substitution_is_never_run(tmp_path):
    marker = tmp_path / "ran"
    line = preview(f"rm -rf $(touch {marker})/x", view(tmp_path))
    assert not marker.exists() and "is not run for the preview" in line


def test_tilde_is_home_and_redirect_truncation_names_the_file(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".bashrc").write_text("x" * 2048)
    assert "would run: rm -rf " + str(tmp_path / "home") in preview("rm -rf ~", view(tmp_path))
    assert "empties " + str(tmp_path / "home" / ".bashrc") + " (2.0 KB)" in preview("> ~/.bashrc", view(tmp_path))


def test_git_branch_and_remote_come_from_the_git_files_without_credentials(tmp_path):
    git = tmp_path / ".git"
    git.mkdir()
    (git / "HEAD").write_text("ref: refs/heads/release\n")
    (git / "config").write_text('[remote "origin"]\n\turl = https://bob:s3cret@example.com/org/app.git\n'
                                '[remote "upstream"]\n\turl = git@example.com:org/app.git\n')
    (tmp_path / "sub").mkdir()
    line = preview("git push -f upstream release", ShellView(cwd=str(tmp_path / "sub")))
    assert "on branch release; pushes release to upstream (git@example.com:org/app.git)" in line
    line = preview("git push --force", ShellView(cwd=str(tmp_path)))
    assert "to origin (https://example.com/org/app.git)" in line and "s3cret" not in line


def test_git_worktree_file_is_followed(tmp_path):
    real = tmp_path / "main.git" / "worktrees" / "wt"
    real.mkdir(parents=True)
    (real / "HEAD").write_text("ref: refs/heads/topic\n")
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text(f"gitdir: {real}\n")
    assert "on branch topic" in preview("git reset --hard", ShellView(cwd=str(tmp_path / "wt")))


def test_kube_context_and_namespace_from_kubeconfig_named_by_the_shell(tmp_path):
    cfg = tmp_path / "kc"
    cfg.write_text("apiVersion: v1\ncontexts:\n- context:\n    cluster: c1\n    namespace: payments\n"
                   "  name: prod-eu\n- context:\n    cluster: c2\n  name: dev\ncurrent-context: prod-eu\n")
    line = preview("kubectl delete deploy api", view(tmp_path, {"KUBECONFIG": str(cfg)}))
    assert "kube context prod-eu, namespace payments" in line
    line = preview("kubectl --context dev delete pod x -n web", view(tmp_path, {"KUBECONFIG": str(cfg)}))
    assert "kube context dev, namespace web" in line


def test_aws_profile_and_region_from_env_and_config(tmp_path):
    aws = tmp_path / "home" / ".aws"
    aws.mkdir(parents=True)
    (aws / "config").write_text("[profile prod]\nregion = eu-west-1\n")
    line = preview("aws s3 rb s3://b --force", view(tmp_path, {"AWS_PROFILE": "prod"}))
    assert "AWS profile prod, region eu-west-1" in line


def test_terraform_workspace_from_its_file(tmp_path):
    (tmp_path / ".terraform").mkdir()
    (tmp_path / ".terraform" / "environment").write_text("production")
    assert "terraform workspace production" in preview("terraform destroy", view(tmp_path))


def test_env_from_withholds_secret_looking_names():
    env = env_from({"DIR": "/x", "GITHUB_TOKEN": "ghp_x", "AWS_SECRET_ACCESS_KEY": "k", "DB_PASSWORD": "p"})
    assert env == {"DIR": "/x", "GITHUB_TOKEN": None, "AWS_SECRET_ACCESS_KEY": None, "DB_PASSWORD": None}


def test_request_carries_variables_and_completeness():
    req = Request(id="a", kind="ask", env={"DIR": "/x y", "TOKEN": None, "EMPTY": ""}, env_complete=True)
    back = parse_request(format_request(req), "a")
    assert back.env == {"DIR": "/x y", "TOKEN": None, "EMPTY": ""} and back.env_complete
    assert parse_request("v=1\nkind=ask\nvar=1BAD=x\n", "b").env == {}


def test_a_variable_assigned_earlier_on_the_line_is_not_called_unset(tmp_path):
    """`d=$(mktemp -d) && cp KEY "$d"/` was previewed as "d is not set, so "$d"/ becomes /": the line sets it first.
    A literal value is used as the shell would; a computed one is said to be set on the line, its value unknown."""
    (tmp_path / "srv" / "old").mkdir(parents=True)
    (tmp_path / "srv" / "old" / "f").write_text("x")
    line = preview('d=$(mktemp -d) && cp ~/.ssh/id_rsa "$d"/ && tar czf - -C "$d" .', view(tmp_path))
    assert "not set" not in line and "becomes /" not in line and "d is set on this line" in line, line
    line = preview(f'D={tmp_path}/srv/old; rm -rf "$D"', view(tmp_path))
    assert f"would run: rm -rf {tmp_path}/srv/old" in line and "holds 1 entry" in line and "not set" not in line, line
    line = preview('export T=$(mktemp); rm -f "$T"', view(tmp_path))
    assert "T is set on this line" in line and "not set" not in line, line
    line = preview('X=1 true; rm -rf "$X"/', view(tmp_path))  # a prefix sets X for `true` alone
    assert "X is not set" in line, line
