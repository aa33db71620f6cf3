// Times a page writes in UTC (<time datetime="..." data-local>), shown in the viewer's
// own time zone and the page's language; also in fragments fetched later (home, lobby).
import { formatWhen } from "./when.js";

function localise(root) {
  for (const el of root.querySelectorAll("time[data-local]:not([data-localised])")) {
    const at = new Date(el.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    el.textContent = formatWhen(at);
    el.dataset.localised = "1";
  }
}

localise(document);
new MutationObserver(() => localise(document)).observe(document.body, { childList: true, subtree: true });
