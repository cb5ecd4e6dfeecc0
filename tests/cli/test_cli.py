"""CLI commands that run without the daemon, and main()'s error handling."""
import os

from click.testing import CliRunner

from aish.cli.exit_status import ExitStatus
from aish.cli.main import cli
from aish.cli.scripts import script_path
from tests.helpers import aish_here as aish


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)



def test_config_path_init_show(aish_env):
    assert run("config", "path").output.strip() == os.environ["AISH_CONFIG"]
    first = run("config", "init")
    assert first.exit_code == 0 and "wrote" in first.output
    assert os.path.exists(os.environ["AISH_CONFIG"])
    shown = run("config", "show")
    assert 'model = "qwen2.5-coder-7b"' in shown.output


def test_config_init_refuses_to_overwrite_with_a_one_line_error(aish_env):
    assert aish("config", "init").returncode == 0
    again = aish("config", "init")
    assert again.returncode == 1
    assert again.stderr.strip().startswith("aish: ") and "--force" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and "Traceback" not in again.stderr


def test_bad_config_is_one_line_no_traceback(config_file):
    config_file("[models.fast]\nendpoint = 5\n")
    result = aish("config", "show")
    assert result.returncode == ExitStatus.CONFIG
    assert "models.fast.endpoint must be a string" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_init_prints_the_shell_scripts_verbatim():
    for shell in ("zsh", "bash"):
        # the five files as one text: eval knows no path to source the others from
        assert run("init", shell).output == (script_path(shell).read_text()
                                             + script_path(shell, "aish.common.sh").read_text()
                                             + script_path(shell, f"aish.request.{shell}").read_text()
                                             + script_path(shell, f"aish.steps.{shell}").read_text()
                                             + script_path(shell, f"aish.lazy.{shell}").read_text())


def test_doctor_reports_each_failure_with_a_fix(config_file):
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n'
                '[models.cloud]\nendpoint = "https://cloud.invalid"\nmodel = "c"\nkey_env = "AISH_TEST_NO_SUCH_KEY"\n')
    result = aish("doctor", env={"SHELL": "/bin/zsh", "ZDOTDIR": str(os.path.dirname(os.environ["AISH_CONFIG"]))})
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ok   config:")
    fast = next(line for line in lines if "model fast" in line)
    assert fast.startswith("FAIL") and "Connection refused" in fast and "->" in fast
    cloud = next(line for line in lines if "model cloud" in line)
    assert "$AISH_TEST_NO_SUCH_KEY is not set" in cloud and "export AISH_TEST_NO_SUCH_KEY" in cloud
    shell = next(line for line in lines if line.split(" ", 1)[1].startswith("shell") or " shell:" in line)
    assert shell.startswith("FAIL") and 'eval "$(aish init zsh)"' in shell


def test_doctor_prints_an_errors_hint_once(config_file, tmp_path):
    """A failing check shows the error's hint as its fix, not also inside the detail."""
    config_file('[models.fast]\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n')
    target = tmp_path / "real"
    target.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(target)
    result = aish("doctor", env={"SHELL": "/bin/zsh", "AISH_RUNTIME_DIR": str(link)})
    line = next(line for line in result.stdout.splitlines() if "runtime dir" in line)
    hint = "remove it, or set AISH_RUNTIME_DIR to a private directory"
    assert line.startswith("FAIL") and line.endswith(f"-> {hint}")
    assert line.count(hint) == 1, line


def test_help_of_a_daemon_verb_starts_no_daemon(aish_env):
    from aish.daemon import runtime

    for args in (("ask", "--help"), ("ask", "-h"), ("cost", "--help")):
        result = aish(*args)
        assert result.returncode == 0 and "Usage:" in result.stdout, (args, result.stderr)
        assert not runtime.is_running(), args  # help is answered here, no daemon forked for it


def model_line(config_file, toml: str) -> str:
    config_file(toml)
    result = aish("doctor", env={"SHELL": "/bin/zsh"})
    return next(line for line in result.stdout.splitlines() if " model fast:" in line)


def test_doctor_accepts_a_model_name_a_one_model_server_ignores(config_file):
    """The README's own example names "qwen2.5-coder-7b"; llama.cpp serves its one model whatever
    the request names, and lists it under its file name."""
    from tests.stub_server import StubServer

    with StubServer(models=["qwen2.5-coder-7b-instruct-q4_k_m.gguf"], owned_by="llamacpp") as stub:
        line = model_line(config_file, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "qwen2.5-coder-7b"\n')
    assert line.startswith("ok  ") and "llama.cpp" in line and "qwen2.5-coder-7b-instruct-q4_k_m.gguf" in line
    assert "4,096-token window" in line


def test_doctor_still_fails_a_model_a_many_model_server_does_not_serve(config_file):
    from tests.stub_server import StubServer

    with StubServer(models=["a", "b"], owned_by="vllm") as stub:
        line = model_line(config_file, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "c"\n')
    assert line.startswith("FAIL") and "'c' is not served" in line


def test_doctor_behind_a_gateway_tries_the_model_and_reports_a_dead_upstream(config_file):
    """A LiteLLM proxy lists its models whether or not their servers are up."""
    from tests.stub_server import Reply, StubServer

    with StubServer(models=["local"]) as stub:
        stub.gateway = True
        stub.queue_plain(Reply(status=500, error_body={"error": {
            "message": "litellm.APIConnectionError: OpenAIException - Connection error.", "code": "500"}}))
        line = model_line(config_file, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "local"\n')
        assert line.startswith("FAIL") and "LiteLLM" in line and "Connection error" in line
        assert len(stub.plain_requests) == 1 and stub.plain_requests[0]["body"]["max_tokens"] == 1
        line = model_line(config_file, f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "local"\n')
    assert line.startswith("ok  ") and "answers through LiteLLM" in line
