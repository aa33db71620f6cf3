// Variant admin, progressive enhancement: choosing another game on the add form reloads
// it with that game's rules (without JavaScript, the form is shown again after saving).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const select = document.querySelector("form#variant_form select#id_game");
  if (!select || !location.pathname.endsWith("/add/")) return;
  select.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set("game", select.value);
    location.assign(url);
  });
});
