// The lobby: create a game of any registered rule system (server.info), with pickers built
// from the system's options schema and its option choices (mode, scenario, map, turn limit,
// a starting position to paste or read from a file: pickers.js), who plays each seat (you
// play the first; the others are people with their own links unless a bot is chosen) and,
// for a system with teams, each seat's team; the options as JSON under "advanced" (what the
// pickers set, editable).

import { errorText, h } from "./dom.js";
import { groupSelect, groupsOf, optionRows, seatGroupsOption } from "./pickers.js";

const PERSON = "";

function seatRows(system, count, grouped) {
  const seats = system.default_seats[String(count)] || [];
  const bots = system.players || [];
  return seats.map((seat, index) => {
    const select = h("select", { name: `seat-${seat}`, "data-seat": seat },
      h("option", { value: PERSON }, index === 0 ? "you" : "a person (send them their link)"),
      ...bots.map((name) => h("option", { value: name }, `bot: ${name}`)));
    select.value = PERSON;
    return h("label", { class: "seat-row" }, h("span", {}, seat),
      h("span", { class: "seat-controls" }, select, grouped ? groupSelect(seat, seats.length) : null));
  });
}

export async function lobbyPage(root, rpc) {
  const info = await rpc.call("server.info");
  const systems = info.systems;
  const rules = h("select", { name: "rules" },
    ...systems.map((system) => h("option", { value: system.id }, system.title)));
  rules.value = info.default_rules;
  const players = h("select", { name: "players" });
  const seats = h("div", { class: "seat-list" });
  const pickers = h("fieldset", { class: "pickers" });
  const options = h("textarea", { name: "options", spellcheck: "false" });
  const howTo = h("a", { class: "how-to-play", id: "lobby-how-to-play", target: "_blank", rel: "noopener" }, "How to play");
  const message = h("p", { class: "error", id: "lobby-error" });
  const links = h("div", { class: "created" });
  const current = () => systems.find((system) => system.id === rules.value);
  let chosen = {};

  function writeOptions() {
    options.value = JSON.stringify(chosen, null, 1);
  }

  function showPickers(system) {
    const rows = optionRows(system, chosen, set);
    pickers.replaceChildren(h("legend", {}, "Options"), ...(rows.length ? rows : [h("span", { class: "muted" }, "This game has no options to pick.")]));
  }

  function set(name, value, property) {
    const unset = value === null && property.default === undefined;
    if (unset || JSON.stringify(value) === JSON.stringify(property.default)) delete chosen[name];
    else chosen[name] = value;
    writeOptions();
  }

  // Teams (the system's seat-groups option): a team select per seat, sent as the groups.
  function showSeats() {
    const system = current();
    const grouped = seatGroupsOption(system);
    seats.replaceChildren(...seatRows(system, Number(players.value), grouped),
      grouped ? h("p", { class: "muted", id: "group-note" }, "No teams: every player for themselves.") : null);
    if (!grouped) return;
    const [name, property] = grouped;
    const joiner = property["x-picker"].joiner || "+";
    if (name in chosen) set(name, property.default ?? null, property); // new seats: no teams yet
    const selects = [...seats.querySelectorAll("select[data-group-seat]")];
    const note = seats.querySelector("#group-note");
    for (const select of selects) {
      select.addEventListener("change", () => {
        const { value, missing } = groupsOf(selects, joiner);
        set(name, value ?? property.default ?? null, property);
        note.className = missing.length ? "error" : "muted";
        note.textContent = !value ? "No teams: every player for themselves."
          : missing.length ? `Give ${missing.join(" and ")} a team too (or no seat one).`
            : `Teams: ${value.map((group) => group.split(joiner).join(" and ")).join(" against ")}.`;
      });
    }
  }
  function showSystem() {
    const system = current();
    players.replaceChildren(...system.player_counts.map((n) => h("option", { value: n }, `${n} players`)));
    chosen = { ...system.default_options };
    writeOptions();
    showPickers(system);
    howTo.hidden = !system.how_to_play;
    howTo.href = `#/how-to-play/${encodeURIComponent(system.id)}`;
    howTo.textContent = `How to play ${system.title}`;
    showSeats();
  }
  rules.addEventListener("change", showSystem);
  players.addEventListener("change", showSeats);
  showSystem();

  async function create(event) {
    event.preventDefault();
    message.textContent = "";
    let given;
    try {
      given = options.value.trim() ? JSON.parse(options.value) : {};
    } catch (error) {
      message.textContent = `the options under "advanced" are not JSON: ${error.message}`;
      return;
    }
    const bots = {};
    for (const select of seats.querySelectorAll("select[data-seat]")) {
      if (select.value !== PERSON) bots[select.dataset.seat] = select.value;
    }
    try {
      const game = await rpc.call("game.create", {
        rules: rules.value, players: Number(players.value), options: given, bots,
      });
      links.replaceChildren(createdLinks(game, current().title));
    } catch (error) {
      message.textContent = `The game was not created: ${errorText(error)}`;
    }
  }

  root.replaceChildren(
    h("h1", {}, "New game"),
    h("form", { class: "lobby", onsubmit: create },
      h("label", {}, "Game", rules), howTo,
      h("label", {}, "Players", players),
      pickers,
      h("fieldset", {}, h("legend", {}, "Who plays each seat"), seats),
      h("details", { id: "advanced" }, h("summary", {}, "Advanced: the options as JSON (checked by the rules)"), options),
      h("button", { type: "submit", id: "create" }, "Create game"),
      message),
    links);
}

function createdLinks(game, title) {
  const base = `${location.origin}${location.pathname}`;
  const items = game.seats.map((seat, index) => {
    const token = game.tokens[seat];
    if (!token) return h("li", {}, `${seat}: played by the server (${game.bots[seat]})`);
    const href = `#/play/${game.game_id}/${token}`;
    if (index === 0) return h("li", {}, h("a", { href, "data-seat-link": seat, class: "you" }, `Play as ${seat} (you)`));
    return h("li", {},
      h("a", { href, "data-seat-link": seat }, `Play as ${seat}`), " — send this link to that player only: ",
      h("code", {}, base + href));
  });
  const watch = `#/watch/${game.game_id}`;
  items.push(h("li", {}, h("a", { href: watch, "data-watch-link": "" }, "Watch as a spectator"), " ",
    h("code", {}, base + watch)));
  return h("div", {},
    h("h2", {}, `${title}: game ${game.game_id} created`),
    h("p", { class: "muted" }, "Each link holds that seat's secret token: whoever has it plays the seat."),
    h("ul", { class: "links" }, ...items));
}
