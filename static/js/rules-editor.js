// The rules editor of the puzzle form: draw a board's rules on the grid.
//
// The rules text field (name "rules": one rule a line in the site's own spelling, see
// sudoku_web/core/rules/spelling.py) stays the one truth: the editor reads it, and every
// change is written back to it, so the server reads the same thing with or without
// JavaScript, and checks it (a wrong rule comes back named, with its cells). Cells are
// picked in order by dragging across them (with "Pick cells" on), Shift+click, or the
// arrow keys with Shift in the grid; then choose what to add and press "Add rule" (or Enter
// in the number box). A line runs through the cells in the order picked (a thermometer
// from its bulb, an arrow from its circle); a dot or letter goes between two neighbours; a
// little killer's clue sits outside the grid before the first cell of its diagonal, a
// sandwich's beside the row or column of the cell picked. Each rule in the list below has
// Edit and Delete; the global rules are check boxes. Each change redraws the rules around the
// grid, and their words, as the server draws them (see redraw).

import { _ } from "./i18n.js";

const COORDS = "123456789abcdefghijklmnopqrstuvwxyz";
const PLACES = "0" + COORDS; // an outside position: row or column -1 is "0"

// What each tool writes: the start of its spelling and what it takes from the picked cells;
// `label` is the tool's choice in the menu, `name` the rule in the list.
const TOOLS = [
  { key: "th", name: _("Thermometer"), label: _("Thermometer (bulb first)"), takes: "line" },
  { key: "ar", name: _("Arrow"), label: _("Arrow (circle first)"), takes: "arrow" },
  { key: "wh", name: _("German whispers line"), label: _("German whispers line"), takes: "line" },
  { key: "rb", name: _("Renban line"), label: _("Renban line"), takes: "line" },
  { key: "pd", name: _("Palindrome line"), label: _("Palindrome line"), takes: "line" },
  { key: "kr_w", name: _("White dot"), label: _("White dot (between two cells)"), takes: "pair" },
  { key: "kr_b", name: _("Black dot"), label: _("Black dot (between two cells)"), takes: "pair" },
  { key: "xv_x", name: _("X"), label: _("X (between two cells)"), takes: "pair" },
  { key: "xv_v", name: _("V"), label: _("V (between two cells)"), takes: "pair" },
  { key: "oe_o", name: _("Odd cells"), label: _("Odd cells"), takes: "cells" },
  { key: "oe_e", name: _("Even cells"), label: _("Even cells"), takes: "cells" },
  { key: "kc", name: _("Killer cage"), label: _("Killer cage (total optional)"), takes: "cage" },
  { key: "lk", name: _("Little killer clue"), label: _("Little killer clue (first cell of its diagonal)"),
    takes: "diagonal" },
  { key: "sw", name: _("Sandwich clue"), label: _("Sandwich clue (a cell of its row or column)"),
    takes: "sandwich" },
];
const GLOBALS = [
  ["kn", _("Anti-knight")],
  ["ki", _("Anti-king")],
  ["nc", _("Non-consecutive")],
  ["dg_m", _("Diagonal from top left")],
  ["dg_p", _("Diagonal from bottom left")],
  ["ng_w", _("Every white dot is given")],
  ["ng_b", _("Every black dot is given")],
  ["ng_xv", _("Every X and V is given")],
];
const DIRECTIONS = [["dr", _("down and right")], ["dl", _("down and left")], ["ur", _("up and right")],
  ["ul", _("up and left")]];
const STEP = { dr: [1, 1], dl: [1, -1], ur: [-1, 1], ul: [-1, -1] };

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text !== undefined) { node.textContent = text; }
  return node;
}

function button(text, label) {
  const node = element("button", "button", text);
  node.type = "button";
  if (label) { node.setAttribute("aria-label", label); }
  return node;
}

function labelled(text, control) {
  // A label for a select or text box stands beside it (named by it alone, not its value); a
  // check box sits inside its label.
  if (control.type === "checkbox") {
    const label = element("label", "rule-field", " " + text);
    label.prepend(control);
    return label;
  }
  const holder = element("span", "rule-field");
  const label = element("label", "", text + " ");
  control.id = "rule-editor-" + text.toLowerCase().replace(/\W+/g, "-");
  label.htmlFor = control.id;
  holder.append(label, control);
  return holder;
}

function options(select, pairs) {
  pairs.forEach(([value, words]) => {
    const option = element("option", "", words);
    option.value = value;
    select.appendChild(option);
  });
  return select;
}

function buildPanel(ed) {
  // The editor's controls, after the text field; ed holds them.
  const panel = element("div", "rule-editor");
  const help = element("p", "hint", _("Or draw them: press Pick cells, then drag across the " +
    "grid or click cells one by one (or move in the grid with Shift and the arrow keys), " +
    "choose the rule and press Add rule. Each rule in the list has Edit and Delete."));
  ed.pick = button(_("Pick cells"));
  ed.pick.setAttribute("aria-pressed", "false");
  ed.clear = button(_("Clear picked cells"));
  ed.status = element("p", "rule-picked hint", "");
  ed.status.setAttribute("role", "status");
  ed.tool = options(element("select", "rule-tool"), TOOLS.map((t, k) => [String(k), t.label]));
  ed.number = element("input", "rule-number");
  ed.number.type = "text";
  ed.number.inputMode = "numeric";
  ed.number.size = 4;
  ed.number.maxLength = 5;
  ed.direction = options(element("select", "rule-direction"), DIRECTIONS);
  ed.line = options(element("select", "rule-line"), [["r", _("its row")], ["c", _("its column")]]);
  ed.add = button(_("Add rule"));
  const globals = element("fieldset", "rule-globals");
  globals.appendChild(element("legend", "", _("Rules over the whole grid")));
  ed.boxes = GLOBALS.map(([key, words]) => {
    const box = element("input");
    box.type = "checkbox";
    box.value = key;
    globals.appendChild(labelled(words, box));
    return box;
  });
  ed.list = element("ul", "rule-list");
  ed.list.setAttribute("aria-label", _("Rules"));
  panel.append(help, ed.pick, ed.clear, ed.status, labelled(_("Rule to add"), ed.tool),
    labelled(_("Number"), ed.number), labelled(_("Diagonal goes"), ed.direction),
    labelled(_("Clue for"), ed.line), ed.add, globals, ed.list);
  ed.field.insertAdjacentElement("afterend", panel);
}

// ---- The spelling: cells as two characters, row then column -------------------------------

function token(ed, cell) {
  return COORDS[Math.floor(cell / ed.size)] + COORDS[cell % ed.size];
}

function cellName(ed, cell) {
  return "r" + (Math.floor(cell / ed.size) + 1) + "c" + (cell % ed.size + 1);
}

function cellsOf(ed, text) {
  // The cells of one part of a rule's spelling, or null when it is not cells.
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    const r = COORDS.indexOf(text[i]), c = COORDS.indexOf(text[i + 1]);
    if (r < 0 || c < 0 || r >= ed.size || c >= ed.size) { return null; }
    out.push(r * ed.size + c);
  }
  return out;
}

function toolOf(tok) {
  return TOOLS.findIndex((x) => tok.startsWith(x.key + "_"));
}

function describe(ed, tok) {
  // A rule of the list in words: its tool's name and its cells (else its spelling).
  const k = toolOf(tok);
  const parts = tok.split("_").slice(1);
  const cells = parts.map((p) => cellsOf(ed, p)).filter((c) => c && c.length);
  const spot = k >= 0 && !["diagonal", "sandwich"].includes(TOOLS[k].takes) && cells.length;
  const where = spot ? " " + cells[cells.length - 1].map((c) => cellName(ed, c)).join(" ") : " (" + tok + ")";
  return (k >= 0 ? TOOLS[k].name : _("Rule")) + where;
}

function tokens(ed) {
  return ed.field.value.split(/[\s,;]+/).filter((t) => t);
}

function write(ed, all) {
  ed.field.value = all.join("\n");
  ed.field.removeAttribute("aria-invalid");
  draw(ed);
  redraw(ed);
}

// ---- The rules drawn around the grid: the server's drawing, asked again ---------------------
// The form page draws a board's rules around its grid and says them in words (GET /?rules=...,
// as "Edit this puzzle" opens it). When the rules change, the editor asks for that page with
// the new rules and moves its drawing and words here: one drawing, the server's. The grid
// itself stays (what is typed in it, and its listeners). A failed request leaves the drawing
// as it was; the text field is still what Solve sends.

function formQuery(ed) {
  const form = ed.field.form;
  const query = new URLSearchParams();
  ["v", "n"].forEach((name) => {
    const input = form.querySelector("input[type=hidden][name=" + name + "]");
    if (input) { query.set(name, input.value); }
  });
  const regions = form.querySelector("textarea[name=regions]");
  if (regions && regions.value.trim()) { query.set("r", regions.value.replace(/\s+/g, "")); }
  query.set("rules", tokens(ed).join("."));
  return query;
}

// The element a grid's drawing wraps it in (render.drawing.overlay), or the table itself.
function drawnAround(table) {
  const board = table.parentElement;
  return board && board.classList.contains("drawn-board") ? board.parentElement : table;
}

function moveDrawing(ed, fresh) {
  const now = drawnAround(ed.table);
  const drawn = drawnAround(fresh);
  if (drawn === fresh && now === ed.table) { return; }  // no rule drawn, none to draw
  // Moving the table blurs the cell being typed in or picked from: it gets the focus back.
  const focused = ed.table.contains(document.activeElement) ? document.activeElement : null;
  if (drawn === fresh) {  // no rule to draw
    now.replaceWith(ed.table);
  } else {
    const copy = document.importNode(drawn, true);
    const spot = copy.querySelector("table.grid");
    now.replaceWith(copy);
    spot.replaceWith(ed.table);
  }
  if (focused) { focused.focus({ preventScroll: true }); }
}

function moveWords(ed, fresh) {
  const form = ed.field.form;
  const now = document.querySelector("section.rule-words");
  const copy = fresh ? document.importNode(fresh, true) : null;
  if (now && copy) { now.replaceWith(copy); }
  else if (now) { now.remove(); }
  else if (copy) { form.before(copy); }
}

function redraw(ed) {
  if (!window.fetch || !window.DOMParser) { return; }
  const asked = ed.drawings = (ed.drawings || 0) + 1;
  const page = new URL(ed.field.form.getAttribute("action") || "/", window.location.href);
  page.search = formQuery(ed).toString();
  fetch(page.href, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text();
    })
    .then((html) => {
      if (asked !== ed.drawings) { return; }  // a later change has asked again
      const doc = new DOMParser().parseFromString(html, "text/html");
      const fresh = doc.querySelector("form table.grid.editable");
      if (!fresh) { return; }
      moveDrawing(ed, fresh);
      moveWords(ed, doc.querySelector("section.rule-words"));
    })
    .catch(() => {});
}

// ---- Drawing the editor's state -----------------------------------------------------------

function listItem(ed, tok) {
  const words = describe(ed, tok);
  const item = element("li", "", words + " ");
  const edit = button(_("Edit"), _("Edit: %(rule)s", { rule: words }));
  edit.addEventListener("click", () => { editRule(ed, tok); });
  const remove = button(_("Delete"), _("Delete: %(rule)s", { rule: words }));
  remove.addEventListener("click", () => { write(ed, tokens(ed).filter((x) => x !== tok)); });
  item.append(edit, remove);
  return item;
}

function draw(ed) {
  const all = tokens(ed);
  ed.tds.forEach((td, cell) => { td.classList.toggle("rule-pick", ed.path.includes(cell)); });
  ed.boxes.forEach((box) => { box.checked = all.includes(box.value); });
  const shown = all.filter((tok) => !GLOBALS.some(([key]) => key === tok));
  ed.list.replaceChildren(...shown.map((tok) => listItem(ed, tok)));
  const takes = TOOLS[Number(ed.tool.value)].takes;
  ed.number.closest(".rule-field").hidden = !["cage", "diagonal", "sandwich"].includes(takes);
  ed.direction.closest(".rule-field").hidden = takes !== "diagonal";
  ed.line.closest(".rule-field").hidden = takes !== "sandwich";
  // The status line speaks once cells have been picked: a page with a problem to say (the
  // empty grid's) says that alone.
  ed.spoken = ed.spoken || ed.path.length > 0;
  ed.status.textContent = ed.path.length
    ? _("Picked, in order: %(cells)s", { cells: ed.path.map((c) => cellName(ed, c)).join(" ") })
    : ed.spoken ? _("No cells picked.") : "";
}

function editRule(ed, tok) {
  // Take a rule out of the field and back into the controls, its cells picked again.
  const k = toolOf(tok);
  write(ed, tokens(ed).filter((x) => x !== tok));
  if (k < 0) { ed.field.focus(); return; }
  const parts = tok.slice(TOOLS[k].key.length + 1).split("_");
  ed.tool.value = String(k);
  ed.number.value = "";
  const takes = TOOLS[k].takes;
  if (takes === "arrow") {
    ed.path = cellsOf(ed, parts[1] || "") || [];
  } else if (takes === "diagonal") {
    const [r, c] = [PLACES.indexOf(parts[0][0]) - 1, PLACES.indexOf(parts[0][1]) - 1];
    const [dr, dc] = STEP[parts[1]] || [1, 1];
    ed.direction.value = parts[1];
    ed.path = [(r + dr) * ed.size + c + dc];
    ed.number.value = parts[2] || "";
  } else if (takes === "sandwich") {
    ed.line.value = parts[0];
    const index = Number(parts[1]) - 1;
    ed.path = [parts[0] === "r" ? index * ed.size : index];
    ed.number.value = parts[2] || "";
  } else {
    ed.path = cellsOf(ed, parts[0]) || [];
    if (parts[1]) { ed.number.value = parts[1]; }
  }
  draw(ed);
  ed.add.focus();
}

// ---- Making a rule from the picked cells --------------------------------------------------

function touching(ed, a, b, sideBySide) {
  const dr = Math.abs(Math.floor(a / ed.size) - Math.floor(b / ed.size));
  const dc = Math.abs((a % ed.size) - (b % ed.size));
  return sideBySide ? dr + dc === 1 : Math.max(dr, dc) === 1;
}

function shaped(ed, t) {
  // A line, pair, cells or cage rule from the picked cells, or what is missing.
  const path = ed.path, cells = path.map((c) => token(ed, c)).join("");
  if (["line", "arrow"].includes(t.takes)) {
    if (path.length < 2) { return { error: _("A line needs two cells or more, in order.") }; }
    if (path.some((c, i) => i && !touching(ed, path[i - 1], c, false))) {
      return { error: _("Each cell of a line must touch the one before it.") };
    }
    return { rule: t.takes === "arrow" ? "ar_" + token(ed, path[0]) + "_" + cells : t.key + "_" + cells };
  }
  if (t.takes === "pair") {
    const ok = path.length === 2 && touching(ed, path[0], path[1], true);
    return ok ? { rule: t.key + "_" + cells } : { error: _("A dot or letter goes between two cells side by side.") };
  }
  if (t.takes === "cells") { return { rule: t.key + "_" + cells }; }
  const value = ed.number.value.trim();
  if (value && !/^\d{1,4}$/.test(value)) { return { error: _("A cage's total is a whole number.") }; }
  const sorted = path.slice().sort((a, b) => a - b).map((c) => token(ed, c)).join("");
  return { rule: "kc_" + sorted + (value ? "_" + value : "") };
}

function clued(ed, t) {
  // An outside clue from its first picked cell, or what is missing.
  const value = ed.number.value.trim();
  if (!/^\d{1,4}$/.test(value)) { return { error: _("Type the clue's number first.") }; }
  const first = ed.path[0], row = Math.floor(first / ed.size), col = first % ed.size;
  if (t.takes === "sandwich") {
    const index = ed.line.value === "r" ? row + 1 : col + 1;
    return { rule: "sw_" + ed.line.value + "_" + index + "_" + value };
  }
  const [dr, dc] = STEP[ed.direction.value];
  const at = [row - dr, col - dc];
  if (at.every((v) => v >= 0 && v < ed.size)) {
    return { error: _("A little killer starts on the grid's edge: pick its first cell there.") };
  }
  return { rule: "lk_" + PLACES[at[0] + 1] + PLACES[at[1] + 1] + "_" + ed.direction.value + "_" + value };
}

function addRule(ed) {
  const t = TOOLS[Number(ed.tool.value)];
  if (!ed.path.length) { ed.status.textContent = _("Pick the rule's cells first."); return; }
  const made = ["diagonal", "sandwich"].includes(t.takes) ? clued(ed, t) : shaped(ed, t);
  if (made.error) { ed.status.textContent = made.error; return; }
  const all = tokens(ed).filter((x) => x !== made.rule);
  all.push(made.rule);
  ed.path = [];
  ed.number.value = "";
  write(ed, all);
  ed.status.textContent = _("Added: %(rule)s.", { rule: describe(ed, made.rule) });
}

function extend(ed, cell) {
  // The picked path grows by a cell; going back over the last one takes it off.
  if (cell < 0 || ed.path[ed.path.length - 1] === cell) { return; }
  const at = ed.path.indexOf(cell);
  if (at >= 0 && at === ed.path.length - 2) { ed.path.pop(); } else if (at < 0) { ed.path.push(cell); }
  draw(ed);
}

// ---- Events -------------------------------------------------------------------------------

function listenToControls(ed) {
  ed.pick.addEventListener("click", () => {
    const on = ed.pick.getAttribute("aria-pressed") !== "true";
    ed.pick.setAttribute("aria-pressed", on ? "true" : "false");
    ed.table.classList.toggle("rule-picking", on);
  });
  ed.clear.addEventListener("click", () => { ed.path = []; draw(ed); });
  ed.add.addEventListener("click", () => { addRule(ed); });
  ed.tool.addEventListener("change", () => { draw(ed); });
  ed.number.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); addRule(ed); }
  });
  ed.boxes.forEach((box) => box.addEventListener("change", () => {
    const all = tokens(ed).filter((x) => x !== box.value);
    if (box.checked) { all.push(box.value); }
    write(ed, all);
  }));
  ed.field.addEventListener("input", () => { draw(ed); });
  ed.field.addEventListener("change", () => { redraw(ed); });  // typed: once the field is left
}

function listenToGrid(ed) {
  const picking = () => ed.table.classList.contains("rule-picking");
  ed.table.addEventListener("pointerdown", (event) => {
    const td = event.target.closest("td");
    if (!td || !ed.table.contains(td) || !picking()) { return; }
    event.preventDefault();
    ed.dragging = true;
    extend(ed, ed.tds.indexOf(td));
  });
  ed.table.addEventListener("pointerover", (event) => {
    const td = ed.dragging && event.target.closest("td");
    if (td && ed.table.contains(td)) { extend(ed, ed.tds.indexOf(td)); }
  });
  document.addEventListener("pointerup", () => { ed.dragging = false; });
  // Shift+arrow keys, picking on: the grid's own keys move the focus; both cells join the
  // path, in order.
  ed.table.addEventListener("keydown", (event) => {
    if (!event.shiftKey || !event.key.startsWith("Arrow") || !picking()) { return; }
    extend(ed, ed.tds.indexOf(event.target.closest("td")));
    extend(ed, ed.tds.indexOf(document.activeElement && document.activeElement.closest("td")));
  });
}

function setup(field) {
  const form = field.closest("form");
  const table = form && form.querySelector("table.grid.editable");
  if (!table) { return; }
  const size = Number(table.getAttribute("data-size")) || 9;
  const tds = Array.from(table.querySelectorAll("td"));
  if (tds.length !== size * size) { return; }
  const ed = { field, table, size, tds, path: [], dragging: false, spoken: false };
  buildPanel(ed);
  listenToControls(ed);
  listenToGrid(ed);
  draw(ed);
}

function start() {
  document.querySelectorAll("form textarea[name=rules]").forEach(setup);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
