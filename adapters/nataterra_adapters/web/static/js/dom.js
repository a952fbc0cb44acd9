// Small DOM helpers: elements from a tag, attributes and children; SVG elements.

const SVG = "http://www.w3.org/2000/svg";

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  return fill(element, attributes, children);
}

export function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  return fill(element, attributes, children);
}

function fill(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function errorText(error) {
  const rule = error.data && error.data.rule_id ? ` [${error.data.rule_id}]` : "";
  return `${error.message}${rule}`;
}
