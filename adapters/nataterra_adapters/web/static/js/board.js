// Draws the boards of a view's `board` (the rule system's board-geometry hook, docs/RPC.md
// §3a) as SVG: one polygon per cell, one disc per piece, one square per structure, each
// carrying its id in data-cell / data-piece / data-structure for clicks. Knows no game.

import { h, s } from "./dom.js";

const FALLBACK_COLOURS = ["#2f6db5", "#b5402f", "#3c8c3c", "#8a4fb0", "#b58a2f", "#2fa5b5"];
const PIECE_RADIUS = 0.27;

export function seatColour(geometry, seat) {
  if (seat && geometry.colours && geometry.colours[seat]) return geometry.colours[seat];
  const index = seat ? Math.max(0, (geometry.seats || []).indexOf(seat)) : 0;
  return seat ? FALLBACK_COLOURS[index % FALLBACK_COLOURS.length] : "#777";
}

function bounds(cells) {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const cell of cells) {
    for (const [x, y] of cell.outline.length ? cell.outline : [[cell.x, cell.y]]) {
      minX = Math.min(minX, x); minY = Math.min(minY, y);
      maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    }
  }
  const pad = 0.3;
  return [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];
}

// Where the i-th of n things on a cell goes: spread around the cell's centre.
function spot(cell, index, count, ring = 0.42) {
  if (count === 1) return [cell.x, cell.y + 0.12];
  const angle = (2 * Math.PI * index) / count - Math.PI / 2;
  return [cell.x + ring * Math.cos(angle), cell.y + 0.1 + ring * Math.sin(angle)];
}

function short(kind) {
  return (kind || "?").replace(/[_-]/g, " ").slice(0, 3);
}

function drawBoard(geometry, board) {
  const cells = new Map(board.cells.map((cell) => [cell.id, cell]));
  const [x, y, width, height] = bounds(board.cells);
  const svg = s("svg", {
    class: "board",
    viewBox: `${x} ${y} ${width} ${height}`,
    "data-board": board.id,
    role: "img",
    "aria-label": board.title,
  });
  const cellLayer = s("g", { class: "cells" });
  for (const cell of board.cells) {
    const fill = (board.palette && board.palette[cell.terrain]) || "#e8ecef";
    const points = cell.outline.map(([px, py]) => `${px},${py}`).join(" ");
    const shape = s("polygon", {
      class: "cell",
      points,
      fill,
      "data-cell": cell.id,
      "data-terrain": cell.terrain,
    }, s("title", {}, [cell.label || cell.id, cell.terrain, ...(cell.markers || [])].filter(Boolean).join(" · ")));
    if (cell.owner) shape.style.stroke = seatColour(geometry, cell.owner);
    cellLayer.append(shape);
    cellLayer.append(s("text", { class: "cell-label", x: cell.x, y: cell.y - 0.52 }, cell.label || cell.id));
    const markers = (cell.markers || []).map((m) => m.replace(/^resource:/, "")).join(" ");
    if (markers) cellLayer.append(s("text", { class: "marker", x: cell.x, y: cell.y + 0.72 }, markers));
  }
  svg.append(cellLayer);
  const structureLayer = s("g", { class: "structures" });
  for (const structure of board.structures || []) {
    const cell = cells.get(structure.cell);
    if (!cell) continue;
    structureLayer.append(s("g", { class: "structure", "data-structure": structure.id },
      s("rect", {
        x: cell.x - 0.6, y: cell.y - 0.38, width: 0.22, height: 0.22,
        fill: seatColour(geometry, structure.owner),
      }),
      s("title", {}, structure.label || structure.kind)));
  }
  svg.append(structureLayer);
  const pieceLayer = s("g", { class: "pieces" });
  const byCell = new Map();
  for (const piece of board.pieces || []) {
    if (!byCell.has(piece.cell)) byCell.set(piece.cell, []);
    byCell.get(piece.cell).push(piece);
  }
  for (const [cellId, pieces] of byCell) {
    const cell = cells.get(cellId);
    if (!cell) continue;
    pieces.forEach((piece, index) => {
      const [px, py] = spot(cell, index, pieces.length);
      const counters = Object.entries(piece.counters || {}).map(([k, v]) => `${k} ${v}`).join(", ");
      pieceLayer.append(s("g", {
        class: "piece",
        "data-piece": piece.id,
        "data-owner": piece.owner,
        "data-kind": piece.kind,
        transform: `translate(${px} ${py})`,
      },
        s("circle", { r: PIECE_RADIUS, fill: seatColour(geometry, piece.owner) }),
        s("text", { y: -0.02 }, short(piece.kind)),
        s("text", { y: 0.17 }, String(piece.count ?? 1)),
        s("title", {}, [piece.label || `${piece.count ?? 1} ${piece.kind}`, piece.owner, counters].filter(Boolean).join(" · "))));
    });
  }
  svg.append(pieceLayer);
  return svg;
}

// The boards as <figure>s; returns the container.
export function drawBoards(geometry) {
  const container = h("div", { class: "boards" });
  if (!geometry) {
    container.append(h("p", { class: "muted" }, "This game has no board to draw."));
    return container;
  }
  for (const board of geometry.boards) {
    container.append(h("figure", { "data-board": board.id },
      h("figcaption", {}, board.title),
      drawBoard(geometry, board),
      (board.notes || []).length ? h("div", { class: "notes" }, board.notes.join(" · ")) : null));
  }
  return container;
}

export function mark(container, selector, className, on = true) {
  for (const element of container.querySelectorAll(selector)) element.classList.toggle(className, on);
}

export function clearMarks(container, ...classNames) {
  for (const name of classNames) mark(container, `.${name}`, name, false);
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

// A picker at a cell or piece: one disc per command (data-option = its index), titled by its
// sentence.
export function drawPicker(container, geometry, entries, where) {
  for (const board of geometry ? geometry.boards : []) {
    let centre = null;
    if (where.cell) {
      const cell = board.cells.find((candidate) => candidate.id === where.cell);
      if (cell) centre = [cell.x, cell.y];
    } else {
      const piece = (board.pieces || []).find((candidate) => candidate.id === where.piece);
      const cell = piece && board.cells.find((candidate) => candidate.id === piece.cell);
      if (cell) centre = [cell.x, cell.y];
    }
    const svg = container.querySelector(`svg[data-board="${CSS.escape(board.id)}"]`);
    if (!centre || !svg) continue;
    const labels = distinguishers(entries.map((entry) => entry.command));
    const spacing = 0.5;
    const left = centre[0] - ((entries.length - 1) * spacing) / 2;
    const picker = s("g", { class: "picker" });
    entries.forEach((entry, index) => {
      picker.append(s("g", { class: "option", "data-option": index, transform: `translate(${left + index * spacing} ${centre[1] - 0.2})` },
        s("circle", { r: 0.22 }),
        s("text", { y: 0.07 }, labels[index]),
        s("title", {}, entry.words)));
    });
    svg.append(picker);
  }
}
