// The play page's questions to the server (/api/check, /api/hint), and a check's answer in
// words. The page never holds the solution: a check names wrong cells, never their digits.
import { _, ngettext } from "./i18n.js";

// POST `body` as JSON; resolves to the answer's JSON, rejects with the server's own message.
export function postJson(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body)
  }).then(function (response) {
    return response.json().then(function (data) {
      if (!response.ok) {
        var first = data.errors && data.errors[0] && data.errors[0].message;
        throw new Error(data.message || first || _("The server said no."));
      }
      return data;
    });
  });
}

function names(list) { return list.map(function (x) { return x.cell; }).join(", "); }

// [panel kind, heading, sentence] for a check's answer.
export function verdict(data, size) {
  if (data.kind === "solved") {
    return ["solved", _("Solved!"), _("Every cell is right.")];
  }
  if (data.kind === "wrong") {
    return ["wrong", "", ngettext("%(num)s entry is wrong: %(cells)s (marked in the grid).",
      "%(num)s entries are wrong: %(cells)s (marked in the grid).", data.wrong.length,
      { cells: names(data.wrong) })];
  }
  if (data.kind === "marks") {
    var at = { cells: names(data.wrong_marks) };
    return ["marks", "", size <= 9
      ? _("The pencil marks in %(cells)s leave out the right digit (marked in the grid).", at)
      : _("The pencil marks in %(cells)s leave out the right symbol (marked in the grid).", at)];
  }
  return ["right", "", ngettext("Nothing is wrong so far: %(filled)s of %(num)s cell is filled.",
    "Nothing is wrong so far: %(filled)s of %(num)s cells are filled.", data.cells,
    { filled: data.filled })];
}
