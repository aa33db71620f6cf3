// The club as an app: registers the service worker (push/pwa.py). A page the worker
// did not fetch (the first visit, before the worker took over; a forced reload)
// tells it its language, so that a page that cannot load offline says so in that
// language; the pages it fetches it reads the language from itself, in order.
const link = document.querySelector("link[rel=manifest][data-service-worker]");

async function register(fetchedByWorker) {
  const registration = await navigator.serviceWorker.register(link.dataset.serviceWorker, {
    scope: "/",
  });
  if (fetchedByWorker) return;
  const ready = await navigator.serviceWorker.ready;
  const worker = ready.active || registration.active;
  if (worker) worker.postMessage({ language: document.documentElement.lang });
}

if (link && "serviceWorker" in navigator && window.isSecureContext) {
  // Whether this page came through the worker: known now, before it may take over.
  const fetchedByWorker = Boolean(navigator.serviceWorker.controller);
  // After the page has loaded and the browser has a moment with nothing to do: the
  // worker's start and its install's fetches never compete with the page's own work.
  const start = () => register(fetchedByWorker).catch(() => {});
  const idle = () =>
    "requestIdleCallback" in window
      ? requestIdleCallback(start, { timeout: 10000 })
      : setTimeout(start, 2000);
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
