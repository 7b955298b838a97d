// The play page's keys and clicks: the grid is one Tab stop (a roving focus over the cells,
// moved by grid-keys.js's rule, the solver form's too); a symbol fills the selected cell,
// Shift+symbol (or the Pencil toggle, or P) notes a pencil mark; Backspace, Delete, Space, 0
// and . clear; Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes; the pad and the form's
// buttons do the same by click or tap.
import { _ } from "./i18n.js";
import { moveFor } from "./grid-keys.js";
import { keySymbol } from "./play-keys.js";
import { askCheck, askHint, reveal } from "./play-ask.js";
import { render } from "./play-draw.js";
import { enter, erase, restart, togglePencil, travel } from "./play-edit.js";
import { announce } from "./play-game.js";

function select(game, i, focus) {
  game.selected = (i + game.count) % game.count;
  render(game);
  if (focus) { game.tds[game.selected].focus(); }
}

// A key on the grid; true when it was the game's (its default is then prevented).
function gridKey(game, event) {
  if (event.ctrlKey) {  // Ctrl+Home/End move; Ctrl+Z/Y undo and redo (undoKeys)
    var end = moveFor(event.key, game.selected, game.size, true);
    if (end >= 0) { select(game, end, true); }
    return end >= 0;
  }
  var to = moveFor(event.key, game.selected, game.size, false);
  if (to >= 0) {
    select(game, to, true);
    return true;
  }
  switch (event.key) {
    case "Backspace": case "Delete": case " ": case ".": case "0":
      erase(game, game.selected);
      return true;
    default:
      var typed = keySymbol(event);
      var value = typed.ch ? game.symbols.indexOf(typed.ch) + 1 : 0;
      if (value) {
        enter(game, value, typed.mark);
      } else if (typed.ch === "P" && !typed.mark) {
        togglePencil(game);
        announce(game, game.pencil ? _("Pencil on: symbols note pencil marks.") : _("Pencil off."));
      } else {
        return false;  // Tab and everything else keep their meaning
      }
      return true;
  }
}

function undoKeys(game, event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) { return; }
  var key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) {
    travel(game, true);
  } else if (key === "y" || (key === "z" && event.shiftKey)) {
    travel(game, false);
  } else {
    return;
  }
  event.preventDefault();
}

function padClick(game, event) {
  var button = event.target.closest("button");
  if (!button) { return; }
  var symbol = button.getAttribute("data-symbol");
  var action = button.getAttribute("data-action");
  if (symbol) { enter(game, game.symbols.indexOf(symbol) + 1, false); }
  else if (action === "pencil") { togglePencil(game); }
  else if (action === "erase") { erase(game, game.selected); }
  else if (action === "undo") { travel(game, true); }
  else if (action === "redo") { travel(game, false); }
  // A tap or click goes back to the grid; the keyboard stays on the pad.
  if (event.detail > 0) { game.tds[game.selected].focus(); }
}

function formClick(game, event) {
  var button = event.target.closest("button");
  if (!button || button.closest(".pad")) { return; }
  var action = button.getAttribute("data-action");
  if (action === "reveal") { reveal(game); }
  if (action === "restart") { restart(game); }
  // After a click or tap the next digit typed still goes to the grid (the keyboard, and
  // screen readers, stay on the button: they hear the answer in the panel).
  if (event.detail > 0) { game.tds[game.selected].focus(); }
}

export function listen(game) {
  game.table.addEventListener("click", function (event) {
    var td = event.target.closest("td[data-cell]");
    if (td) { select(game, parseInt(td.getAttribute("data-cell"), 10), true); }
  });
  game.table.addEventListener("keydown", function (event) {
    if (event.altKey || event.metaKey) { return; }
    if (gridKey(game, event)) { event.preventDefault(); }
  });
  document.addEventListener("keydown", function (event) { undoKeys(game, event); });
  if (game.pad) {
    game.pad.addEventListener("click", function (event) { padClick(game, event); });
  }
  game.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var action = event.submitter && event.submitter.value;
    if (action === "hint") { askHint(game); } else { askCheck(game); }
  });
  game.form.addEventListener("click", function (event) { formClick(game, event); });
}
