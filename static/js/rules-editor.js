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
// Edit and Delete; the global rules are check boxes.

const COORDS = "123456789abcdefghijklmnopqrstuvwxyz";
const PLACES = "0" + COORDS; // an outside position: row or column -1 is "0"

// What each tool writes: the start of its spelling and what it takes from the picked cells.
const TOOLS = [
  { key: "th", label: "Thermometer (bulb first)", takes: "line" },
  { key: "ar", label: "Arrow (circle first)", takes: "arrow" },
  { key: "wh", label: "German whispers line", takes: "line" },
  { key: "rb", label: "Renban line", takes: "line" },
  { key: "pd", label: "Palindrome line", takes: "line" },
  { key: "kr_w", label: "White dot (between two cells)", takes: "pair" },
  { key: "kr_b", label: "Black dot (between two cells)", takes: "pair" },
  { key: "xv_x", label: "X (between two cells)", takes: "pair" },
  { key: "xv_v", label: "V (between two cells)", takes: "pair" },
  { key: "oe_o", label: "Odd cells", takes: "cells" },
  { key: "oe_e", label: "Even cells", takes: "cells" },
  { key: "kc", label: "Killer cage (total optional)", takes: "cage" },
  { key: "lk", label: "Little killer clue (first cell of its diagonal)", takes: "diagonal" },
  { key: "sw", label: "Sandwich clue (a cell of its row or column)", takes: "sandwich" },
];
const GLOBALS = [
  ["kn", "Anti-knight"],
  ["ki", "Anti-king"],
  ["nc", "Non-consecutive"],
  ["dg_m", "Diagonal from top left"],
  ["dg_p", "Diagonal from bottom left"],
  ["ng_w", "Every white dot is given"],
  ["ng_b", "Every black dot is given"],
  ["ng_xv", "Every X and V is given"],
];
const DIRECTIONS = [["dr", "down and right"], ["dl", "down and left"], ["ur", "up and right"], ["ul", "up and left"]];
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

function setup(field) {
  const form = field.closest("form");
  const table = form && form.querySelector("table.grid.editable");
  if (!table) { return; }
  const size = Number(table.getAttribute("data-size")) || 9;
  const tds = Array.from(table.querySelectorAll("td"));
  if (tds.length !== size * size) { return; }
  const token = (cell) => COORDS[Math.floor(cell / size)] + COORDS[cell % size];
  const name = (cell) => "r" + (Math.floor(cell / size) + 1) + "c" + (cell % size + 1);
  const cellsOf = (text) => {
    const out = [];
    for (let i = 0; i + 1 < text.length; i += 2) {
      const r = COORDS.indexOf(text[i]), c = COORDS.indexOf(text[i + 1]);
      if (r < 0 || c < 0 || r >= size || c >= size) { return null; }
      out.push(r * size + c);
    }
    return out;
  };
  let path = [];
  let dragging = false;

  const panel = element("div", "rule-editor");
  const help = element("p", "hint", "Or draw them: press Pick cells and drag across the grid " +
    "(or Shift+click cells, or move in the grid with Shift and the arrow keys), choose what to " +
    "add, and press Add rule. Each rule in the list has Edit and Delete.");
  const pick = button("Pick cells");
  pick.setAttribute("aria-pressed", "false");
  const clear = button("Clear picked cells");
  const status = element("p", "rule-picked hint", "");
  status.setAttribute("role", "status");
  const tool = element("select", "rule-tool");
  TOOLS.forEach((t, k) => { const o = element("option", "", t.label); o.value = String(k); tool.appendChild(o); });
  const number = element("input", "rule-number");
  number.type = "text";
  number.inputMode = "numeric";
  number.size = 4;
  number.maxLength = 5;
  const direction = element("select", "rule-direction");
  DIRECTIONS.forEach(([key, words]) => { const o = element("option", "", words); o.value = key; direction.appendChild(o); });
  const line = element("select", "rule-line");
  [["r", "its row"], ["c", "its column"]].forEach(([key, words]) => { const o = element("option", "", words); o.value = key; line.appendChild(o); });
  const add = button("Add rule");
  const globals = element("fieldset", "rule-globals");
  globals.appendChild(element("legend", "", "Rules over the whole grid"));
  const boxes = GLOBALS.map(([key, words]) => {
    const box = element("input");
    box.type = "checkbox";
    box.value = key;
    globals.appendChild(labelled(words, box));
    return box;
  });
  const list = element("ul", "rule-list");
  list.setAttribute("aria-label", "Rules");
  panel.append(help, pick, clear, status, labelled("Rule to add", tool), labelled("Number", number),
    labelled("Diagonal goes", direction), labelled("Clue for", line), add, globals, list);
  field.insertAdjacentElement("afterend", panel);

  const tokens = () => field.value.split(/[\s,;]+/).filter((t) => t);

  function write(all) {
    field.value = all.join("\n");
    field.removeAttribute("aria-invalid");
    draw();
  }

  function describe(tok) {
    const parts = tok.split("_");
    const t = TOOLS.find((x) => tok.startsWith(x.key + "_"));
    const cells = parts.map((p) => cellsOf(p)).filter((c) => c && c.length && parts.length > 1);
    const where = t && t.takes !== "diagonal" && t.takes !== "sandwich" && cells.length
      ? " " + cells[cells.length - 1].map(name).join(" ") : " (" + tok + ")";
    return (t ? t.label.replace(/ \(.*\)$/, "") : "Rule") + where;
  }

  function draw() {
    const all = tokens();
    tds.forEach((td, cell) => {
      td.classList.toggle("rule-pick", path.includes(cell));
    });
    boxes.forEach((box) => { box.checked = all.includes(box.value); });
    const shown = all.filter((tok) => !GLOBALS.some(([key]) => key === tok));
    list.replaceChildren(...shown.map((tok) => {
      const words = describe(tok);
      const item = element("li", "", words + " ");
      const edit = button("Edit", "Edit: " + words);
      edit.addEventListener("click", () => { editRule(tok); });
      const remove = button("Delete", "Delete: " + words);
      remove.addEventListener("click", () => { write(tokens().filter((x) => x !== tok)); });
      item.append(edit, remove);
      return item;
    }));
    const t = TOOLS[Number(tool.value)];
    number.closest(".rule-field").hidden = !["cage", "diagonal", "sandwich"].includes(t.takes);
    direction.closest(".rule-field").hidden = t.takes !== "diagonal";
    line.closest(".rule-field").hidden = t.takes !== "sandwich";
    status.textContent = path.length ? "Picked, in order: " + path.map(name).join(" ") : "No cells picked.";
  }

  function editRule(tok) {
    const k = TOOLS.findIndex((x) => tok.startsWith(x.key + "_"));
    const parts = tok.slice(k >= 0 ? TOOLS[k].key.length + 1 : 0).split("_");
    write(tokens().filter((x) => x !== tok));
    if (k < 0) { field.focus(); return; }
    tool.value = String(k);
    const takes = TOOLS[k].takes;
    number.value = "";
    if (takes === "arrow") {
      path = cellsOf(parts[1] || "") || [];
    } else if (takes === "diagonal") {
      const [r, c] = [PLACES.indexOf(parts[0][0]) - 1, PLACES.indexOf(parts[0][1]) - 1];
      const [dr, dc] = STEP[parts[1]] || [1, 1];
      direction.value = parts[1];
      path = [(r + dr) * size + c + dc];
      number.value = parts[2] || "";
    } else if (takes === "sandwich") {
      line.value = parts[0];
      const index = Number(parts[1]) - 1;
      path = [parts[0] === "r" ? index * size : index];
      number.value = parts[2] || "";
    } else {
      path = cellsOf(parts[0]) || [];
      if (parts[1]) { number.value = parts[1]; }
    }
    draw();
    add.focus();
  }

  function neighbours(a, b) {
    const dr = Math.abs(Math.floor(a / size) - Math.floor(b / size));
    const dc = Math.abs((a % size) - (b % size));
    return Math.max(dr, dc) === 1;
  }

  function built() {
    // The picked cells as the chosen rule's spelling, or a sentence saying what is missing.
    const t = TOOLS[Number(tool.value)];
    const cells = path.map(token).join("");
    const value = number.value.trim();
    if (!path.length) { return { error: "Pick the rule's cells first." }; }
    if (["line", "arrow"].includes(t.takes)) {
      if (path.length < 2) { return { error: "A line needs two cells or more, in order." }; }
      if (path.some((c, i) => i && !neighbours(path[i - 1], c))) {
        return { error: "Each cell of a line must touch the one before it." };
      }
      return { rule: t.takes === "arrow" ? "ar_" + token(path[0]) + "_" + cells : t.key + "_" + cells };
    }
    if (t.takes === "pair") {
      const [a, b] = path;
      const ok = path.length === 2 && Math.abs(Math.floor(a / size) - Math.floor(b / size)) + Math.abs((a % size) - (b % size)) === 1;
      return ok ? { rule: t.key + "_" + cells } : { error: "A dot or letter goes between two cells side by side." };
    }
    if (t.takes === "cells") { return { rule: t.key + "_" + cells }; }
    if (t.takes === "cage") {
      if (value && !/^\d{1,4}$/.test(value)) { return { error: "A cage's total is a whole number." }; }
      const sorted = path.slice().sort((a, b) => a - b).map(token).join("");
      return { rule: "kc_" + sorted + (value ? "_" + value : "") };
    }
    if (!/^\d{1,4}$/.test(value)) { return { error: "Type the clue's number first." }; }
    const first = path[0], row = Math.floor(first / size), col = first % size;
    if (t.takes === "sandwich") {
      return { rule: "sw_" + line.value + "_" + (line.value === "r" ? row + 1 : col + 1) + "_" + value };
    }
    const [dr, dc] = STEP[direction.value];
    const at = [row - dr, col - dc];
    if (at.every((v) => v >= 0 && v < size)) {
      return { error: "A little killer's first cell is on the edge it starts from: pick a cell on the grid's edge." };
    }
    return { rule: "lk_" + PLACES[at[0] + 1] + PLACES[at[1] + 1] + "_" + direction.value + "_" + value };
  }

  function addRule() {
    const made = built();
    if (made.error) { status.textContent = made.error; return; }
    const all = tokens().filter((x) => x !== made.rule);
    all.push(made.rule);
    path = [];
    number.value = "";
    write(all);
    status.textContent = "Added: " + describe(made.rule) + ".";
  }

  function extend(cell) {
    if (cell < 0) { return; }
    if (path[path.length - 1] === cell) { return; }
    const at = path.indexOf(cell);
    if (at >= 0 && at === path.length - 2) { path.pop(); } else if (at < 0) { path.push(cell); }
    draw();
  }

  pick.addEventListener("click", () => {
    const on = pick.getAttribute("aria-pressed") !== "true";
    pick.setAttribute("aria-pressed", on ? "true" : "false");
    table.classList.toggle("rule-picking", on);
  });
  clear.addEventListener("click", () => { path = []; draw(); });
  add.addEventListener("click", addRule);
  tool.addEventListener("change", draw);
  number.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); addRule(); }
  });
  boxes.forEach((box) => box.addEventListener("change", () => {
    const all = tokens().filter((x) => x !== box.value);
    if (box.checked) { all.push(box.value); }
    write(all);
  }));
  field.addEventListener("input", draw);

  table.addEventListener("pointerdown", (event) => {
    const td = event.target.closest("td");
    if (!td || !table.contains(td) || !table.classList.contains("rule-picking")) { return; }
    event.preventDefault();
    dragging = true;
    extend(tds.indexOf(td));
  });
  table.addEventListener("pointerover", (event) => {
    const td = dragging && event.target.closest("td");
    if (td && table.contains(td)) { extend(tds.indexOf(td)); }
  });
  document.addEventListener("pointerup", () => { dragging = false; });
  // Shift+arrow keys, picking on: the grid's own keys move the focus; both cells join the
  // path, in order.
  table.addEventListener("keydown", (event) => {
    if (!event.shiftKey || !event.key.startsWith("Arrow") || !table.classList.contains("rule-picking")) { return; }
    const from = tds.indexOf(event.target.closest("td"));
    const to = tds.indexOf(document.activeElement && document.activeElement.closest("td"));
    extend(from);
    extend(to);
  });
  draw();
}

function start() {
  document.querySelectorAll("form textarea[name=rules]").forEach(setup);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
