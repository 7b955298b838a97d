// The play page's questions to the server (/api/check, /api/hint), and a check's answer in
// words. The page never holds the solution: a check names wrong cells, never their digits.

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
        throw new Error(data.message || first || "The server said no.");
      }
      return data;
    });
  });
}

function names(list) { return list.map(function (x) { return x.cell; }).join(", "); }

// [panel kind, heading, sentence] for a check's answer.
export function verdict(data, size) {
  var n = data.wrong.length;
  var symbol = size <= 9 ? "digit" : "symbol";
  if (data.kind === "solved") {
    return ["solved", "Solved!", "Every cell is right."];
  }
  if (data.kind === "wrong") {
    return ["wrong", "", n + (n === 1 ? " entry is" : " entries are") + " wrong: " +
      names(data.wrong) + " (marked in the grid)."];
  }
  if (data.kind === "marks") {
    return ["marks", "", "The pencil marks in " + names(data.wrong_marks) +
      " leave out the right " + symbol + " (marked in the grid)."];
  }
  return ["right", "", "Nothing is wrong so far: " + data.filled + " of " + data.cells +
    " cells are filled."];
}
