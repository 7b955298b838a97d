// The cage editor of the puzzle form: draw a killer's cages on the grid.
//
// The cages text field (form.cages, "15: r1c1 r1c2" per line) stays the one truth: the
// editor reads it, and every change is written back to it, so the server reads the same
// thing with or without JavaScript. Cells are picked by dragging across them (with "Select
// cells" on), Shift+click, or Shift+arrow keys in the grid; type the sum and press Enter (or
// "Make cage"). A cage's entry in the list below edits or deletes it. The outlines use the
// same classes as the server's drawing (boards.cage_marks): cage, kt, kr, kb, kl, cage-sum.

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

function setup(details) {
  const form = details.closest("form");
  const field = details.querySelector("textarea[name=cages]");
  const table = form && form.querySelector("table.grid.editable");
  if (!field || !table) { return; }
  const size = Number(table.getAttribute("data-size")) || 9;
  const tds = Array.from(table.querySelectorAll("td"));
  if (tds.length !== size * size) { return; }
  let cages = readCages(field.value, size) || [];
  let picked = new Set();
  let spoken = false; // cells have been picked: the status line says what is picked
  let dragging = false;

  const panel = element("div", "cage-editor");
  const pick = element("button", "button", "Select cells");
  pick.type = "button";
  pick.setAttribute("aria-pressed", "false");
  const status = element("p", "cage-picked hint", "");
  status.setAttribute("role", "status");
  const sumLabel = element("label", "cage-sum-label", "Sum ");
  const sum = element("input", "cage-sum-input");
  sum.type = "text";
  sum.inputMode = "numeric";
  sum.size = 3;
  sum.maxLength = 3;
  sumLabel.appendChild(sum);
  const make = element("button", "button", "Make cage");
  make.type = "button";
  const list = element("ul", "cage-list");
  list.setAttribute("aria-label", "Cages");
  panel.append(pick, status, sumLabel, make, list);
  details.appendChild(panel);
  const hint = details.querySelector(".cage-editor-hint");
  if (hint) { hint.hidden = false; }

  function write() {
    cages.sort((a, b) => a.cells[0] - b.cells[0]);
    field.value = cages.map((c) => c.sum + ": " + c.cells.map((x) => name(x, size)).join(" ")).join("\n");
    field.removeAttribute("aria-invalid");
    draw();
  }

  function draw() {
    const owner = new Map();
    cages.forEach((cage, k) => cage.cells.forEach((cell) => owner.set(cell, k)));
    tds.forEach((td, cell) => {
      td.classList.remove("cage", "kt", "kr", "kb", "kl", "cage-pick");
      const old = td.querySelector(".cage-sum");
      if (old) { old.remove(); }
      if (picked.has(cell)) { td.classList.add("cage-pick"); }
      if (!owner.has(cell)) { return; }
      const k = owner.get(cell), row = Math.floor(cell / size), col = cell % size;
      td.classList.add("cage");
      if (row === 0 || owner.get(cell - size) !== k) { td.classList.add("kt"); }
      if (col === size - 1 || owner.get(cell + 1) !== k) { td.classList.add("kr"); }
      if (row === size - 1 || owner.get(cell + size) !== k) { td.classList.add("kb"); }
      if (col === 0 || owner.get(cell - 1) !== k) { td.classList.add("kl"); }
      if (cages[k].cells[0] === cell) {
        const label = element("span", "cage-sum", String(cages[k].sum));
        label.setAttribute("aria-hidden", "true");
        td.insertBefore(label, td.firstChild);
      }
    });
    list.replaceChildren(...cages.map((cage, k) => {
      const item = element("li", "", cage.sum + ": " + cage.cells.map((x) => name(x, size)).join(" ") + " ");
      const edit = element("button", "button", "Edit");
      edit.type = "button";
      edit.setAttribute("aria-label", "Edit the cage of " + cage.sum + " at " + name(cage.cells[0], size));
      edit.addEventListener("click", () => { editCage(k); });
      const remove = element("button", "button", "Delete");
      remove.type = "button";
      remove.setAttribute("aria-label", "Delete the cage of " + cage.sum + " at " + name(cage.cells[0], size));
      remove.addEventListener("click", () => { cages.splice(k, 1); write(); });
      item.append(edit, remove);
      return item;
    }));
    // The status line speaks once cells have been picked: a page with a problem to say
    // (the empty grid's) says that alone.
    const names = Array.from(picked).sort((a, b) => a - b).map((x) => name(x, size));
    spoken = spoken || names.length > 0;
    status.textContent = names.length ? "Selected: " + names.join(" ") : spoken ? "No cells selected." : "";
  }

  function editCage(k) {
    const cage = cages.splice(k, 1)[0];
    picked = new Set(cage.cells);
    sum.value = String(cage.sum);
    write();
    sum.focus();
  }

  function toggle(cell, on) {
    if (on === undefined ? picked.has(cell) : !on) { picked.delete(cell); } else { picked.add(cell); }
    draw();
  }

  function makeCage() {
    const total = Number(sum.value);
    if (!picked.size || !Number.isInteger(total) || total < 1) {
      status.textContent = picked.size ? "Type the cage's sum first." : "Select the cage's cells first.";
      return;
    }
    const taken = new Set(Array.from(picked));
    cages = cages.filter((cage) => !cage.cells.some((cell) => taken.has(cell)));
    cages.push({ sum: total, cells: Array.from(picked).sort((a, b) => a - b) });
    picked = new Set();
    sum.value = "";
    write();
  }

  pick.addEventListener("click", () => {
    const on = pick.getAttribute("aria-pressed") !== "true";
    pick.setAttribute("aria-pressed", on ? "true" : "false");
    table.classList.toggle("cage-picking", on);
  });
  make.addEventListener("click", makeCage);
  sum.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); makeCage(); }
  });
  field.addEventListener("input", () => {
    const read = readCages(field.value, size);
    if (read) { cages = read; draw(); }
  });

  table.addEventListener("pointerdown", (event) => {
    const td = event.target.closest("td");
    if (!td || !table.contains(td)) { return; }
    const cell = tds.indexOf(td);
    if (event.shiftKey) {
      event.preventDefault();
      toggle(cell);
    } else if (table.classList.contains("cage-picking")) {
      event.preventDefault();
      dragging = true;
      toggle(cell, true);
    }
  });
  table.addEventListener("pointerover", (event) => {
    const td = dragging && event.target.closest("td");
    if (td && table.contains(td)) { toggle(tds.indexOf(td), true); }
  });
  document.addEventListener("pointerup", () => { dragging = false; });
  // Shift+arrow keys: the grid's own keys move the focus (sudoku.js); both cells join.
  table.addEventListener("keydown", (event) => {
    if (!event.shiftKey || !event.key.startsWith("Arrow")) { return; }
    const from = tds.indexOf(event.target.closest("td"));
    const to = tds.indexOf(document.activeElement && document.activeElement.closest("td"));
    if (from >= 0) { picked.add(from); }
    if (to >= 0) { picked.add(to); }
    draw();
  });
  // Shift+Enter in the grid goes to the sum.
  table.addEventListener("keydown", (event) => {
    if (event.shiftKey && event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      sum.focus();
    }
  }, true);
  draw();
}

function start() {
  document.querySelectorAll("details.cages").forEach(setup);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
