// A member's home page: fetch "your tables" again whenever the lobby socket says
// a table changed (the lobby's lists, or one of this member's own tables).
const mine = document.getElementById("my-tables");
let pending = null;
let reconnecting = false;

async function refresh() {
  pending = null;
  const response = await fetch(mine.dataset.src, { headers: { "X-Requested-With": "fetch" } });
  if (response.status !== 200) return; // 204: signed out meanwhile; keep what is shown
  const html = await response.text();
  // Replace only when something changed: a screen reader hears real changes only.
  if (html.trim() !== mine.innerHTML.trim()) mine.innerHTML = html;
}

function later() {
  // A bot's few quick moves come as a burst: fetch once after it.
  if (pending === null) pending = setTimeout(refresh, 250);
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  // On (re)connecting: whatever changed while the socket was closed.
  socket.addEventListener("open", () => {
    delay = 500;
    later();
    if (reconnecting) document.dispatchEvent(new CustomEvent("club:lobby-reconnected")); // the bell
    reconnecting = true;
  });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "lobby" || frame.type === "tables") later();
    else document.dispatchEvent(new CustomEvent("club:lobby-frame", { detail: frame })); // the bell
  });
  socket.addEventListener("close", () => setTimeout(() => connect(Math.min(delay * 2, 10000)), delay));
}

if (mine) {
  document.documentElement.dataset.lobbySocket = "page"; // the bell (bell.js) listens to this one
  connect();
}
