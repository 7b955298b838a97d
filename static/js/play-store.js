// The play page's progress in this browser (localStorage), under a key naming the puzzle
// (variant, region map, givens, a killer's cages, a board's rules): digits, pencil marks,
// revealed cells, time, solved.
var STORE_PREFIX = "sudoku-web/play/";

export function storeKey(variant, regions, puzzle, cages, rules) {
  return STORE_PREFIX + variant + "/" + (regions || "-") + "/" + puzzle +
    (cages ? "/" + cages : "") +  // killers with no givens differ only by their cages
    (rules ? "/rules/" + rules : "");  // and boards with rules by their rules
}

// The stored game for `givens` (values 1..size, 0 blank) as {state, elapsed, solved}, or
// null when there is none (or storage is off, or what is there does not fit this puzzle).
export function load(key, givens, symbols) {
  var count = givens.length, size = symbols.length;
  try {
    var data = JSON.parse(window.localStorage.getItem(key) || "null");
    if (!data || typeof data.values !== "string" || data.values.length !== count) {
      return null;
    }
    var s = emptyState(count);
    for (var i = 0; i < count; i++) {
      if (givens[i]) { continue; }
      s.values[i] = symbols.indexOf(data.values.charAt(i)) + 1;
      var m = data.marks && data.marks[i];
      s.marks[i] = typeof m === "number" ? m & ((1 << size) - 1) : 0;
    }
    (data.revealed || []).forEach(function (i) {
      if (i >= 0 && i < count && !givens[i]) { s.revealed[i] = 1; }
    });
    return { state: s, elapsed: +data.elapsed || 0, solved: !!data.solved };
  } catch (e) {
    return null;  // storage off (private mode) or damaged: start afresh
  }
}

export function save(key, state, symbols, elapsed, solved) {
  var revealed = [];
  state.revealed.forEach(function (r, i) { if (r) { revealed.push(i); } });
  var data = {
    values: state.values.map(function (v) { return v ? symbols.charAt(v - 1) : "0"; }).join(""),
    marks: state.marks,
    revealed: revealed,
    elapsed: elapsed,
    solved: solved
  };
  try { window.localStorage.setItem(key, JSON.stringify(data)); } catch (e) { /* full or off */ }
}

// A game with nothing written: per cell a value (0 blank), a pencil-mark bit set, revealed.
export function emptyState(count) {
  var zeros = [];
  for (var i = 0; i < count; i++) { zeros.push(0); }
  return { values: zeros.slice(), marks: zeros.slice(), revealed: zeros.slice() };
}

export function copyState(s) {
  return { values: s.values.slice(), marks: s.marks.slice(), revealed: s.revealed.slice() };
}
