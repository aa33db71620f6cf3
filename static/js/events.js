// The club night's page: its socket says when a table finished or a round was seated
// (docs/PROTOCOL.md, "Club nights"); the standings and tables are fetched again then.
const live = document.getElementById("event-live");
if (live) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let version = Number(live.dataset.version);
  const refresh = async () => {
    const response = await fetch(live.dataset.liveUrl, { credentials: "same-origin" });
    if (response.ok) live.innerHTML = await response.text();
  };
  const connect = () => {
    const socket = new WebSocket(`${scheme}://${location.host}/ws/events/${live.dataset.event}/`);
    socket.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "event" && frame.version !== version) {
        version = frame.version;
        refresh();
      }
    });
    socket.addEventListener("close", () => setTimeout(connect, 3000));
  };
  connect();
}
