// The post-game analysis panel (templates/analysis/_panel.html): ask for the
// analysis, follow its progress live by polling analysis.json (queued, n of m
// decisions, done) without a reload, then drop in the finished result and mark
// the verdicts in the replay's move log; a flagged move's button steps the
// replay (static/js/replay.js, the "replay:go" event) to the position where it
// was chosen, and the "moment" line names the better alternative there while the
// board outlines it ("replay:highlight", drawn by the game's replay renderer).

const gettext = window.gettext || ((text) => text);
const interpolate =
  window.interpolate || ((text, values, named) => text.replace(/%\((\w+)\)s/g, (_, k) => values[k]));

const root = document.querySelector("[data-testid=analysis]");
const replay = document.querySelector("[data-testid=replay]");
const POLL_MS = 1000;

const VERDICTS = {
  inaccuracy: gettext("inaccuracy"),
  mistake: gettext("mistake"),
  blunder: gettext("blunder"),
  fine: gettext("fine"),
  forced: gettext("forced"),
};

const FLAGGED = new Set(["inaccuracy", "mistake", "blunder"]);

const el = {
  status: root.querySelector("[data-testid=analysis-status]"),
  progress: root.querySelector("[data-testid=analysis-progress]"),
  result: root.querySelector("[data-testid=analysis-result]"),
};

let decisions = [];

function setStatus(payload) {
  root.dataset.status = payload.status;
  el.status.textContent = payload.message || "";
  el.status.classList.toggle("error", payload.status === "failed" || Boolean(payload.error));
  const running = payload.status === "queued" || payload.status === "running";
  el.progress.hidden = !running;
  if (running) {
    el.progress.max = Math.max(1, payload.total || 1);
    el.progress.value = payload.done || 0;
  }
  const form = root.querySelector("[data-testid=analysis-ask-form]");
  if (form) form.hidden = running || payload.status === "done";
}

async function poll() {
  let payload;
  try {
    const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" } });
    payload = await response.json();
  } catch {
    setTimeout(poll, POLL_MS * 3); // the site did not answer: try again a little later
    return;
  }
  setStatus(payload);
  if (payload.status === "queued" || payload.status === "running") {
    setTimeout(poll, POLL_MS);
  } else if (payload.status === "done") {
    decisions = payload.decisions || [];
    if (!root.querySelector("[data-testid=analysis-done]")) await loadResult();
    markReplay();
  }
}

async function loadResult() {
  try {
    const response = await fetch(root.dataset.panelUrl, { headers: { Accept: "text/html" } });
    if (response.ok) el.result.innerHTML = await response.text();
  } catch {
    el.status.textContent = gettext("The analysis is done; reload the page to see it.");
  }
}

async function ask(event) {
  event.preventDefault();
  const form = event.target;
  const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
  let payload;
  try {
    const response = await fetch(root.dataset.askUrl, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": token },
      credentials: "same-origin",
    });
    payload = await response.json();
  } catch {
    el.status.textContent = gettext("The site did not answer: try again later.");
    return;
  }
  if (payload.error) {
    el.status.textContent = payload.message;
    el.status.classList.add("error");
    return;
  }
  setStatus(payload);
  poll();
}

// --- the replay: verdicts beside the moves, a step to each flagged move ---

function markReplay() {
  if (!replay || !replay.dataset.steps) return; // not loaded yet: "replay:ready" calls again
  const log = replay.querySelector("[data-testid=replay-log]");
  for (const d of decisions) {
    if (!FLAGGED.has(d.verdict)) continue;
    const line = log.querySelector(`li[data-step="${d.step}"] button`);
    if (!line || line.querySelector(".verdict-badge")) continue;
    const badge = document.createElement("span");
    badge.className = `verdict-badge verdict-${d.verdict}`;
    badge.setAttribute("data-testid", "replay-verdict");
    badge.textContent = VERDICTS[d.verdict] || d.verdict;
    line.append(" ", badge);
  }
  showMoment(Number(replay.dataset.step || 0));
}

// Numbers as the page's language writes them ("2,69", "50 %"): Intl, with the
// document's own language, in the format the game's entry declares for its
// measure (templates/analysis/_result.html: data-measure-unit, "number" or
// "percent", and data-measure-digits).
function formatValue(value) {
  const measure = root.querySelector("[data-measure]")?.dataset || {};
  const lang = document.documentElement.lang || undefined;
  const digits = Number(measure.measureDigits ?? 2);
  const style = measure.measureUnit === "percent" ? { style: "percent" } : {};
  return new Intl.NumberFormat(lang, {
    ...style,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** The line under the replay's caption that tells what the analysis says of this position. */
function momentBox() {
  let box = replay?.querySelector("[data-testid=analysis-moment]");
  if (!box && replay) {
    box = document.createElement("p");
    box.className = "analysis-moment";
    box.setAttribute("data-testid", "analysis-moment");
    box.setAttribute("aria-live", "polite");
    box.hidden = true;
    replay.querySelector("[data-testid=replay-caption]").after(box);
  }
  return box;
}

function showMoment(index) {
  const box = momentBox();
  if (!box || !decisions.length) return;
  const here = decisions.filter((d) => d.step - 1 === index && d.verdict !== "forced");
  box.hidden = here.length === 0;
  box.replaceChildren();
  for (const d of here) {
    const name = d.name || "";
    const line = document.createElement("span");
    line.append(
      interpolate(gettext("Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). "), {
        name,
        played: d.played_label || d.played,
        verdict: VERDICTS[d.verdict] || d.verdict,
        value: formatValue(d.value[0]),
      }, true),
    );
    // Only a flagged move has a better one: a loss within the noise names none.
    if (d.best !== d.played && FLAGGED.has(d.verdict)) {
      line.append(gettext("Better: "));
      const better = document.createElement("mark");
      better.className = "analysis-better";
      better.setAttribute("data-testid", "analysis-better");
      better.textContent = `${d.best_label || d.best} (${formatValue(d.best_value[0])})`;
      line.append(better);
      replay.dispatchEvent(
        new CustomEvent("replay:highlight", { detail: { index, move: d.best, seat: d.seat } }),
      );
    }
    box.append(line);
  }
}

root.addEventListener("submit", (event) => {
  if (event.target.matches("[data-testid=analysis-ask-form]")) ask(event);
});
root.addEventListener("click", (event) => {
  const button = event.target.closest("[data-testid=analysis-flag]");
  if (!button || !replay) return;
  replay.dispatchEvent(new CustomEvent("replay:go", { detail: { step: Number(button.dataset.step) } }));
  replay.scrollIntoView({ block: "start" });
});
if (replay) {
  replay.addEventListener("replay:ready", markReplay);
  replay.addEventListener("replay:log", markReplay); // the replay made more log lines
  replay.addEventListener("replay:step", (event) => showMoment(event.detail.index));
}

if (root.dataset.status !== "none") poll();
