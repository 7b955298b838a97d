// What a key press means on the play page's grid (moves are js/grid-keys.js's).

// The symbol a key press means, and whether it notes a pencil mark. Shift changes
// event.key ("!" for Shift+1 on a US layout), so then the key's position decides; but a
// key that still reads as a digit is typed as one (layouts such as AZERTY need Shift for
// digits), and there the Pencil toggle notes marks.
export function keySymbol(event) {
  var key = event.key.length === 1 ? event.key.toUpperCase() : "";
  if (/^[0-9]$/.test(key) || !event.shiftKey) { return { ch: key, mark: false }; }
  var code = event.code || "";
  if (/^(Digit|Numpad)[0-9]$/.test(code) || /^Key[A-Z]$/.test(code)) {
    return { ch: code.slice(-1), mark: true };
  }
  return { ch: key, mark: true };
}
