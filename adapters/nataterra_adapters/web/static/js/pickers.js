// The lobby's controls for a rule system's options, built from its options schema
// (server.info's `options_schema`, `option_choices`): a list where the system offers
// choices, a number, a checkbox, and for the options whose schema carries an `x-picker`
// hint (docs/RPC.md): `{"kind": "text"}` a box to paste a document into or to fill from a
// file (a starting position, say), `{"kind": "seat-groups", "joiner": "+"}` a group for
// each seat, sent as one string per group of its seats joined (teams). Each picker calls
// `set(name, value)`; the JSON under "advanced" shows what they set. Knows no game.

import { h } from "./dom.js";

// Words for an option: its schema's title, else its name's words (`max_turns`: "turn limit").
export function optionLabel(name, property = {}) {
  if (property.title) return property.title;
  if (name === "max_turns") return "turn limit (0: none)";
  return name.replace(/_/g, " ");
}

export function properties(system) {
  const schema = system.options_schema || {};
  const ref = schema.$ref ? schema.$ref.split("/").pop() : null;
  const body = ref && schema.$defs ? schema.$defs[ref] : schema;
  return body.properties || {};
}

function kindOf(property) {
  if (property["x-picker"]) return property["x-picker"].kind;
  if (property.type) return property.type;
  const types = (property.anyOf || []).map((option) => option.type).filter((type) => type !== "null");
  return types.length === 1 ? types[0] : "other";
}

// The option (name, property) whose picker is a group per seat, if the system has one.
export function seatGroupsOption(system) {
  const found = Object.entries(properties(system)).find(([, property]) => kindOf(property) === "seat-groups");
  return found || null;
}

// One row per option a person sets from its own control (seat groups go with the seats).
export function optionRows(system, chosen, set) {
  const rows = [];
  const choices = system.option_choices || {};
  for (const [name, property] of Object.entries(properties(system))) {
    const kind = kindOf(property);
    const change = (value) => set(name, value, property);
    let input = null;
    if (choices[name]) {
      input = h("select", { name: `option-${name}`, "data-option": name },
        ...choices[name].map((choice) => h("option", { value: JSON.stringify(choice.value) }, choice.words)));
      const start = name in chosen ? chosen[name] : property.default ?? choices[name][0].value;
      input.value = JSON.stringify(start);
      input.addEventListener("change", () => change(JSON.parse(input.value)));
    } else if (kind === "integer") {
      input = h("input", { type: "number", name: `option-${name}`, "data-option": name, min: 0, value: chosen[name] ?? property.default ?? 0 });
      input.addEventListener("change", () => change(Number(input.value)));
    } else if (kind === "boolean") {
      input = h("input", { type: "checkbox", name: `option-${name}`, "data-option": name });
      input.checked = Boolean(chosen[name] ?? property.default);
      input.addEventListener("change", () => change(input.checked));
    } else if (kind === "text") {
      rows.push(textPicker(name, property, chosen[name], change));
    }
    if (input) rows.push(h("label", { class: "seat-row" }, h("span", {}, optionLabel(name, property)), input));
  }
  return rows;
}

// A document pasted or read from a file (sent as its text; empty: the option is not given).
// The rules check it when the game is created, and their reasons are shown then.
function textPicker(name, property, value, change) {
  const hint = property["x-picker"];
  const box = h("textarea", {
    name: `option-${name}`, "data-option": name, rows: 5, spellcheck: "false",
    placeholder: hint.placeholder || "paste it here, or choose a file",
  });
  box.value = typeof value === "string" ? value : "";
  const said = h("div", { class: "muted", "data-option-note": name });
  const file = h("input", { type: "file", name: `option-${name}-file`, accept: hint.accept || null });
  const update = () => {
    const text = box.value;
    change(text.trim() ? text : null);
    said.textContent = text.trim() ? `${text.length} characters, checked by the rules when the game is created` : "";
  };
  box.addEventListener("change", update);
  file.addEventListener("change", async () => {
    if (!file.files.length) return;
    box.value = await file.files[0].text();
    update();
  });
  return h("div", { class: "text-picker" },
    h("label", {}, h("span", {}, optionLabel(name, property)), box),
    h("div", {}, file), said);
}

const NO_GROUP = "";

// A group select for a seat row: "no team", "team 1", … (one group per seat at most).
export function groupSelect(seat, count) {
  const select = h("select", { name: `group-${seat}`, "data-group-seat": seat, "aria-label": `${seat}'s team` },
    h("option", { value: NO_GROUP }, "no team"),
    ...Array.from({ length: count }, (_, index) => h("option", { value: String(index + 1) }, `team ${index + 1}`)));
  select.value = NO_GROUP;
  return select;
}

// The groups the selects make, in group order, each its seats in seat order joined by
// `joiner`; `null` when no seat is in a group; `missing`: the seats left out of one.
export function groupsOf(selects, joiner) {
  const groups = new Map();
  const missing = [];
  for (const select of selects) {
    if (select.value === NO_GROUP) missing.push(select.dataset.groupSeat);
    else groups.set(select.value, [...(groups.get(select.value) || []), select.dataset.groupSeat]);
  }
  if (!groups.size) return { value: null, missing: [] };
  const ordered = [...groups.keys()].sort((a, b) => Number(a) - Number(b));
  return { value: ordered.map((key) => groups.get(key).join(joiner)), missing };
}
