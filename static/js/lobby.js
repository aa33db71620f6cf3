// Lobby: refetch the server-rendered table lists whenever the server says they changed.
const lists = document.getElementById("table-lists");

async function refresh() {
  const response = await fetch(lists.dataset.src, { headers: { "X-Requested-With": "fetch" } });
  if (response.ok) lists.innerHTML = await response.text();
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => { delay = 500; refresh(); });
  socket.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "lobby") refresh();
  });
  socket.addEventListener("close", () => setTimeout(() => connect(Math.min(delay * 2, 10000)), delay));
}

if (lists) connect();
