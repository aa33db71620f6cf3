// The live table's layout: at the top of the page the header, the other
// players, the board and your docked hand should all fit the window, at any
// screen size and table size. The shell measures; the game's CSS and its
// renderer (fit()) turn the measurements into sizes.

/**
 * Size the board to the room the page leaves it, so that at the top of the
 * page the header, the other players, the board and your docked hand all fit
 * the window. The renderer's CSS turns --board-room (px) into a board size.
 */
export function fitLayout(el, over, renderer) {
  if (el.game.hidden) return;
  if (over) {
    // The results come first now; the final board below them keeps its full size.
    el.game.style.removeProperty("--board-room");
    renderer.fit?.({ overflow: 0, dockOverflow: null });
    return;
  }
  const felt = el.board.parentElement;
  const feltBox = felt.getBoundingClientRect();
  const height = document.documentElement.clientHeight;
  const top = feltBox.top + window.scrollY; // where the felt starts at the top of the page
  let below = 0;
  let bottom = top + feltBox.height; // where the game's last docked piece ends, unscrolled
  let dockBottom = null;
  if (el.dock && !el.dock.hidden && !el.hand.hidden) {
    // The dock's own box may be stuck to the window's bottom: reason from its size only.
    const dockBox = el.dock.getBoundingClientRect();
    const beside = dockBox.left >= feltBox.right - 1 || dockBox.right <= feltBox.left + 1;
    if (beside) {
      dockBottom = top + dockBox.height;
    } else {
      below = dockBox.height + parseFloat(getComputedStyle(el.game).rowGap || "0");
      dockBottom = bottom + below;
    }
    bottom = Math.max(bottom, dockBottom);
  }
  const chrome = felt.offsetHeight - el.board.offsetHeight; // the felt's border and padding
  const room = height - top - below - chrome - 6;
  const value = `${Math.max(0, Math.floor(room))}px`;
  if (el.game.style.getPropertyValue("--board-room") !== value) {
    el.game.style.setProperty("--board-room", value);
  }
  // What still does not fit (px; negative: room to spare), in all and under the docked hand:
  // the renderer may shrink (or grow back) its own pieces.
  renderer.fit?.({
    overflow: Math.ceil(bottom + 6 - height),
    dockOverflow: dockBottom === null ? null : Math.ceil(dockBottom + 6 - height),
  });
}
