import { _ } from "./i18n.js";
import { moveFor } from "./grid-keys.js";

// Jigsaw regions: a small grid to paint with the mouse (or a finger), kept in step with the
// region text field that the server reads (and that works without this script). The main
// grid's thick lines and tints follow, so the puzzle grid shows the regions being drawn.
// One painter object holds the state; the functions below draw and change it.
var LETTERS = "ABCDEFGHIJKLMNOP";

// The palette: one button per region letter, the first pressed.
function buildPalette(p) {
  var palette = document.createElement("div");
  palette.className = "palette";
  palette.setAttribute("role", "group");
  palette.setAttribute("aria-label", _("Region to paint"));
  for (var k = 0; k < p.size; k++) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = LETTERS.charAt(k);
    button.className = "rg-" + k;
    button.setAttribute("aria-pressed", k === 0 ? "true" : "false");
    button.addEventListener("click", function (event) { pick(p, event.currentTarget.textContent); });
    p.buttons.push(button);
    palette.appendChild(button);
  }
  return palette;
}

// A grid of its own for the keyboard too: arrow keys move (js/grid-keys.js's rule), a letter
// picks that region and paints the cell, Space or Enter paints it with the chosen region.
function buildTable(p) {
  var table = document.createElement("table");
  table.className = "paint-grid n-" + p.size;
  table.setAttribute("role", "grid");
  table.setAttribute("aria-label", _("Region map: arrow keys move, a letter or Space paints"));
  var body = document.createElement("tbody");
  for (var r = 0; r < p.size; r++) {
    var tr = document.createElement("tr");
    for (var c = 0; c < p.size; c++) {
      var td = document.createElement("td");
      td.setAttribute("data-i", String(r * p.size + c));
      td.tabIndex = r === 0 && c === 0 ? 0 : -1;
      p.tds.push(td);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
  return table;
}

function pick(p, letter) {
  p.current = letter;
  p.buttons.forEach(function (b) {
    b.setAttribute("aria-pressed", b.textContent === p.current ? "true" : "false");
  });
}

function readText(p) {
  var chars = p.textarea.value.replace(/[\s|+\-]/g, "").toUpperCase();
  p.labels = [];
  for (var i = 0; i < p.count; i++) { p.labels.push(chars.charAt(i) || "?"); }
}

function writeText(p) {
  var rows = [];
  for (var r = 0; r < p.size; r++) {
    rows.push(p.labels.slice(r * p.size, (r + 1) * p.size).join(""));
  }
  p.textarea.value = rows.join("\n");
  p.textarea.removeAttribute("aria-invalid");
}

// Tint by the region's letter (A, B, ...), so painting one cell never recolours the
// others; thick lines where neighbours differ: the same rule as boards.cell_borders.
function classesFor(p, i) {
  var labels = p.labels, size = p.size;
  var k = LETTERS.indexOf(labels[i]);
  var out = k >= 0 ? ["rg-" + k] : [];
  if (i >= size && labels[i - size] !== labels[i]) { out.push("bt"); }
  if (i % size && labels[i - 1] !== labels[i]) { out.push("bl"); }
  return out;
}

function restyle(cells, i, extra) {
  var keep = cells[i].className.split(/\s+/).filter(function (name) {
    return name && name !== "bt" && name !== "bl" && !/^rg-\d+$/.test(name);
  });
  cells[i].className = keep.concat(extra).join(" ");
}

function render(p) {
  var mainCells = p.mainGrid ? p.mainGrid.querySelectorAll("td") : [];
  for (var i = 0; i < p.count; i++) {
    var extra = classesFor(p, i);
    p.tds[i].textContent = p.labels[i];
    p.tds[i].setAttribute("aria-label", _("Row %(row)s, column %(col)s: region %(region)s",
      { row: Math.floor(i / p.size) + 1, col: i % p.size + 1, region: p.labels[i] }));
    restyle(p.tds, i, extra);
    if (mainCells.length === p.count) { restyle(mainCells, i, extra); }
  }
}

function paintAt(p, td) {
  var i = parseInt(td.getAttribute("data-i"), 10);
  if (p.labels[i] === p.current) { return; }
  p.labels[i] = p.current;
  writeText(p);
  render(p);
}

function cellAt(p, event) {
  var el = document.elementFromPoint(event.clientX, event.clientY);
  var td = el && el.closest ? el.closest("td[data-i]") : null;
  return td && p.table.contains(td) ? td : null;
}

function moveTo(p, i) {
  p.tds[p.focused].tabIndex = -1;
  p.focused = i;
  p.tds[i].tabIndex = 0;
  p.tds[i].focus();
}

function onKey(p, event) {
  if (event.altKey || event.metaKey) { return; }
  var key = event.key;
  var to = moveFor(key, p.focused, p.size, event.ctrlKey);
  if (to >= 0) { moveTo(p, to); }
  else if (event.ctrlKey) { return; }
  else if (key === " " || key === "Enter") { paintAt(p, p.tds[p.focused]); }
  else if (key.length === 1 && LETTERS.slice(0, p.size).indexOf(key.toUpperCase()) >= 0) {
    pick(p, key.toUpperCase());
    paintAt(p, p.tds[p.focused]);
  } else { return; }
  event.preventDefault();
}

function listen(p) {
  p.table.addEventListener("pointerdown", function (event) {
    var td = cellAt(p, event);
    if (!td) { return; }
    event.preventDefault();
    p.painting = true;
    paintAt(p, td);
  });
  p.table.addEventListener("pointermove", function (event) {
    if (!p.painting) { return; }
    var td = cellAt(p, event);
    if (td) { paintAt(p, td); }
  });
  p.table.addEventListener("keydown", function (event) { onKey(p, event); });
  p.table.addEventListener("focusin", function (event) {
    var td = event.target.closest ? event.target.closest("td[data-i]") : null;
    if (td) { p.focused = parseInt(td.getAttribute("data-i"), 10); }
  });
  document.addEventListener("pointerup", function () { p.painting = false; });
  document.addEventListener("pointercancel", function () { p.painting = false; });
  p.textarea.addEventListener("input", function () { readText(p); render(p); });
}

export function setupPainter(fieldset) {
  var size = parseInt(fieldset.getAttribute("data-size"), 10);
  var textarea = fieldset.querySelector("textarea");
  var holder = fieldset.querySelector(".region-painter");
  var form = fieldset.closest("form");
  if (!size || !textarea || !holder) { return; }
  var p = {
    size: size, count: size * size, textarea: textarea, labels: [], current: "A",
    painting: false, buttons: [], tds: [], focused: 0,
    mainGrid: form ? form.querySelector("table.grid") : null, table: null
  };
  holder.appendChild(buildPalette(p));
  p.table = buildTable(p);
  holder.appendChild(p.table);
  holder.hidden = false;
  var hint = fieldset.querySelector(".painter-hint");
  if (hint) { hint.hidden = false; }
  listen(p);
  readText(p);
  render(p);
}
