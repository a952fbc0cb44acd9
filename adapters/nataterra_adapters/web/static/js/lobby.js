// The lobby: create a game of any registered rule system (server.info), with pickers built
// from the system's options schema and its option choices (mode, scenario, map, turn limit),
// who plays each seat (you play the first; the others are people with their own links unless
// a bot is chosen), and the options as JSON under "advanced" (what the pickers set, editable).

import { errorText, h } from "./dom.js";

const PERSON = "";

// Words for an option's name: `max_turns` -> "turn limit"; otherwise its words.
function optionLabel(name) {
  if (name === "max_turns") return "turn limit (0: none)";
  return name.replace(/_/g, " ");
}

function properties(system) {
  const schema = system.options_schema || {};
  const ref = schema.$ref ? schema.$ref.split("/").pop() : null;
  const body = ref && schema.$defs ? schema.$defs[ref] : schema;
  return body.properties || {};
}

function kindOf(property) {
  if (property.type) return property.type;
  const types = (property.anyOf || []).map((option) => option.type).filter((type) => type !== "null");
  return types.length === 1 ? types[0] : "other";
}

function seatRows(system, count) {
  const seats = system.default_seats[String(count)] || [];
  const bots = system.players || [];
  return seats.map((seat, index) => {
    const select = h("select", { name: `seat-${seat}`, "data-seat": seat },
      h("option", { value: PERSON }, index === 0 ? "you" : "a person (send them their link)"),
      ...bots.map((name) => h("option", { value: name }, `bot: ${name}`)));
    select.value = PERSON;
    return h("label", { class: "seat-row" }, h("span", {}, seat), select);
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
  const message = h("p", { class: "error" });
  const links = h("div", { class: "created" });
  const current = () => systems.find((system) => system.id === rules.value);
  let chosen = {};

  function writeOptions() {
    options.value = JSON.stringify(chosen, null, 1);
  }

  // One picker per option a person sets: a list where the system gives choices, a number,
  // or a box; other options (texts, lists) only in the JSON.
  function showPickers(system) {
    const rows = [];
    const choices = system.option_choices || {};
    for (const [name, property] of Object.entries(properties(system))) {
      const kind = kindOf(property);
      let input = null;
      if (choices[name]) {
        input = h("select", { name: `option-${name}`, "data-option": name },
          ...choices[name].map((choice) => h("option", { value: JSON.stringify(choice.value) }, choice.words)));
        const start = name in chosen ? chosen[name] : property.default ?? choices[name][0].value;
        input.value = JSON.stringify(start);
        input.addEventListener("change", () => set(name, JSON.parse(input.value), property));
      } else if (kind === "integer") {
        input = h("input", { type: "number", name: `option-${name}`, "data-option": name, min: 0, value: chosen[name] ?? property.default ?? 0 });
        input.addEventListener("change", () => set(name, Number(input.value), property));
      } else if (kind === "boolean") {
        input = h("input", { type: "checkbox", name: `option-${name}`, "data-option": name });
        input.checked = Boolean(chosen[name] ?? property.default);
        input.addEventListener("change", () => set(name, input.checked, property));
      }
      if (input) rows.push(h("label", { class: "seat-row" }, h("span", {}, optionLabel(name)), input));
    }
    pickers.replaceChildren(h("legend", {}, "Options"), ...(rows.length ? rows : [h("span", { class: "muted" }, "This game has no options to pick.")]));
  }

  function set(name, value, property) {
    if (value === property.default || (value === null && property.default === undefined)) delete chosen[name];
    else chosen[name] = value;
    writeOptions();
  }

  function showSeats() {
    seats.replaceChildren(...seatRows(current(), Number(players.value)));
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
    for (const select of seats.querySelectorAll("select")) {
      if (select.value !== PERSON) bots[select.dataset.seat] = select.value;
    }
    try {
      const game = await rpc.call("game.create", {
        rules: rules.value, players: Number(players.value), options: given, bots,
      });
      links.replaceChildren(createdLinks(game, current().title));
    } catch (error) {
      message.textContent = errorText(error);
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
