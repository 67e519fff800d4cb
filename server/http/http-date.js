'use strict';
// HTTP-date (RFC 9110 section 5.6.7): IMF-fixdate and the two obsolete forms a recipient must
// still accept. Date.parse() is not used: it takes "2024", "1" or a list of dates and a
// precondition built on such a value would be evaluated when the RFC says to ignore it.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

// Milliseconds since the epoch, or null when the value is not exactly one HTTP-date.
// nowYear: for the two-digit year of rfc850-date (a year more than 50 years ahead is the
// past century's).
function parseHttpDate(value, nowYear) {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  let m = IMF_FIXDATE.exec(v);
  if (m) return build(+m[3], m[2], +m[1], m[4], m[5], m[6]);
  m = RFC850.exec(v);
  if (m) {
    // Only here: a Date per call for every request without the header was measurable.
    nowYear ??= new Date().getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    return build(year, m[2], +m[1], m[4], m[5], m[6]);
  }
  m = ASCTIME.exec(v);
  if (m) return build(+m[6], m[1], Number(m[2].trim()), m[3], m[4], m[5]);
  return null;
}

function build(year, monthName, day, hh, mm, ss) {
  const month = MONTHS.indexOf(monthName);
  const [h, min, s] = [Number(hh), Number(mm), Number(ss)];
  if (h > 23 || min > 59 || s > 60) return null;
  const ms = Date.UTC(year, month, day, h, min, Math.min(s, 59));
  // Rejects 31 Feb and similar: Date.UTC would roll them into the next month.
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms;
}

module.exports = { parseHttpDate };
