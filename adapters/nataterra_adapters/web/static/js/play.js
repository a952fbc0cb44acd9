// Playing (with a seat's token) or watching (without) a game. The board comes from the
// view's `board`, each legal command's place on it from `targets`: click a piece to select
// it (the cells and pieces it can reach light up; hover one to see the path), then click a
// destination. Commands with no place on the board are offered in words.
//
// Receipts (docs/RECEIPTS.md): the page keeps the lines of the log it was shown (`game.log`'s
// `lines`, exactly as received) and every signed receipt it is given (by its own moves, or
// asked for with "Get a receipt"), and offers them for download as one JSON file; a seat
// checks them afterwards against the published log with `nataterra verify --receipt`.

import { clearMarks, drawBoards, drawPicker, mark } from "./board.js";
import { errorText, h } from "./dom.js";

const FEED_RECORDS = 60;

function randomContribution() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const cssId = (id) => CSS.escape(id);

export async function playPage(root, rpc, gameId, token) {
  const page = { view: null, legal: null, words: [], lines: [], receipts: [], selected: null, error: "" };
  const boards = h("div", { class: "board-area" });
  const status = h("div", { class: "status", id: "status" });
  const side = h("div", { class: "side" });
  root.replaceChildren(h("h1", {}, `Game ${gameId}`), status,
    h("div", { class: "game" }, boards, side));

  const stop = rpc.onNotify((method, params) => {
    if (method === "game.changed" && params.game_id === gameId) refresh(true);
  });
  window.addEventListener("hashchange", stop, { once: true });

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
      if (noted && page.view && !page.error && view.version === page.view.version) return;
      if (token && view.waiting_for.includes(view.seat)) {
        await rpc.call("game.join", { game_id: gameId, token, client_seed: randomContribution() });
        view = await rpc.call("game.view", { game_id: gameId, token });
      }
      if (!page.view || view.version !== page.view.version) {
        page.selected = null; // a new position: the old selection and choices mean nothing
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

  async function send(entry) {
    page.selected = null;
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
    return h("div", { class: "panel", id: "receipts" }, h("h2", {}, "Receipts"),
      h("p", { class: "muted" }, "Signed by the game's key: check them against the published log with nataterra verify --receipt."),
      h("button", { id: "ask-receipt", onclick: askReceipt }, "Get a receipt"), " ", download);
  }

  // What the selection (or nothing) can do: the commands listing the selected piece.
  function withSelected() {
    return commands().filter((entry) => (entry.targets.pieces || []).includes(page.selected));
  }

  function matches(cellId, pieceId) {
    const pool = page.selected ? withSelected()
      : commands().filter((entry) => !(entry.targets.pieces || []).length);
    return pool.filter((entry) =>
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

  function clicked(event) {
    const pieceElement = event.target.closest("[data-piece]");
    const cellElement = event.target.closest("[data-cell]");
    const pieceId = pieceElement && pieceElement.dataset.piece;
    const cellId = cellElement && cellElement.dataset.cell;
    const option = event.target.closest("[data-option]");
    if (option && page.pending) return send(page.pending[Number(option.dataset.option)]);
    page.pending = null;
    if (pieceId) {
      const found = matches(null, pieceId);
      if (found.length) return choose(found, { piece: pieceId });
      // A piece standing on a zone the selection can reach: the click means the zone.
      const piece = findPiece(pieceId);
      if (page.selected && pieceId !== page.selected && piece && matches(piece.cell, null).length) {
        return clickCell(piece.cell);
      }
      const selectable = commands().some((entry) => (entry.targets.pieces || []).includes(pieceId));
      if (selectable) {
        page.selected = page.selected === pieceId ? null : pieceId;
        return render();
      }
      if (piece) return clickCell(piece.cell);
      return;
    }
    if (cellId) clickCell(cellId);
  }

  function clickCell(cellId) {
    const found = matches(cellId, null);
    if (found.length) return choose(found, { cell: cellId });
    page.selected = null;
    render();
  }

  function findPiece(id) {
    for (const board of (page.view.board || { boards: [] }).boards) {
      for (const piece of board.pieces || []) if (piece.id === id) return piece;
    }
    return null;
  }

  function highlight(container) {
    clearMarks(container, "selectable", "selected", "reachable", "on-path");
    const all = commands();
    for (const entry of all) {
      for (const id of entry.targets.pieces || []) mark(container, `[data-piece="${cssId(id)}"]`, "selectable");
    }
    if (page.selected) mark(container, `[data-piece="${cssId(page.selected)}"]`, "selected");
    const pool = page.selected ? withSelected() : all.filter((entry) => !(entry.targets.pieces || []).length);
    const counts = new Map();
    for (const entry of pool) {
      const selector = entry.targets.piece ? `[data-piece="${cssId(entry.targets.piece)}"]`
        : entry.targets.cell ? `[data-cell="${cssId(entry.targets.cell)}"]` : null;
      if (!selector) continue;
      mark(container, selector, "reachable");
      counts.set(selector, (counts.get(selector) || 0) + 1);
    }
    // How many commands a click there stands for (more than one: a choice follows).
    for (const [selector, count] of counts) {
      for (const element of container.querySelectorAll(selector)) element.dataset.choices = String(count);
    }
  }

  function showPath(container, cellId) {
    clearMarks(container, "on-path");
    if (!page.selected || !cellId) return;
    const entry = withSelected().find((candidate) => candidate.targets.cell === cellId);
    for (const id of (entry && entry.targets.path) || []) mark(container, `[data-cell="${cssId(id)}"]`, "on-path");
  }

  function outcomeWords() {
    const end = page.words[page.words.length - 1]; // a finished game's last record: its end
    return end && end[0].startsWith("result: ") ? end[0] : "the game is over";
  }

  function render() {
    const view = page.view;
    if (!view) {
      status.textContent = page.error || "loading…";
      return;
    }
    const you = view.seat ? `You play ${view.seat}.` : "You are watching.";
    if (view.view === null) {
      status.textContent = `${you} Waiting for ${view.waiting_for.join(", ")} to join (open their links).`;
    } else if (view.result) {
      status.textContent = `Game over: ${outcomeWords()}`;
    } else {
      const yours = view.seat && view.acting.includes(view.seat) ? " Your move." : "";
      status.textContent = `${you} To act: ${view.acting.join(", ") || "nobody"}.${yours}`;
    }
    status.classList.toggle("over", Boolean(view.result));
    root.dataset.version = String(view.version);

    const drawn = drawBoards(view.board);
    drawn.addEventListener("click", clicked);
    drawn.addEventListener("mouseover", (event) => {
      const cell = event.target.closest("[data-cell]");
      const over = event.target.closest("[data-piece]");
      const piece = over && findPiece(over.dataset.piece);
      showPath(drawn, cell ? cell.dataset.cell : piece && piece.cell);
    });
    highlight(drawn);
    if (page.pending && page.pendingAt) drawPicker(drawn, view.board, page.pending, page.pendingAt);
    boards.replaceChildren(view.view === null ? h("p", { class: "muted" }, "The board appears once every seat has joined.") : drawn);

    const panels = [];
    if (page.error) panels.push(h("p", { class: "error", id: "error" }, page.error));
    if (token && view.view !== null && !view.result) {
      panels.push(h("div", { class: "panel actions" },
        h("button", { id: "undo", disabled: !view.can_undo, onclick: () => undoOrRedo("game.undo") }, "Undo"),
        h("button", { id: "redo", disabled: !view.can_redo, onclick: () => undoOrRedo("game.redo") }, "Redo")));
      const pending = page.pending || [];
      const selectedOnly = page.selected
        ? withSelected().filter((entry) => !entry.targets.cell && !entry.targets.piece) : [];
      const free = commands().filter((entry) => !Object.keys(entry.targets).length);
      const offered = pending.length ? pending : [...selectedOnly, ...free];
      const title = pending.length ? "Choose one" : page.selected ? "With the selection, or" : "Decisions";
      panels.push(h("div", { class: "panel choices", id: "choices" },
        h("h2", {}, title),
        offered.length ? offered.map((entry) => h("button", { onclick: () => send(entry) }, entry.words))
          : h("p", { class: "muted" }, view.acting.includes(view.seat) ? "Click a highlighted piece on the board." : "Not your turn.")));
    }
    if (view.result) {
      panels.push(h("p", {}, h("a", { href: `#/replay/${gameId}`, id: "open-replay" }, "Step through this game's log")));
    }
    if (view.text) panels.push(h("div", { class: "panel" }, h("h2", {}, "Position"), h("pre", { id: "view-text" }, view.text)));
    if (view.view !== null && view.receipt_key) panels.push(receiptsPanel());
    panels.push(h("div", { class: "panel" }, h("h2", {}, "What happened"),
      h("ul", { class: "feed", id: "feed" }, ...page.words.map((said, seq) => [seq, said]).slice(-FEED_RECORDS).reverse().map(([seq, [summary, ...events]]) =>
        h("li", { "data-seq": seq }, `${seq}. ${summary}`,
          ...events.filter((event) => event !== summary).map((event) => h("div", { class: "events" }, event)))))));
    side.replaceChildren(...panels);
  }

  await refresh();
}
