// Step through a log with a slider: the board and the record's sentences at each step.
// The log comes from a file, pasted text, or a finished game of this server (game.log).
// It is verified first (log.verify: the hash chain, the dice, the rules) and the verdict
// stays above the replay, in the words the CLI's replay prints (log.verify's said: the
// auditor's reason after them in a parenthesis): verified, INVALID at record N, or
// incomplete; what can be shown is shown all the same, and where replaying stops (a forged
// log whose events no longer fold: log.replay's stopped) is said below the verdict. Pasted
// text without its final newline gets one (a copy from a page loses it), and the page says
// so; a file is read as it is.

import { drawBoards } from "./board.js";
import { errorText, h } from "./dom.js";

export async function replayPage(root, rpc, gameId) {
  const message = h("p", { class: "error", id: "replay-error" });
  const stage = h("div", { class: "replay" });
  const file = h("input", { type: "file", accept: ".jsonl,.json,.txt", id: "log-file" });
  const pasted = h("textarea", { id: "log-text", rows: 4, placeholder: "…or paste a log (JSON Lines) here" });
  const open = h("button", { id: "open-log" }, "Open");
  root.replaceChildren(h("h1", {}, "Replay a log"),
    h("div", { class: "panel" }, file, " ", open, h("div", {}, pasted)), message, stage);

  const verdict = h("div", { class: "verdict", id: "replay-verdict", hidden: true });
  const stopped = h("p", { class: "error", id: "replay-stopped", hidden: true });
  const note = h("p", { class: "muted", id: "replay-note" });
  root.append(verdict, stopped, note);
  root.insertBefore(stage, null);

  open.addEventListener("click", async () => {
    let text = file.files.length ? await file.files[0].text() : pasted.value;
    note.textContent = "";
    if (!file.files.length && text.trim() && !text.endsWith("\n")) {
      text += "\n";
      note.textContent = "A final newline was added to the pasted text (a log's last record ends with one).";
    }
    if (text.trim()) show(text);
  });

  // The verdict in words (log.verify's said): Verified / Incomplete / INVALID at record N.
  async function check(log) {
    let found;
    try {
      found = await rpc.call("log.verify", { log });
    } catch (error) {
      found = { status: "invalid", said: errorText(error) };
    }
    const where = found.seq !== undefined && found.seq !== null ? ` at record ${found.seq}` : "";
    verdict.className = `verdict ${found.status}`;
    verdict.dataset.status = found.status;
    verdict.textContent = found.status === "valid"
      ? `Verified: ${found.said}.`
      : found.status === "incomplete"
        ? `Incomplete: ${found.said}.`
        : `INVALID${where}: ${found.said}. What can be shown is shown below; do not trust it.`;
    verdict.hidden = false;
    return found;
  }

  // The registered systems (server.info), asked once: a log's rules named by their title.
  let known = null;
  async function systems() {
    if (known === null) {
      try {
        known = (await rpc.call("server.info")).systems;
      } catch (error) {
        return []; // the id then; asked again next time
      }
    }
    return known;
  }

  async function show(log) {
    message.textContent = "";
    stopped.hidden = true;
    stage.replaceChildren();
    const found = await check(log);
    let first;
    try {
      first = await rpc.call("log.replay", { log, words: true });
    } catch (error) {
      message.textContent = errorText(error);
      return;
    }
    if (first.stopped) { // the records from there on cannot be shown: say why, in words
      stopped.textContent = `Shown up to record ${first.records - 1}: ${first.stopped.said}.`;
      stopped.hidden = false;
    }
    const words = first.words;
    const last = first.records - 1;
    const slider = h("input", { type: "range", min: 0, max: last, value: last, id: "replay-slider" });
    const position = h("span", { id: "replay-at" });
    const seat = h("select", { id: "replay-seat" }, h("option", { value: "" }, "as a spectator"),
      ...first.seats.map((name) => h("option", { value: name }, `as ${name}`)));
    const sentence = h("div", { class: "sentence", id: "replay-sentence" });
    const events = h("ul", { class: "feed", id: "replay-events" });
    const board = h("div", { class: "board-area" });
    const text = h("pre", { id: "replay-text" });
    // A finished log ends with its result; one cut before its end record (incomplete) has none.
    const end = first.result && found.status !== "incomplete" ? words[last][0] : null;
    const unfinished = first.result
      ? "The log has no result: it stops before its end record."
      : "The log has no result (the game was not finished).";
    const system = (await systems()).find((entry) => entry.id === first.rules);
    stage.replaceChildren(
      h("p", { id: "replay-result" }, `${system ? system.title : first.rules}: ${first.seats.join(", ")}; ${first.records} records. `,
        end || unfinished),
      h("div", { class: "replay-controls" },
        h("button", { onclick: () => step(-1), id: "replay-back" }, "◀"), slider,
        h("button", { onclick: () => step(1), id: "replay-forward" }, "▶"), position, seat),
      sentence, h("div", { class: "game" }, board, h("div", {}, h("div", { class: "panel" }, events), h("div", { class: "panel" }, text))));

    let shown = 0;
    async function at(index) {
      const asked = ++shown;
      try {
        const result = index === last && !seat.value
          ? first : await rpc.call("log.replay", { log, at: index, seat: seat.value || null, words: false });
        if (asked !== shown) return; // a later step has been asked for meanwhile
        const [summary, ...said] = words[index];
        position.textContent = `record ${index} of ${last}`;
        sentence.textContent = `${index}. ${summary}`;
        events.replaceChildren(...said.map((event) => h("li", {}, event)));
        board.replaceChildren(drawBoards(result.svg));
        text.textContent = result.text;
        stage.dataset.at = String(index);
      } catch (error) {
        message.textContent = errorText(error);
      }
    }
    function step(by) {
      slider.value = String(Math.min(last, Math.max(0, Number(slider.value) + by)));
      at(Number(slider.value));
    }
    slider.addEventListener("input", () => at(Number(slider.value)));
    seat.addEventListener("change", () => at(Number(slider.value)));
    await at(last);
  }

  if (gameId) {
    try {
      const log = await rpc.call("game.log", { game_id: gameId });
      if (!log.log) {
        message.textContent = "This game is not finished: its log becomes public at its end.";
        return;
      }
      await show(log.log);
    } catch (error) {
      message.textContent = errorText(error);
    }
  }
}
