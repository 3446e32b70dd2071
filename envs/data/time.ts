// A date in a data file, read the same on every machine: a time without a zone is UTC, never the zone of the machine
// that reads it (JavaScript's Date.parse reads "2024-03-04T09:00:00" as local time, so one dataset gave different
// clocks on different machines). An explicit zone ("Z", "+02:00", "GMT", "EST") is kept.

/** Session times programs and reports can use: the years 1 to 9999 (a retrieve a day after the last stays a date). */
const EARLIEST_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

const ISO = /^((?:[+-]\d{6}|\d{4})-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const NAMED_ZONE = /(?:\b(?:UTC|GMT|UT|Z)\b|\dZ$|[+-]\d{4}\b|\b[ECMPA][SD]T\b)/i;

/** Milliseconds since the epoch of a date string; NaN when it is not one. */
export function parseUtc(text: string): number {
  const t = text.trim();
  const iso = ISO.exec(t);
  if (iso) return Date.parse(`${iso[1]}T${iso[2] ?? '00:00'}${iso[3] ?? 'Z'}`);
  return NAMED_ZONE.test(t) ? Date.parse(t) : Date.parse(`${t} UTC`);
}

/** A session's or a question's time as ms since the epoch, or why it cannot be one. */
export function parseTime(t: string | number): number | 'not a date' | 'out of range' {
  const ms = typeof t === 'number' ? t : parseUtc(t);
  if (!Number.isFinite(ms)) return 'not a date';
  return ms < EARLIEST_TIME || ms > LATEST_TIME ? 'out of range' : ms;
}
