// The cage editor of the puzzle form: draw a killer's cages on the grid.
//
// The cages text field (form.cages, "15: r1c1 r1c2" per line) stays the one truth: the
// editor reads it, and every change is written back to it, so the server reads the same
// thing with or without JavaScript. Cells are picked by dragging across them (with "Select
// cells" on), Shift+click, or Shift+arrow keys in the grid; type the sum and press Enter (or
// "Make cage"). A cage's entry in the list below edits or deletes it. The outlines use the
// same classes as the server's drawing (boards.cage_marks): cage, kt, kr, kb, kl, cage-sum.
// One editor object holds the state; the functions below draw and change it.

import { _ } from "./js/i18n.js";

const LINE = /^\s*(\d{1,3})\s*[:=]\s*(.*?)\s*$/;
const CELL = /[rR](\d{1,2})[cC](\d{1,2})/g;

function readCages(text, size) {
  // The cages of one-cage-per-line text, or null when the text is in another spelling (a
  // cage map): the editor then leaves it alone and the server reads it.
  const cages = [];
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith("#")) { continue; }
    const match = LINE.exec(raw);
    if (!match) { return null; }
    const cells = [];
    for (const cell of match[2].matchAll(CELL)) {
      const r = Number(cell[1]), c = Number(cell[2]);
      if (r < 1 || r > size || c < 1 || c > size) { return null; }
      cells.push((r - 1) * size + c - 1);
    }
    if (!cells.length) { return null; }
    cages.push({ sum: Number(match[1]), cells: cells.sort((a, b) => a - b) });
  }
  return cages;
}

function name(cell, size) {
  return "r" + (Math.floor(cell / size) + 1) + "c" + (cell % size + 1);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text !== undefined) { node.textContent = text; }
  return node;
}

// The editor's controls, after the cages field: Select cells, the picked cells' status, the
// sum, Make cage, and the list of cages.
function buildPanel(e, details) {
  const panel = element("div", "cage-editor");
  e.pick = element("button", "button", _("Select cells"));
  e.pick.type = "button";
  e.pick.setAttribute("aria-pressed", "false");
  e.status = element("p", "cage-picked hint", "");
  e.status.setAttribute("role", "status");
  const sumLabel = element("label", "cage-sum-label", _("Sum") + " ");
  e.sum = element("input", "cage-sum-input");
  e.sum.type = "text";
  e.sum.inputMode = "numeric";
  e.sum.size = 3;
  e.sum.maxLength = 3;
  sumLabel.appendChild(e.sum);
  e.make = element("button", "button", _("Make cage"));
  e.make.type = "button";
  e.list = element("ul", "cage-list");
  e.list.setAttribute("aria-label", _("Cages"));
  panel.append(e.pick, e.status, sumLabel, e.make, e.list);
  details.appendChild(panel);
  const hint = details.querySelector(".cage-editor-hint");
  if (hint) { hint.hidden = false; }
}

function spelled(e, cage) {
  return cage.sum + ": " + cage.cells.map((x) => name(x, e.size)).join(" ");
}

function write(e) {
  e.cages.sort((a, b) => a.cells[0] - b.cells[0]);
  e.field.value = e.cages.map((c) => spelled(e, c)).join("\n");
  e.field.removeAttribute("aria-invalid");
  draw(e);
}

function draw(e) {
  drawOutlines(e);
  drawList(e);
  const names = Array.from(e.picked).sort((a, b) => a - b).map((x) => name(x, e.size));
  // The status line speaks once cells have been picked: a page with a problem to say
  // (the empty grid's) says that alone.
  e.spoken = e.spoken || names.length > 0;
  e.status.textContent = names.length ? _("Selected: %(cells)s", { cells: names.join(" ") })
    : e.spoken ? _("No cells selected.") : "";
}

// The cages' outlines and sums on the grid, and the picked cells marked.
function drawOutlines(e) {
  const size = e.size, owner = new Map();
  e.cages.forEach((cage, k) => cage.cells.forEach((cell) => owner.set(cell, k)));
  e.tds.forEach((td, cell) => {
    td.classList.remove("cage", "kt", "kr", "kb", "kl", "cage-pick");
    const old = td.querySelector(".cage-sum");
    if (old) { old.remove(); }
    if (e.picked.has(cell)) { td.classList.add("cage-pick"); }
    if (!owner.has(cell)) { return; }
    const k = owner.get(cell), row = Math.floor(cell / size), col = cell % size;
    td.classList.add("cage");
    if (row === 0 || owner.get(cell - size) !== k) { td.classList.add("kt"); }
    if (col === size - 1 || owner.get(cell + 1) !== k) { td.classList.add("kr"); }
    if (row === size - 1 || owner.get(cell + size) !== k) { td.classList.add("kb"); }
    if (col === 0 || owner.get(cell - 1) !== k) { td.classList.add("kl"); }
    if (e.cages[k].cells[0] === cell) {
      const label = element("span", "cage-sum", String(e.cages[k].sum));
      label.setAttribute("aria-hidden", "true");
      td.insertBefore(label, td.firstChild);
    }
  });
}

// The list of cages, each with its Edit and Delete buttons.
function drawList(e) {
  e.list.replaceChildren(...e.cages.map((cage, k) => {
    const item = element("li", "", spelled(e, cage) + " ");
    const where = { sum: cage.sum, cell: name(cage.cells[0], e.size) };
    const edit = element("button", "button", _("Edit"));
    edit.type = "button";
    edit.setAttribute("aria-label", _("Edit the cage of %(sum)s at %(cell)s", where));
    edit.addEventListener("click", () => { editCage(e, k); });
    const remove = element("button", "button", _("Delete"));
    remove.type = "button";
    remove.setAttribute("aria-label", _("Delete the cage of %(sum)s at %(cell)s", where));
    remove.addEventListener("click", () => { e.cages.splice(k, 1); write(e); });
    item.append(edit, remove);
    return item;
  }));
}

function editCage(e, k) {
  const cage = e.cages.splice(k, 1)[0];
  e.picked = new Set(cage.cells);
  e.sum.value = String(cage.sum);
  write(e);
  e.sum.focus();
}

function toggle(e, cell, on) {
  if (on === undefined ? e.picked.has(cell) : !on) { e.picked.delete(cell); } else { e.picked.add(cell); }
  draw(e);
}

function makeCage(e) {
  const total = Number(e.sum.value);
  if (!e.picked.size || !Number.isInteger(total) || total < 1) {
    e.status.textContent = e.picked.size ? _("Type the cage's sum first.") : _("Select the cage's cells first.");
    return;
  }
  const taken = new Set(Array.from(e.picked));
  e.cages = e.cages.filter((cage) => !cage.cells.some((cell) => taken.has(cell)));
  e.cages.push({ sum: total, cells: Array.from(e.picked).sort((a, b) => a - b) });
  e.picked = new Set();
  e.sum.value = "";
  write(e);
}

function listenPanel(e) {
  e.pick.addEventListener("click", () => {
    const on = e.pick.getAttribute("aria-pressed") !== "true";
    e.pick.setAttribute("aria-pressed", on ? "true" : "false");
    e.table.classList.toggle("cage-picking", on);
  });
  e.make.addEventListener("click", () => { makeCage(e); });
  e.sum.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); makeCage(e); }
  });
  e.field.addEventListener("input", () => {
    const read = readCages(e.field.value, e.size);
    if (read) { e.cages = read; draw(e); }
  });
}

function listenGrid(e) {
  const table = e.table, tds = e.tds;
  table.addEventListener("pointerdown", (event) => {
    const td = event.target.closest("td");
    if (!td || !table.contains(td)) { return; }
    const cell = tds.indexOf(td);
    if (event.shiftKey) {
      event.preventDefault();
      toggle(e, cell);
    } else if (table.classList.contains("cage-picking")) {
      event.preventDefault();
      e.dragging = true;
      toggle(e, cell, true);
    }
  });
  table.addEventListener("pointerover", (event) => {
    const td = e.dragging && event.target.closest("td");
    if (td && table.contains(td)) { toggle(e, tds.indexOf(td), true); }
  });
  document.addEventListener("pointerup", () => { e.dragging = false; });
  // Shift+arrow keys: the grid's own keys move the focus (sudoku.js); both cells join.
  table.addEventListener("keydown", (event) => {
    if (!event.shiftKey || !event.key.startsWith("Arrow")) { return; }
    const from = tds.indexOf(event.target.closest("td"));
    const to = tds.indexOf(document.activeElement && document.activeElement.closest("td"));
    if (from >= 0) { e.picked.add(from); }
    if (to >= 0) { e.picked.add(to); }
    draw(e);
  });
  // Shift+Enter in the grid goes to the sum.
  table.addEventListener("keydown", (event) => {
    if (event.shiftKey && event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      e.sum.focus();
    }
  }, true);
}

function setup(details) {
  const form = details.closest("form");
  const field = details.querySelector("textarea[name=cages]");
  const table = form && form.querySelector("table.grid.editable");
  if (!field || !table) { return; }
  const size = Number(table.getAttribute("data-size")) || 9;
  const tds = Array.from(table.querySelectorAll("td"));
  if (tds.length !== size * size) { return; }
  const e = {
    field: field, table: table, size: size, tds: tds,
    cages: readCages(field.value, size) || [], picked: new Set(), dragging: false,
    spoken: false // cells have been picked: the status line says what is picked
  };
  buildPanel(e, details);
  listenPanel(e);
  listenGrid(e);
  draw(e);
}

function start() {
  document.querySelectorAll("details.cages").forEach(setup);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
