// Lobby: refetch the server-rendered table lists whenever the server says they changed,
// and the club's chat room over the same socket (./chat.js).
import { createChat } from "./chat.js";

const lists = document.getElementById("table-lists");
const chatPanel = document.querySelector("[data-chat]");
let socket = null;
let reconnecting = false;
const chat = createChat(chatPanel, {
  send: (frame) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  },
});

async function refresh() {
  const response = await fetch(lists.dataset.src, { headers: { "X-Requested-With": "fetch" } });
  if (response.ok) lists.innerHTML = await response.text();
}

let pending = null;
function later() {
  // A bot's few quick moves come as a burst: fetch once after it.
  if (pending === null) {
    pending = setTimeout(() => {
      pending = null;
      refresh();
    }, 250);
  }
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = chatPanel?.dataset.player ? "?chat=1" : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/${query}`);
  socket.addEventListener("open", () => {
    delay = 500;
    refresh();
    if (reconnecting) document.dispatchEvent(new CustomEvent("club:lobby-reconnected")); // the bell
    reconnecting = true;
  });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    // "tables": one of the reader's own tables changed (a move: whose turn it is).
    if (frame.type === "lobby" || frame.type === "tables") later();
    else if (frame.type === "notifications") {
      document.dispatchEvent(new CustomEvent("club:lobby-frame", { detail: frame })); // the bell
    } else chat.onFrame(frame);
  });
  socket.addEventListener("close", () => chat.closed());
  socket.addEventListener("close", () => setTimeout(() => connect(Math.min(delay * 2, 10000)), delay));
}

if (lists) {
  document.documentElement.dataset.lobbySocket = "page"; // the bell (bell.js) listens to this one
  connect();
}

// The create form: offer only the chosen game's series, and show its rules.
const form = document.querySelector("[data-testid=create-table]");
if (form) {
  const game = form.querySelector("select[name=variant]");
  const series = form.querySelector("select[name=series]");
  const pace = form.querySelector("select[name=pace]");
  const chosen = () => {
    for (const option of series.options) {
      const fits = !option.dataset.variant || option.dataset.variant === game.value;
      option.hidden = !fits;
      option.disabled = !fits;
    }
    if (series.selectedOptions[0]?.disabled) series.value = "";
    for (const rules of document.querySelectorAll("[data-variant-rules]")) {
      rules.hidden = rules.dataset.variantRules !== game.value;
    }
    // The clock line says the chosen pace (a turn-based table runs no clock of seconds).
    const chosenPace = pace?.value || "live";
    for (const line of document.querySelectorAll("[data-pace-rule]")) {
      line.hidden = line.dataset.paceRule !== chosenPace;
    }
  };
  game.addEventListener("change", chosen);
  pace?.addEventListener("change", chosen);
  chosen();
}
