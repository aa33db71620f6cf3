// Times a page writes in UTC (<time datetime="..." data-local>), shown in the viewer's
// own time zone and the page's language; also in fragments fetched later (home, lobby).
// Day, short month, year and a 24-hour time, as the server writes them (club.i18n).
const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function localise(root) {
  for (const el of root.querySelectorAll("time[data-local]:not([data-localised])")) {
    const at = new Date(el.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    el.textContent = format.format(at);
    el.dataset.localised = "1";
  }
}

localise(document);
new MutationObserver(() => localise(document)).observe(document.body, { childList: true, subtree: true });
