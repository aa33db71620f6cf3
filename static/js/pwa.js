// The club as an app: registers the service worker (push/pwa.py) and tells it this
// page's language, so that a page that cannot load offline says so in that language.
const link = document.querySelector("link[rel=manifest][data-service-worker]");

async function register() {
  const registration = await navigator.serviceWorker.register(link.dataset.serviceWorker, {
    scope: "/",
  });
  const ready = await navigator.serviceWorker.ready;
  const worker = ready.active || registration.active;
  if (worker) worker.postMessage({ language: document.documentElement.lang });
}

if (link && "serviceWorker" in navigator && window.isSecureContext) {
  // After the page has loaded: the worker's install fetches never compete with the page.
  const start = () => register().catch(() => {});
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
