"""The browser's replay view says a log's verdict, and where replaying stops, in the words
``nataterra replay`` prints (issue 31's closing note: it showed the auditor's raw reason):
``log.verify``'s and ``log.replay``'s ``said``, the auditor's detail in a parenthesis after
the words. A log cut at a record boundary, before its reveal or between its reveal and its
end record, reads as incomplete (issue 30: the seed is revealed at the end).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_failure_words import check_said
from test_forged_events import forged

from nataterra_core.game import verify_log
from nataterra_core.kernel.failure_words import verdict_words
from nataterra_core.kernel.replay import NO_END

from .test_browser_games import finished_log

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def opened(page: Any, server_url: str, log: bytes, tmp_path: Path) -> str:
    """The replay view's verdict for ``log``, read from a file, once it is shown."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(log)
    page.goto(server_url + "/#/replay")
    page.set_input_files("#log-file", str(path))
    page.click("#open-log")
    page.wait_for_selector("#replay-verdict:not([hidden])")
    page.wait_for_selector("#replay-slider")
    return str(page.inner_text("#replay-verdict"))


def test_a_tampered_logs_verdict_is_in_words_with_the_detail_after_them(
    page: Any, server_url: str, tmp_path: Path
) -> None:
    lines = finished_log().splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if json.loads(line)["kind"] == "command")
    record = json.loads(lines[at])
    record["events"] = [*record["events"], *record["events"][:1]]  # one the rules never made
    lines[at] = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    log = b"".join(lines)
    verdict = opened(page, server_url, log, tmp_path)
    said = verdict_words(verify_log(log))  # what `nataterra replay` says after "INVALID at …"
    assert verdict == (
        f"INVALID at record {at}: {said}. What can be shown is shown below; do not trust it."
    )
    check_said(verdict, "the browser's verdict")  # no tag or id before the detail
    assert page.get_attribute("#replay-stopped", "hidden") is not None  # every record folds


def test_where_a_forged_log_stops_folding_is_said_in_words(
    page: Any, server_url: str, tmp_path: Path
) -> None:
    log, seq = forged("liars-dice")[1][-1]  # events that no longer fold at record seq
    verdict = opened(page, server_url, log, tmp_path)
    assert verdict.startswith("INVALID at record "), verdict
    check_said(verdict, "the browser's verdict")
    page.wait_for_selector("#replay-stopped:not([hidden])")
    stopped = page.inner_text("#replay-stopped")
    assert stopped.startswith(f"Shown up to record {seq - 1}: "), stopped
    assert f"of record {seq} does not fit the game before it" in stopped, stopped
    check_said(stopped, "the browser's stop")
    assert page.get_attribute("#replay-slider", "max") == str(seq - 1)


def test_a_log_cut_after_its_reveal_is_incomplete_not_invalid(
    page: Any, server_url: str, tmp_path: Path, screenshots: Path
) -> None:
    lines = finished_log().splitlines(keepends=True)
    assert json.loads(lines[-2])["kind"] == "reveal"
    cut = b"".join(lines[:-1])  # the end record never written
    verdict = opened(page, server_url, cut, tmp_path)
    assert page.get_attribute("#replay-verdict", "data-status") == "incomplete"
    assert verdict == f"Incomplete: {verdict_words(verify_log(cut))}.", verdict
    assert verdict.endswith(f"({NO_END}).") and "INVALID" not in verdict
    assert page.inner_text("#replay-result").endswith(
        "The log has no result: it stops before its end record."
    )
    page.screenshot(path=str(screenshots / "replay-cut-after-reveal.png"), full_page=True)
