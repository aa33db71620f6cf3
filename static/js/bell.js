// The header's bell: the member's unread notifications, kept current by the lobby
// socket's "notifications" frame (docs/PROTOCOL.md). A page that has its own lobby
// socket (home, lobby) hands its frames over as "club:lobby-frame" events and marks
// <html data-lobby-socket> (and "club:lobby-reconnected" when theirs opens again);
// elsewhere the bell opens one itself.
// The count is shown twice: on the bell and on the phone's menu button (base.html), so a
// phone shows it with the menu closed; the button's screen-reader words say what it counts.
const bell = document.querySelector("[data-bell]");
const counts = document.querySelectorAll("[data-bell-count]");
const words = document.querySelectorAll("[data-bell-words]");

function show(unread) {
  if (!bell || typeof unread !== "number") return;
  for (const count of counts) {
    count.textContent = String(unread);
    count.hidden = unread === 0;
  }
  const said = unread
    ? interpolate(ngettext("%(counter)s unread notification", "%(counter)s unread notifications", unread), { counter: unread }, true)
    : "";
  for (const word of words) word.textContent = said;
  bell.classList.toggle("has-unread", unread > 0);
}

// The page came with a count: the button's words say it too.
if (counts.length) show(Number(counts[0].textContent) || 0);

function onFrame(frame) {
  if (frame && frame.type === "notifications") show(frame.unread);
}

document.addEventListener("club:lobby-frame", (event) => onFrame(event.detail));

// After a reconnection: the count may have changed while the socket was closed.
async function catchUp() {
  const response = await fetch(bell.dataset.src, { headers: { "X-Requested-With": "fetch" } });
  if (response.ok) show((await response.json()).unread);
}

document.addEventListener("club:lobby-reconnected", () => catchUp().catch(() => {}));

function connect(delay = 1000, again = false) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => {
    delay = 1000;
    if (again) catchUp().catch(() => {});
  });
  socket.addEventListener("message", (event) => {
    try { onFrame(JSON.parse(event.data)); } catch { /* not ours */ }
  });
  socket.addEventListener("close", (event) => {
    // Too many sockets (4008-ish codes from the server's limits): stay quiet, the
    // count is right again on the next page.
    if (event.code >= 4400 && event.code < 4500) return;
    setTimeout(() => connect(Math.min(delay * 2, 30000), true), delay);
  });
}

// Module scripts run before DOMContentLoaded: by then every page script has said
// whether it has a lobby socket of its own.
if (bell) {
  document.addEventListener("DOMContentLoaded", () => {
    if (!document.documentElement.dataset.lobbySocket) connect();
  });
}
