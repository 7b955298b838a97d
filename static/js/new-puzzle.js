// The New puzzle form: while a variant is picked, the Difficulty list holds only the grades
// that variant has (each variant option's data-grades, from the server's pool); a grade
// picked before stays picked when the new variant has it, else the nearest one it has.
export function setupNewPuzzle(form) {
  var kind = form.querySelector("select[name=v]");
  var grade = form.querySelector("select[name=grade]");
  if (!kind || !grade) { return; }
  var all = Array.prototype.slice.call(grade.options);

  function offer() {
    var picked = kind.options[kind.selectedIndex];
    var have = (picked && picked.getAttribute("data-grades") || "").split(" ");
    var wanted = all.findIndex(function (o) { return o.value === grade.value; });
    var keep = all.filter(function (o) { return have.indexOf(o.value) >= 0; });
    if (!keep.length) { return; }
    grade.replaceChildren.apply(grade, keep);
    var nearest = keep[0];
    keep.forEach(function (o) { if (all.indexOf(o) <= wanted) { nearest = o; } });
    grade.value = nearest.value;
  }

  kind.addEventListener("change", offer);
  offer();
}
