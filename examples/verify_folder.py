"""Verify every ``*.jsonl`` log in a folder and print one verdict per log.

    python examples/verify_folder.py LOG_DIR [--expect-head HEX]

Shows the one-call verdict a tournament tool needs: valid or not, the first bad record
and why, and the claimed result of each valid log.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nataterra_core.game import verify_log
from nataterra_core.kernel import Verdict


def verify_folder(folder: Path, expect_head: str | None = None) -> dict[str, Verdict]:
    """Verdicts by file name, for every ``*.jsonl`` file in ``folder``."""
    return {
        path.name: verify_log(path.read_bytes(), expect_head=expect_head)
        for path in sorted(folder.glob("*.jsonl"))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--expect-head")
    args = parser.parse_args()
    for name, verdict in verify_folder(args.folder, args.expect_head).items():
        if verdict.valid and verdict.result is not None:
            print(
                f"{name}: valid; winners {list(verdict.result.winners)} ({verdict.result.reason})"
            )
        else:
            print(f"{name}: {verdict.status} at record {verdict.seq}: {verdict.reason}")


if __name__ == "__main__":
    main()
