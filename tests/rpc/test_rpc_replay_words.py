"""RPC ``log.verify`` and ``log.replay`` say a log's verdict, and where replaying stops, in
the words ``nataterra replay`` prints (issue 31's closing note: ``stopped.reason`` was the
auditor's raw wording): each result keeps the auditor's ``reason`` and gives ``said``, the
words with that reason after them in a parenthesis (``kernel.failure_words``), for every
registered game."""

from __future__ import annotations

import pytest
from every_game_logs import game_ids, short_log
from test_cut_logs import rpc_result
from test_failure_words import check_said
from test_forged_events import forged

from nataterra_core.game import decider_for, verify_log
from nataterra_core.kernel import read_log, replay_prefix
from nataterra_core.kernel.failure_words import stopped_words, verdict_words


@pytest.mark.parametrize("game", game_ids())
def test_log_verify_says_its_verdict_in_words_beside_the_auditors_reason(game: str) -> None:
    lines = short_log(game).splitlines(keepends=True)
    edited = [*lines[:2], lines[2].replace(b'"seq":2', b'"seq":2 '), *lines[3:]]
    readable, breaking, _ = forged(game)
    diverging = next(log for log in readable if log not in dict(breaking))
    logs = {
        "valid": b"".join(lines),
        "before the reveal": b"".join(lines[:-2]),
        "after the reveal": b"".join(lines[:-1]),
        "edited": b"".join(edited),
        "forged": diverging,
    }
    for name, log in logs.items():
        verdict = verify_log(log)
        answer = rpc_result("log.verify", log=log.decode())
        assert answer["status"] == verdict.status and answer["reason"] == verdict.reason, name
        assert answer["said"] == verdict_words(verdict), name
        if verdict.status != "valid":
            assert answer["said"].endswith(f"({verdict.reason})"), (name, answer["said"])
            check_said(answer["said"], f"{game} {name}")
    assert rpc_result("log.verify", log=logs["forged"].decode())["status"] == "invalid"


@pytest.mark.parametrize("game", game_ids())
def test_log_replay_says_where_it_stops_in_words_beside_the_auditors_reason(game: str) -> None:
    log, seq = forged(game)[1][0]
    read = read_log(log, decider_for)
    failure = replay_prefix(read.decider, read.header, read.records)[1]
    assert failure is not None and failure.seq == seq
    stopped = rpc_result("log.replay", log=log.decode())["stopped"]
    assert stopped["failure"] == "replay" and stopped["seq"] == seq
    assert stopped["reason"] == failure.reason  # the auditor's, as before
    assert stopped["said"] == stopped_words(failure, "replay")
    assert stopped["said"].endswith(f"({failure.reason})")
    check_said(stopped["said"], game)
