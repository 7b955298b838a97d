// sudoku-web: progressive enhancement only. Every page works without this file.
//   - grid: one Tab stop; arrow keys move, typing a symbol moves on, Backspace clears and
//     moves back, Delete/Space/blanks clear and move on, Home/End; pasting a whole puzzle
//     into any cell or the paste box fills the grid;
//   - form: what was typed comes back after Back (sessionStorage);
//   - jigsaw form: paint the regions with the mouse or the keyboard (the region text field
//     stays the source);
//   - result page: the "Copy link" button (hidden until this script shows it), and the
//     difficulty panel fetched into the page (without this script an <iframe> shows it).
(function () {
  "use strict";

  // Characters the server skips in a pasted grid (layout), and the blanks it reads
  // (board.LAYOUT, board.BLANKS): the simple pastes are filled in here, the rest (labels,
  // links, candidate grids) goes to the paste box for the server's reader.
  var LAYOUT = /[\s|+]/g;
  var BLANKS = "._0xX*?-";

  // The grid is one Tab stop (a roving tabindex): arrow keys move one cell and typing moves
  // on in reading order, both wrapping from a row's end to the next row's start; Backspace
  // clears and moves back; Delete, Space and the blank characters clear and move on; Home
  // and End go to the row's ends (with Ctrl, the grid's).
  function setupGrid(table) {
    var inputs = Array.prototype.slice.call(table.querySelectorAll("input.cell-input"));
    var size = parseInt(table.getAttribute("data-size"), 10) || 9;
    var symbols = table.getAttribute("data-symbols") || "";  // the board's, from the server
    var count = inputs.length;
    if (count !== size * size || symbols.length !== size) { return; }
    var form = table.closest("form");
    var pasteBox = form ? form.querySelector("textarea[name=paste]") : null;
    var status = form ? form.querySelector(".paste-status") : null;
    var active = 0;
    inputs.forEach(function (input, index) {
      if (input.getAttribute("aria-invalid") === "true" && active === 0) { active = index; }
    });
    inputs.forEach(function (input, index) { input.tabIndex = index === active ? 0 : -1; });

    function focusCell(index) {
      index = Math.max(0, Math.min(count - 1, index));
      inputs[active].tabIndex = -1;
      active = index;
      inputs[index].tabIndex = 0;
      inputs[index].focus();
      inputs[index].select();
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
      input.addEventListener("focus", function () {
        if (active !== index) {
          inputs[active].tabIndex = -1;
          active = index;
          input.tabIndex = 0;
        }
      });

      input.addEventListener("keydown", function (event) {
        if (event.altKey || event.metaKey) { return; }
        var row = Math.floor(index / size), col = index % size;
        var key = event.key;
        if (event.ctrlKey) {
          if (key === "Home") { event.preventDefault(); focusCell(0); }
          if (key === "End") { event.preventDefault(); focusCell(count - 1); }
          return;
        }
        switch (key) {
          case "ArrowLeft": focusCell((index + count - 1) % count); break;
          case "ArrowRight": focusCell((index + 1) % count); break;
          case "ArrowUp": focusCell(((row + size - 1) % size) * size + col); break;
          case "ArrowDown": focusCell(((row + 1) % size) * size + col); break;
          case "Home": focusCell(row * size); break;
          case "End": focusCell(row * size + size - 1); break;
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

  // Back after Solve: the browser may not restore what was typed (cells are autocomplete=off,
  // to keep autofill lists out of the grid), so the form keeps it for this tab's session.
  function setupMemory(form) {
    var key = "sudoku-form:" + location.pathname + location.search;
    var fields = Array.prototype.slice.call(form.querySelectorAll("input.cell-input, textarea"));
    form.addEventListener("submit", function () {
      try {
        sessionStorage.setItem(key, JSON.stringify(fields.map(function (f) { return f.value; })));
      } catch (e) { /* storage off or full: nothing to restore then */ }
    });
    window.addEventListener("pageshow", function (event) {
      var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
      if (!event.persisted && !(nav && nav.type === "back_forward")) { return; }
      if (fields.some(function (f) { return f.value !== "" && f.name !== "regions"; })) { return; }
      var saved = null;
      try { saved = JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { saved = null; }
      if (!saved || saved.length !== fields.length) { return; }
      fields.forEach(function (f, i) { f.value = saved[i]; });
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
    Array.prototype.forEach.call(document.querySelectorAll("form.puzzle-form"), setupMemory);
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
