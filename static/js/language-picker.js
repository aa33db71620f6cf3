// The header's language picker: choosing a language switches at once. The
// form posts to Django's set_language as it does without JavaScript (its
// submit button stays for that case); requestSubmit keeps the form's own
// submit path, CSRF token and `next` included.
const picker = document.querySelector('[data-testid="language-picker"]');
if (picker) {
  const select = picker.querySelector("select");
  const initial = select.value;
  select.addEventListener("change", () => {
    if (select.value !== initial) picker.requestSubmit();
  });
}
