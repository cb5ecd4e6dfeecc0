"""Tokens and money: what each call used and cost, in this conversation and across sessions.

    usage   usage totals per category and model, prices, the report lines of `aish cost`
    ledger  the cross-session SQLite ledger (today / week / all)
"""
