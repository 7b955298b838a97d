// Moving around a square grid with the keyboard: the one rule every grid of the site keeps
// (the solver's form, the play page and the jigsaw region painter).
//   - ArrowLeft / ArrowRight move one cell and run on into the previous / next row, from the
//     last cell round to the first (reading order, as typing moves on);
//   - ArrowUp / ArrowDown move one cell in the column, from the bottom round to the top;
//   - Home / End go to the row's ends, Ctrl+Home / Ctrl+End to the grid's.

// The cell `key` moves to from cell `index` of a size x size grid, or -1 when the key is not
// a move (the caller then leaves the key to whatever else it means).
export function moveFor(key, index, size, ctrl) {
  var count = size * size;
  var row = Math.floor(index / size), col = index % size;
  if (ctrl) {
    if (key === "Home") { return 0; }
    if (key === "End") { return count - 1; }
    return -1;
  }
  switch (key) {
    case "ArrowLeft": return (index + count - 1) % count;
    case "ArrowRight": return (index + 1) % count;
    case "ArrowUp": return ((row + size - 1) % size) * size + col;
    case "ArrowDown": return ((row + 1) % size) * size + col;
    case "Home": return row * size;
    case "End": return row * size + size - 1;
    default: return -1;
  }
}

// A roving tab stop over `cells` (elements in reading order): only the active one is in the
// Tab order. Returns {active(), focus(i), sync(i)}; sync marks a cell active without moving
// focus (for a click or a focus that came from elsewhere).
export function rovingFocus(cells, start) {
  var active = start || 0;
  cells.forEach(function (cell, i) { cell.tabIndex = i === active ? 0 : -1; });
  function sync(i) {
    if (i === active) { return; }
    cells[active].tabIndex = -1;
    active = i;
    cells[i].tabIndex = 0;
  }
  return {
    active: function () { return active; },
    sync: sync,
    focus: function (i) {
      sync(Math.max(0, Math.min(cells.length - 1, i)));
      cells[active].focus();
    }
  };
}
