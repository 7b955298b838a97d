// The play page's panel (#play-panel): always text, never markup from anywhere.
import { _ } from "./i18n.js";

// A heading (may be empty) and a sentence, the panel's look from `kind`.
export function sayIn(panel, kind, heading, text) {
  panel.className = "play-panel" + (kind ? " " + kind : "");
  panel.replaceChildren();
  if (heading) {
    var h = document.createElement("h2");
    h.textContent = heading;
    panel.appendChild(h);
  }
  var p = document.createElement("p");
  p.textContent = text;
  panel.appendChild(p);
}

// A hint: the technique and the cells first; the reasoning (which gives the symbol away)
// behind a <details>.
export function showHint(panel, last, steps, size) {
  panel.className = "play-panel next";
  panel.replaceChildren();
  var heading = document.createElement("h2");
  // The names as a sentence writes them (the answer's *_in_text: lower case where the
  // language writes them so), the same words the page says without JavaScript.
  heading.textContent = _("Next: %(technique)s at %(cells)s",
    { technique: last.technique_in_text, cells: last.cells.join(", ") });
  var p = document.createElement("p");
  p.textContent = (last.houses.length ? _("Look at %(houses)s", { houses: last.houses.join(_(" and ")) })
    : _("Look at the cells marked")) + ". " + _("The technique is %(grade)s.", { grade: last.grade_in_text });
  var details = document.createElement("details");
  var summary = document.createElement("summary");
  summary.textContent = size <= 9 ? _("Show the reasoning (gives the digit away)")
    : _("Show the reasoning (gives the symbol away)");
  var list = document.createElement("ol");
  steps.forEach(function (step) {
    var li = document.createElement("li");
    var strong = document.createElement("strong");
    strong.textContent = step.technique_name;
    li.appendChild(strong);
    li.appendChild(document.createTextNode(": " + step.sentence));
    list.appendChild(li);
  });
  details.appendChild(summary);
  details.appendChild(list);
  panel.appendChild(heading);
  panel.appendChild(p);
  panel.appendChild(details);
}
