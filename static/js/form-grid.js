// The solver's form grid (table.grid.editable): entering a puzzle cell by cell, and pasting
// a whole puzzle into a cell or into the paste box.
import { moveFor, rovingFocus } from "./grid-keys.js";

// Characters the server skips in a pasted grid (layout), and the blanks it reads
// (board.LAYOUT, board.BLANKS): the simple pastes are filled in here, the rest (labels,
// links, candidate grids) goes to the paste box for the server's reader.
var LAYOUT = /[\s|+]/g;
var BLANKS = "._0xX*?-";

// The grid is one Tab stop (a roving tabindex) moved by js/grid-keys.js's rule; typing moves
// on in reading order; Backspace clears and moves back; Delete, Space and the blank
// characters clear and move on.
export function setupGrid(table) {
  var inputs = Array.prototype.slice.call(table.querySelectorAll("input.cell-input"));
  var size = parseInt(table.getAttribute("data-size"), 10) || 9;
  var symbols = table.getAttribute("data-symbols") || "";  // the board's, from the server
  var count = inputs.length;
  if (count !== size * size || symbols.length !== size) { return; }
  var form = table.closest("form");
  var pasteBox = form ? form.querySelector("textarea[name=paste]") : null;
  var status = form ? form.querySelector(".paste-status") : null;
  var start = 0;
  inputs.forEach(function (input, index) {
    if (input.getAttribute("aria-invalid") === "true" && start === 0) { start = index; }
  });
  var roving = rovingFocus(inputs, start);

  function focusCell(index) {
    roving.focus(index);
    inputs[roving.active()].select();
  }

  function isSymbol(ch) {
    return ch.length === 1 && symbols.indexOf(ch.toUpperCase()) >= 0;
  }

  function isBlank(ch) {
    return ch.length === 1 && BLANKS.indexOf(ch) >= 0;
  }

  function set(index, value) {
    inputs[index].value = value;
    inputs[index].removeAttribute("aria-invalid");
    var td = inputs[index].closest("td");
    if (td) { td.classList.remove("wrong", "invalid"); } // changed: no longer the one marked
  }

  // Simple text as cells (symbols and blanks, layout skipped), or null.
  function cellsOf(text) {
    var lines = text.split(/\r?\n/).filter(function (line) {
      return !/^[\s\-=+|:.'`]*$/.test(line) || !/--|=/.test(line);
    });
    var chars = lines.join("").replace(LAYOUT, "");
    if (chars.length !== count) { chars = text.replace(LAYOUT, ""); }
    if (chars.length !== count) { return null; }
    var givens = 0;
    for (var i = 0; i < count; i++) {
      var ch = chars.charAt(i);
      if (isSymbol(ch)) { givens++; } else if (!isBlank(ch)) { return null; }
    }
    return givens ? chars : null; // nothing but blanks: let the server say so
  }

  function fillWith(chars) {
    for (var i = 0; i < count; i++) {
      var ch = chars.charAt(i);
      set(i, isBlank(ch) ? "" : ch.toUpperCase());
    }
  }

  function say(text) {
    if (status) { status.textContent = text; }
  }

  inputs.forEach(function (input, index) {
    input.addEventListener("focus", function () { roving.sync(index); });

    input.addEventListener("keydown", function (event) {
      if (event.altKey || event.metaKey) { return; }
      var key = event.key;
      var to = moveFor(key, index, size, event.ctrlKey);
      if (to >= 0) {
        event.preventDefault();
        focusCell(to);
        return;
      }
      if (event.ctrlKey) { return; }
      switch (key) {
        case "Backspace":
          // Like a text field after typing: an empty cell clears the one before it.
          if (input.value === "" && index > 0) {
            set(index - 1, "");
          } else {
            set(index, "");
          }
          focusCell(index - 1);
          break;
        case "Delete":
        case " ":
          set(index, "");
          focusCell(index + 1);
          break;
        default:
          if (isSymbol(key)) {
            set(index, key.toUpperCase()); // replace whatever is in the cell, then move on
            focusCell(index + 1);
          } else if (isBlank(key)) {
            set(index, "");
            focusCell(index + 1);
          } else if (key.length === 1) {
            break; // not a symbol: keep it out of the cell
          } else {
            return; // Tab, Enter, ...: the browser's
          }
      }
      event.preventDefault();
    });

    // Phone keyboards often send no usable key in keydown; the value still arrives here.
    input.addEventListener("input", function () {
      var value = input.value;
      if (value.length === 1 && (isSymbol(value) || isBlank(value))) {
        set(index, isBlank(value) ? "" : value.toUpperCase());
        focusCell(index + 1);
      } else if (value.length === 1) {
        set(index, "");
      }
    });

    input.addEventListener("paste", function (event) {
      var data = (event.clipboardData || window.clipboardData);
      if (!data) { return; }
      var text = data.getData("text");
      if (text.replace(LAYOUT, "").length <= 1) { return; } // one symbol: the browser's
      event.preventDefault();
      var chars = cellsOf(text);
      if (chars !== null) {
        fillWith(chars);
        focusCell(count - 1);
        say("Pasted into the grid.");
      } else if (pasteBox) {
        // A label, a link or pencil marks: the server's reader takes it from the box.
        pasteBox.value = text;
        pasteBox.focus();
        say("Put into the paste box: press Solve or Hint to read it.");
      }
    });
  });

  // A puzzle pasted into the box goes into the grid at once, and the box is emptied: the
  // grid is what Solve and Hint send. Text only the server reads stays in the box.
  if (pasteBox) {
    pasteBox.addEventListener("input", function () {
      var chars = cellsOf(pasteBox.value);
      if (chars === null) { return; }
      fillWith(chars);
      pasteBox.value = "";
      say("Pasted into the grid; edit it there.");
    });
  }
}
