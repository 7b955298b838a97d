// The solver's form grid (table.grid.editable): entering a puzzle cell by cell, and pasting
// a whole puzzle into a cell or into the paste box. One grid object holds what the functions
// below share.
import { _ } from "./i18n.js";
import { moveFor, rovingFocus } from "./grid-keys.js";

// Characters the server skips in a pasted grid (layout), and the blanks it reads
// (board.LAYOUT, board.BLANKS): the simple pastes are filled in here, the rest (labels,
// links, candidate grids) goes to the paste box for the server's reader.
var LAYOUT = /[\s|+]/g;
var BLANKS = "._0xX*?-";

function focusCell(g, index) {
  g.roving.focus(index);
  g.inputs[g.roving.active()].select();
}

function isSymbol(g, ch) {
  return ch.length === 1 && g.symbols.indexOf(ch.toUpperCase()) >= 0;
}

function isBlank(ch) {
  return ch.length === 1 && BLANKS.indexOf(ch) >= 0;
}

function set(g, index, value) {
  var input = g.inputs[index];
  input.value = value;
  input.removeAttribute("aria-invalid");
  var td = input.closest("td");
  if (td) { td.classList.remove("wrong", "invalid"); } // changed: no longer the one marked
}

// Simple text as cells (symbols and blanks, layout skipped), or null.
function cellsOf(g, text) {
  var lines = text.split(/\r?\n/).filter(function (line) {
    return !/^[\s\-=+|:.'`]*$/.test(line) || !/--|=/.test(line);
  });
  var chars = lines.join("").replace(LAYOUT, "");
  if (chars.length !== g.count) { chars = text.replace(LAYOUT, ""); }
  if (chars.length !== g.count) { return null; }
  var givens = 0;
  for (var i = 0; i < g.count; i++) {
    var ch = chars.charAt(i);
    if (isSymbol(g, ch)) { givens++; } else if (!isBlank(ch)) { return null; }
  }
  return givens ? chars : null; // nothing but blanks: let the server say so
}

function fillWith(g, chars) {
  for (var i = 0; i < g.count; i++) {
    var ch = chars.charAt(i);
    set(g, i, isBlank(ch) ? "" : ch.toUpperCase());
  }
}

function say(g, text) {
  if (g.status) { g.status.textContent = text; }
}

// A key in cell `index`: moves, clears or fills; true when it was the grid's (its default is
// then prevented).
function onKey(g, index, event) {
  var key = event.key;
  var to = moveFor(key, index, g.size, event.ctrlKey);
  if (to >= 0) {
    focusCell(g, to);
    return true;
  }
  if (event.ctrlKey) { return false; }
  switch (key) {
    case "Backspace":
      // Like a text field after typing: an empty cell clears the one before it.
      if (g.inputs[index].value === "" && index > 0) {
        set(g, index - 1, "");
      } else {
        set(g, index, "");
      }
      focusCell(g, index - 1);
      return true;
    case "Delete":
    case " ":
      set(g, index, "");
      focusCell(g, index + 1);
      return true;
    default:
      if (isSymbol(g, key)) {
        set(g, index, key.toUpperCase()); // replace whatever is in the cell, then move on
        focusCell(g, index + 1);
      } else if (isBlank(key)) {
        set(g, index, "");
        focusCell(g, index + 1);
      } else if (key.length !== 1) {
        return false; // Tab, Enter, ...: the browser's
      } // else not a symbol: keep it out of the cell
      return true;
  }
}

// Phone keyboards often send no usable key in keydown; the value still arrives here.
function onInput(g, index) {
  var value = g.inputs[index].value;
  if (value.length === 1 && (isSymbol(g, value) || isBlank(value))) {
    set(g, index, isBlank(value) ? "" : value.toUpperCase());
    focusCell(g, index + 1);
  } else if (value.length === 1) {
    set(g, index, "");
  }
}

function onPaste(g, event) {
  var data = (event.clipboardData || window.clipboardData);
  if (!data) { return; }
  var text = data.getData("text");
  if (text.replace(LAYOUT, "").length <= 1) { return; } // one symbol: the browser's
  event.preventDefault();
  var chars = cellsOf(g, text);
  if (chars !== null) {
    fillWith(g, chars);
    focusCell(g, g.count - 1);
    say(g, _("Pasted into the grid."));
  } else if (g.pasteBox) {
    // A label, a link or pencil marks: the server's reader takes it from the box.
    g.pasteBox.value = text;
    g.pasteBox.focus();
    say(g, _("Put into the paste box: press Solve or Hint to read it."));
  }
}

// A puzzle pasted into the box goes into the grid at once, and the box is emptied: the grid
// is what Solve and Hint send. Text only the server reads stays in the box.
function onPasteBox(g) {
  var chars = cellsOf(g, g.pasteBox.value);
  if (chars === null) { return; }
  fillWith(g, chars);
  g.pasteBox.value = "";
  say(g, _("Pasted into the grid; edit it there."));
}

// The grid is one Tab stop (a roving tabindex) moved by js/grid-keys.js's rule; typing moves
// on in reading order; Backspace clears and moves back; Delete, Space and the blank
// characters clear and move on.
export function setupGrid(table) {
  var inputs = Array.prototype.slice.call(table.querySelectorAll("input.cell-input"));
  var size = parseInt(table.getAttribute("data-size"), 10) || 9;
  var symbols = table.getAttribute("data-symbols") || "";  // the board's, from the server
  if (inputs.length !== size * size || symbols.length !== size) { return; }
  var form = table.closest("form");
  var start = 0;
  inputs.forEach(function (input, index) {
    if (input.getAttribute("aria-invalid") === "true" && start === 0) { start = index; }
  });
  var g = {
    inputs: inputs, size: size, symbols: symbols, count: inputs.length,
    pasteBox: form ? form.querySelector("textarea[name=paste]") : null,
    status: form ? form.querySelector(".paste-status") : null,
    roving: rovingFocus(inputs, start)
  };
  inputs.forEach(function (input, index) {
    input.addEventListener("focus", function () { g.roving.sync(index); });
    input.addEventListener("keydown", function (event) {
      if (event.altKey || event.metaKey) { return; }
      if (onKey(g, index, event)) { event.preventDefault(); }
    });
    input.addEventListener("input", function () { onInput(g, index); });
    input.addEventListener("paste", function (event) { onPaste(g, event); });
  });
  if (g.pasteBox) {
    g.pasteBox.addEventListener("input", function () { onPasteBox(g); });
  }
}
