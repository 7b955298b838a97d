// The difficulty panel is a page of its own (grading costs far more than solving); bring
// its #difficulty-panel into the result page, so it reads, prints and sizes as part of it.
// The slot's URL asks for the embedded page (?embed=1: headings under the slot's h2).
import { _ } from "./i18n.js";

export function setupFragment(slot) {
  var url = slot.getAttribute("data-fragment");
  if (!url || !window.fetch || !window.DOMParser) { return; }
  var waiting = document.createElement("p");
  waiting.className = "note";
  waiting.textContent = _("Working out the grades\u2026");
  slot.appendChild(waiting);
  function fallback() {
    var link = document.createElement("a");
    link.href = url.replace(/[?&]embed=1$/, "");  // the grades' own page, with the site's header
    link.textContent = _("See the grades");
    waiting.textContent = _("The grades could not be loaded here.") + " ";
    waiting.appendChild(link);
  }
  fetch(url, { credentials: "same-origin" }).then(function (response) {
    if (!response.ok) { throw new Error(String(response.status)); }
    return response.text();
  }).then(function (html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var panel = doc.getElementById("difficulty-panel");
    if (!panel) { throw new Error("no panel"); }
    slot.replaceChildren(document.importNode(panel, true));
  }).catch(fallback);
}
