// The browser's time zone, for the server (club.i18n.MemberTimeZoneMiddleware): the
// times on later pages and in the member's mail are written in it.
// IANA names ("Europe/Rome", "America/Port-au-Prince") need no escaping in a cookie.
// Temporal answers at once; Intl.DateTimeFormat, where there is no Temporal, first
// loads the browser's locale data: 15-45 ms of a page's first script on a desktop
// (docs/PERFORMANCE.md, "Lighthouse audit").
const zone =
  globalThis.Temporal?.Now?.timeZoneId?.() || Intl.DateTimeFormat().resolvedOptions().timeZone;
const cookie = "club_tz";
const current = document.cookie.split("; ").find((c) => c.startsWith(`${cookie}=`));
if (zone && current !== `${cookie}=${zone}`) {
  document.cookie = `${cookie}=${zone}; path=/; max-age=31536000; samesite=lax`;
}
