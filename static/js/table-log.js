// The live table's move log: one line per move of the current game. A frame
// redraws only the lines it changed: each line is kept with a key of what it
// shows (the move, the player's name, "by the house", and whatever else the
// game's renderer says the line reads from the view: renderer.logKey), and is
// made again only when that key changes. A nine-round match has hundreds
// of lines; remaking them all on every frame was most of a frame's work.

/**
 * `el`: the shell's elements (log, logCount, logEmpty); `renderer()`: the
 * game's renderer (describeMove, optional logKey); `seatName`, `playedForMember`:
 * the shell's.
 */
export function createMoveLog({ el, renderer, seatName, playedForMember }) {
  const keys = new WeakMap(); // li -> the key it was drawn from

  function keyOf(event) {
    const extra = renderer().logKey ? renderer().logKey(event) : "";
    return JSON.stringify([event.n, event.seat, event.move, seatName(event.seat), playedForMember(event), extra]);
  }

  function line(event, key) {
    const li = document.createElement("li");
    li.dataset.n = String(event.n);
    li.dataset.seat = String(event.seat);
    li.dataset.move = event.move ?? ""; // null: a move hidden from this viewer for now
    li.value = event.n;
    const name = document.createElement("span");
    name.className = "log-name";
    name.textContent = seatName(event.seat);
    li.append(name);
    renderer().describeMove(li, event);
    if (playedForMember(event)) {
      const auto = document.createElement("span");
      auto.className = "log-auto muted";
      auto.textContent = ` ${gettext("(by the house)")}`;
      li.append(auto);
    }
    keys.set(li, key);
    return li;
  }

  /** Bring the log to `moves` ([{n, seat, move, auto}]), touching only the lines that differ. */
  function render(moves) {
    const lines = el.log.children;
    let changed = false;
    moves.forEach((event, i) => {
      const key = keyOf(event);
      const old = lines[i];
      if (old && keys.get(old) === key) return;
      const fresh = line(event, key);
      if (old) old.replaceWith(fresh);
      else el.log.append(fresh);
      changed = true;
    });
    while (lines.length > moves.length) {
      el.log.lastElementChild.remove();
      changed = true;
    }
    el.logCount.textContent = moves.length ? `(${moves.length})` : "";
    el.logEmpty.hidden = moves.length > 0;
    // Reading scrollHeight lays the page out: only when a line changed.
    if (changed) el.log.scrollTop = el.log.scrollHeight;
  }

  return { render };
}
