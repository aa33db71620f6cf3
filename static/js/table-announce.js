// What the table says besides drawing: the others' moves and your turn, read
// out in the page's polite live region, and a toast when the house played a
// move for you (which one, and why).

/**
 * `frame()`: the last state; `renderer()`: the game's renderer (describeMove,
 * yourTurn); `el`: the shell's elements (announcer, resultsSummary).
 */
export function createAnnouncer({ el, frame, renderer, seatName, isMyTurn, toast }) {
  /** What a move log line says, in words a screen reader reads well ("seven of diamonds", not "7♦"). */
  function spokenMove(event) {
    const line = document.createElement("span");
    renderer().describeMove(line, event);
    for (const card of line.querySelectorAll("[title]")) card.textContent = card.title;
    return line.textContent.replace(/\s+/g, " ").trim();
  }

  /**
   * One polite announcement per update: the others' moves, then whose turn it
   * is if that changed to you, or the end of the game. Your own moves are not
   * read back (you made them); the house's moves for you come as a toast.
   */
  function announceFrame(update, wasMyTurn) {
    const you = update.table.you;
    const parts = [];
    for (const event of update.events || []) {
      if (event.seat === you) continue;
      parts.push(`${seatName(event.seat)} ${spokenMove(event)}.`); // the name, then the log line's words
    }
    if (update.view?.over && update.table.status === "finished") parts.push(interpolate(gettext("Game over. %(summary)s"), { summary: el.resultsSummary.textContent }, true));
    else if (isMyTurn() && !wasMyTurn) parts.push(renderer().yourTurn());
    if (parts.length) announce(parts.join(" "));
  }

  let announceTimer = null;
  function announce(text) {
    // Emptied first, so the same words said twice are read twice.
    el.announcer.textContent = "";
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      el.announcer.textContent = text;
    }, 50);
  }

  /** A house bot's own moves are just moves; the house playing a member's seat is news. */
  function playedForMember(event) {
    const entry = frame()?.table.seats.find((s) => s.position === event.seat);
    return Boolean(event.auto && entry && !entry.bot);
  }

  /** Tell a member plainly when the house played for them, which move and why. */
  function announceHouseMoves(update) {
    const you = update.table.you;
    if (!Number.isInteger(you)) return;
    const entry = update.table.seats.find((s) => s.position === you);
    // At a turn-based table being offline changes nothing: the house plays only when
    // your time ran out, whether or not a page of yours was open.
    const turnBased = Boolean(update.table.pace) && update.table.pace !== "live";
    for (const event of update.events || []) {
      if (event.seat !== you || !playedForMember(event)) continue;
      const described = document.createElement("span");
      renderer().describeMove(described, event);
      const why = entry?.resigned
        ? gettext("you left the game")
        : entry?.handed_over
          ? gettext("your seat was handed to the house")
          : entry?.away && !turnBased
            ? gettext("you were away")
            : gettext("your time ran out");
      toast(interpolate(gettext("House move for you (%(why)s): %(move)s"), { why, move: described.textContent.trim() }, true), "played_for_you");
    }
  }

  return { announceFrame, announceHouseMoves, playedForMember };
}
