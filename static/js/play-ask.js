// Asking the server about the play page's game: Check, Hint and Reveal post the person's
// digits and pencil marks to /api/check and /api/hint (the page never holds the solution; a
// check names wrong cells, never their digits; a reveal asks for one cell's digit).
import { _ } from "./i18n.js";
import { clearMarksAbout, commit } from "./play-edit.js";
import { render } from "./play-draw.js";
import { cellName, locked, markList, say, symbolOf, valueAt } from "./play-game.js";
import { showHint } from "./play-panel.js";
import { postJson, verdict } from "./play-server.js";
import { copyState } from "./play-store.js";

// Posts the game (the puzzle, the entries, the pencil marks of empty cells) and `extra`.
function request(game, url, extra) {
  var marks = {};
  for (var i = 0; i < game.count; i++) {
    if (!valueAt(game, i) && game.state.marks[i]) {
      marks[cellName(game, i)] = markList(game, i).join("");
    }
  }
  var body = {
    puzzle: game.puzzle,
    variant: game.variant,
    entries: game.state.values.map(function (v, i) {
      return symbolOf(game, valueAt(game, i)) || "0";
    }).join(""),
    marks: marks
  };
  if (game.regions) { body.regions = game.regions; }
  if (game.cages) { body.cages = game.cages; }
  if (game.rules) { body.rules = game.rules; }
  Object.keys(extra || {}).forEach(function (key) { body[key] = extra[key]; });
  return postJson(url, body);
}

function failer(game) {
  return function (error) {
    var why = error && error.message ? error.message : _("no answer");
    say(game, "error", "", _("Could not ask the server: %(why)s.", { why: why }));
  };
}

// True (and said) when the solver gave up on the puzzle within the request's bounds: the
// answer is a 200 with status "gave_up" and the server's words, and nothing to mark.
function gaveUp(game, data) {
  if (data.status !== "gave_up") { return false; }
  say(game, "error", "", data.message);
  return true;
}

function markWrong(game, data) {
  game.wrong = {}; game.wrongMarks = {};
  data.wrong.forEach(function (x) { game.wrong[x.index] = true; });
  data.wrong_marks.forEach(function (x) { game.wrongMarks[x.index] = true; });
  render(game);
}

function sayVerdict(game, data) {
  var v = verdict(data, game.size);
  say(game, v[0], v[1], v[2]);
}

export function askCheck(game) {
  request(game, game.table.getAttribute("data-check-url")).then(function (data) {
    if (gaveUp(game, data)) { return; }
    markWrong(game, data);
    sayVerdict(game, data);
  }).catch(failer(game));
}

export function askHint(game) {
  request(game, game.table.getAttribute("data-hint-url")).then(function (data) {
    if (gaveUp(game, data)) { return; }
    markWrong(game, data);
    if (data.kind !== "next" && data.kind !== "stuck") {
      sayVerdict(game, data);
      return;
    }
    game.hintCells = {}; game.hintHouses = {};
    var h = data.highlight || { cells: [], houses: [] };
    h.houses.forEach(function (i) { game.hintHouses[i] = true; });
    h.cells.forEach(function (i) { game.hintCells[i] = true; });
    render(game);
    if (data.kind === "stuck") {
      say(game, "stuck", _("Next: a guess"), _("None of the techniques this solver knows " +
        "applies here. The engine would guess at %(cell)s, the cell with the fewest candidates.",
        { cell: data.stuck.cell }));
      return;
    }
    showHint(game.panel, data.steps[data.steps.length - 1], data.steps, game.size);
  }).catch(failer(game));
}

export function reveal(game) {
  var i = game.selected;
  if (locked(game, i)) {
    say(game, "", "", _("Select an empty cell (or one of yours) first, then press Reveal a cell."));
    return;
  }
  var name = cellName(game, i);
  request(game, game.table.getAttribute("data-check-url"), { reveal: name }).then(function (data) {
    if (gaveUp(game, data)) { return; }
    var before = copyState(game.state);
    game.state.values[i] = game.symbols.indexOf(data.revealed.digit) + 1;
    game.state.revealed[i] = 1;
    clearMarksAbout(game, i);
    say(game, "", "", _("%(cell)s is %(symbol)s.", { cell: name, symbol: data.revealed.digit }));
    commit(game, before);
  }).catch(failer(game));
}
