// The browser's time zone, for the server (club.i18n.MemberTimeZoneMiddleware): the
// times on later pages and in the member's mail are written in it.
// IANA names ("Europe/Rome", "America/Port-au-Prince") need no escaping in a cookie.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const cookie = "club_tz";
const current = document.cookie.split("; ").find((c) => c.startsWith(`${cookie}=`));
if (zone && current !== `${cookie}=${zone}`) {
  document.cookie = `${cookie}=${zone}; path=/; max-age=31536000; samesite=lax`;
}
