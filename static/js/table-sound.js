// The table's optional "your turn" sound: off by default, the choice kept in
// this browser (localStorage), a short beep synthesised with WebAudio (no
// sound file). Browsers let a page play sound only after a click or a key,
// so the audio is made (or resumed) on the first one.

/** `button`: the page's toggle (aria-pressed); `app`: counts beeps in data-turn-sounds. */
export function createTurnSound(app, button) {
  const KEY = "cardclub.turnSound";
  let on = false;
  try {
    on = localStorage.getItem(KEY) === "on";
  } catch {
    on = false; // storage blocked: off, as by default
  }
  let context = null;

  /** Browsers start audio only after a gesture: made (or resumed) on a click or key. */
  function audio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!context) context = new Context();
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  }

  /** A short two-tone beep, synthesised: no sound file to load. */
  function beep() {
    const ctx = audio();
    if (!ctx || ctx.state !== "running") return false;
    const start = ctx.currentTime + 0.01;
    [660, 880].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const t = start + i * 0.13;
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.13);
    });
    return true;
  }

  function render() {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? gettext("Turn sound: on") : gettext("Turn sound: off");
  }

  button.addEventListener("click", () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // not remembered, but still on for this page
    }
    render();
    if (on) beep(); // a sample, and it unlocks audio for later turns
  });
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(type, () => on && audio(), { capture: true, passive: true });
  }
  render();

  return {
    /** Your turn began: beep if wanted. data-turn-sounds counts the beeps actually played. */
    play() {
      if (on && beep()) app.dataset.turnSounds = String(Number(app.dataset.turnSounds || 0) + 1);
    },
  };
}
