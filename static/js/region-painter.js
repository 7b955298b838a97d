import { moveFor } from "./grid-keys.js";

// Jigsaw regions: a small grid to paint with the mouse (or a finger), kept in step with the
// region text field that the server reads (and that works without this script). The main
// grid's thick lines and tints follow, so the puzzle grid shows the regions being drawn.
var LETTERS = "ABCDEFGHIJKLMNOP";

export function setupPainter(fieldset) {
  var size = parseInt(fieldset.getAttribute("data-size"), 10);
  var textarea = fieldset.querySelector("textarea");
  var holder = fieldset.querySelector(".region-painter");
  var form = fieldset.closest("form");
  var mainGrid = form ? form.querySelector("table.grid") : null;
  if (!size || !textarea || !holder) { return; }
  var n2 = size * size;
  var labels = [];
  var current = "A";
  var painting = false;

  var palette = document.createElement("div");
  palette.className = "palette";
  palette.setAttribute("role", "group");
  palette.setAttribute("aria-label", "Region to paint");
  var buttons = [];
  for (var k = 0; k < size; k++) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = LETTERS.charAt(k);
    button.className = "rg-" + k;
    button.setAttribute("aria-pressed", k === 0 ? "true" : "false");
    button.addEventListener("click", choose);
    buttons.push(button);
    palette.appendChild(button);
  }
  var table = document.createElement("table");
  table.className = "paint-grid n-" + size;
  // A grid of its own for the keyboard too: arrow keys move (js/grid-keys.js's rule), a
  // letter picks that region and paints the cell, Space or Enter paints it with the chosen
  // region.
  table.setAttribute("role", "grid");
  table.setAttribute("aria-label", "Region map: arrow keys move, a letter or Space paints");
  var tds = [];
  var focused = 0;
  var body = document.createElement("tbody");
  for (var r = 0; r < size; r++) {
    var tr = document.createElement("tr");
    for (var c = 0; c < size; c++) {
      var td = document.createElement("td");
      td.setAttribute("data-i", String(r * size + c));
      td.tabIndex = r === 0 && c === 0 ? 0 : -1;
      tds.push(td);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
  holder.appendChild(palette);
  holder.appendChild(table);
  holder.hidden = false;
  var hint = fieldset.querySelector(".painter-hint");
  if (hint) { hint.hidden = false; }

  function choose(event) {
    pick(event.currentTarget.textContent);
  }

  function pick(letter) {
    current = letter;
    buttons.forEach(function (b) {
      b.setAttribute("aria-pressed", b.textContent === current ? "true" : "false");
    });
  }

  function readText() {
    var chars = textarea.value.replace(/[\s|+\-]/g, "").toUpperCase();
    labels = [];
    for (var i = 0; i < n2; i++) { labels.push(chars.charAt(i) || "?"); }
  }

  function writeText() {
    var rows = [];
    for (var r = 0; r < size; r++) { rows.push(labels.slice(r * size, (r + 1) * size).join("")); }
    textarea.value = rows.join("\n");
    textarea.removeAttribute("aria-invalid");
  }

  // Tint by the region's letter (A, B, ...), so painting one cell never recolours the
  // others; thick lines where neighbours differ: the same rule as boards.cell_borders.
  function classesFor(i) {
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

  function render() {
    var mainCells = mainGrid ? mainGrid.querySelectorAll("td") : [];
    for (var i = 0; i < n2; i++) {
      var extra = classesFor(i);
      tds[i].textContent = labels[i];
      tds[i].setAttribute("aria-label", "Row " + (Math.floor(i / size) + 1) + ", column " +
        (i % size + 1) + ": region " + labels[i]);
      restyle(tds, i, extra);
      if (mainCells.length === n2) { restyle(mainCells, i, extra); }
    }
  }

  function paintAt(td) {
    var i = parseInt(td.getAttribute("data-i"), 10);
    if (labels[i] === current) { return; }
    labels[i] = current;
    writeText();
    render();
  }

  function cellAt(event) {
    var el = document.elementFromPoint(event.clientX, event.clientY);
    var td = el && el.closest ? el.closest("td[data-i]") : null;
    return td && table.contains(td) ? td : null;
  }

  table.addEventListener("pointerdown", function (event) {
    var td = cellAt(event);
    if (!td) { return; }
    event.preventDefault();
    painting = true;
    paintAt(td);
  });
  table.addEventListener("pointermove", function (event) {
    if (!painting) { return; }
    var td = cellAt(event);
    if (td) { paintAt(td); }
  });
  function moveTo(i) {
    tds[focused].tabIndex = -1;
    focused = i;
    tds[i].tabIndex = 0;
    tds[i].focus();
  }
  table.addEventListener("keydown", function (event) {
    if (event.altKey || event.metaKey) { return; }
    var key = event.key;
    var to = moveFor(key, focused, size, event.ctrlKey);
    if (to >= 0) { moveTo(to); }
    else if (event.ctrlKey) { return; }
    else if (key === " " || key === "Enter") { paintAt(tds[focused]); }
    else if (key.length === 1 && LETTERS.slice(0, size).indexOf(key.toUpperCase()) >= 0) {
      pick(key.toUpperCase());
      paintAt(tds[focused]);
    } else { return; }
    event.preventDefault();
  });
  table.addEventListener("focusin", function (event) {
    var td = event.target.closest ? event.target.closest("td[data-i]") : null;
    if (td) { focused = parseInt(td.getAttribute("data-i"), 10); }
  });
  document.addEventListener("pointerup", function () { painting = false; });
  document.addEventListener("pointercancel", function () { painting = false; });
  textarea.addEventListener("input", function () { readText(); render(); });

  readText();
  render();
}
