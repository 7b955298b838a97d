// The play page's houses (rows, columns, boxes or regions, diagonals, windows: whatever the
// server's geometry says, in the grid's data-houses) and what follows from them.

// "0 1 2;9 10 11;..." -> [[0, 1, 2], [9, 10, 11], ...]
export function readHouses(text) {
  return text.split(";").map(function (house) {
    return house.split(" ").map(function (cell) { return parseInt(cell, 10); });
  });
}

// Per cell: the indexes of the houses it belongs to.
export function housesOfCells(houses, count) {
  var out = [];
  for (var c = 0; c < count; c++) { out.push([]); }
  houses.forEach(function (house, h) {
    house.forEach(function (cell) { out[cell].push(h); });
  });
  return out;
}

// The cells holding a value that another cell of one of their houses holds too ({cell: true}).
export function conflicts(houses, valueAt) {
  var bad = {};
  houses.forEach(function (house) {
    var seen = {};
    house.forEach(function (cell) {
      var v = valueAt(cell);
      if (!v) { return; }
      if (seen[v] !== undefined) { bad[cell] = true; bad[seen[v]] = true; } else { seen[v] = cell; }
    });
  });
  return bad;
}

// Cell i and every cell sharing a house with it ({cell: true}).
export function peersOf(houses, houseOf, i) {
  var out = {};
  houseOf[i].forEach(function (h) { houses[h].forEach(function (cell) { out[cell] = true; }); });
  return out;
}
