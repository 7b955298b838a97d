// The scripts' words in the page's language (<html lang>). A page in another language than
// English names its catalog on <html data-catalog> (/i18n/<lang>.json: every string the
// scripts mark with _() or ngettext(), translated from the site's gettext catalog); this
// module fetches it once, before any module that imports it runs, and falls back to the
// English source words when it cannot be had. Placeholders are named, as in the Python and
// template catalogs: _("Row %(row)s", { row: 4 }).
var root = document.documentElement;
export var lang = root.lang || "en";
var messages = {};
var url = root.getAttribute("data-catalog");
if (url && window.fetch) {
  try {
    var response = await fetch(url, { credentials: "same-origin" });
    if (response.ok) { messages = (await response.json()).messages || {}; }
  } catch (error) {
    messages = {};  // the English words: a page that cannot fetch its catalog still works
  }
}

var numbers = new Intl.NumberFormat(lang);
var plurals = new Intl.PluralRules(lang);

// `n` written as the page's language writes numbers (1,234 / 1.234 / 1 234).
export function number(n) {
  return numbers.format(n);
}

function fill(text, values) {
  if (!values) { return text; }
  return text.replace(/%\((\w+)\)s/g, function (whole, name) {
    var v = values[name];
    return v === undefined ? whole : typeof v === "number" ? number(v) : String(v);
  });
}

// `text` in the page's language, its %(name)s placeholders filled from `values`.
export function _(text, values) {
  var found = messages[text];
  return fill(typeof found === "string" && found ? found : text, values);
}

// The plural form for `n` (a placeholder %(num)s too). A catalog's plural forms are ordered
// as gettext's Plural-Forms of the four languages order them: the "one" form first, then the
// rest, one form for a language without plurals; CLDR's rules (Intl.PluralRules) say which.
export function ngettext(singular, plural, n, values) {
  var all = Object.assign({ num: n }, values || {});
  var forms = messages[singular];
  if (Array.isArray(forms) && forms.length && forms.every(Boolean)) {
    var one = plurals.select(n) === "one";
    return fill(one ? forms[0] : forms[forms.length - 1], all);
  }
  return fill(n === 1 ? singular : plural, all);
}
