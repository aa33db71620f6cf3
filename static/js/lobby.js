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

// The create form: offer only the chosen game's series, and show its rules.
const form = document.querySelector("[data-testid=create-table]");
if (form) {
  const game = form.querySelector("select[name=variant]");
  const series = form.querySelector("select[name=series]");
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
  };
  game.addEventListener("change", chosen);
  chosen();
}
