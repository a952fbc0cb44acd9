// Playing (with a seat's token) or watching (without) a game. The boards come drawn from the
// server (game.view's `svg`, the project's renderer), each legal command's place on them
// from `targets`: click a piece to select it (the cells and pieces it can reach light up;
// hover one to see the path), then click a destination; click a card of your hand to play
// it. Commands with no place on the board nor in the hand are offered in words. Beside the
// board: one panel per seat (game.view's `panels`), whose turn it is and what is asked in
// one sentence, and what happened; the other seats' last moves are marked on the board.
//
// Receipts (docs/RECEIPTS.md): the page keeps the lines of the log it was shown (`game.log`'s
// `lines`, exactly as received) and every signed receipt it is given (by its own moves, or
// asked for with "Get a receipt"), and offers them for download as one JSON file; a seat
// checks them afterwards against the published log with `nataterra verify --receipt`.

import { cellSelector, clearMarks, drawBoards, drawPicker, explain, mark, pieceSelector, placeSelector } from "./board.js";
import { errorText, h } from "./dom.js";
import { ownHand, seatPanels } from "./panels.js";

const FEED_RECORDS = 60;

const capital = (text) => text[0].toUpperCase() + text.slice(1);

function randomContribution() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function playPage(root, rpc, gameId, token) {
  const page = {
    view: null, legal: null, words: [], lines: [], receipts: [],
    selected: null, card: null, pending: null, error: "",
  };
  const heading = h("h1", {}, `Game ${gameId}`);
  const howTo = h("a", { id: "how-to-play-link", target: "_blank", rel: "noopener", hidden: true }, "How to play");
  const status = h("div", { class: "status", id: "status" });
  const boards = h("div", { class: "board-area" });
  const side = h("div", { class: "side" });
  root.replaceChildren(h("div", { class: "title-row" }, heading, howTo), status,
    h("div", { class: "game" }, h("div", {}, boards, h("div", { id: "below-board" })), side));

  const stopNotes = rpc.onNotify((method, params) => {
    if (method === "game.changed" && params.game_id === gameId) refresh(true);
  });
  // Back after a dropped socket or a server restart: catch up from the version shown.
  const stopReconnects = rpc.onReconnect(() => refresh());
  window.addEventListener("hashchange", () => { stopNotes(); stopReconnects(); }, { once: true });

  // Refreshes run one after another (a notification may come while one is under way).
  let queue = Promise.resolve();
  function refresh(noted = false) {
    queue = queue.then(() => load(noted));
    return queue;
  }

  async function load(noted) {
    try {
      let view = await rpc.call("game.view", { game_id: gameId, token });
      // A notification of a version already shown (a load under way had fetched it): the
      // page stays as it is, so a click being made on it is not lost to a redraw.
      if (noted && page.view && !page.error && view.version === page.view.version) {
        // Only who is thinking changed (a bot started or stopped): say so, keep the rest.
        if (String(view.thinking || []) !== String(page.view.thinking || [])) {
          page.view = view;
          render();
        }
        return;
      }
      if (token && view.waiting_for.includes(view.seat)) {
        await rpc.call("game.join", { game_id: gameId, token, client_seed: randomContribution() });
        view = await rpc.call("game.view", { game_id: gameId, token });
      }
      if (!page.view || view.version !== page.view.version) {
        page.selected = null; // a new position: the old selection and choices mean nothing
        page.card = null;
        page.pending = null;
      }
      page.view = view;
      page.legal = token && view.view !== null
        ? await rpc.call("game.legal_commands", { game_id: gameId, token })
        : null;
      if (view.view !== null) {
        // Only the records not seen yet: the log only grows (an undo is a record too).
        const since = page.words.length;
        const log = await rpc.call("game.log", { game_id: gameId, token, words: true, since });
        page.words = page.words.slice(0, since).concat(log.words); // [summary, ...events]
        page.lines = page.lines.slice(0, since).concat(log.lines); // the seat's view lines
      }
      page.error = "";
    } catch (error) {
      page.error = errorText(error);
    }
    render();
  }

  function commands() {
    if (!page.legal) return [];
    return page.legal.commands.map((command, index) => ({
      command,
      words: page.legal.words[index] || command.type,
      targets: page.legal.targets ? page.legal.targets[index] : {},
    }));
  }

  function handIds() {
    const view = page.view;
    const own = view && view.panels && view.panels.seats.find((panel) => panel.seat === view.seat);
    return new Set(own && own.hand ? own.hand.map((card) => card.id) : []);
  }

  // A command played by clicking a card of the hand (one the hand shows).
  const byCard = (entry, hand) => entry.targets.card && hand.has(entry.targets.card);
  const onBoard = (entry) => Boolean(entry.targets.cell || entry.targets.piece);
  const selects = (entry) => (entry.targets.pieces || []).length > 0;

  async function send(entry) {
    page.selected = null;
    page.card = null;
    page.pending = null;
    try {
      keep(await rpc.call("game.apply", {
        game_id: gameId, token, command: entry.command, expected_version: page.view.version,
      }));
    } catch (error) {
      page.error = errorText(error);
    }
    await refresh();
  }

  async function undoOrRedo(method) {
    try {
      keep(await rpc.call(method, { game_id: gameId, token, expected_version: page.view.version }));
    } catch (error) {
      page.error = errorText(error);
    }
    await refresh();
  }

  function keep(result) {
    if (result && result.receipt) page.receipts.push(result.receipt);
  }

  async function askReceipt() {
    try {
      keep(await rpc.call("game.receipt", token ? { game_id: gameId, token } : { game_id: gameId }));
    } catch (error) {
      page.error = errorText(error);
    }
    await refresh();
  }

  // One file: what a seat needs to check its receipts against the published log later.
  function receiptsFile() {
    const view = page.view;
    const kept = {
      game_id: gameId,
      seat: view.seat || "",
      receipt_key: view.receipt_key,
      receipt_key_signature: view.receipt_key_signature,
      receipts: page.receipts,
      verify: page.receipts.map((r) => `${r.seat}:${r.seq}:${r.head}:${r.signature}`),
      lines: page.lines,
    };
    const blob = new Blob([JSON.stringify(kept, null, 1)], { type: "application/json" });
    return URL.createObjectURL(blob);
  }

  function receiptsPanel() {
    const count = page.receipts.length;
    const download = h("a", {
      id: "download-receipts",
      download: `receipts-${gameId}-${page.view.seat || "spectator"}.json`,
      href: "#",
      onclick: (event) => { event.currentTarget.href = receiptsFile(); },
    }, `Download ${count} receipt${count === 1 ? "" : "s"} and ${page.lines.length} lines`);
    const shown = document.getElementById("receipts"); // stays open across redraws
    return h("details", { class: "panel", id: "receipts", open: Boolean(shown && shown.open) }, h("summary", {}, "Receipts"),
      h("p", { class: "muted" }, "Signed by the game's key: check them against the published log with nataterra verify --receipt."),
      h("button", { id: "ask-receipt", onclick: askReceipt }, "Get a receipt"), " ", download);
  }

  // What the selection (a piece or a card; or nothing) can do.
  function withSelected() {
    if (page.card) return commands().filter((entry) => entry.targets.card === page.card);
    return commands().filter((entry) => (entry.targets.pieces || []).includes(page.selected));
  }

  // The commands a click on the board may send now: the selection's, or those that need no
  // selection (no piece to select first, no card to play).
  function boardPool() {
    if (page.selected || page.card) return withSelected();
    const hand = handIds();
    return commands().filter((entry) => !selects(entry) && !byCard(entry, hand));
  }

  function matches(cellId, pieceId) {
    return boardPool().filter((entry) =>
      (pieceId && entry.targets.piece === pieceId) || (cellId && !pieceId && entry.targets.cell === cellId));
  }

  // One command: send it. Several (how many units go, say): a picker on the board at the
  // clicked place, one disc per command labelled by what tells them apart.
  function choose(found, where) {
    if (found.length === 1) return send(found[0]);
    page.pending = found;
    page.pendingAt = where;
    render();
  }

  function pickCard(cardId) {
    const found = commands().filter((entry) => entry.targets.card === cardId);
    if (found.length === 1 && !onBoard(found[0])) return send(found[0]);
    page.selected = null;
    page.pending = null;
    page.card = page.card === cardId ? null : cardId;
    render();
  }

  function clicked(event) {
    const option = event.target.closest("[data-option]");
    if (option && page.pending) return send(page.pending[Number(option.dataset.option)]);
    const pieceElement = event.target.closest("g.piece");
    const cellElement = event.target.closest("g.cell, g.structure"); // a structure: its cell
    const pieceId = pieceElement && pieceElement.dataset.piece;
    const cellId = cellElement ? cellElement.dataset.cell : pieceElement && pieceElement.dataset.cell;
    page.pending = null;
    if (pieceId) {
      const found = matches(null, pieceId);
      if (found.length) return choose(found, { piece: pieceId });
      // A piece standing on a cell the selection can reach: the click means the cell.
      const onCell = pieceElement.dataset.cell;
      if ((page.selected || page.card) && pieceId !== page.selected && matches(onCell, null).length) {
        return clickCell(onCell);
      }
      const own = commands().filter((entry) => (entry.targets.pieces || []).includes(pieceId));
      // The piece's one command acts nowhere else (order this unit): the click sends it.
      if (own.length === 1 && !onBoard(own[0]) && !page.selected && !page.card) return send(own[0]);
      if (own.length) {
        page.card = null;
        page.selected = page.selected === pieceId ? null : pieceId;
        return render();
      }
      return clickCell(onCell);
    }
    if (cellId) clickCell(cellId);
  }

  function clickCell(cellId) {
    const found = matches(cellId, null);
    if (found.length) return choose(found, { cell: cellId });
    page.selected = null;
    page.card = null;
    render();
  }

  function highlight(container) {
    clearMarks(container, "selectable", "selected", "reachable", "on-path", "recent");
    for (const id of page.view.recent || []) mark(container, placeSelector(id), "recent");
    const all = commands();
    const says = new Map(); // element selector -> sentences of what clicking it does
    const add = (selector, words) => says.set(selector, [...(says.get(selector) || []), words]);
    for (const entry of all) {
      for (const id of entry.targets.pieces || []) {
        mark(container, pieceSelector(id), "selectable");
        if (!page.selected && !page.card) add(pieceSelector(id), `select it (${entry.words})`);
      }
    }
    if (page.selected) mark(container, pieceSelector(page.selected), "selected");
    const counts = new Map();
    for (const entry of boardPool()) {
      const selector = entry.targets.piece ? pieceSelector(entry.targets.piece)
        : entry.targets.cell ? cellSelector(entry.targets.cell) : null;
      if (!selector) continue;
      mark(container, selector, "reachable");
      counts.set(selector, (counts.get(selector) || 0) + 1);
      add(selector, entry.words);
    }
    // How many commands a click there stands for (more than one: a choice follows).
    for (const [selector, count] of counts) {
      for (const element of container.querySelectorAll(selector)) element.dataset.choices = String(count);
    }
    for (const [selector, sentences] of says) {
      for (const element of container.querySelectorAll(selector)) explain(element, [...new Set(sentences)].slice(0, 6));
    }
  }

  function showPath(container, cellId) {
    clearMarks(container, "on-path");
    if (!(page.selected || page.card) || !cellId) return;
    const entry = withSelected().find((candidate) => candidate.targets.cell === cellId);
    for (const id of (entry && entry.targets.path) || []) mark(container, cellSelector(id), "on-path");
  }

  function outcomeWords() {
    const end = page.words[page.words.length - 1]; // a finished game's last record: its end
    return end && end[0].startsWith("result: ") ? end[0] : "the game is over";
  }

  // Whose turn it is and what is asked, in one sentence.
  function sentence(view, thinking) {
    const you = view.seat ? `You play ${view.seat}.` : "You are watching.";
    if (view.view === null) return `${you} Waiting for ${view.waiting_for.join(", ")} to join (open their links).`;
    if (view.result) return `Game over: ${outcomeWords()}`;
    const stage = view.panels && view.panels.stage ? ` (${view.panels.stage})` : "";
    if (view.seat && view.acting.includes(view.seat)) {
      const all = commands();
      const hand = handIds();
      const ways = [];
      const placed = all.filter((entry) => selects(entry) || onBoard(entry));
      if (placed.length) {
        // A few: say what each click does (lose which unit, move in with what).
        const said = placed.length <= 3 ? `: ${placed.map((entry) => entry.words).join("; ")}` : "";
        ways.push(`click a highlighted piece or place on the board${said}`);
      }
      if (all.some((entry) => byCard(entry, hand))) ways.push("play a highlighted card of your hand");
      if (all.some((entry) => !selects(entry) && !onBoard(entry) && !byCard(entry, hand))) ways.push(all.length === 1 ? `choose “${all[0].words}”` : "choose a decision below");
      return `${you} Your move${stage}: ${ways.join(", or ") || "wait"}.`;
    }
    const others = view.acting.filter((seat) => seat !== view.seat);
    const busy = others.filter((seat) => thinking.includes(seat));
    const waiting = others.length ? `${others.join(" and ")} to act` : "nobody to act";
    const thinks = busy.length ? ` ${capital(busy.join(" and "))} ${busy.length === 1 ? "is" : "are"} thinking…` : "";
    return `${you} ${capital(waiting)}${stage}.${thinks}`;
  }

  function decisions(view) {
    const pending = page.pending || [];
    const hand = handIds();
    const selectedOnly = page.selected || page.card ? withSelected().filter((entry) => !onBoard(entry)) : [];
    const free = commands().filter((entry) => !selects(entry) && !onBoard(entry) && !byCard(entry, hand));
    let offered = pending.length ? pending : [...selectedOnly, ...free];
    // Nothing to say in words but a few places to click: the same commands as sentences too.
    const placed = commands().filter((entry) => onBoard(entry) && !selects(entry) && !byCard(entry, hand));
    if (!offered.length && !page.selected && !page.card && placed.length <= 6) offered = placed;
    const title = pending.length ? "Choose one" : page.card ? "With this card, or" : page.selected ? "With the selection, or" : "Decisions";
    const mine = view.acting.includes(view.seat);
    return h("div", { class: "panel choices", id: "choices" },
      h("h2", {}, title),
      offered.length ? offered.map((entry) => h("button", { onclick: () => send(entry) }, entry.words))
        : h("p", { class: "muted" }, mine ? "Click a highlighted piece, place or card." : "Not your turn."));
  }

  function render() {
    const view = page.view;
    if (!view) {
      status.textContent = page.error || "loading…";
      return;
    }
    if (view.title) {
      heading.textContent = view.title;
      document.title = `${view.title} — ${view.seat ? `playing ${view.seat}` : "watching"}`;
    }
    if (view.rules) {
      howTo.href = `#/how-to-play/${encodeURIComponent(view.rules)}`;
      howTo.hidden = false;
    }
    const thinking = view.thinking || [];
    status.textContent = sentence(view, thinking);
    status.classList.toggle("over", Boolean(view.result));
    status.classList.toggle("mine", Boolean(view.seat && view.acting.includes(view.seat) && !view.result));
    root.dataset.version = String(view.version);

    const drawn = drawBoards(view.svg);
    drawn.addEventListener("click", clicked);
    drawn.addEventListener("mouseover", (event) => {
      const over = event.target.closest("g.cell, g.piece");
      showPath(drawn, over && over.dataset.cell);
    });
    boards.replaceChildren(view.view === null ? h("p", { class: "muted" }, "The board appears once every seat has joined.") : drawn);
    if (view.view !== null) {
      highlight(drawn);
      if (page.pending && page.pendingAt) drawPicker(drawn, page.pending, page.pendingAt);
    }

    const panels = [];
    if (page.error) panels.push(h("p", { class: "error", id: "error" }, page.error));
    if (view.view !== null) panels.push(seatPanels(view, thinking));
    const playable = new Map();
    for (const entry of commands()) {
      if (entry.targets.card) playable.set(entry.targets.card, (playable.get(entry.targets.card) || 0) + 1);
    }
    if (view.view !== null) panels.push(ownHand(view, playable, page.card, pickCard));
    if (token && view.view !== null && !view.result) {
      panels.push(decisions(view));
      panels.push(h("div", { class: "panel actions" },
        h("button", { id: "undo", disabled: !view.can_undo, onclick: () => undoOrRedo("game.undo") }, "Undo"),
        h("button", { id: "redo", disabled: !view.can_redo, onclick: () => undoOrRedo("game.redo") }, "Redo")));
    }
    if (view.result) {
      panels.push(h("p", {}, h("a", { href: `#/replay/${gameId}`, id: "open-replay" }, "Step through this game's log")));
    }
    panels.push(h("div", { class: "panel" }, h("h2", {}, "What happened"),
      h("ul", { class: "feed", id: "feed" }, ...page.words.map((said, seq) => [seq, said]).slice(-FEED_RECORDS).reverse().map(([seq, [summary, ...events]]) =>
        h("li", { "data-seq": seq }, `${seq}. ${summary}`,
          ...events.filter((event) => event !== summary).map((event) => h("div", { class: "events" }, event)))))));
    if (view.view !== null && view.receipt_key) panels.push(receiptsPanel());
    if (view.text) {
      const open = document.getElementById("as-text");
      panels.push(h("details", { class: "panel", id: "as-text", open: Boolean(open && open.open) },
        h("summary", {}, "as text"), h("pre", { id: "view-text" }, view.text)));
    }
    side.replaceChildren(...panels.filter(Boolean));
  }

  await refresh();
}
