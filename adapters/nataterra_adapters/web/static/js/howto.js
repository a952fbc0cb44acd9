// A game's how-to-play page (the system's Hooks.how_to_play, served as Markdown at
// /how-to-play/ID.md), drawn with the little Markdown these pages use: headings, paragraphs,
// lists, code blocks, tables (kept as preformatted text), **bold**, *italics* and `code`;
// a line holding only an HTML comment (a note for the page's test) is left out.
// Built from text nodes: nothing in the page is parsed as HTML.

import { h } from "./dom.js";

export async function howToPlayPage(root, rulesId) {
  root.replaceChildren(h("p", { class: "muted" }, "loading…"));
  const answer = await fetch(`/how-to-play/${encodeURIComponent(rulesId)}.md`);
  const text = await answer.text();
  if (!answer.ok) {
    root.replaceChildren(h("p", { class: "error" }, text));
    return;
  }
  root.replaceChildren(h("article", { class: "how-to-play", id: "how-to-play" }, ...markdown(text)),
    h("p", {}, h("a", { href: "#/" }, "Back to a new game")));
  document.title = `How to play — ${rulesId}`;
}

// Inline marks: `code`, **bold**, *italics*, [text](link) shown as its text.
function inline(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\([^)]*\)/g;
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    if (found.index > last) out.push(text.slice(last, found.index));
    if (found[1] !== undefined) out.push(h("code", {}, found[1]));
    else if (found[2] !== undefined) out.push(h("strong", {}, found[2]));
    else if (found[3] !== undefined) out.push(h("em", {}, found[3]));
    else out.push(found[4]);
    last = found.index + found[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(text) {
  const blocks = [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (/^```/.test(line)) {
      const code = [];
      for (index += 1; index < lines.length && !/^```/.test(lines[index]); index += 1) code.push(lines[index]);
      blocks.push(h("pre", {}, code.join("\n")));
      index += 1;
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(4, line.match(/^#+/)[0].length);
      blocks.push(h(`h${level}`, {}, ...inline(line.replace(/^#+ /, ""))));
      index += 1;
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const items = [];
      for (; index < lines.length && /^\s*([-*]|\d+\.) /.test(lines[index]); index += 1) {
        let item = lines[index].replace(/^\s*([-*]|\d+\.) /, "");
        while (index + 1 < lines.length && /^\s{2,}\S/.test(lines[index + 1]) && !/^\s*([-*]|\d+\.) /.test(lines[index + 1])) {
          index += 1;
          item += ` ${lines[index].trim()}`;
        }
        items.push(h("li", {}, ...inline(item)));
      }
      blocks.push(h(ordered ? "ol" : "ul", {}, ...items));
    } else if (/^\|/.test(line)) {
      const rows = [];
      for (; index < lines.length && /^\|/.test(lines[index]); index += 1) rows.push(lines[index]);
      blocks.push(h("pre", { class: "table" }, rows.join("\n")));
    } else if (line.trim() === "" || /^<!--.*-->\s*$/.test(line)) {
      index += 1; // blank, or a comment for the page's authors
    } else {
      const paragraph = [line.trim()]; // at least this line, so the loop always moves on
      for (index += 1; index < lines.length && lines[index].trim() !== "" && !/^(#{1,6} |```|\||<!--|\s*([-*]|\d+\.) )/.test(lines[index]); index += 1) {
        paragraph.push(lines[index].trim());
      }
      blocks.push(h("p", {}, ...inline(paragraph.join(" "))));
    }
  }
  return blocks;
}
