// A chat room's panel, for the table's socket and the lobby's alike
// (docs/PROTOCOL.md, "Chat"). Everything a member wrote is put on the page
// with textContent: no HTML, no markdown, and a URL stays plain text.

const gettext = window.gettext || ((text) => text);
const interpolate =
  window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (_, key) => String(values[key])));

// Quick phrases travel as ids; each reader sees them in their own language.
const PHRASES = {
  gg: gettext("Good game"),
  gl: gettext("Good luck"),
  wp: gettext("Well played"),
  thanks: gettext("Thanks"),
  again: gettext("One more?"),
  bye: gettext("Sorry, I have to go"),
};

const ERROR_CODES = new Set(["rate_limited"]);

/**
 * The panel `root` ([data-chat]) over a socket: `send(frame)` returns false when
 * the socket is not open. Returns { onFrame(frame) -> handled, closed() }.
 */
export function createChat(root, { send }) {
  const none = { onFrame: () => false, closed() {} };
  if (!root) return none;
  const $ = (selector) => root.querySelector(selector);
  const el = {
    log: $("[data-testid=chat-log]"),
    empty: $("[data-testid=chat-empty]"),
    note: $("[data-testid=chat-note]"),
    phrases: $("[data-testid=chat-phrases]"),
    form: $("[data-testid=chat-form]"),
    input: $("[data-testid=chat-input]"),
    button: $("[data-testid=chat-send]"),
    announcer: $("[data-testid=chat-announcer]"),
    unread: $("[data-testid=chat-unread]"),
  };
  if (!el.log) return none; // signed out: nothing to show
  const me = Number(root.dataset.player) || null;
  let muted = new Set();
  let ban = null;
  let open = false; // the room answered: we may write
  let sending = false;
  let unread = 0;

  for (const [id, label] of Object.entries(PHRASES)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chat-phrase";
    button.dataset.phrase = id;
    button.dataset.testid = "chat-phrase";
    button.textContent = label;
    button.addEventListener("click", () => submit({ phrase: id }));
    el.phrases.append(button);
  }

  el.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = el.input.value.trim();
    if (!text) {
      showNote(gettext("Write something first."));
      return;
    }
    submit({ text });
  });
  el.input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") el.input.blur();
  });

  // "/" anywhere but in a field: open the chat and write (documented on the rules page).
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable], dialog")) return;
    event.preventDefault();
    root.open = true;
    el.input.focus();
  });
  root.addEventListener("toggle", () => {
    if (root.open) setUnread(0);
  });

  function submit(body) {
    if (!open || sending || ban) return;
    if (!send({ type: "chat_send", ...body })) {
      showNote(gettext("Not connected; try again in a moment."));
      return;
    }
    sending = true;
    // Answered by our own message coming back (or an error): then the box clears.
    setTimeout(() => {
      sending = false;
    }, 4000);
    if (body.text !== undefined) el.input.dataset.sent = body.text;
  }

  function showNote(text) {
    el.note.textContent = text;
    el.note.hidden = !text;
  }

  function setUnread(count) {
    unread = count;
    el.unread.hidden = count === 0;
    el.unread.textContent = count ? `(${count})` : "";
  }

  function renderState() {
    const writable = open && !ban;
    el.input.disabled = !writable;
    el.button.disabled = !writable;
    for (const button of el.phrases.querySelectorAll("button")) button.disabled = !writable;
    if (ban) {
      const until = new Date(ban.until * 1000).toLocaleString(document.documentElement.lang || undefined); // the page's language, not the browser's
      const why = ban.reason
        ? interpolate(gettext("You may not chat until %(until)s (%(reason)s)."), { until, reason: ban.reason }, true)
        : interpolate(gettext("You may not chat until %(until)s."), { until }, true);
      el.input.placeholder = why;
      showNote(why);
    } else {
      el.input.placeholder = gettext("Say something…");
    }
    el.empty.hidden = el.log.children.length > 0;
  }

  function item(message) {
    const li = document.createElement("li");
    li.className = "chat-message";
    li.dataset.testid = "chat-message";
    li.dataset.id = String(message.id);
    li.dataset.author = message.author === null ? "" : String(message.author);
    const time = document.createElement("time");
    const at = new Date(message.at * 1000);
    time.dateTime = at.toISOString();
    time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    time.className = "chat-time muted";
    const name = document.createElement("span");
    name.className = "chat-name";
    if (message.house) {
      li.classList.add("house");
      name.textContent = gettext("The house");
    } else {
      name.textContent = message.name;
    }
    const text = document.createElement("span");
    text.className = "chat-text";
    text.dataset.testid = "chat-text";
    if (message.phrase) {
      text.classList.add("phrase");
      text.textContent = PHRASES[message.phrase] || message.phrase;
    } else {
      text.textContent = message.text; // never innerHTML: members' words are text
    }
    li.append(time, " ", name, " ", text);
    if (message.author !== null && message.author !== me && !message.house) li.append(actions(message));
    if (message.author === me) li.classList.add("mine");
    return li;
  }

  function actions(message) {
    const box = document.createElement("span");
    box.className = "chat-actions";
    const report = document.createElement("button");
    report.type = "button";
    report.className = "link-button";
    report.dataset.testid = "chat-report";
    report.textContent = gettext("Report");
    report.setAttribute("aria-label", interpolate(gettext("Report this message by %(name)s"), { name: message.name }, true));
    report.addEventListener("click", () => {
      if (send({ type: "chat_report", id: message.id })) box.replaceChildren(reasonForm(message));
    });
    const mute = document.createElement("button");
    mute.type = "button";
    mute.className = "link-button";
    mute.dataset.testid = "chat-mute";
    mute.textContent = gettext("Mute");
    mute.setAttribute("aria-label", interpolate(gettext("Mute %(name)s everywhere"), { name: message.name }, true));
    mute.addEventListener("click", () => send({ type: "chat_mute", player: message.author, muted: true }));
    box.append(report, " ", mute);
    return box;
  }

  // Reported with one click; a reason is welcome but optional.
  function reasonForm(message) {
    const form = document.createElement("form");
    form.className = "chat-reason";
    const label = document.createElement("label");
    label.textContent = gettext("Reported. Why? (optional)");
    const input = document.createElement("input");
    input.type = "text";
    input.maxLength = 300;
    input.dataset.testid = "chat-report-reason";
    label.append(" ", input);
    const ok = document.createElement("button");
    ok.type = "submit";
    ok.className = "link-button";
    ok.textContent = gettext("Send");
    form.append(label, " ", ok);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const reason = input.value.trim();
      if (reason) send({ type: "chat_report", id: message.id, reason });
      form.replaceWith(Object.assign(document.createElement("span"), { className: "muted", textContent: gettext("Thank you.") }));
    });
    setTimeout(() => input.focus(), 0);
    return form;
  }

  function append(message, live) {
    if (muted.has(message.author)) return;
    if (el.log.querySelector(`[data-id="${message.id}"]`)) return;
    const stick = el.log.scrollTop + el.log.clientHeight >= el.log.scrollHeight - 4;
    el.log.append(item(message));
    while (el.log.children.length > 200) el.log.firstElementChild.remove();
    if (stick || message.author === me) el.log.scrollTop = el.log.scrollHeight;
    if (!live) return;
    if (message.author === me) {
      sending = false;
      if (el.input.dataset.sent === message.text) el.input.value = "";
      showNote("");
      return;
    }
    if (!root.open) setUnread(unread + 1);
    // Read out politely, but never into the middle of the member's own typing.
    if (document.activeElement !== el.input) {
      const name = message.house ? gettext("The house") : message.name;
      const text = message.phrase ? PHRASES[message.phrase] || message.phrase : message.text;
      el.announcer.textContent = `${name}: ${text}`;
    }
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "chat_history":
        muted = new Set(frame.muted || []);
        ban = frame.ban;
        open = true;
        sending = false;
        if (frame.limits) el.input.maxLength = frame.limits.length;
        el.log.replaceChildren();
        for (const message of frame.messages) append(message, false);
        el.log.scrollTop = el.log.scrollHeight;
        renderState();
        return true;
      case "chat":
        append(frame.message, true);
        renderState();
        return true;
      case "chat_hidden":
        el.log.querySelector(`[data-id="${frame.id}"]`)?.remove();
        renderState();
        return true;
      case "chat_muted":
        muted = new Set(frame.all || []);
        for (const li of el.log.querySelectorAll("[data-author]")) {
          if (muted.has(Number(li.dataset.author))) li.remove();
        }
        showNote(frame.muted ? gettext("Muted: you will not see their messages, at any table.") : "");
        renderState();
        return true;
      case "chat_reported":
        return true;
      case "error":
        if (!frame.code.startsWith("chat_") && !(sending && ERROR_CODES.has(frame.code))) return false;
        sending = false;
        if (frame.code === "chat_banned") ban = { until: frame.until, reason: frame.reason };
        showNote(frame.message);
        renderState();
        return true;
      default:
        return false;
    }
  }

  function closed() {
    open = false;
    renderState();
  }

  renderState();
  return { onFrame, closed };
}
