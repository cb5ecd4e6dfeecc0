"""Money sent by a wallet's or a chain's command line: nothing takes it back.

A payment on a chain or a channel is final: ``bitcoin-cli sendtoaddress ADDR 4.2``, ``lightning-cli withdraw ADDR
all``, ``monero-wallet-cli --command sweep_all ADDR``, ``solana transfer ADDR 10``, ``cast send TOKEN
"transfer(address,uint256)" … --private-key …``.  Read for any program: a verb that is only ever a payment
(``sendtoaddress``, ``sendmany``, ``sweep_all``, ``payinvoice``) with something to pay, or a common verb (send,
transfer, withdraw, pay, sweep) with what only a payment has: an address of a chain (bech32, 0x and 40 hex digits,
a long base58 word), a Lightning invoice, or an amount (a number, "all", "max") together with a wallet's name or a
signing or amount option.  Everything swept or withdrawn ("all", sweep_all, --sweepall) is high; other payments
medium.  Balances, listings and file senders (``croc send FILE``, ``git send-email``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

# Verbs that are only ever payments, in wallets' and nodes' own spellings.
_PAYMENT_VERBS = frozenset("""sendtoaddress sendmany sendfrom sendall sendcoins sendpayment payinvoice payto
paytomany sweep_all sweepall sweep_single sweep_below sweep_unmixable z_sendmany sendrawtransaction keysend
transfer-sui pay-sui pay-all-sui transfer_all transferall withdrawall withdraw_all send-all""".split())
# Verbs a payment shares with other tools (files sent, domains transferred, routes withdrawn).
_COMMON_VERBS = frozenset({"send", "transfer", "withdraw", "pay", "sweep", "spend", "send-tx", "sendtx", "burn"})
# Nouns a wallet's command line groups its payments under (`chia wallet send`, `gaiad tx bank send`,
# `goal clerk send`, `dfx ledger transfer`, `spl-token burn`): what follows is money, whatever the program's name.
_WALLET_NOUNS = frozenset({"wallet", "wallets", "bank", "ledger", "clerk", "funds", "coin", "coins", "token",
                           "tokens", "balance", "treasury"})
# A transaction handed to the network (`cardano-cli transaction submit`, `gaiad tx broadcast tx.json`): signed
# beforehand, final once sent.
_TRANSACTION_NOUNS = frozenset({"transaction", "tx", "txn", "signed-tx", "signed-transaction"})
_SUBMIT_VERBS = frozenset({"submit", "broadcast", "push", "publish", "send"})
# Units a number carries that are not money (`send --timeout 30sec`, `transfer 10gib`).
_NOT_MONEY_UNITS = frozenset({"sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "hour", "hours",
                              "hrs", "day", "days", "kib", "mib", "gib", "tib", "bytes", "byte", "kbit", "mbit",
                              "gbit", "kbps", "mbps", "gbps", "fps", "rpm", "pixels", "lines", "times", "x"})
_ALL_WORDS = frozenset({"all", "max", "!", "--sweepall", "--sweep-all", "--all", "everything"})
_ADDRESS = lazy(r"(?:bc1|tb1|bcrt1|ltc1|tltc1)[02-9ac-hj-np-z]{11,87}|0x[0-9a-fA-F]{40}|"
                r"[a-z]{2,12}1[02-9ac-hj-np-z]{38,90}|"  # bech32 of any chain (cosmos1…, osmo1…, xch1…, addr1…)
                r"(?=[1-9A-HJ-NP-Za-km-z]*\d)(?=[1-9A-HJ-NP-Za-km-z]*[a-z])(?=[1-9A-HJ-NP-Za-km-z]*[A-Z])"
                r"[1-9A-HJ-NP-Za-km-z]{26,106}|ln(?:bc|tb|bcrt)[0-9a-z]{20,}")
# Addresses that cannot be other words, inside JSON or an option's value (`'{"bc1q…": 0.1}'`).
_EMBEDDED_ADDRESS = lazy(r"(?<![\w])(?:bc1|tb1|ltc1)[02-9ac-hj-np-z]{11,87}(?![\w])|"
                         r"(?<![\w])0x[0-9a-f]{40}(?![\w])")
# A node's console call that signs and sends (geth's eth.sendTransaction, personal.sendTransaction).
_SENT_CALL = lazy(r"(?:eth|personal|web3\.eth)\.send(?:raw)?transaction\(")
_READS = frozenset({"call", "estimate", "abi-encode", "calldata", "balance", "getbalance"})
_AMOUNT = lazy(r"\d+(?:\.\d+)?|\.\d+|all|max|ALL")
_DENOMINATED = lazy(r"(\d+(?:\.\d+)?)([a-z]{3,12})")  # `1000000uatom`, `5stake`: an amount and its coin
_AMOUNT_LETTERS = frozenset({"-a", "-amount", "--amt", "-m"})  # `goal clerk send -a 1000000`: with a wallet noun
_WALLET_NAME = lazy(r"bitcoin|litecoin|dogecoin|dash-cli|zcash|monero|wallet|lightning|lncli|electrum|"
                    r"solana|spl-token|^cast$|^geth$|^eth|cardano|^near$|aptos|^sui$|tron|stellar|coin|btc|"
                    r"^ltc|doge|bch|^lnd|^clboss|^bitcoind|^elements", re.I)
_MONEY_OPTIONS = frozenset({"--private-key", "--amount", "--value", "--keypair", "--from-key", "--fee",
                            "--fee-payer", "--amt", "--sat", "--sats", "--satoshis", "--lamports", "--wei",
                            "--gas-budget", "--rpcwallet", "-rpcwallet"})
_CALL_SHAPE = lazy(r"(?:transfer|transferFrom|send|withdraw|sendTransaction|safeTransferFrom)\(", re.I)
_WORDS = ("send", "transfer", "withdraw", "pay", "sweep", "spend", "keysend", "burn", "submit", "broadcast",
          "transaction")
_COMMAND_OPTIONS = frozenset({"--command", "-c", "--exec", "-e", "--cmd"})


@triggered_by(_WORDS, otherwise=False)
def may_pay(c: Ctx) -> bool:
    """Cheap: a payment's verb among the words."""
    return bool(c.texts) and any(w in c.lowered for w in _WORDS)


def _words(texts: list) -> list:
    """The line's words, a command option's value split into its own words (`--command sweep_all ADDR`)."""
    out: list = []
    for k, t in enumerate(texts[:64]):
        if k and texts[k - 1] in _COMMAND_OPTIONS or " " in t:
            out.extend(t.replace(";", " ").split())
        else:
            out.append(t)
    return out


def rule_money_moved(c: Ctx) -> Optional[tuple]:
    words = _words(c.texts)
    operands = [w for w in words if not w.startswith("-")]
    lowered = [w.lower().strip("'\"") for w in words]
    verb = next((w for w in lowered if w in _PAYMENT_VERBS), None)
    shared = None if verb else next((w for w in lowered[:8] if w in _COMMON_VERBS and not w.startswith("-")), None)
    submitted = _submitted(operands)
    if submitted and "help" not in lowered and "--help" not in lowered:  # `cardano-cli transaction submit …`
        return MEDIUM, f"{c.prog} {submitted}: a signed transaction handed to the network, and no one can " \
            f"take a payment back ({c.text})"
    if verb is None and shared is None:
        called = _SENT_CALL.search(c.lowered)  # `geth attach --exec 'eth.sendTransaction({…})'`
        if called and _WALLET_NAME.search(c.prog) and not (operands[:1] and operands[0].lower() in _READS):
            return MEDIUM, f"{c.prog} runs {called.group(0)}…): money sent, and no one can take a payment " \
                f"back ({c.text})"
        return None
    if "help" in lowered or "--help" in lowered:
        return None
    said: str = verb or shared or ""
    rest = operands[operands.index(said) + 1:] if said in operands else operands
    addressed = any(_ADDRESS.fullmatch(w.strip("'\"[]{},")) for w in words) or \
        bool(_EMBEDDED_ADDRESS.search(c.lowered))
    grouped = bool(_WALLET_NOUNS & {w.lower() for w in operands[:operands.index(said)]}) if said in operands \
        else False
    amount = any(_AMOUNT.fullmatch(w.strip("'\"")) or _denominated(w.strip("'\"")) for w in rest) or \
        any(w.partition("=")[0] in _MONEY_OPTIONS for w in lowered) or \
        grouped and any(w in _AMOUNT_LETTERS and k + 1 < len(words) and _AMOUNT.fullmatch(words[k + 1])
                        for k, w in enumerate(words))
    signed = any(w.partition("=")[0] in _MONEY_OPTIONS for w in lowered) or bool(_CALL_SHAPE.search(c.lowered))
    if verb is None and not (addressed or amount and (_WALLET_NAME.search(c.prog) or signed or grouped)):
        return None
    if verb is not None and not rest:
        return None
    everything = said.startswith(("sweep", "withdrawall", "withdraw_all", "sendall", "send-all", "pay-all",
                                  "transfer_all", "transferall")) or bool(set(lowered) & _ALL_WORDS)
    return (HIGH if everything else MEDIUM), \
        f"{c.prog} {said}: money {'swept out of the wallet' if everything else 'sent'}, and no one can take " \
        f"a payment back ({c.text})"


def _denominated(word: str) -> bool:
    """``1000000uatom``, ``10stake``: a number with a coin's denomination (not ``30sec`` or ``10gib``)."""
    m = _DENOMINATED.fullmatch(word)
    return m is not None and m.group(2) not in _NOT_MONEY_UNITS


def _submitted(operands: list) -> str:
    """``transaction submit``, ``tx broadcast``: the words saying a signed transaction is sent, or ""."""
    lowered = [w.lower() for w in operands[:4]]
    for k in range(len(lowered) - 1):
        pair = (lowered[k], lowered[k + 1])
        if pair[0] in _TRANSACTION_NOUNS and pair[1] in _SUBMIT_VERBS or \
                pair[0] in ("submit", "broadcast") and pair[1] in _TRANSACTION_NOUNS or \
                pair == ("push", "transaction"):  # `cleos push transaction '{…}'`
            return " ".join(operands[k:k + 2])
    return ""
