// sudoku-web: progressive enhancement only. Every page works without this file.
//   - grid: arrow keys move, typing a symbol moves on, Backspace/Delete clear,
//     pasting a whole puzzle into any cell fills the grid;
//   - jigsaw form: paint the regions with the mouse or the keyboard (the region text field
//     stays the source);
//   - result page: the "Copy link" button (hidden until this script shows it), and the
//     difficulty panel fetched into the page (without this script an <iframe> shows it).
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

  // The difficulty panel is a page of its own (grading costs far more than solving); bring
  // its #difficulty-panel into the result page, so it reads, prints and sizes as part of it.
  function setupFragment(slot) {
    var url = slot.getAttribute("data-fragment");
    if (!url || !window.fetch || !window.DOMParser) { return; }
    var waiting = document.createElement("p");
    waiting.className = "note";
    waiting.textContent = "Working out the grades\u2026";
    slot.appendChild(waiting);
    function fallback() {
      var link = document.createElement("a");
      link.href = url;
      link.textContent = "See the grades";
      waiting.textContent = "The grades could not be loaded here. ";
      waiting.appendChild(link);
    }
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var panel = doc.getElementById("difficulty-panel");
      if (!panel) { throw new Error("no panel"); }
      slot.replaceChildren(document.importNode(panel, true));
    }).catch(fallback);
  }

  // Jigsaw regions: a small grid to paint with the mouse (or a finger), kept in step with the
  // region text field that the server reads (and that works without this script). The main
  // grid's thick lines and tints follow, so the puzzle grid shows the regions being drawn.
  var LETTERS = "ABCDEFGHIJKLMNOP";

  function setupPainter(fieldset) {
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
    // A grid of its own for the keyboard too: arrow keys move, a letter picks that region
    // and paints the cell, Space or Enter paints it with the chosen region.
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
        td.setAttribute("role", "gridcell");
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
      var chars = textarea.value.replace(LAYOUT, "").toUpperCase();
      labels = [];
      for (var i = 0; i < n2; i++) { labels.push(chars.charAt(i) || "?"); }
    }

    function writeText() {
      var rows = [];
      for (var r = 0; r < size; r++) { rows.push(labels.slice(r * size, (r + 1) * size).join("")); }
      textarea.value = rows.join("\n");
      textarea.removeAttribute("aria-invalid");
    }

    // Tint by order of first appearance (as the server numbers regions), thick lines where
    // neighbours differ: the same rule as boards.cell_borders.
    function classesFor(i, order) {
      var out = ["rg-" + (order[labels[i]] % 16)];
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
      var order = {}, count = 0;
      labels.forEach(function (label) { if (!(label in order)) { order[label] = count++; } });
      var mainCells = mainGrid ? mainGrid.querySelectorAll("td") : [];
      for (var i = 0; i < n2; i++) {
        var extra = classesFor(i, order);
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
      var row = Math.floor(focused / size), col = focused % size;
      var key = event.key;
      if (key === "ArrowRight" && col < size - 1) { moveTo(focused + 1); }
      else if (key === "ArrowLeft" && col > 0) { moveTo(focused - 1); }
      else if (key === "ArrowDown" && row < size - 1) { moveTo(focused + size); }
      else if (key === "ArrowUp" && row > 0) { moveTo(focused - size); }
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

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.grid.editable"), setupGrid);
    Array.prototype.forEach.call(document.querySelectorAll("fieldset.regions"), setupPainter);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), setupCopy);
    Array.prototype.forEach.call(document.querySelectorAll("[data-fragment]"), setupFragment);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
