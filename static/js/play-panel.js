// The play page's panel (#play-panel): always text, never markup from anywhere.

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
  heading.textContent = "Next: " + last.technique.toLowerCase() + " at " + last.cells.join(", ");
  var p = document.createElement("p");
  p.textContent = "Look at " + (last.houses.length ? last.houses.join(" and ") : "the cells marked") +
    ". The technique is " + last.grade.toLowerCase() + ".";
  var details = document.createElement("details");
  var summary = document.createElement("summary");
  summary.textContent = "Show the reasoning (gives the " + (size <= 9 ? "digit" : "symbol") + " away)";
  var list = document.createElement("ol");
  steps.forEach(function (step) {
    var li = document.createElement("li");
    var strong = document.createElement("strong");
    strong.textContent = step.technique;
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
