// The lobby: create a game of any registered rule system (server.info), choose who plays
// each seat (a person, or one of the system's bots), and hand out one link per seat.

import { errorText, h } from "./dom.js";

const PERSON = "";

function seatRows(system, count) {
  const seats = system.default_seats[String(count)] || [];
  const bots = system.players || [];
  const preferred = bots.includes("heuristic") ? "heuristic" : bots[0];
  return seats.map((seat, index) => {
    const select = h("select", { name: `seat-${seat}`, "data-seat": seat },
      h("option", { value: PERSON }, "a person"),
      ...bots.map((name) => h("option", { value: name }, `bot: ${name}`)));
    select.value = index === 0 ? PERSON : preferred || PERSON;
    return [h("span", {}, seat), select];
  });
}

export async function lobbyPage(root, rpc) {
  const info = await rpc.call("server.info");
  const systems = info.systems;
  const rules = h("select", { name: "rules" },
    ...systems.map((system) => h("option", { value: system.id }, `${system.title} (${system.id})`)));
  rules.value = info.default_rules;
  const players = h("select", { name: "players" });
  const seats = h("div", { class: "seats" });
  const options = h("textarea", { name: "options", spellcheck: "false" });
  const message = h("p", { class: "error" });
  const links = h("div", { class: "created" });
  const current = () => systems.find((system) => system.id === rules.value);

  function showSeats() {
    seats.replaceChildren(...seatRows(current(), Number(players.value)).flat());
  }
  function showSystem() {
    const system = current();
    players.replaceChildren(...system.player_counts.map((n) => h("option", { value: n }, `${n} players`)));
    options.value = JSON.stringify(system.default_options, null, 1);
    showSeats();
  }
  rules.addEventListener("change", showSystem);
  players.addEventListener("change", showSeats);
  showSystem();

  async function create(event) {
    event.preventDefault();
    message.textContent = "";
    let chosen;
    try {
      chosen = options.value.trim() ? JSON.parse(options.value) : {};
    } catch (error) {
      message.textContent = `options are not JSON: ${error.message}`;
      return;
    }
    const bots = {};
    for (const select of seats.querySelectorAll("select")) {
      if (select.value !== PERSON) bots[select.dataset.seat] = select.value;
    }
    try {
      const game = await rpc.call("game.create", {
        rules: rules.value, players: Number(players.value), options: chosen, bots,
      });
      links.replaceChildren(createdLinks(game));
    } catch (error) {
      message.textContent = errorText(error);
    }
  }

  root.replaceChildren(
    h("h1", {}, "New game"),
    h("form", { class: "lobby", onsubmit: create },
      h("label", {}, "Game", rules),
      h("label", {}, "Players", players),
      h("div", {}, h("div", {}, "Who plays each seat"), seats),
      h("label", {}, "Options (JSON, checked by the rules; e.g. {\"max_turns\": 6})", options),
      h("button", { type: "submit", id: "create" }, "Create game"),
      message),
    links);
}

function createdLinks(game) {
  const base = `${location.origin}${location.pathname}`;
  const items = game.seats.map((seat) => {
    const token = game.tokens[seat];
    if (!token) return h("li", {}, `${seat}: played by the server (${game.bots[seat]})`);
    const href = `#/play/${game.game_id}/${token}`;
    return h("li", {},
      h("a", { href, "data-seat-link": seat }, `Play as ${seat}`), " — send this link to that player only: ",
      h("code", {}, base + href));
  });
  const watch = `#/watch/${game.game_id}`;
  items.push(h("li", {}, h("a", { href: watch, "data-watch-link": "" }, "Watch as a spectator"), " ",
    h("code", {}, base + watch)));
  return h("div", {},
    h("h2", {}, `Game ${game.game_id} created`),
    h("p", { class: "muted" }, "Each link holds that seat's secret token: whoever has it plays the seat."),
    h("ul", { class: "links" }, ...items));
}
