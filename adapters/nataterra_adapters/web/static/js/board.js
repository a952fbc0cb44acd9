// Shows the boards of a view: the SVG documents the server drew with the project's one
// renderer (nataterra_core.boards.svg, the same as `nataterra show --svg`), one per board.
// Their elements carry ids: a cell is <g class="cell" data-cell=ID>, a piece <g class="piece"
// data-piece=ID>, a structure <g class="structure" data-structure=ID>. This module only
// marks them (classes the stylesheet draws) and draws pickers over them. Knows no game.

import { h, s } from "./dom.js";

const parser = new DOMParser();

// The boards as <figure>s in one container (a message when the game has none).
export function drawBoards(pictures) {
  const container = h("div", { class: "boards" });
  if (!pictures || !pictures.length) {
    container.append(h("p", { class: "muted" }, "This game has no board to draw."));
    return container;
  }
  for (const picture of pictures) {
    const parsed = parser.parseFromString(picture, "image/svg+xml").documentElement;
    if (parsed.nodeName !== "svg") continue; // a parse error: nothing to show
    const svg = document.importNode(parsed, true);
    // As wide as the column allows, but a small board (a table of cups) no more than half
    // again its drawn size, so its words stay in proportion.
    const natural = Number(svg.getAttribute("width")) || 0;
    if (natural) svg.style.maxWidth = `${Math.round(natural * 1.5)}px`;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.classList.add("board");
    const board = svg.querySelector("[data-board]");
    container.append(h("figure", { "data-figure": board ? board.dataset.board : "" }, svg));
  }
  return container;
}

export const cellSelector = (id) => `g.cell[data-cell="${CSS.escape(id)}"]`;
export const pieceSelector = (id) => `g.piece[data-piece="${CSS.escape(id)}"]`;

// A cell or a piece, whichever the id names.
export function placeSelector(id) {
  return `${cellSelector(id)}, ${pieceSelector(id)}`;
}

export function mark(container, selector, className, on = true) {
  for (const element of container.querySelectorAll(selector)) element.classList.toggle(className, on);
}

export function clearMarks(container, ...classNames) {
  for (const name of classNames) mark(container, `.${name}`, name, false);
}

// Says in an element's tooltip what clicking it does (the commands' sentences).
export function explain(element, sentences) {
  let title = element.querySelector(":scope > title");
  if (!title) {
    title = s("title");
    element.prepend(title);
  }
  if (!title.dataset.facts) title.dataset.facts = title.textContent;
  title.textContent = sentences.length ? `${title.dataset.facts}\nClick to: ${sentences.join("; ")}` : title.dataset.facts;
}

// What tells commands apart: the fields whose values differ ({count: 1} / {count: 2} -> "1",
// "2"); their positions when nothing short does.
function distinguishers(commands) {
  const keys = new Set(commands.flatMap((command) => Object.keys(command)));
  const differing = [...keys].filter((key) =>
    new Set(commands.map((command) => JSON.stringify(command[key]))).size > 1);
  return commands.map((command, index) => {
    const label = differing.map((key) => JSON.stringify(command[key])).join(" ");
    return label.length <= 6 ? label.replaceAll('"', "") : String(index + 1);
  });
}

// A picker over the clicked cell or piece: one disc per command (data-option = its index),
// titled by its sentence.
export function drawPicker(container, entries, where) {
  const target = container.querySelector(where.piece ? pieceSelector(where.piece) : cellSelector(where.cell));
  const svg = target && target.ownerSVGElement;
  if (!svg) return;
  const box = target.getBBox();
  const labels = distinguishers(entries.map((entry) => entry.command));
  const spacing = 0.5;
  const centre = [box.x + box.width / 2, box.y + box.height / 2];
  const left = centre[0] - ((entries.length - 1) * spacing) / 2;
  const picker = s("g", { class: "picker" });
  entries.forEach((entry, index) => {
    picker.append(s("g", { class: "option", "data-option": index, transform: `translate(${left + index * spacing} ${centre[1]})` },
      s("circle", { r: 0.22 }),
      s("text", { y: 0.01 }, labels[index]),
      s("title", {}, entry.words)));
  });
  svg.append(picker);
}
