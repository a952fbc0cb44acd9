// The seat panels beside the board (game.view's `panels`, the system's panels hook): each
// seat's name and colour, resources, score and what it holds (the others' cards only
// counted), who is to act and who is thinking; and the viewer's own hand as cards (title,
// cost, text), the playable ones marked for clicking. Knows no game.

import { h } from "./dom.js";

// The renderer's fallback colours (nataterra_core.boards.svg.SEAT_COLOURS), in seat order.
const FALLBACK = ["#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17202a"];

export function seatColour(view, seat) {
  const board = view.board || {};
  if (board.colours && board.colours[seat]) return board.colours[seat];
  const seats = board.seats || (view.panels ? view.panels.seats.map((panel) => panel.seat) : []);
  return FALLBACK[Math.max(0, seats.indexOf(seat)) % FALLBACK.length];
}

function stats(kind, list) {
  if (!list || !list.length) return null;
  return h("div", { class: `stats ${kind}` },
    ...list.map((stat) => h("span", { class: "stat" }, h("b", {}, String(stat.value)), " ", stat.label)));
}

// One panel per seat.
export function seatPanels(view, thinking) {
  const panels = view.panels ? view.panels.seats : (view.board ? view.board.seats : []).map((seat) => ({ seat }));
  return h("div", { class: "seats", id: "seats" }, ...panels.map((panel) => {
    const acting = view.acting.includes(panel.seat) && !view.result;
    const bot = view.bots && view.bots[panel.seat];
    const flags = [];
    if (panel.seat === view.seat) flags.push(h("span", { class: "flag you" }, "you"));
    if (bot) flags.push(h("span", { class: "flag bot" }, `bot: ${bot}`));
    if (acting) flags.push(h("span", { class: "flag acting" }, "to act"));
    if (thinking.includes(panel.seat)) flags.push(h("span", { class: "flag thinking" }, "thinking…"));
    if (panel.out) flags.push(h("span", { class: "flag out" }, "out"));
    const hand = panel.hand ? h("div", { class: "muted" }, `${panel.hand.length} card${panel.hand.length === 1 ? "" : "s"} in hand (below)`) : null;
    return h("section", { class: `seat-panel${acting ? " acting" : ""}${panel.out ? " out" : ""}`, "data-seat": panel.seat },
      h("header", {},
        h("span", { class: "swatch", style: `background:${seatColour(view, panel.seat)}` }),
        h("strong", {}, panel.seat), panel.name ? h("span", { class: "muted" }, ` ${panel.name}`) : null, " ", ...flags),
      stats("resources", panel.resources), stats("score", panel.score), stats("counts", panel.counts), hand);
  }));
}

// The viewer's own hand: one card each; `playable` maps a card id to the number of legal
// commands that play it (those cards are marked and clickable); `selected` is marked too.
export function ownHand(view, playable, selected, onPick) {
  const own = view.panels && view.panels.seats.find((panel) => panel.seat === view.seat);
  if (!own || !own.hand) return null;
  const cards = own.hand.map((card, index) => {
    const count = playable.get(card.id) || 0;
    const classes = ["card", count ? "playable" : "", selected === card.id ? "selected" : ""].filter(Boolean).join(" ");
    return h(count ? "button" : "div", {
      class: classes,
      type: count ? "button" : null,
      "data-card": card.id,
      "data-index": index,
      title: count ? "Click to play this card" : null,
      onclick: count ? () => onPick(card.id) : null,
    },
    card.deck ? h("span", { class: "deck" }, card.deck) : null,
    h("span", { class: "title" }, card.title),
    card.cost ? h("span", { class: "cost" }, card.cost) : null,
    card.text ? h("span", { class: "text" }, card.text) : null);
  });
  return h("div", { class: "panel hand", id: "hand" }, h("h2", {}, `Your hand (${own.hand.length})`),
    cards.length ? h("div", { class: "cards" }, ...cards) : h("p", { class: "muted" }, "No cards."));
}
