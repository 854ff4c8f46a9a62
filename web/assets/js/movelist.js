// A move list (Play's and Replay's): one row per number, White's turn and Black's turn of it
// (the numbering of util.js's turnNumber, as in PGN), each turn a button showing the board
// after it. The arrow keys step through it; the list scrolls itself, never the page.
"use strict";

function turnCell(turn, i, o) {
  const td = document.createElement("td");
  const b = html("button", { type: "button", "data-ply": i + 1 }, turn.notation);
  b.setAttribute("aria-label", t("moves.turnAria", { label: turnLabel(i, o.firstMover), side: t("side." + turn.mover), turn: turn.notation }) + (turn.markText ? ", " + turn.markText : ""));
  if (turn.mark) b.appendChild(html("span", { class: "mark", "aria-hidden": "true" }, turn.mark));
  if (turn.extra) b.appendChild(html("span", { class: "sc" }, turn.extra));
  if (turn.title) b.title = turn.title;
  if (i === o.current) b.classList.add("current");
  b.addEventListener("click", () => o.onPick(i + 1));
  td.appendChild(b);
  return td;
}

/// Fills `table` with `turns` ({mover, notation, extra?, title?, mark?, markText?}); `o`:
/// current (the index of the turn shown), onPick(ply), firstMover.
function fillTurnTable(table, turns, o) {
  const tb = table.querySelector("tbody");
  const focused = tb.contains(document.activeElement);
  tb.replaceChildren();
  let row = null, number = 0;
  turns.forEach((turn, i) => {
    const n = turnNumber(i, o.firstMover);
    if (n.row !== number) {
      number = n.row;
      row = document.createElement("tr");
      row.appendChild(html("td", {}, `${number}.`));
      tb.appendChild(row);
      if (n.mover === "black") row.appendChild(html("td", {}, "…"));
    }
    row.appendChild(turnCell(turn, i, o));
  });
  table.onkeydown = (ev) => listKeys(ev, table, turns.length, o);
  const cur = tb.querySelector("button.current");
  if (cur) scrollIntoList(cur);
  // The list was drawn again: the focus stays on it (on the turn shown).
  if (focused) (cur || tb.querySelector("button") || table).focus({ preventScroll: true });
}

/// Scrolls the list (only the list) so that `button` shows.
function scrollIntoList(button) {
  const box = button.closest(".scroll");
  if (!box) return;
  const top = button.offsetTop - box.offsetTop, bottom = top + button.offsetHeight;
  if (top < box.scrollTop + 24) box.scrollTop = Math.max(0, top - 24);
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

/// The arrow keys in a move list: Left/Up the turn before, Right/Down the next, Home the
/// start, End the last turn; the focus follows.
function listKeys(ev, table, count, o) {
  const at = o.current + 1;
  const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: count }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  ev.stopPropagation();
  const ply = Math.max(0, Math.min(count, to));
  o.onPick(ply);
}
