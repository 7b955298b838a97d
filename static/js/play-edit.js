// Changing the play page's grid: digits, pencil marks, erasing, undo and redo, starting over.
// Every change is undoable (the state before it goes on the undo stack), is drawn at once,
// saved in this browser, and said in a few words (a focused cell's new label is not always
// read out again). Filling the grid without a conflict solves the puzzle.
import { _ } from "./i18n.js";
import { now, words } from "./play-clock.js";
import { conflicts } from "./play-houses.js";
import { conflictAt, label, render, tick } from "./play-draw.js";
import {
  announce, clearFlags, locked, pauseClock, resumeClock, saveGame, say, symbolOf, valueAt
} from "./play-game.js";
import { copyState, emptyState } from "./play-store.js";

var HISTORY_LIMIT = 500;

export function commit(game, before) {
  game.undoStack.push(before);
  if (game.undoStack.length > HISTORY_LIMIT) { game.undoStack.shift(); }
  game.redoStack = [];
  settle(game);
}

// After any change: solved when every cell is filled without a conflict (the page is only
// offered for puzzles with exactly one solution, so that grid is the solution).
function settle(game) {
  var full = true;
  for (var i = 0; i < game.count; i++) { if (!valueAt(game, i)) { full = false; break; } }
  var bad = conflicts(game.houses, function (j) { return valueAt(game, j); });
  if (full && !Object.keys(bad).length) {
    if (!game.solved) {
      pauseClock(game);
      tick(game);  // the clock then shows the whole seconds the words below say
      game.solved = true;
      say(game, "solved", _("Solved!"),
        _("Every cell is right. Time taken: %(time)s.", { time: words(now(game.clock)) }));
    }
  } else if (game.solved) {
    game.solved = false;  // an undo after solving: play on
    resumeClock(game);
  }
  render(game);
  saveGame(game);
}

// A change to cell i forgets what a check or hint said about it.
export function clearMarksAbout(game, i) {
  delete game.wrong[i];
  delete game.wrongMarks[i];
  game.hintCells = {};
  game.hintHouses = {};
}

function setValue(game, i, value) {
  var state = game.state;
  if (locked(game, i) || (state.values[i] === value && !state.marks[i])) { return; }
  var before = copyState(state);
  state.values[i] = value;
  clearMarksAbout(game, i);
  commit(game, before);
  announce(game, label(game, i, conflictAt(game, i)));
}

function toggleMark(game, i, value) {
  var state = game.state;
  if (locked(game, i) || state.values[i]) { return; }
  var before = copyState(state);
  state.marks[i] ^= 1 << (value - 1);
  clearMarksAbout(game, i);
  commit(game, before);
  var on = state.marks[i] >> (value - 1) & 1;
  var mark = { symbol: symbolOf(game, value) };
  announce(game, on ? _("Pencil mark %(symbol)s added.", mark) : _("Pencil mark %(symbol)s removed.", mark));
}

export function erase(game, i) {
  var state = game.state;
  if (locked(game, i) || (!state.values[i] && !state.marks[i])) { return; }
  var before = copyState(state);
  if (state.values[i]) { state.values[i] = 0; } else { state.marks[i] = 0; }
  clearMarksAbout(game, i);
  commit(game, before);
  announce(game, _("Cleared."));
}

// Undo (back = true) or redo: the other stack keeps the state left behind.
export function travel(game, back) {
  var from = back ? game.undoStack : game.redoStack;
  var to = back ? game.redoStack : game.undoStack;
  if (!from.length) { return; }
  to.push(copyState(game.state));
  game.state = from.pop();
  game.wrong = {}; game.wrongMarks = {};
  settle(game);
  announce(game, back ? _("Undone.") : _("Redone."));
}

// A symbol typed or tapped into the selected cell: a digit, or a pencil mark.
export function enter(game, value, asMark) {
  if (game.solved) { return; }
  var i = game.selected;
  if (locked(game, i)) {
    announce(game, game.givens[i] ? _("That cell is a given.") : _("That cell was revealed."));
    return;
  }
  if (asMark || game.pencil) { toggleMark(game, i, value); } else { setValue(game, i, value); }
}

export function togglePencil(game) {
  game.pencil = !game.pencil;
  render(game);
}

export function restart(game) {
  var before = copyState(game.state);
  game.state = emptyState(game.count);
  clearFlags(game);
  game.solved = false;
  game.clock.elapsed = 0;
  game.clock.since = null;
  resumeClock(game);
  commit(game, before);
  say(game, "", "", _("Started over: every entry and pencil mark is cleared (Undo brings them back)."));
}
