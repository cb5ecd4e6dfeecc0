"""The redaction defects measured against the public secret scanners' fixtures, one test each.

The fixtures themselves are not here (bench/bench_secret_recall.py reads them); these are the
same situations with fake values written for this project.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from aish.safety.secrets import Redactor, find_secrets, mask
from tests.safety.forms import each_form

OUTPUTS = Path(__file__).resolve().parents[1] / "corpus" / "outputs"


def redacted(text: str) -> str:
    return Redactor().redact(text)


# ---------------------------------------------------------------- formats without a known prefix
def test_fine_grained_github_token_is_found():
    token = "github_pat_" + "11ABCDEFG0" + "aBcDeFgHiJkLm_NoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012345678"
    assert redacted(token) == "<secret:1>"
    assert redacted(f"GH_TOKEN={token} gh repo list") == "GH_TOKEN=<secret:1> gh repo list"


@each_form("token", [
    "glrt-" + "t1_Xq7Lm2Zk9Vr4Tp8Nw3Bs",                          # GitLab runner authentication token
    "glcbt-" + "64_Xq7Lm2Zk9Vr4Tp8Nw3Bs",                         # GitLab CI/CD job token
    "ASIA" + "Y34FZKBOKMUTVV7A",                                   # AWS temporary access key id
    "ABIA" + "Y34FZKBOKMUTVV7A",
    "ACCA" + "Y34FZKBOKMUTVV7A",
    "AccountKey=" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8Mv4Qp7Lz3NtWb+/Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8Mv4Q==",
    "Xq7" + "8Q~Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx",                 # Azure AD client secret
    "rk_live_" + "51NqLr7xYv2Kd8Qm4Zt0PaWbXq7Lm2Zk9",               # Stripe restricted key
    "gsk_" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8Mv4Qp7Lz3Nt",    # Groq
    "xai-" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8Mv4Qp7Lz3NtWb",  # xAI
    "r8_" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2K",                 # Replicate
    "pplx-" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8Mv4Qp7Lz3Nt",   # Perplexity
    "api_org_" + "XqLmZkVrTpNwBsYcRfHdJgKxMvQpLzNtWb",             # Hugging Face organisation token
    "dckr_pat_" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5",                   # Docker Hub
])
def test_tokens_that_identify_themselves_are_found_alone(token):
    assert redacted(token) == "<secret:1>"


def test_webhook_credentials_are_found():
    url = "https://hooks.slack.com/services/" + "T0ABCDEFG/B0HIJKLMN/Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1"
    assert redacted(f"curl -X POST {url}") == "curl -X POST https://hooks.slack.com/services/<secret:1>"


# ---------------------------------------------------------------- names and syntaxes
@each_form("text, secret", [
    ("STRIPE_KEY=a8Fj2kQ9zX4mN7pLw3Rt", "a8Fj2kQ9zX4mN7pLw3Rt"),
    ("export ACCOUNT_KEY='Zq8vN3kL0pX7rT2yW5mB'", "Zq8vN3kL0pX7rT2yW5mB"),
    ("SECRET_KEY_BASE=9f3c8a1e7b2d4f60a5c9e8d7b6a1f2e3", "9f3c8a1e7b2d4f60a5c9e8d7b6a1f2e3"),
    ("GH_PAT=Qm7Rk2Xv9Lp4Tz8Nw1Hs", "Qm7Rk2Xv9Lp4Tz8Nw1Hs"),
    ("NPM_AUTH=bnBtdXNlcjpucG1wYXNzd29yZDEyMw==", "bnBtdXNlcjpucG1wYXNzd29yZDEyMw=="),
    ('{"key": "Xk29vLq8PzR4mN7tW2yB5cD"}', "Xk29vLq8PzR4mN7tW2yB5cD"),
    ("key: Xk29vLq8PzR4mN7tW2yB5cD1", "Xk29vLq8PzR4mN7tW2yB5cD1"),
    ('apiKey := "Hq7Zp2Lx9Vk4Tm8R"', "Hq7Zp2Lx9Vk4Tm8R"),
    ("'password' => 'Tr0ub4dor&3xYz',", "Tr0ub4dor&3xYz"),
    ("API_TOKEN ?= Mx8Qp2Zr7Lk4Vn9T", "Mx8Qp2Zr7Lk4Vn9T"),
    ("<password>s3cr3t-Pa55</password>", "s3cr3t-Pa55"),
    ("<apiToken>\n    Wq9Lx2Pz7Rk4Tn8V\n</apiToken>", "Wq9Lx2Pz7Rk4Tn8V"),
    ("env:\n  - name: DB_PASSWORD\n    value: Kx9pL2mQ7rZ4\n", "Kx9pL2mQ7rZ4"),
    ("CREATE USER app IDENTIFIED BY 'Vq7Lm2Xz9Pk4';", "Vq7Lm2Xz9Pk4"),
    ("curl -X POST https://ci.example.com/job \\\n  -u admin:Zr8Kq3Lm7Xv2 \\\n  -d x=1", "Zr8Kq3Lm7Xv2"),
    ("Cookie: _app_session=Lq8Zx2Vm9Kr4Tp7Nw3Bs6Yc1; logged_in=yes", "Lq8Zx2Vm9Kr4Tp7Nw3Bs6Yc1"),
    ("curl -b 'sessionid=k8Zq2Lm9Xv4Rt7Pn3Wy5Bc1; theme=dark' https://app.example.com/me", "k8Zq2Lm9Xv4Rt7Pn3Wy5Bc1"),
    ("curl 'https://maps.example.com/api/geocode?key=Zx9Lq2Vm7Rk4Pt8N&q=paris'", "Zx9Lq2Vm7Rk4Pt8N"),
    ("git clone https://Tk7Lq2Zx9Vm4Rp8Nw3Bs6Yc1@git.example.com/team/repo.git", "Tk7Lq2Zx9Vm4Rp8Nw3Bs6Yc1"),
])
def test_a_secret_name_holds_a_secret_in_every_syntax(text, secret):
    out = redacted(text)
    assert secret not in out and "<secret:1>" in out


def test_spans_cover_the_whole_secret():
    assert redacted("DB_PASSWORD=Tr0ub4dor&3xYz ./migrate") == "DB_PASSWORD=<secret:1> ./migrate"
    routable = "glpat-" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0" + ".01.a1b2c3d4e"
    assert redacted(f"token: {routable}") == "token: <secret:1>"


# ---------------------------------------------------------------- what is not a secret
@each_form("text", [
    "token = session.token",
    "api_key = config.api_key",
    "const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY });",
    "apiKey: process.env.OPENAI_API_KEY,",
    "auth:\n  existingSecret: api-secrets\n",
    "Data\n====\npassword:  24 bytes\nusername:  8 bytes\n",
])
def test_references_to_a_secret_are_left_alone(text):
    assert redacted(text) == text


def test_go_short_assignment_keeps_its_operator():
    assert redacted('apiKey := "Hq7Zp2Lx9Vk4Tm8R"') == 'apiKey := "<secret:1>"'


def test_a_short_value_is_not_replaced_wherever_it_appears():
    r = Redactor()
    assert r.redact("POSTGRES_PASSWORD: postgres") == "POSTGRES_PASSWORD: <secret:1>"
    later = "image: postgres:16\nPOSTGRES_USER: postgres\nDATABASE_URL: postgres://postgres@db/app"
    assert r.redact(later) == later
    r = Redactor()
    assert r.redact("DOCKER_PASSWORD=docker") == "DOCKER_PASSWORD=<secret:1>"
    assert r.redact("docker ps") == "docker ps"


def test_a_known_value_is_replaced_alone_but_never_inside_other_words():
    r = Redactor()
    r.redact("export API_TOKEN=Xk29vLq8PzR4mN7t")
    assert r.redact("auth failed for Xk29vLq8PzR4mN7t") == "auth failed for <secret:1>"
    assert r.redact("id-Xk29vLq8PzR4mN7tW2 and aXk29vLq8PzR4mN7t") == "id-Xk29vLq8PzR4mN7tW2 and aXk29vLq8PzR4mN7t"


@pytest.mark.parametrize("path", sorted(OUTPUTS.iterdir()), ids=lambda p: p.name)
def test_everyday_outputs_are_left_alone(path):
    """Real outputs: hashes, digests, UUIDs, integrity strings, public keys, code that refers to secrets."""
    text = path.read_text(encoding="utf-8")
    assert [text[a:b] for a, b in find_secrets(text)] == []


# ---------------------------------------------------------------- placeholders
def test_placeholders_never_collide_with_text_already_there():
    r = Redactor()
    text = "the docs say <secret:1> and <secret:2>; my key is sk-proj-Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1"
    out = r.redact(text)
    assert "<secret:3>" in out and out.count("<secret:1>") == 1 and out.count("<secret:2>") == 1
    assert r.restore(out) == text
    # a placeholder this redactor issued, pasted back as text, is itself replaced: restoring gives the text
    pasted = r.redact("the model wrote <secret:3> earlier")
    assert "<secret:3>" not in pasted and r.restore(pasted) == "the model wrote <secret:3> earlier"


def test_only_the_exact_placeholder_spelling_is_restored():
    r = Redactor()
    r.redact("TOKEN=abc123xyz789")
    assert r.restore("<secret:1> <SECRET:1> <secret:01> <Secret:1>") == "abc123xyz789 <SECRET:1> <secret:01> <Secret:1>"


def test_numbers_are_stable_across_a_conversation():
    r = Redactor()
    first = r.redact("export TOKEN=Xk29vLq8PzR4mN7t")
    second = r.redact("PASSWORD=Tr0ub4dor&3xYz and TOKEN=Xk29vLq8PzR4mN7t again")
    assert first == "export TOKEN=<secret:1>"
    assert second == "PASSWORD=<secret:2> and TOKEN=<secret:1> again"
    restore = r.restorer()
    chunks = ["run: TOKEN=<sec", "ret:1", "> PASSWORD=<", "secret:2>", " done"]
    assert "".join(restore(c) for c in chunks) + restore.flush() == \
        "run: TOKEN=Xk29vLq8PzR4mN7t PASSWORD=Tr0ub4dor&3xYz done"


def test_mask_shows_stars():
    assert mask("export GITHUB_TOKEN=ghp_" + "Xq7Lm2Zk9Vr4Tp8Nw3Bs6Yc1Rf5Hd0Jg2Kx8M") == "export GITHUB_TOKEN=***"


# ---------------------------------------------------------------- pathological inputs
@pytest.mark.timeout(60)
@pytest.mark.parametrize("text", [
    "secret." * 50_000,
    "curl " * 80_000,
    json.dumps([{"cmd": "curl -s https://x.test/a | mysql -h db -u app -p", "n": i} for i in range(8000)]),
    "-----BEGIN PRIVATE KEY-----\n" * 15_000,
], ids=["secret-dot", "curl", "json-curl-mysql", "pem-headers"])
def test_pathological_inputs_take_linear_time(text):
    """350-400 KB each: quadratic work here took minutes; the figures are in bench/bench_secrets.py
    (this only guards the complexity with a bound far above the linear time)."""
    assert Redactor().redact(text) == text
