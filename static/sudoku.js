// sudoku-web: progressive enhancement only. Every page works without this file.
//   - grid: arrow keys move, typing a symbol moves on, Backspace/Delete clear,
//     pasting a whole puzzle into any cell fills the grid;
//   - result page: the "Copy link" button (hidden until this script shows it).
(function () {
  "use strict";

  // Characters the server ignores in a pasted grid (layout), mirroring board.IGNORED.
  var LAYOUT = /[\s|+\-]/g;

  function setupGrid(table) {
    var inputs = Array.prototype.slice.call(table.querySelectorAll("input.cell-input"));
    var size = parseInt(table.getAttribute("data-size"), 10) || 9;
    var symbols = "123456789ABCDEFG".slice(0, size);
    if (inputs.length !== size * size) { return; }

    function focusCell(index) {
      if (index >= 0 && index < inputs.length) {
        inputs[index].focus();
        inputs[index].select();
      }
    }

    function isSymbol(ch) {
      return ch.length === 1 && (symbols.indexOf(ch.toUpperCase()) >= 0 || ch === "." || ch === "0");
    }

    inputs.forEach(function (input, index) {
      input.addEventListener("keydown", function (event) {
        if (event.altKey || event.ctrlKey || event.metaKey) { return; }
        var row = Math.floor(index / size), col = index % size, target = null;
        switch (event.key) {
          case "ArrowLeft": target = row * size + (col + size - 1) % size; break;
          case "ArrowRight": target = row * size + (col + 1) % size; break;
          case "ArrowUp": target = ((row + size - 1) % size) * size + col; break;
          case "ArrowDown": target = ((row + 1) % size) * size + col; break;
          case "Backspace":
            if (input.value === "" && index > 0) {
              // Like a text field: Backspace in an empty cell clears the one before.
              event.preventDefault();
              inputs[index - 1].value = "";
              focusCell(index - 1);
            }
            return;
          case "Delete":
            event.preventDefault();
            input.value = "";
            return;
          default:
            if (isSymbol(event.key)) {
              // Replace whatever is in the cell, then move on.
              event.preventDefault();
              input.value = (event.key === "." || event.key === "0") ? "" : event.key.toUpperCase();
              input.removeAttribute("aria-invalid");
              focusCell(index + 1);
            }
            return;
        }
        event.preventDefault();
        focusCell(target);
      });

      // Phone keyboards often send no usable key in keydown; the value still arrives here.
      input.addEventListener("input", function () {
        var value = input.value;
        if (value.length === 1 && isSymbol(value)) {
          input.value = (value === "." || value === "0") ? "" : value.toUpperCase();
          input.removeAttribute("aria-invalid");
          focusCell(index + 1);
        }
      });

      input.addEventListener("paste", function (event) {
        var data = (event.clipboardData || window.clipboardData);
        if (!data) { return; }
        var text = data.getData("text").replace(LAYOUT, "");
        if (text.length !== inputs.length) { return; } // one symbol: the browser's default
        event.preventDefault();
        for (var i = 0; i < inputs.length; i++) {
          var ch = text.charAt(i);
          inputs[i].value = (ch === "." || ch === "0") ? "" : ch.toUpperCase();
        }
        focusCell(inputs.length - 1);
      });
    });
  }

  function setupCopy(button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector(".copy-status");
    if (!target || !navigator.clipboard) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = target.getAttribute("href") || target.textContent;
      navigator.clipboard.writeText(text).then(function () {
        if (status) { status.textContent = "Link copied."; }
      }, function () {
        if (status) { status.textContent = "Could not copy; select the link above instead."; }
      });
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.grid.editable"), setupGrid);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), setupCopy);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
