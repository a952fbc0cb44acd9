"""``nataterra verify``: check logs of any registered game and exit with the worst failure.

Each log's header names its rule system, so one run checks Nataterra games and
combat-sandbox battles alike; :mod:`nataterra_adapters.batch_verify` spreads the work over
processes or a Dask cluster.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from nataterra_adapters.batch_verify import (
    EXIT_CODES,
    ClusterUnavailable,
    auto_workers,
    bundle_pack,
    exit_code,
    verify_many,
    verify_source,
)
from nataterra_core.kernel import LogError, Verdict
from nataterra_core.kernel.log import check_header
from nataterra_core.kernel.registry import Presenter, system_for

if TYPE_CHECKING:
    from nataterra_core.kernel.receipts import Receipt

from .common import SETUP_FAILED, ContentOption, check_content_any, console, err_console, escape
from .words import verdict_line

__all__ = ["EXIT_HELP", "verify_command"]

EXIT_HELP = (
    "Exit codes: "
    + "; ".join(f"{code} {name}" for name, code in sorted(EXIT_CODES.items(), key=lambda i: i[1]))
    + f"; {SETUP_FAILED} the run could not start or complete. With several logs the highest wins."
)


def verify_command(
    logs: Annotated[list[Path], typer.Argument(help="Log files to verify.")],
    expect_head: Annotated[
        str | None, typer.Option(help="Published head (hex) every log must end in.")
    ] = None,
    content: ContentOption = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes (1: verify in this process); default: one per core, "
            "as many as the logs repay.",
            min=1,
        ),
    ] = None,
    dask_scheduler: Annotated[
        str | None,
        typer.Option(
            help="Verify on this Dask cluster (tcp://host:8786); needs the cluster extra."
        ),
    ] = None,
    json_lines: Annotated[
        bool, typer.Option("--json", help="Print one JSON verdict per line instead of text.")
    ] = False,
    receipt: Annotated[
        list[str] | None,
        typer.Option(
            help="A seat's signed receipt SEAT:SEQ:HEAD:SIGNATURE (SEAT empty: a spectator's) "
            "that must belong to the log (give one log; repeat for several receipts)."
        ),
    ] = None,
    receipts_file: Annotated[
        Path | None,
        typer.Option(
            "--receipts",
            help="A receipts file downloaded from the browser page (its 'receipts' list): "
            "each must belong to the log, as with --receipt.",
        ),
    ] = None,
) -> None:
    """Verify logs: read, chain, seed commitment, re-execution; exit with the worst failure.

    Logs of any registered game (the header names it). One verdict line per log (with the
    claimed result of a valid one), then a summary. With ``--receipt`` (or a browser's
    ``--receipts`` file), the one log must also match each receipt (docs/RECEIPTS.md): exit
    code 11 when one does not.
    """
    if workers is not None and workers > 1 and dask_scheduler is not None:
        raise typer.BadParameter("give --workers or --dask-scheduler, not both")
    check_content_any(content)
    bundle = bundle_pack(content) if content is not None else None
    if receipt or receipts_file is not None:
        receipts = _receipts([*(receipt or ()), *_kept(receipts_file)], logs)
        verdicts: Iterable[Verdict] = [verify_source(logs[0], bundle, expect_head, receipts)]
    else:
        verdicts = verify_many(
            logs,
            content=bundle,
            expect_head=expect_head,
            workers=workers if workers is not None else auto_workers(len(logs)),
            scheduler=dask_scheduler,
        )
    out = err_console if json_lines else console
    counts: Counter[str] = Counter()
    worst = 0
    try:
        with _progress() as progress:
            task = progress.add_task("verifying", total=len(logs))
            for path, verdict in zip(logs, verdicts, strict=True):
                code = exit_code(verdict)
                if json_lines:
                    typer.echo(_json_line(path, verdict, code))
                else:
                    line = verdict_line(str(path), verdict, _presenter(path, verdict))
                    console.print(line, soft_wrap=True)
                counts[verdict.failure or verdict.status] += 1
                worst = max(worst, code)
                progress.advance(task)
    except ClusterUnavailable as exc:
        err_console.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(SETUP_FAILED) from exc
    except Exception as exc:  # a worker or the cluster failed mid-run: say so, keep the worst
        err_console.print(
            f"[red]verification stopped after {counts.total()} of {len(logs)} logs[/]: "
            f"{type(exc).__name__}: {escape(str(exc))}"
        )
        _print_summary(out, counts, max(worst, SETUP_FAILED))
        raise typer.Exit(max(worst, SETUP_FAILED)) from exc
    _print_summary(out, counts, worst)
    raise typer.Exit(worst)


MAX_RECEIPTS_FILE = 64 * 1024 * 1024
"""Largest receipts file read (a long game's lines for one seat stay far below)."""


def _kept(path: Path | None) -> list[str]:
    """The receipts of a file the browser page offers for download, as ``--receipt`` texts
    (a usage error says why a file cannot be read)."""
    if path is None:
        return []
    try:
        if path.stat().st_size > MAX_RECEIPTS_FILE:
            raise ValueError(f"larger than {MAX_RECEIPTS_FILE} bytes")
        kept = msgspec.json.decode(path.read_bytes(), type=_ReceiptsFile)
    except (OSError, ValueError) as exc:  # msgspec's errors are ValueErrors
        raise typer.BadParameter(f"{path}: {exc}", param_hint="--receipts") from exc
    return [f"{r.seat}:{r.seq}:{r.head}:{r.signature}" for r in kept.receipts]


class _Kept(msgspec.Struct):
    seat: str
    seq: int
    head: str
    signature: str


class _ReceiptsFile(msgspec.Struct):
    """What ``--receipts`` reads of a downloaded file (its other fields are ignored)."""

    receipts: list[_Kept]


def _receipts(texts: list[str], logs: list[Path]) -> list[Receipt]:
    """The ``--receipt`` values, read (a usage error names the first bad one)."""
    from nataterra_core.kernel.receipts import ReceiptRefused, parse_receipt

    if len(logs) != 1:
        raise typer.BadParameter("--receipt checks one log: give exactly one")
    try:
        return [parse_receipt(text) for text in texts]
    except ReceiptRefused as exc:
        raise typer.BadParameter(exc.reason, param_hint="--receipt") from exc


def _presenter(path: Path, verdict: Verdict) -> Presenter | None:
    """The presenter of a valid log's system, to word its result (its header, read again).

    ``None`` for an invalid log (no result is printed) or a file that changed under us.
    """
    if not verdict.valid:
        return None
    try:
        with path.open("rb") as file:
            return system_for(check_header(file.readline().rstrip(b"\n"))).presenter
    except (OSError, LogError):
        return None


def _progress() -> Progress:
    # On a terminal the bar shares stdout with the verdicts, and rich prints them above it;
    # with stdout piped the bar goes to stderr and stdout gets only results.
    on_stdout = console.is_terminal
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console if on_stdout else err_console,
        redirect_stdout=on_stdout,
        redirect_stderr=on_stdout,
    )


def _json_line(path: Path, verdict: Verdict, code: int) -> str:
    record = {"log": str(path), "exit_code": code, **msgspec.to_builtins(verdict)}
    return msgspec.json.encode(record).decode()


def _print_summary(out: Console, counts: Counter[str], worst: int) -> None:
    """A table of logs per verdict class with its exit code, then a one-line total."""
    if len(counts) > 1 or "valid" not in counts:
        table = Table("verdict", "logs", "exit code")
        for name in sorted(counts, key=lambda n: EXIT_CODES[n]):
            table.add_row(name, str(counts[name]), str(EXIT_CODES[name]))
        out.print(table)
    total = counts.total()
    invalid = total - counts["valid"] - counts["incomplete"]
    out.print(
        f"{total} log{'s' if total != 1 else ''}: {counts['valid']} valid, "
        f"{counts['incomplete']} incomplete, {invalid} invalid; exit code {worst}"
    )
