{% autoescape off %}/* The club's service worker, rendered by push/pwa.py (which says why it does so little).
   Hashed static files: from the cache first. Pages: the network, else the offline
   page in the member's language. Everything else: untouched. Push: a notification
   whose click opens its table. */
"use strict";

const VERSION = "{{ version }}";
const STATIC_CACHE = `club-static-${VERSION}`;
const OFFLINE_CACHE = `club-offline-${VERSION}`;
// Kept across versions: the language the pages last told (a two-letter code, nothing else).
const SETTINGS_CACHE = "club-settings";
const LANGUAGE_KEY = "/offline/language";
const LANGUAGES = {{ languages }};
const DEFAULT_LANGUAGE = {{ default_language }};
const OFFLINE_PAGES = {{ offline_pages }};
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};
const ICON = {{ icon }};
// collectstatic's hashed names: "name.0123456789ab.ext" (12 hex digits). A name
// without its hash may change content, so it is never answered from the cache.
const HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const offline = await caches.open(OFFLINE_CACHE);
      await offline.addAll(Object.values(OFFLINE_PAGES));
      const files = await caches.open(STATIC_CACHE);
      await files.addAll(PRECACHE.filter(isHashed));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([STATIC_CACHE, OFFLINE_CACHE, SETTINGS_CACHE]);
      for (const name of await caches.keys()) {
        if (name.startsWith("club-") && !keep.has(name)) await caches.delete(name);
      }
      // No navigation preload: every page is fetched by this worker itself, so an
      // answer can never be one meant for an earlier navigation.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.disable();
      await self.clients.claim();
    })(),
  );
});

function isHashed(path) {
  return path.startsWith(STATIC_PREFIX) && HASHED.test(path);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(event));
  } else if (isHashed(url.pathname) && !url.search) {
    event.respondWith(cacheFirst(request));
  }
  // Anything else is not answered here: the browser fetches it as without a worker.
});

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") {
    cache.put(request, response.clone()).catch(() => {});
  }
  return response;
}

async function pageOrOffline(event) {
  try {
    const response = await fetch(event.request);
    // The page's language, as the server chose it for this navigation (the member's
    // choice, the picker's cookie, Accept-Language): learnt here, before the page is
    // even drawn, so the next offline page speaks it however soon the network goes.
    const language = response.ok && response.headers.get("Content-Language");
    if (language) event.waitUntil(remember(language));
    return response;
  } catch (error) {
    // The network failed (no answer at all; an error page from the server is shown as is).
    const cache = await caches.open(OFFLINE_CACHE);
    const language = await chosenLanguage();
    const page =
      (await cache.match(OFFLINE_PAGES[language])) ||
      (await cache.match(OFFLINE_PAGES[DEFAULT_LANGUAGE]));
    return page || Response.error();
  }
}

// The language of the last page: kept in memory while this worker runs, and in its
// cache for the next time it starts. Learnt from each page this worker fetched
// (pageOrOffline), in the order they arrived; a page it did not fetch (the first
// one, before the worker took over) tells it instead (static/js/pwa.js).
let toldLanguage = null;

async function remember(language) {
  if (!LANGUAGES.includes(language) || language === toldLanguage) return;
  toldLanguage = language;
  const settings = await caches.open(SETTINGS_CACHE);
  await settings.put(
    LANGUAGE_KEY,
    new Response(language, { headers: { "Content-Type": "text/plain" } }),
  );
}

async function chosenLanguage() {
  if (toldLanguage) return toldLanguage;
  const settings = await caches.open(SETTINGS_CACHE);
  const stored = await settings.match(LANGUAGE_KEY);
  if (stored) {
    const code = (await stored.text()).trim();
    if (LANGUAGES.includes(code)) return code;
  }
  for (const tag of self.navigator.languages || []) {
    const code = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

// A page this worker did not fetch tells its language (static/js/pwa.js).
self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (typeof language === "string") event.waitUntil(remember(language));
});

// -- push (push/sender.py writes the payload, already in the member's language) --

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  const title = typeof message.title === "string" && message.title ? message.title : "Card Club";
  const options = {
    body: typeof message.body === "string" ? message.body : "",
    icon: ICON,
    lang: typeof message.lang === "string" ? message.lang : "",
    data: { url: sameOrigin(message.url) },
  };
  if (typeof message.tag === "string" && message.tag) {
    // One notification per table: the next turn replaces the last one.
    options.tag = message.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

function sameOrigin(url) {
  try {
    const target = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(openPage(target));
});

async function openPage(target) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) return open.focus().catch(() => open);
  try {
    const opened = await self.clients.openWindow(target);
    if (opened) return opened;
  } catch (error) {
    // No window may be opened from here (no click): take one of the club's own.
  }
  for (const client of windows) {
    const moved = await client.navigate(target).catch(() => null);
    if (moved) return moved.focus().catch(() => moved);
  }
  return null;
}
{% endautoescape %}
