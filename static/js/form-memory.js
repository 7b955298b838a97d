// Back after Solve: the browser may not restore what was typed (cells are autocomplete=off,
// to keep autofill lists out of the grid), so the form keeps it for this tab's session.
export function setupMemory(form) {
  var key = "sudoku-form:" + location.pathname + location.search;
  var fields = Array.prototype.slice.call(form.querySelectorAll("input.cell-input, textarea"));
  form.addEventListener("submit", function () {
    try {
      sessionStorage.setItem(key, JSON.stringify(fields.map(function (f) { return f.value; })));
    } catch (e) { /* storage off or full: nothing to restore then */ }
  });
  window.addEventListener("pageshow", function (event) {
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    if (!event.persisted && !(nav && nav.type === "back_forward")) { return; }
    if (fields.some(function (f) { return f.value !== "" && f.name !== "regions"; })) { return; }
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { saved = null; }
    if (!saved || saved.length !== fields.length) { return; }
    fields.forEach(function (f, i) { f.value = saved[i]; });
  });
}
