// Push on this device, from the notifications settings page (push/templates/push/devices.html).
// The browser's permission is asked only when the member clicks "Turn on": never on load.
const box = document.querySelector("[data-push]");

function csrfToken() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

function applicationServerKey(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4))
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function post(url, data) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(data),
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch (error) {
    answer = {};
  }
  if (!response.ok) {
    const message = answer.error && answer.error.message;
    throw new Error(message || gettext("The club could not save this. Try again later."));
  }
  return answer;
}

function setup() {
  const status = box.querySelector("[data-push-status]");
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const supported =
    "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function show(text, subscribed) {
    status.textContent = text;
    on.hidden = subscribed !== false;
    off.hidden = subscribed !== true;
  }

  if (!supported || !window.isSecureContext) {
    show(gettext("This browser cannot receive push notifications from the club."), null);
    return;
  }

  async function current() {
    const registration = await navigator.serviceWorker.ready;
    return { registration, subscription: await registration.pushManager.getSubscription() };
  }

  async function refresh() {
    if (Notification.permission === "denied") {
      show(
        gettext("Notifications are blocked for the club in this browser's settings: allow them there first."),
        null,
      );
      return;
    }
    const { subscription } = await current();
    if (subscription) show(gettext("Push is on for this device."), true);
    else show(gettext("Push is off for this device."), false);
  }

  on.addEventListener("click", async () => {
    on.disabled = true;
    try {
      // Asked here, on the member's click, and nowhere else.
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        await refresh();
        return;
      }
      const { registration } = await current();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: applicationServerKey(box.dataset.publicKey),
      });
      try {
        await post(box.dataset.subscribe, subscription.toJSON());
      } catch (error) {
        await subscription.unsubscribe().catch(() => {});
        throw error;
      }
      show(gettext("Push is on for this device."), true);
    } catch (error) {
      show(error.message || gettext("The club could not save this. Try again later."), false);
    } finally {
      on.disabled = false;
    }
  });

  off.addEventListener("click", async () => {
    off.disabled = true;
    try {
      const { subscription } = await current();
      if (subscription) {
        const endpoint = subscription.endpoint;
        await subscription.unsubscribe();
        await post(box.dataset.unsubscribe, { endpoint }).catch(() => {});
      }
      show(gettext("Push is off for this device."), false);
    } catch (error) {
      show(error.message || gettext("The club could not save this. Try again later."), true);
    } finally {
      off.disabled = false;
    }
  });

  refresh().catch(() => show(gettext("This browser cannot receive push notifications from the club."), null));
}

if (box) setup();
