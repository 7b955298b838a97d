// sudoku-web: the play page (<share link>/play) as a game; the page's entry module (the
// modules it imports are in static/js/, play-*.js and grid-keys.js). Without it the page is
// a plain form (Check and Hint post it); with it:
//   - the grid is one Tab stop (a roving focus over the cells), moved by js/grid-keys.js's
//     rule (the solver form's too); a symbol fills the
//     cell, Shift+symbol (or the Pencil toggle, or P) notes a pencil mark; Backspace, Delete,
//     Space, 0 and . clear; Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes;
//   - the selected cell's houses and every cell with the same symbol are highlighted, and
//     conflicts with givens or other entries are marked as they happen;
//   - Check and Hint ask /api/check and /api/hint (the page never holds the solution; a
//     check names wrong cells, never their digits), Reveal asks for one cell's digit;
//   - "Solved!" with the time taken once every cell is filled without a conflict (the page
//     is only offered for puzzles with exactly one solution, so that grid is the solution);
//   - progress (digits, marks, time) is kept in localStorage under the puzzle's variant,
//     region map and givens; nothing is kept on the server.
import { moveFor } from "./js/grid-keys.js";
import { keySymbol } from "./js/play-keys.js";
import { duration, words } from "./js/play-clock.js";
import { conflicts, housesOfCells, peersOf, readHouses } from "./js/play-houses.js";
import { showHint, sayIn } from "./js/play-panel.js";
import { cellViews, firstOpen, readPosted } from "./js/play-cells.js";
import { postJson, verdict } from "./js/play-server.js";
import {
  copyState, emptyState, load as loadProgress, save as saveProgress, storeKey
} from "./js/play-store.js";

var HISTORY_LIMIT = 500;

function setup(table) {
  var form = table.closest("form");
  var size = parseInt(table.getAttribute("data-size"), 10);
  var puzzle = table.getAttribute("data-puzzle") || "";
  var variant = table.getAttribute("data-variant") || "";
  var regions = table.getAttribute("data-regions") || "";
  var cages = table.getAttribute("data-cages") || "";  // a killer's, in their link spelling
  var symbols = table.getAttribute("data-symbols") || "";  // the board's, from the server
  var count = size * size;
  if (!size || puzzle.length !== count || symbols.length !== size) { return; }

  var tds = new Array(count);
  Array.prototype.forEach.call(table.querySelectorAll("td[data-cell]"), function (td) {
    tds[parseInt(td.getAttribute("data-cell"), 10)] = td;
  });
  var houses = readHouses(table.getAttribute("data-houses") || "");
  var houseOf = housesOfCells(houses, count);

  var panel = document.getElementById("play-panel");
  var pad = document.querySelector(".pad");
  var clock = document.querySelector(".play-clock");
  var clockText = clock && clock.querySelector(".play-time");
  var storage = storeKey(variant, regions, puzzle, cages);

  // ---- State -------------------------------------------------------------------------
  var givens = [];
  for (var g = 0; g < count; g++) { givens.push(symbols.indexOf(puzzle.charAt(g)) + 1); }
  var state = emptyState(count);
  var undoStack = [], redoStack = [];
  var selected = firstOpen(givens);
  var pencil = false;
  var wrong = {}, wrongMarks = {}, hintCells = {}, hintHouses = {};
  var elapsed = 0, since = null, solved = false;

  function valueAt(i) { return givens[i] || state.values[i]; }
  function locked(i) { return givens[i] > 0 || state.revealed[i] > 0; }
  function symbolOf(value) { return value ? symbols.charAt(value - 1) : ""; }

  // ---- The cells: a grid with one Tab stop -------------------------------------------
  table.setAttribute("role", "grid");
  var views = cellViews(tds, givens, size);

  // What the server drew (a form posted without JavaScript) wins over what was stored.
  var posted = readPosted(views, symbols);
  var stored = loadProgress(storage, givens, symbols);
  if (stored) {
    elapsed = stored.elapsed || 0;
    solved = !!stored.solved;
    if (!posted) { state = stored.state; }
  }
  if (posted) { state = posted; solved = false; }

  function save() { saveProgress(storage, state, symbols, now(), solved); }

  // ---- The clock: runs while the page is visible and the puzzle unsolved ------------
  function now() { return elapsed + (since === null ? 0 : Date.now() - since); }
  function startClock() { if (since === null && !solved) { since = Date.now(); } }
  function stopClock() { if (since !== null) { elapsed += Date.now() - since; since = null; } }
  function tick() { if (clockText) { clockText.textContent = duration(now()); } }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { stopClock(); save(); } else { startClock(); }
  });
  window.addEventListener("pagehide", save);

  // Short notes (a cell's new value, undone, pencil on) for screen readers, without
  // replacing the panel.
  var notes = document.createElement("p");
  notes.className = "visually-hidden";
  notes.setAttribute("aria-live", "polite");
  table.parentNode.insertBefore(notes, table.nextSibling);
  function announce(text) { notes.textContent = text; }

  // ---- Drawing ----------------------------------------------------------------------
  function label(i, conflict) {
    var row = Math.floor(i / size) + 1, col = i % size + 1;
    var text = "Row " + row + ", column " + col + ": ";
    var v = valueAt(i);
    if (v) {
      text += symbolOf(v);
      if (givens[i]) { text += " (given)"; } else if (state.revealed[i]) { text += " (revealed)"; }
    } else {
      text += "blank";
      var m = markList(i);
      if (m.length) { text += ", pencil marks " + m.join(" "); }
    }
    if (conflict) { text += ", conflicts with another cell"; }
    if (wrong[i]) { text += ", wrong"; }
    if (wrongMarks[i]) { text += ", pencil marks leave out the answer"; }
    return text;
  }

  function markList(i) {
    var out = [];
    for (var d = 1; d <= size; d++) { if (state.marks[i] >> (d - 1) & 1) { out.push(symbolOf(d)); } }
    return out;
  }

  function render() {
    var bad = conflicts(houses, valueAt);
    var near = peersOf(houses, houseOf, selected);
    var same = valueAt(selected);
    for (var i = 0; i < count; i++) {
      var td = tds[i], view = views[i], v = valueAt(i);
      td.classList.toggle("selected", i === selected);
      td.classList.toggle("peer", i !== selected && !!near[i]);
      td.classList.toggle("same", !!same && v === same);
      td.classList.toggle("conflict", !!bad[i]);
      td.classList.toggle("wrong", !!wrong[i]);
      td.classList.toggle("wrong-marks", !!wrongMarks[i]);
      td.classList.toggle("hint-cell", !!hintCells[i]);
      td.classList.toggle("hint-house", !!hintHouses[i]);
      td.tabIndex = i === selected ? 0 : -1;
      td.setAttribute("aria-selected", i === selected ? "true" : "false");
      td.setAttribute("aria-label", label(i, bad[i]));
      if (view.value) {
        td.classList.toggle("entry", !!state.values[i] && !state.revealed[i]);
        td.classList.toggle("revealed", !!state.revealed[i]);
        view.value.textContent = symbolOf(state.values[i]);
        var m = state.values[i] ? 0 : state.marks[i];
        for (var d = 0; d < size; d++) {
          var on = (m >> d & 1) === 1;
          view.marks[d].textContent = on ? symbolOf(d + 1) : "";
          view.marks[d].className = on && same === d + 1 ? "same" : "";
        }
        view.input.value = state.values[i] ? symbolOf(state.values[i]) : markList(i).join("");
      }
    }
    if (pad) {
      var toggle = pad.querySelector("[data-action=pencil]");
      if (toggle) { toggle.setAttribute("aria-pressed", pencil ? "true" : "false"); }
    }
    table.classList.toggle("pencil-mode", pencil);
    table.classList.toggle("is-solved", solved);
  }

  // ---- Changing the grid (every change is undoable) --------------------------------
  function commit(before) {
    undoStack.push(before);
    if (undoStack.length > HISTORY_LIMIT) { undoStack.shift(); }
    redoStack = [];
    after();
  }

  function after() {
    var full = true;
    for (var i = 0; i < count; i++) { if (!valueAt(i)) { full = false; break; } }
    if (full && !Object.keys(conflicts(houses, valueAt)).length) {
      if (!solved) {
        stopClock();
        tick();  // the clock then shows the whole seconds the words below say
        solved = true;
        say("solved", "Solved!", "Every cell is right. Time taken: " + words(now()) + ".");
      }
    } else if (solved) {
      solved = false;  // an undo after solving: play on
      startClock();
    }
    render();
    save();
  }

  function clearMarksAbout(i) {
    delete wrong[i];
    delete wrongMarks[i];
    hintCells = {};
    hintHouses = {};
  }

  // Each change is also said in a few words: a focused cell's new label is not always
  // read out again.
  function setValue(i, value) {
    if (locked(i) || (state.values[i] === value && !state.marks[i])) { return; }
    var before = copyState(state);
    state.values[i] = value;
    clearMarksAbout(i);
    commit(before);
    announce(label(i, conflicts(houses, valueAt)[i]));
  }

  function toggleMark(i, value) {
    if (locked(i) || state.values[i]) { return; }
    var before = copyState(state);
    state.marks[i] ^= 1 << (value - 1);
    clearMarksAbout(i);
    commit(before);
    var on = state.marks[i] >> (value - 1) & 1;
    announce("Pencil mark " + symbolOf(value) + (on ? " added" : " removed") + ".");
  }

  function erase(i) {
    if (locked(i) || (!state.values[i] && !state.marks[i])) { return; }
    var before = copyState(state);
    if (state.values[i]) { state.values[i] = 0; } else { state.marks[i] = 0; }
    clearMarksAbout(i);
    commit(before);
    announce("Cleared.");
  }

  function undo() {
    if (!undoStack.length) { return; }
    redoStack.push(copyState(state));
    state = undoStack.pop();
    wrong = {}; wrongMarks = {};
    after();
    announce("Undone.");
  }

  function redo() {
    if (!redoStack.length) { return; }
    undoStack.push(copyState(state));
    state = redoStack.pop();
    wrong = {}; wrongMarks = {};
    after();
    announce("Redone.");
  }

  function enter(value, asMark) {
    if (solved) { return; }
    if (locked(selected)) {
      announce(givens[selected] ? "That cell is a given." : "That cell was revealed.");
      return;
    }
    if (asMark || pencil) { toggleMark(selected, value); } else { setValue(selected, value); }
  }

  // ---- Moving ------------------------------------------------------------------------
  function select(i, focus) {
    selected = (i + count) % count;
    render();
    if (focus) { tds[selected].focus(); }
  }

  table.addEventListener("click", function (event) {
    var td = event.target.closest("td[data-cell]");
    if (td) { select(parseInt(td.getAttribute("data-cell"), 10), true); }
  });

  table.addEventListener("keydown", function (event) {
    if (event.altKey || event.metaKey) { return; }
    if (event.ctrlKey) {  // Ctrl+Home/End move; Ctrl+Z/Y undo and redo (see below)
      var end = moveFor(event.key, selected, size, true);
      if (end >= 0) { event.preventDefault(); select(end, true); }
      return;
    }
    var to = moveFor(event.key, selected, size, false);
    if (to >= 0) {
      event.preventDefault();
      select(to, true);
      return;
    }
    switch (event.key) {
      case "Backspace": case "Delete": case " ": case ".": case "0": erase(selected); break;
      default:
        var typed = keySymbol(event);
        var value = typed.ch ? symbols.indexOf(typed.ch) + 1 : 0;
        if (value) {
          enter(value, typed.mark);
        } else if (typed.ch === "P" && !typed.mark) {
          pencil = !pencil;
          render();
          announce(pencil ? "Pencil on: symbols note pencil marks." : "Pencil off.");
        } else {
          return;  // Tab and everything else keep their meaning
        }
    }
    event.preventDefault();
  });

  document.addEventListener("keydown", function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) { return; }
    var key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) { undo(); } else if (key === "y" || (key === "z" && event.shiftKey)) { redo(); } else { return; }
    event.preventDefault();
  });

  // ---- The pad and the buttons -------------------------------------------------------
  if (pad) {
    pad.hidden = false;
    pad.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      var symbol = button.getAttribute("data-symbol");
      var action = button.getAttribute("data-action");
      if (symbol) { enter(symbols.indexOf(symbol) + 1, false); }
      else if (action === "pencil") { pencil = !pencil; render(); }
      else if (action === "erase") { erase(selected); }
      else if (action === "undo") { undo(); }
      else if (action === "redo") { redo(); }
      // A tap or click goes back to the grid; the keyboard stays on the pad.
      if (event.detail > 0) { tds[selected].focus(); }
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".js-help, [data-action=reveal], [data-action=restart]"), function (el) { el.hidden = false; });
  Array.prototype.forEach.call(document.querySelectorAll(".no-js-help"), function (el) { el.hidden = true; });
  if (clock) { clock.hidden = false; }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var action = event.submitter && event.submitter.value;
    if (action === "hint") { askHint(); } else { askCheck(); }
  });

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || button.closest(".pad")) { return; }
    var action = button.getAttribute("data-action");
    if (action === "reveal") { reveal(); }
    if (action === "restart") { restart(); }
    // After a click or tap the next digit typed still goes to the grid (the keyboard, and
    // screen readers, stay on the button: they hear the answer in the panel).
    if (event.detail > 0) { tds[selected].focus(); }
  });

  function restart() {
    var before = copyState(state);
    state = emptyState(count);
    wrong = {}; wrongMarks = {}; hintCells = {}; hintHouses = {};
    solved = false;
    elapsed = 0;
    since = null;
    startClock();
    commit(before);
    say("", "", "Started over: every entry and pencil mark is cleared (Undo brings them back).");
  }

  // ---- Talking to the server ----------------------------------------------------------
  function request(url, extra) {
    var marks = {};
    for (var i = 0; i < count; i++) {
      if (!valueAt(i) && state.marks[i]) {
        marks["r" + (Math.floor(i / size) + 1) + "c" + (i % size + 1)] = markList(i).join("");
      }
    }
    var body = {
      puzzle: puzzle,
      variant: variant,
      entries: state.values.map(function (v, i) { return symbolOf(valueAt(i)) || "0"; }).join(""),
      marks: marks
    };
    if (regions) { body.regions = regions; }
    if (cages) { body.cages = cages; }
    Object.keys(extra || {}).forEach(function (key) { body[key] = extra[key]; });
    return postJson(url, body);
  }

  function say(kind, heading, text) { sayIn(panel, kind, heading, text); }

  function failed(error) {
    say("error", "", "Could not ask the server: " + (error && error.message ? error.message : "no answer") + ".");
  }

  function markWrong(data) {
    wrong = {}; wrongMarks = {};
    data.wrong.forEach(function (x) { wrong[x.index] = true; });
    data.wrong_marks.forEach(function (x) { wrongMarks[x.index] = true; });
    render();
  }

  function askCheck() {
    request(table.getAttribute("data-check-url")).then(function (data) {
      markWrong(data);
      var v = verdict(data, size);
      say(v[0], v[1], v[2]);
    }).catch(failed);
  }

  function askHint() {
    request(table.getAttribute("data-hint-url")).then(function (data) {
      markWrong(data);
      if (data.kind !== "next" && data.kind !== "stuck") {
        var v = verdict(data, size);
        say(v[0], v[1], v[2]);
        return;
      }
      hintCells = {}; hintHouses = {};
      var h = data.highlight || { cells: [], houses: [] };
      h.houses.forEach(function (i) { hintHouses[i] = true; });
      h.cells.forEach(function (i) { hintCells[i] = true; });
      render();
      if (data.kind === "stuck") {
        say("stuck", "Next: a guess", "None of the techniques this solver knows applies here. The engine would guess at " + data.stuck.cell + ", the cell with the fewest candidates.");
        return;
      }
      var last = data.steps[data.steps.length - 1];
      showHint(panel, last, data.steps, size);
    }).catch(failed);
  }

  function reveal() {
    if (locked(selected)) {
      say("", "", "Select an empty cell (or one of yours) first, then press Reveal a cell.");
      return;
    }
    var i = selected;
    var name = "r" + (Math.floor(i / size) + 1) + "c" + (i % size + 1);
    request(table.getAttribute("data-check-url"), { reveal: name }).then(function (data) {
      var before = copyState(state);
      state.values[i] = symbols.indexOf(data.revealed.digit) + 1;
      state.revealed[i] = 1;
      clearMarksAbout(i);
      say("", "", name + " is " + data.revealed.digit + ".");
      commit(before);
    }).catch(failed);
  }

  // ---- Start -------------------------------------------------------------------------
  if (solved) {
    say("solved", "Solved!", "You solved this one in " + words(elapsed) + ". Start over to play it again.");
  } else {
    startClock();
  }
  render();
  save();
  tick();
  window.setInterval(tick, 1000);
}

Array.prototype.forEach.call(document.querySelectorAll("table.play-grid"), setup);
