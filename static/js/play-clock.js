// The play page's clock: its time in words and figures, and the running clock. Both count
// whole seconds the same way (down), so "Solved! ... 6 seconds" and the clock's 0:06 agree.

import { lang } from "./i18n.js";

// "1:02:03" or "2:03" for a duration in milliseconds.
export function duration(ms) {
  var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  var sec = s % 60;
  return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
}

// "1 hour 2 minutes 3 seconds" for the same duration, in the page's language: CLDR's unit
// names and plurals and its way of listing them (Intl.NumberFormat, Intl.ListFormat).
export function words(ms) {
  var s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
  var parts = [];
  if (h) { parts.push(unit(h, "hour")); }
  if (m % 60) { parts.push(unit(m % 60, "minute")); }
  if (s % 60 || !parts.length) { parts.push(unit(s % 60, "second")); }
  return new Intl.ListFormat(lang, { type: "unit", style: "narrow" }).format(parts);
}

function unit(n, name) {
  return new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "long" }).format(n);
}

// The running clock: `elapsed` ms counted so far, `since` when it last started (null while
// stopped). It runs while the page is visible and the puzzle unsolved (play-game.js says
// when).
export function clockFrom(elapsed) {
  return { elapsed: elapsed, since: null };
}

export function now(clock) {
  return clock.elapsed + (clock.since === null ? 0 : Date.now() - clock.since);
}

export function start(clock) {
  if (clock.since === null) { clock.since = Date.now(); }
}

export function stop(clock) {
  if (clock.since !== null) { clock.elapsed += Date.now() - clock.since; clock.since = null; }
}
