// The phone's menu (templates/base.html): a real button that opens and closes the
// site's navigation, for a pointer, a keyboard and a screen reader alike (the
// disclosure pattern: aria-expanded on the button, aria-controls naming the menu).
// Opening moves the focus to the menu's first entry; Escape closes it and brings the
// focus back to the button. The stylesheet hides the closed menu only under the
// "js-menu" class set here: without JavaScript the button stays hidden and the menu
// open, so every entry is still reached.
//
// A classic script in the page's head, not a module: the class is set before the
// body is drawn (a module would run after, and the menu would flash open).
document.documentElement.classList.add("js-menu");

// How the member points, kept on <html data-input>: a finger ("touch") hides the key
// hints (site.css; table-keys.js withoutKeys) even where the screen's media queries
// say it has a mouse (a laptop's touch screen, a browser that reports no touch);
// a mouse brings them back.
document.addEventListener(
  "pointerdown",
  (event) => {
    document.documentElement.dataset.input = event.pointerType === "touch" ? "touch" : "pointer";
  },
  { capture: true, passive: true },
);

document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector("[data-nav-toggle]");
  const menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!menu) return;
  const isOpen = () => button.getAttribute("aria-expanded") === "true";

  function entries() {
    return [...menu.querySelectorAll("a[href], button, select, input:not([type=hidden])")].filter(
      (el) => !el.disabled && el.getClientRects().length,
    );
  }

  function close(refocus) {
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  }

  button.addEventListener("click", () => {
    if (isOpen()) {
      close(false);
      return;
    }
    button.setAttribute("aria-expanded", "true");
    entries()[0]?.focus();
  });

  // Captured on the window, before a page's own keys (a table's Escape cancels a move):
  // an Escape meant for the open menu closes the menu only.
  window.addEventListener(
    "keydown",
    (event) => {
      // Only while the button is shown (a phone): on a wide screen the menu is always open.
      if (event.key !== "Escape" || !isOpen() || !button.getClientRects().length) return;
      const inside = menu.contains(document.activeElement) || document.activeElement === button;
      close(inside);
      if (inside) {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true,
  );
});
