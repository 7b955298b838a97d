// sudoku-web: progressive enhancement only; every page works without its scripts. The entry
// module of every page (base.html); what it sets up lives in static/js/:
//   - js/form-grid.js: the form's grid (one Tab stop, js/grid-keys.js's moves, typing moves
//     on, pasting a whole puzzle fills it);
//   - js/form-memory.js: what was typed comes back after Back (sessionStorage);
//   - js/region-painter.js: the jigsaw form's regions painted with the mouse or the keyboard
//     (the region text field stays the source);
//   - js/copy-link.js: the "Copy link" button (hidden until shown here);
//   - js/fragment.js: the difficulty panel fetched into the page (an <iframe> without it);
//   - js/new-puzzle.js: the New puzzle form offers only the grades its variant has.
// The play page adds its own entry module, play.js.
import { setupGrid } from "./js/form-grid.js";
import { setupMemory } from "./js/form-memory.js";
import { setupPainter } from "./js/region-painter.js";
import { setupCopy } from "./js/copy-link.js";
import { setupFragment } from "./js/fragment.js";
import { setupNewPuzzle } from "./js/new-puzzle.js";

function each(selector, setup) {
  Array.prototype.forEach.call(document.querySelectorAll(selector), setup);
}

// Modules run after the document is parsed: no DOMContentLoaded wait needed.
each("table.grid.editable", setupGrid);
each("form.puzzle-form", setupMemory);
each("fieldset.regions", setupPainter);
each("button[data-copy]", setupCopy);
each("[data-fragment]", setupFragment);
each("form.new-puzzle", setupNewPuzzle);
