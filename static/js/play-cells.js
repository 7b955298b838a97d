// The play page's cells as the game draws them: a given stays as served; an open cell's text
// field becomes a hidden field (what the form posts) beside a value and the pencil marks'
// slots (aria-hidden: the cell's own label says it all).
import { emptyState } from "./play-store.js";

// A cell's text field turned into the hidden field the game writes: what the form posts
// stays the same, without a text field's attributes (a hidden input takes none of them).
function hide(input) {
  ["maxlength", "size", "inputmode", "autocomplete", "autocapitalize", "spellcheck",
    "aria-invalid"].forEach(function (name) { input.removeAttribute(name); });
  input.type = "hidden";
}

// Per cell {input, value, marks}: the hidden field, the value's span, one span per symbol.
export function cellViews(tds, givens, size) {
  return tds.map(function (td, i) {
    td.tabIndex = -1;
    var view = { input: null, value: null, marks: [] };
    if (!givens[i]) {
      view.input = td.querySelector("input");
      var label = td.querySelector("label");
      if (label) { label.remove(); }
      if (view.input) { hide(view.input); }
      view.value = document.createElement("span");
      view.value.className = "value";
      view.value.setAttribute("aria-hidden", "true");
      var box = document.createElement("span");
      box.className = "marks";
      box.setAttribute("aria-hidden", "true");
      for (var d = 0; d < size; d++) {
        var mark = document.createElement("span");
        box.appendChild(mark);
        view.marks.push(mark);
      }
      td.appendChild(view.value);
      td.appendChild(box);
    }
    return view;
  });
}

// The game a form posted without JavaScript drew (one symbol: a value; several: pencil
// marks), or null when nothing was posted.
export function readPosted(views, symbols) {
  var s = emptyState(views.length), any = false;
  views.forEach(function (view, i) {
    if (!view.input || !view.input.value) { return; }
    var text = view.input.value.toUpperCase();
    any = true;
    if (text.length === 1) {
      s.values[i] = symbols.indexOf(text) + 1;
    } else {
      for (var k = 0; k < text.length; k++) {
        var v = symbols.indexOf(text.charAt(k)) + 1;
        if (v) { s.marks[i] |= 1 << (v - 1); }
      }
    }
  });
  return any ? s : null;
}

// The first cell without a given (where the selection starts), or 0.
export function firstOpen(givens) {
  for (var i = 0; i < givens.length; i++) { if (!givens[i]) { return i; } }
  return 0;
}
