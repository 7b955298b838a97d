// "Read a photo" without leaving the page: the chosen photo goes to POST /api/read, and what
// comes back fills the puzzle form's grid, with the cells to check marked (class "doubtful",
// "check this cell" in their labels, described by the #photo-check note). Nothing is solved:
// the person checks the grid and presses Solve. Without JavaScript the same form posts to
// /read and the server draws the same page (templates/index.html).

import { _ } from "./js/i18n.js";

const form = document.querySelector("form.photo-form");
const grid = document.querySelector("form.puzzle-form table.grid");
const note = document.getElementById("photo-check");

function cellIndex(name) {
  // "r3c4" -> 21 (9x9: the reader reads classic grids only)
  const match = /^r(\d+)c(\d+)$/.exec(name);
  return match ? (Number(match[1]) - 1) * 9 + Number(match[2]) - 1 : -1;
}

function showNote(heading, lines, problem) {
  note.replaceChildren();
  const h2 = document.createElement("h2");
  h2.textContent = heading;
  note.append(h2);
  for (const line of lines) {
    const p = document.createElement("p");
    p.textContent = line;
    note.append(p);
  }
  note.classList.toggle("problems", problem);
  note.setAttribute("role", problem ? "alert" : "status");
  note.hidden = false;
}

function clearMarks(inputs) {
  inputs.forEach((input) => {
    const cell = input.closest("td");
    cell.classList.remove("doubtful");
    input.removeAttribute("aria-describedby");
    const label = cell.querySelector("label");
    if (label && label.dataset.photo) {
      label.textContent = label.dataset.photo;
      delete label.dataset.photo;
    }
  });
}

function fill(body) {
  const inputs = Array.from(grid.querySelectorAll("input.cell-input"));
  clearMarks(inputs);
  Array.from(body.puzzle).forEach((ch, i) => {
    if (inputs[i]) { inputs[i].value = ch === "0" ? "" : ch; }
  });
  const doubtful = new Set(body.uncertain.concat(body.changed).map(cellIndex));
  doubtful.forEach((i) => {
    const input = inputs[i];
    if (!input) { return; }
    const cell = input.closest("td");
    cell.classList.add("doubtful");
    input.setAttribute("aria-describedby", "photo-check");
    const label = cell.querySelector("label");
    if (label) {
      label.dataset.photo = label.textContent;
      label.textContent = label.textContent + _(", check this cell");  // as _grid.html says it
    }
  });
  // The grid is what Solve sends; an older paste would only confuse.
  const paste = document.querySelector("form.puzzle-form textarea[name=paste]");
  if (paste) { paste.value = ""; }
}

async function read(status) {
  const input = form.querySelector("input[type=file]");
  if (!input.files || !input.files.length) { return; }
  const file = input.files[0];
  if (file.size > Number(form.dataset.maxBytes)) {
    // Said here (in the server's words), before a phone uploads megabytes to hear the same.
    showNote(_("The photo was not read"), [form.dataset.tooLarge], true);
    return;
  }
  const data = new FormData();
  data.append("photo", file);
  status.textContent = _("Reading the photo…");
  let response;
  let body;
  try {
    response = await fetch(form.dataset.api, { method: "POST", body: data });
    body = await response.json();
  } catch (error) {
    status.textContent = "";
    showNote(_("The photo was not read"), [_("The server could not be reached; try again.")], true);
    return;
  }
  status.textContent = "";
  if (response.ok && body.status === "read") {
    fill(body);
    showNote(_("Read from your photo"), body.notes, false);
  } else {
    showNote(_("The photo was not read"), [body.message || _("Try another photo.")], true);
  }
  note.scrollIntoView({ block: "nearest" });
}

if (form && grid && note) {
  const status = form.querySelector(".photo-status");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    read(status);
  });
  // Choosing the photo is enough; the button stays for choosing the same one again.
  form.querySelector("input[type=file]").addEventListener("change", () => read(status));
}
