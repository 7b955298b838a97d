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

// The plural form for `n` (a placeholder %(num)s too). A catalog's plural forms follow the
// language's CLDR plural categories in CLDR's order (zero, one, two, few, many, other: Babel
// writes each catalog's Plural-Forms so); Intl.PluralRules says which category `n` is in.
var ORDER = ["zero", "one", "two", "few", "many", "other"];
var categories = plurals.resolvedOptions().pluralCategories.slice().sort(function (a, b) {
  return ORDER.indexOf(a) - ORDER.indexOf(b);
});

export function ngettext(singular, plural, n, values) {
  var all = Object.assign({ num: n }, values || {});
  var forms = messages[singular];
  if (Array.isArray(forms) && forms.length && forms.every(Boolean)) {
    var index = Math.min(Math.max(categories.indexOf(plurals.select(n)), 0), forms.length - 1);
    return fill(forms[index], all);
  }
  return fill(n === 1 ? singular : plural, all);
}
