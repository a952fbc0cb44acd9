"""``game.legal_commands`` words a seat's legal commands as its own, through
``Presenter.offer`` (issue 28 item 3), which is what the browser shows."""

from __future__ import annotations

from test_rpc_games import Rpc

from nataterra_core.game import decode_command_for
from nataterra_core.kernel.registry import system


def test_the_rpc_server_words_legal_commands_as_the_seats_own() -> None:
    rpc = Rpc()
    made = rpc.ok("game.create", rules="liars-dice", players=2, seed=4)
    view = rpc.ok("game.view", game_id=made["game_id"], token=next(iter(made["tokens"].values())))
    seat = view["acting"][0]
    legal = rpc.ok("game.legal_commands", game_id=made["game_id"], token=made["tokens"][seat])
    record = system("liars-dice")
    state_view = None  # the words need no view for Liar's Dice
    expected = [
        record.presenter.offer(decode_command_for(c, "liars-dice"), seat, state_view)
        for c in legal["commands"]
    ]
    assert legal["words"] == expected  # the one path: Presenter.offer
    assert all(w.startswith("bid ") for w in legal["words"][:3])
    assert not any("the system" in w or w.startswith(seat) for w in legal["words"])
