"""Tokens that say what they are: the issuers' published formats, found anywhere in a text.

Most services now issue credentials with a fixed prefix so that scanners can recognise them
without context (``ghp_``, ``glpat-``, ``xoxb-``, ``sk-ant-api03-``, ``AKIA``, ``hf_``, ``npm_``,
``dckr_pat_`` ...).  Each entry below is one issuer's documented shape: the prefix and what
follows (alphabet and length), written here from the vendors' documentation and the public
knowledge the secret scanners share.  A few formats are recognised by an inner mark instead of
a prefix (Telegram's ``:AA``, Azure's ``Q~``, Terraform's ``.atlasv1.``, Mailchimp's ``-us12``).

How it runs in linear time: one pass of a character-class regex finds the runs of token
characters; a run's first two characters index the few prefixes it may start with, and only
those issuers' anchored regexes are tried there.  Inner marks are found with ``str.find``, and
every body has an upper bound.  Structured secrets that span lines
(PEM private keys) and webhook URLs whose path is the credential are here too.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from aish.safety.lazy_regex import LazyRegex, lazy
from aish.safety.secret_values import classes, looks_random

Span = tuple[int, int]

# (prefixes that start it, pattern from the prefix on). The body alphabets are the issuers';
# lengths are given as ranges so that a format revision with a longer body is still covered.
_A = "A-Za-z0-9"
PREFIXED: tuple[tuple[str, str], ...] = (
    # source hosting
    ("ghp_ gho_ ghu_ ghs_ ghr_", rf"gh[pousr]_[{_A}_]{{30,255}}"),
    ("github_pat_", rf"github_pat_[{_A}_]{{40,255}}"),
    ("glpat- gldt- glrt- glrtr- glptt- glsoat- glcbt- glimt- glffct- glft- glagent- gloas- glwt- glcts-",
     rf"gl(?:pat|dt|rtr?|ptt|soat|cbt|imt|ffct|ft|agent|oas|wt|cts)-[{_A}_\-]{{16,300}}(?:\.[{_A}]{{2,12}}){{0,3}}"),
    ("GR1348941", rf"GR1348941[{_A}_\-]{{15,}}"),
    ("ATBB", rf"ATBB[{_A}_=.\-]{{28,}}"),
    ("BBDC-", rf"BBDC-[{_A}+/@_\-]{{40,}}"),
    ("ATATT3 ATCTT3 ATOA", rf"AT(?:ATT3|CTT3|OA)[{_A}_=.\-]{{40,}}"),
    ("sgp_ sgs_", r"sg[ps]_(?:[a-fA-F0-9]{16}|local)?_?[a-fA-F0-9]{40}"),
    # chat and messaging
    ("xoxa- xoxb- xoxp- xoxo- xoxs- xoxr- xoxc- xoxd-", rf"xox[abposrcd]-[{_A}\-%]{{10,}}"),
    ("xoxe.", rf"xoxe\.xox[bp]-\d-[{_A}\-]{{40,}}"),
    ("xoxe-", rf"xoxe-\d+-[{_A}\-]{{40,}}"),
    ("xapp-", rf"xapp-\d-[{_A}\-]{{20,}}"),
    # cloud providers
    ("AKIA ASIA ABIA ACCA A3T", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"),  # keys, not user/role ids
    ("ABSK", rf"ABSK[{_A}+/]{{60,}}={{0,2}}"),
    ("bedrock-api-key-", rf"bedrock-api-key-[{_A}+/%]{{20,}}={{0,2}}"),
    ("AIza", rf"AIza[{_A}_\-]{{35}}"),
    ("ya29.", rf"ya29\.[{_A}_\-]{{20,}}"),
    ("GOCSPX-", rf"GOCSPX-[{_A}_\-]{{20,}}"),
    ("1//0", rf"1//0[{_A}_\-]{{30,}}"),
    ("LTAI", rf"LTAI[{_A}]{{12,30}}"),
    ("AKID", rf"AKID[{_A}]{{24,40}}"),
    ("dop_v1_ doo_v1_ dor_v1_", r"do[opr]_v1_[a-f0-9]{64}"),
    ("HRKU-", rf"HRKU-[{_A}_\-]{{20,}}"),
    ("fm1a_ fm1r_ fm2_ FlyV1", rf"(?:FlyV1 )?fm(?:1[ar]|2)_[{_A}+/_\-]{{40,}}={{0,3}}"),
    ("fo1_", rf"fo1_[{_A}_\-]{{40,}}"),
    ("nfp_ nfc_", rf"nf[pc]_[{_A}]{{30,}}"),
    ("rnd_", rf"rnd_[{_A}]{{20,}}"),
    ("sbp_", rf"sbp_(?:oauth_)?[{_A}]{{40}}"),
    ("sb_secret_", rf"sb_secret_[{_A}_\-]{{20,}}"),
    ("pscale_tkn_ pscale_pw_ pscale_oauth_", rf"pscale_(?:tkn|pw|oauth)_[{_A}_=.\-]{{32,64}}"),
    ("napi_", r"napi_[a-z0-9]{40,}"),
    ("dp.pt. dp.st. dp.sa. dp.ct. dp.scim. dp.audit.", rf"dp\.(?:pt|st|sa|ct|scim|audit)\.[{_A}]{{40,}}"),
    ("hvs. hvb. hvr.", rf"hv[sbr]\.[{_A}_\-]{{20,}}"),
    ("pul-", rf"pul-[{_A}]{{40}}"),
    ("tfp_", rf"tfp_[{_A}_.=\-]{{40,}}"),
    ("dapi", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("dt0c01.", rf"dt0c01\.[{_A}]{{24}}\.[{_A}]{{64}}"),
    ("v1.0-", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("AccountKey=", rf"AccountKey=[{_A}+/]{{40,}}={{0,2}}"),
    ("SharedAccessKey=", rf"SharedAccessKey=[{_A}+/]{{40,}}={{0,2}}"),
    ("sha256~", rf"sha256~[{_A}_\-]{{40,}}"),
    ("ocid1.credential.", r"ocid1\.credential\.[\w.\-]{40,}"),
    # models and AI platforms
    ("sk-ant-", rf"sk-ant-(?:api|admin|sid|oat)\d\d-[{_A}_\-]{{40,}}"),
    ("sk-", rf"sk-(?=[{_A}_\-]*\d)[{_A}_\-]{{20,}}"),
    ("gsk_", rf"gsk_[{_A}]{{40,}}"),
    ("xai-", rf"xai-[{_A}]{{40,}}"),
    ("r8_", rf"r8_[{_A}]{{30,}}"),
    ("pplx-", rf"pplx-[{_A}]{{40,}}"),
    ("hf_", rf"hf_[{_A}]{{30,}}"),
    ("api_org_", rf"api_org_[{_A}]{{30,}}"),
    ("lsv2_pt_ lsv2_sk_", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("pcsk_", rf"pcsk_[{_A}_]{{40,}}"),
    ("tvly-", rf"tvly-[{_A}_\-]{{20,}}"),
    ("nvapi-", rf"nvapi-[{_A}_\-]{{40,}}"),
    ("csk-", r"csk-[a-z0-9]{40,}"),
    ("jina_", rf"jina_[{_A}]{{40,}}"),
    ("fw_", rf"fw_[{_A}]{{20,}}"),
    # payments and commerce
    ("sk_live_ sk_test_ sk_prod_ rk_live_ rk_test_ rk_prod_", rf"[sr]k_(?:live|test|prod)_[{_A}]{{10,}}"),
    ("ak_live_ ak_test_", rf"ak_(?:live|test)_[{_A}]{{20,}}"),
    ("live_ test_", rf"(?:live|test)_(?:pub_)?[a-f0-9]{{35,}}|live_[{_A}_\-=]{{40}}"),
    ("whsec_", rf"whsec_[{_A}+/=]{{20,}}"),
    ("sq0atp- sq0csp-", rf"sq0(?:atp|csp)-[{_A}_\-]{{22,}}"),
    ("EAAA", rf"EAAA[{_A}_\-+=]{{22,}}"),
    ("EAA", rf"EAA[{_A}]{{100,}}"),
    ("shpat_ shpca_ shppa_ shpss_", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("rzp_live_ rzp_test_", rf"rzp_(?:live|test)_[{_A}]{{14,}}"),
    ("FLWSECK FLWPUBK", rf"FLW(?:SECK|PUBK)(?:_TEST)?-?[{_A}]{{12,32}}(?:-X)?"),
    ("duffel_test_ duffel_live_", rf"duffel_(?:test|live)_[{_A}_\-=]{{40,}}"),
    ("EZAK EZTK", rf"EZ[AT]K[{_A}]{{54}}"),
    ("shippo_live_ shippo_test_", r"shippo_(?:live|test)_[a-fA-F0-9]{40}"),
    ("access-sandbox- access-development- access-production-",
     r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    # mail and messaging services
    ("SG.", rf"SG\.[{_A}_\-=.]{{40,}}"),
    ("key-", r"key-[a-f0-9]{32}"),
    ("xkeysib- xsmtpsib-", rf"x(?:keysib|smtpsib)-[{_A}_\-]{{40,}}"),
    ("mlsn.", r"mlsn\.[a-f0-9]{64}"),
    ("SK", rf"SK[{_A}]{{32}}"),
    ("AC", r"AC[a-z0-9]{32}"),
    ("AP0 AP1 AP2 AP3 AP4 AP5 AP6 AP7 AP8 AP9 APA APB APC APD APE APF AKC",
     rf"(?:AP[0-9A-F]|AKC)[{_A}]{{10,}}"),
    ("re_", rf"re_[{_A}]{{8,}}_[{_A}]{{16,}}"),
    # packages, registries, CI
    ("npm_", rf"npm_[{_A}]{{36}}"),
    ("pypi-AgE", rf"pypi-AgE[{_A}_\-]{{50,}}"),
    ("rubygems_", r"rubygems_[a-z0-9]{48}"),
    ("oy2", r"oy2[a-z0-9]{43}"),
    ("dckr_pat_ dckr_oat_", rf"dckr_(?:pat|oat)_[{_A}_\-]{{20,}}"),
    ("cio", rf"cio[{_A}]{{32}}"),
    ("CLOJARS_", r"CLOJARS_[a-z0-9]{60}"),
    ("AKCp", rf"AKCp[{_A}]{{60,}}"),
    ("cmVmd", rf"cmVmd[{_A}]{{50,}}"),
    ("bkua_", rf"bkua_[{_A}]{{40}}"),
    ("CCIPAT_", rf"CCIPAT_[{_A}_]{{20,}}"),
    ("sqp_ squ_ sqa_", r"sq[pua]_[a-f0-9]{40}"),
    ("pnu_", rf"pnu_[{_A}]{{36}}"),
    ("glc_", rf"glc_[{_A}+/]{{32,}}={{0,2}}"),
    ("glsa_", rf"glsa_[{_A}_]{{32,}}"),
    ("eyJrIjoi", rf"eyJrIjoi[{_A}+/]{{50,}}={{0,2}}"),
    ("sntrys_", rf"sntrys_eyJ[{_A}+/=_\-]{{50,}}"),
    ("sntryu_", r"sntryu_[a-f0-9]{64}"),
    ("NRAK- NRII- NRJS- NRAA- NRRA- NRIQ-", rf"NR(?:AK|II|JS|AA|RA|IQ)-[{_A}_\-]{{19,}}"),
    ("API-", r"API-[A-Z0-9]{26,}"),
    ("ico-", rf"ico-[{_A}]{{32}}"),
    ("rdme_", r"rdme_[a-z0-9]{60,}"),
    ("tk-us-", rf"tk-us-[{_A}_\-]{{40,}}"),
    ("ptr_", rf"ptr_[{_A}+/_=\-]{{30,}}"),
    ("aio_", rf"aio_[{_A}]{{28}}"),
    ("alcht_", rf"alcht_[{_A}]{{20,}}"),
    ("PMAK-", rf"PMAK-[{_A}\-]{{40,}}"),
    # productivity and SaaS
    ("lin_api_ lin_oauth_", rf"lin_(?:api|oauth)_[{_A}]{{32,}}"),
    ("ntn_", rf"ntn_[{_A}]{{40,}}"),
    ("secret_", rf"secret_[{_A}]{{43}}"),
    ("figd_", rf"figd_[{_A}_\-]{{38,}}"),
    ("CFPAT-", rf"CFPAT-[{_A}_\-]{{43}}"),
    ("sk.eyJ", rf"sk\.eyJ[{_A}_\-]+\.[{_A}_\-]{{20,}}"),
    ("pat-na1- pat-eu1- pat-na2-", r"pat-(?:na|eu)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"),
    ("ops_eyJ", rf"ops_eyJ[{_A}+/_\-]{{100,}}={{0,3}}"),
    ("A3-", r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    ("AGE-SECRET-KEY-1", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("p8e-", rf"p8e-[{_A}]{{32}}"),
    ("dnkey-", rf"dnkey-[{_A}=_\-]{{26}}-[{_A}=_\-]{{52}}"),
    ("fio-u-", rf"fio-u-[{_A}_\-=]{{64}}"),
    ("s-s4t2ud- s-s4t2af-", r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),
    ("RGAPI-", r"RGAPI-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"),
    ("sm_pat_ sm_aat_ sm_sat_", r"sm_(?:pat|aat|sat)_[a-z0-9]{16}"),
    ("t1.", rf"t1\.[{_A}_\-]+={{0,2}}\.[{_A}_\-]{{86}}={{0,2}}"),
    ("AQVN", rf"AQVN[{_A}_\-]{{35,38}}"),
    ("4b1d", rf"4b1d[{_A}]{{38}}"),
    ("pat", rf"pat[{_A}]{{14}}\.[a-f0-9]{{64}}"),
    ("api-", r"api-[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}"),
    ("sdk- mob-", r"(?:sdk|mob)-[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}"),
    ("sl.", rf"sl\.(?:u\.)?[{_A}_\-=]{{120,}}"),
    ("sc_ ext_ scauth_ authress_", r"(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-]"
                                   rf"[a-z0-9\-]{{10,32}}\.[{_A}+/_=\-]{{30,120}}"),
    ("pat. sat.", rf"[ps]at\.[\w\-]{{20,24}}\.[{_A}]{{24}}\.[{_A}]{{20}}"),
    ("pubkey-", r"pubkey-[a-f0-9]{32}"),
    ("s.", rf"s\.(?=[A-Za-z]{{0,23}}\d)[{_A}]{{24}}"),
    ("apify_api_", rf"apify_api_[{_A}_\-]{{30,}}"),
    ("da2-", r"da2-[a-z0-9]{26}"),
    ("0.A 1.A", rf"[01]\.A[{_A}_\-]{{40,}}\.[{_A}_\-.]{{40,}}"),
    ("bb_pr_ bb_ma_", r"bb_(?:pr|ma)_[a-f0-9]{30}"),
    ("cfut_ cfat_ cfk_", rf"cf(?:ut|at|k)_[{_A}]{{40,}}"),
    ("endr+", rf"endr\+[{_A}]{{16}}"),
    ("figp_ figo_ figu_", rf"fig[pou]_[{_A}_\-=]{{40,}}"),
    ("shltm_", rf"shltm_[{_A}_\-]{{40}}"),
    ("pgar_", rf"pgar_[{_A}]{{26,}}"),
    ("phx_ phc_", rf"ph[xc]_[{_A}_]{{40,}}"),
    ("sub-c- pub-c- sec-c-", r"(?:sub|pub|sec)-c-[a-z0-9\-]{36}"),
    ("ramp_id_ ramp_sec_", rf"ramp_(?:id|sec)_[{_A}]{{40,}}"),
    ("rootly_", r"rootly_[a-f0-9]{64}"),
    ("salad_cloud_", rf"salad_cloud_(?:org|user)_[{_A}]{{40,}}"),
    ("sqco_", rf"sqco_[{_A}]{{40,}}"),
    ("slk_", r"slk_[a-f0-9]{64}"),
    ("spu-", r"spu-[a-z0-9]{32}"),
    ("tskey-", rf"tskey-[{_A}_\-]{{20,}}"),
    ("thog-key-", r"thog-key-[a-f0-9]{16}"),
    ("BBFF-", rf"BBFF-[{_A}]{{30}}"),
    ("1000.", r"1000\.[a-f0-9]{32}\.[a-f0-9]{32}"),
    ("NRBR-", r"NRBR-[a-f0-9]{19}"),
    ("_gitlab_session=", r"_gitlab_session=[a-z0-9]{32}"),
    # JSON Web Tokens: header.payload[.signature]
    ("ey", rf"ey[{_A}_\-]{{10,}}={{0,2}}\.ey[{_A}_\-/+\\]{{10,}}={{0,2}}(?:\.[{_A}_\-+/\\=]*)?"),
    # Discord bot tokens: a base64 user id, a timestamp, an HMAC
    ("MT Mj Mz ND NT Nj Nz OD OT", rf"[MNO][{_A}_\-]{{22,26}}\.[{_A}_\-]{{6}}\.[{_A}_\-]{{27,38}}"),
)

# Formats marked inside the token: (mark, the whole token's pattern, how far before the mark it
# may start, how far after the mark it may end).
INFIXED: tuple[tuple[str, str, int, int], ...] = (
    (":AA", r"(?<![\d])\d{8,10}:AA[A-Za-z0-9_\-]{33}", 10, 40),                    # Telegram bot token
    ("Q~", r"(?<![\w~.])[\w~.]{3}\dQ~[\w~.\-]{31,34}", 4, 40),                       # Azure AD client secret
    (".atlasv1.", r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,300}", 14, 320),  # Terraform
    ("-us", r"(?<![A-Za-z0-9])[0-9a-f]{32}-us\d{1,2}", 32, 8),                        # Mailchimp
    ("AZDO", r"(?<![A-Za-z0-9])[A-Za-z0-9]{52}AZDO[A-Za-z0-9]{4}", 52, 10),           # Azure DevOps PAT
    ("|", r"(?<![\d])\d{15,16}\|[A-Za-z0-9_\-]{27,64}", 16, 70),                     # Facebook app token
    ("_mmk", r"(?<![A-Za-z0-9])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", 36, 8),          # MaxMind licence key
    ("NRAL", r"(?<![A-Za-z0-9])[A-Za-z0-9]{36}NRAL", 36, 8),                         # New Relic licence key
    ("-NRMA", r"(?<![A-Za-z0-9])[A-Za-z0-9]{42}-NRMA", 42, 8),                        # New Relic mobile token
)

# Webhook URLs whose path is the credential: the span is the path after the fixed part.
WEBHOOKS: tuple[tuple[str, str], ...] = (
    ("hooks.slack.com/", r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9_/\-]{20,})"),
    ("/services/T", r"/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/(?P<s>[A-Za-z0-9]{20,})"),  # Slack's path on a proxy
    ("discord.com/api/webhooks/ discordapp.com/api/webhooks/",
     r"discord(?:app)?\.com/api/webhooks/(?P<s>\d+/[A-Za-z0-9_\-]{30,})"),
    (".webhook.office.com/", r"\.webhook\.office\.com/webhookb2/(?P<s>[A-Za-z0-9@/\-]{40,})"),
    ("hooks.zapier.com/hooks/catch/", r"hooks\.zapier\.com/hooks/catch/(?P<s>\d+/[A-Za-z0-9]{5,})"),
    ("ingest.sentry.io", r"//(?P<s>[a-f0-9]{32})@[\w.\-]*ingest\.sentry\.io"),
)

_PRIVATE_HEADER = lazy(r"-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----")
_PRIVATE_MARK = "-----BEGIN "
_MAX_KEY = 16384
_KEY_LEAD = lazy(r"(?:\\n|\\r|\s)*")


# Where a token can start: a run of token characters (sre scans a character class at memory
# speed).  Prefixes holding other characters (``1//0``, ``AccountKey=``, ``endr+``) are found
# with str.find instead.
_RUN = lazy(r"[A-Za-z0-9_\-.]{8,}")
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")


def _compile() -> tuple[dict[str, list[tuple[str, LazyRegex]]], list[tuple[str, list[LazyRegex]]]]:
    """For each run start (its first two characters) the (prefix, pattern) pairs to try, longest
    prefix first (``sk-ant-`` tries Anthropic's shape, then the ``sk-`` one); and the prefixes
    that cannot start a run, found by ``str.find``."""
    by_prefix: dict[str, list[LazyRegex]] = {}
    for prefixes, source in PREFIXED:
        compiled = lazy(source + r"(?![A-Za-z0-9_\-])")
        for prefix in prefixes.split():
            prefix = "FlyV1 " if prefix == "FlyV1" else prefix
            by_prefix.setdefault(prefix, []).append(compiled)
    index: dict[str, list[tuple[str, LazyRegex]]] = {}
    literal: list[tuple[str, list[LazyRegex]]] = []
    for prefix in sorted(by_prefix, key=len, reverse=True):
        if all(c in _RUN_CHARS for c in prefix[:8]):
            for pattern in by_prefix[prefix]:
                index.setdefault(prefix[:2], []).append((prefix, pattern))
        else:
            literal.append((prefix, by_prefix[prefix]))
    return index, literal


_INDEX, _LITERAL = _compile()
# Prefixes that ordinary words and names also start with: the body must then look generated.
_COMMON_PREFIXES = frozenset("""SK AC AKC AP0 AP1 AP2 AP3 AP4 AP5 AP6 AP7 AP8 AP9 APA APB APC APD APE APF s. re_ pat cio
    key- api- fw_ oy2 4b1d da2- sdk- mob- live_ test_ 1000. 0.A 1.A sl. t1. pat. sat. secret_ hf_ r8_""".split())
_INFIXED = tuple((mark, lazy(pattern + r"(?![A-Za-z0-9_\-])"), back, ahead)
                 for mark, pattern, back, ahead in INFIXED)
_WEBHOOKS = tuple((marks.split(), lazy(pattern)) for marks, pattern in WEBHOOKS)


def _token_at(text: str, start: int, prefix: str, shapes: Iterable[LazyRegex]) -> Span | None:
    for shape in shapes:
        match = shape.match(text, start)
        body = match.group(0)[len(prefix):] if match else ""
        if match and (prefix not in _COMMON_PREFIXES or classes(body) >= 2 and (any(c.isdigit() for c in body)
                                                                               or looks_random(body, 8))):
            return match.span()
    return None


def scan(text: str) -> Iterator[Span]:
    """Spans of self-identifying tokens, private key bodies and webhook credentials in ``text``."""
    for run in _RUN.finditer(text):
        start = run.start()
        head = text[start:start + 2]
        for prefix, shape in _INDEX.get(head, ()):
            if text.startswith(prefix, start):
                span = _token_at(text, start, prefix, (shape,))
                if span:
                    yield span
                    break
    for prefix, shapes in _LITERAL:
        i = text.find(prefix)
        while i >= 0:
            if i == 0 or not text[i - 1].isalnum():
                span = _token_at(text, i, prefix, shapes)
                if span:
                    yield span
            i = text.find(prefix, i + 1)
    for mark, pattern, back, ahead in _INFIXED:
        i = text.find(mark)
        while i >= 0:
            if i and text[i - 1].isalnum():
                match = pattern.search(text, max(0, i - back - 1), i + len(mark) + ahead)
                if match and match.start() <= i < match.end():
                    yield match.span()
                    i = match.end() - 1
            i = text.find(mark, i + 1)
    for marks, pattern in _WEBHOOKS:
        for mark in marks:
            i = text.find(mark)
            while i >= 0:
                match = pattern.search(text, max(0, i - 40), i + 400)
                if match:
                    yield match.span("s")
                i = text.find(mark, i + len(mark))
    yield from _private_keys(text)


def _private_keys(text: str) -> Iterator[Span]:
    """The body of each PEM private key block (also JSON-escaped, also cut off before its END)."""
    i = text.find(_PRIVATE_MARK)
    next_end = next_begin = -1  # the next END / BEGIN marks, each searched for once
    while i >= 0:
        header = _PRIVATE_HEADER.match(text, i)
        if header is None:
            i = text.find(_PRIVATE_MARK, i + 1)
            continue
        lead = _KEY_LEAD.match(text, header.end(), header.end() + 64)
        body = lead.end() if lead else header.end()
        limit = min(len(text), body + _MAX_KEY)
        if 0 <= next_end < body or next_end == -1:
            next_end = text.find("-----END ", body)
            next_end = len(text) + 1 if next_end < 0 else next_end
        if 0 <= next_begin < body or next_begin == -1:
            next_begin = text.find(_PRIVATE_MARK, body)
            next_begin = len(text) + 1 if next_begin < 0 else next_begin
        end = next_end
        if end > limit or next_begin < end:  # cut off: the lines of base64 that follow
            end = _cut_off_end(text, body, min(next_begin, limit))
        stop = end
        while stop > body and (text[stop - 1].isspace() or text[stop - 2:stop] in ("\\n", "\\r")):
            stop -= 2 if text[stop - 2:stop] in ("\\n", "\\r") else 1
        if stop - body >= 24 and "..." not in text[body:stop]:  # shorter or elided: a placeholder
            yield body, stop
        i = text.find(_PRIVATE_MARK, max(end, header.end()))


def _cut_off_end(text: str, body: int, limit: int) -> int:
    """Where the key's lines stop: a blank line, a line starting with ``-``, or ``limit``."""
    pos = body
    while pos < limit:
        newline = text.find("\n", pos, limit)
        line_end = limit if newline < 0 else newline
        line = text[pos:line_end]
        if not line.strip() or line.lstrip().startswith("-"):
            return pos
        if newline < 0:
            return limit
        pos = newline + 1
    return limit
