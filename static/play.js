// sudoku-web: the play page (<share link>/play) as a game; the page's entry module. Without
// it the page is a plain form (Check and Hint post it); with it:
//   - the grid is one Tab stop, played by keyboard, pad or pointer (js/play-input.js);
//   - the selected cell's houses and every cell with the same symbol are highlighted, and
//     conflicts with givens or other entries are marked as they happen (js/play-draw.js);
//   - every change can be undone and redone (js/play-edit.js);
//   - Check and Hint ask /api/check and /api/hint, Reveal asks for one cell's digit
//     (js/play-ask.js);
//   - "Solved!" with the time taken once every cell is filled without a conflict;
//   - progress (digits, marks, time) is kept in localStorage under the puzzle's variant,
//     region map and givens (js/play-store.js); nothing is kept on the server.
// The game itself is one object (js/play-game.js) that those modules share.
import { _ } from "./js/i18n.js";
import { words } from "./js/play-clock.js";
import { render, tick } from "./js/play-draw.js";
import { listen } from "./js/play-input.js";
import {
  pauseClock, readGame, restore, resumeClock, saveGame, say
} from "./js/play-game.js";

function showControls(game) {
  if (game.pad) { game.pad.hidden = false; }
  var shown = document.querySelectorAll(".js-help, [data-action=reveal], [data-action=restart]");
  Array.prototype.forEach.call(shown, function (el) { el.hidden = false; });
  var hidden = document.querySelectorAll(".no-js-help");
  Array.prototype.forEach.call(hidden, function (el) { el.hidden = true; });
  if (game.clockBox) { game.clockBox.hidden = false; }
}

function setup(table) {
  var game = readGame(table);
  if (!game) { return; }
  restore(game);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { pauseClock(game); saveGame(game); } else { resumeClock(game); }
  });
  window.addEventListener("pagehide", function () { saveGame(game); });
  listen(game);
  showControls(game);
  if (game.solved) {
    say(game, "solved", _("Solved!"), _("You solved this one in %(time)s. Start over to play it again.",
      { time: words(game.clock.elapsed) }));
  } else {
    resumeClock(game);
  }
  render(game);
  saveGame(game);
  tick(game);
  window.setInterval(function () { tick(game); }, 1000);
}

Array.prototype.forEach.call(document.querySelectorAll("table.play-grid"), setup);
