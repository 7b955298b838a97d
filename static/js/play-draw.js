// Drawing the play page's game: each cell's classes, text, pencil marks and spoken label,
// the pad's pencil toggle, and the clock. Everything is drawn from the game object
// (play-game.js), so one render() after any change shows it.
import { _ } from "./i18n.js";
import { duration, now } from "./play-clock.js";
import { conflicts, peersOf } from "./play-houses.js";
import { markList, symbolOf, valueAt } from "./play-game.js";

// "Row 1, column 2: 7 (given)", "...: blank, pencil marks 1 3", with what a check found.
export function label(game, i, conflict) {
  var row = Math.floor(i / game.size) + 1, col = i % game.size + 1;
  var v = valueAt(game, i), m = markList(game, i), at = { row: row, col: col };
  var text = _("Row %(row)s, column %(col)s: blank", at);
  if (v) {
    at.symbol = symbolOf(game, v);
    text = game.givens[i] ? _("Row %(row)s, column %(col)s: %(symbol)s (given)", at)
      : game.state.revealed[i] ? _("Row %(row)s, column %(col)s: %(symbol)s (revealed)", at)
      : _("Row %(row)s, column %(col)s: %(symbol)s", at);
  } else if (m.length) {
    at.marks = m.join(" ");
    text = _("Row %(row)s, column %(col)s: blank, pencil marks %(marks)s", at);
  }
  // What a check found, each a clause of its own after the cell's words.
  if (conflict) { text += _(", conflicts with another cell"); }
  if (game.wrong[i]) { text += _(", wrong"); }
  if (game.wrongMarks[i]) { text += _(", pencil marks leave out the answer"); }
  return text;
}

// Whether cell i conflicts with a given or another entry.
export function conflictAt(game, i) {
  return conflicts(game.houses, function (j) { return valueAt(game, j); })[i];
}

export function render(game) {
  var bad = conflicts(game.houses, function (j) { return valueAt(game, j); });
  var near = peersOf(game.houses, game.houseOf, game.selected);
  var same = valueAt(game, game.selected);
  for (var i = 0; i < game.count; i++) {
    drawCell(game, i, { bad: bad, near: near, same: same });
  }
  if (game.pad) {
    var toggle = game.pad.querySelector("[data-action=pencil]");
    if (toggle) { toggle.setAttribute("aria-pressed", game.pencil ? "true" : "false"); }
  }
  game.table.classList.toggle("pencil-mode", game.pencil);
  game.table.classList.toggle("is-solved", game.solved);
}

// One cell: `around` holds the conflicts, the selected cell's peers and its symbol.
function drawCell(game, i, around) {
  var td = game.tds[i], view = game.views[i], v = valueAt(game, i), state = game.state;
  var selected = i === game.selected, same = around.same;
  td.classList.toggle("selected", selected);
  td.classList.toggle("peer", !selected && !!around.near[i]);
  td.classList.toggle("same", !!same && v === same);
  td.classList.toggle("conflict", !!around.bad[i]);
  td.classList.toggle("wrong", !!game.wrong[i]);
  td.classList.toggle("wrong-marks", !!game.wrongMarks[i]);
  td.classList.toggle("hint-cell", !!game.hintCells[i]);
  td.classList.toggle("hint-house", !!game.hintHouses[i]);
  td.tabIndex = selected ? 0 : -1;
  td.setAttribute("aria-selected", selected ? "true" : "false");
  td.setAttribute("aria-label", label(game, i, around.bad[i]));
  if (!view.value) { return; }
  td.classList.toggle("entry", !!state.values[i] && !state.revealed[i]);
  td.classList.toggle("revealed", !!state.revealed[i]);
  view.value.textContent = symbolOf(game, state.values[i]);
  var m = state.values[i] ? 0 : state.marks[i];
  for (var d = 0; d < game.size; d++) {
    var on = (m >> d & 1) === 1;
    view.marks[d].textContent = on ? symbolOf(game, d + 1) : "";
    view.marks[d].className = on && same === d + 1 ? "same" : "";
  }
  view.input.value = state.values[i] ? symbolOf(game, state.values[i]) : markList(game, i).join("");
}

export function tick(game) {
  if (game.clockText) { game.clockText.textContent = duration(now(game.clock)); }
}
