// The play page's game in the browser: one object holding what the grid's table says (size,
// givens, symbols, houses, the puzzle as the server spells it) and what the person has done
// (digits and pencil marks with their undo history, the selected cell, pencil mode, the
// cells a check or hint marked, the clock, solved). play-draw.js draws it, play-edit.js
// changes it, play-ask.js asks the server about it, play-input.js reads keys and clicks.
import { clockFrom, now, start, stop } from "./play-clock.js";
import { housesOfCells, readHouses } from "./play-houses.js";
import { cellViews, firstOpen, readPosted } from "./play-cells.js";
import { sayIn } from "./play-panel.js";
import { emptyState, load, save, storeKey } from "./play-store.js";

// The game of a play grid's table, or null when the table does not describe one.
export function readGame(table) {
  var size = parseInt(table.getAttribute("data-size"), 10);
  var puzzle = table.getAttribute("data-puzzle") || "";
  var symbols = table.getAttribute("data-symbols") || "";  // the board's, from the server
  var count = size * size;
  if (!size || puzzle.length !== count || symbols.length !== size) { return null; }
  var tds = new Array(count);
  Array.prototype.forEach.call(table.querySelectorAll("td[data-cell]"), function (td) {
    tds[parseInt(td.getAttribute("data-cell"), 10)] = td;
  });
  var houses = readHouses(table.getAttribute("data-houses") || "");
  var givens = [];
  for (var g = 0; g < count; g++) { givens.push(symbols.indexOf(puzzle.charAt(g)) + 1); }
  var game = {
    table: table, form: table.closest("form"), tds: tds, size: size, count: count,
    symbols: symbols, givens: givens, houses: houses, houseOf: housesOfCells(houses, count),
    // the puzzle as the server spells it, for /api/check and /api/hint
    puzzle: puzzle,
    variant: table.getAttribute("data-variant") || "",
    regions: table.getAttribute("data-regions") || "",
    cages: table.getAttribute("data-cages") || "",  // a killer's, in their link spelling
    rules: table.getAttribute("data-rules") || "",  // a board's rules, in their link spelling
    panel: document.getElementById("play-panel"),
    pad: document.querySelector(".pad"),
    clockBox: document.querySelector(".play-clock"),
    clockText: document.querySelector(".play-clock .play-time"),
    state: emptyState(count), undoStack: [], redoStack: [],
    selected: firstOpen(givens), pencil: false, solved: false, clock: clockFrom(0),
    notes: null, views: null
  };
  game.storage = storeKey(game.variant, game.regions, puzzle, game.cages, game.rules);
  clearFlags(game);
  return game;
}

// The cells drawn for the game, and its progress: what the server drew (a form posted
// without JavaScript) wins over what this browser stored.
export function restore(game) {
  game.table.setAttribute("role", "grid");
  game.views = cellViews(game.tds, game.givens, game.size);
  game.notes = document.createElement("p");
  game.notes.className = "visually-hidden";
  game.notes.setAttribute("aria-live", "polite");
  game.table.parentNode.insertBefore(game.notes, game.table.nextSibling);
  var posted = readPosted(game.views, game.symbols);
  var stored = load(game.storage, game.givens, game.symbols);
  if (stored) {
    game.clock = clockFrom(stored.elapsed || 0);
    game.solved = !!stored.solved;
    if (!posted) { game.state = stored.state; }
  }
  if (posted) { game.state = posted; game.solved = false; }
}

// The marks a check or a hint left on cells (wrong digits, wrong pencil marks, the hint's).
export function clearFlags(game) {
  game.wrong = {}; game.wrongMarks = {}; game.hintCells = {}; game.hintHouses = {};
}

export function valueAt(game, i) { return game.givens[i] || game.state.values[i]; }
export function locked(game, i) { return game.givens[i] > 0 || game.state.revealed[i] > 0; }
export function symbolOf(game, value) { return value ? game.symbols.charAt(value - 1) : ""; }

// A cell's pencil marks, as symbols in order.
export function markList(game, i) {
  var out = [];
  for (var d = 1; d <= game.size; d++) {
    if (game.state.marks[i] >> (d - 1) & 1) { out.push(symbolOf(game, d)); }
  }
  return out;
}

// The name the server gives a cell: r1c1.
export function cellName(game, i) {
  return "r" + (Math.floor(i / game.size) + 1) + "c" + (i % game.size + 1);
}

export function saveGame(game) {
  save(game.storage, game.state, game.symbols, now(game.clock), game.solved);
}

// The clock runs while the page is visible and the puzzle unsolved.
export function resumeClock(game) { if (!game.solved) { start(game.clock); } }
export function pauseClock(game) { stop(game.clock); }

export function say(game, kind, heading, text) { sayIn(game.panel, kind, heading, text); }

// Short notes (a cell's new value, undone, pencil on) for screen readers, without replacing
// the panel (a live region made with the cells, so it is there before it speaks).
export function announce(game, text) { game.notes.textContent = text; }
