// The board: drawn as SVG from a position and the marks to show (the last turn, captures, the
// points the selected stone can reach, the stones that must capture, a suggested turn), the
// keyboard cursor, and the board after some steps of a turn.
"use strict";

const FILES = "abcdefghi";
const GAP = 60, MARGIN = 40;
let boardClick = null;

function allPoints() {
  const pts = [];
  for (let r = 1; r <= 5; r++) for (const f of FILES) pts.push(f + r);
  return pts;
}

/// Where point `p` is drawn: 9 files across and 5 ranks up, or on narrow screens 5 ranks across
/// and 9 files down; turned half round when `S.flip` (the player has Black, or flipped it).
function xy(p) {
  let f = FILES.indexOf(p[0]), r = Number(p[1]) - 1;
  if (S.flip) { f = 8 - f; r = 4 - r; }
  return S.vertical ? [MARGIN + r * GAP, MARGIN + f * GAP] : [MARGIN + f * GAP, MARGIN + (4 - r) * GAP];
}

function boardSize() { return S.vertical ? [320, 560] : [560, 320]; }

function drawDiagonals(svg, p) {
  const fi = FILES.indexOf(p[0]), ri = Number(p[1]) - 1;
  if ((fi + ri) % 2 !== 0) return;
  for (const [df, dr] of [[1, 1], [1, -1]]) {
    const nf = fi + df, nr = ri + dr;
    if (nf > 8 || nr < 0 || nr > 4) continue;
    const [x1, y1] = xy(p), [x2, y2] = xy(FILES[nf] + (nr + 1));
    el("line", { x1, y1, x2, y2, class: "line" }, svg);
  }
  const [x, y] = xy(p);
  el("circle", { cx: x, cy: y, r: 5, class: "strong" }, svg);
}

function drawLines(svg) {
  for (let r = 1; r <= 5; r++) { const [x1, y1] = xy("a" + r), [x2, y2] = xy("i" + r); el("line", { x1, y1, x2, y2, class: "line" }, svg); }
  for (const f of FILES) { const [x1, y1] = xy(f + "1"), [x2, y2] = xy(f + "5"); el("line", { x1, y1, x2, y2, class: "line" }, svg); }
  for (const p of allPoints()) drawDiagonals(svg, p);
  const [, h] = boardSize();
  for (const f of FILES) {
    const [x, y] = xy(f + (S.flip ? "5" : "1"));
    el("text", S.vertical ? { x: 14, y: y + 4, class: "label" } : { x, y: h - 6, class: "label" }, svg).textContent = f;
  }
  for (let r = 1; r <= 5; r++) {
    const [x, y] = xy((S.flip ? "i" : "a") + r);
    el("text", S.vertical ? { x, y: h - 6, class: "label" } : { x: 14, y: y + 4, class: "label" }, svg).textContent = r;
  }
}

/// A cross on `p`, over a halo that keeps it visible on a stone of either colour.
function drawCross(svg, p, cls, size) {
  const [x, y] = xy(p);
  for (const c of [cls + "-halo", cls]) {
    el("line", { x1: x - size, y1: y - size, x2: x + size, y2: y + size, class: c }, svg);
    el("line", { x1: x - size, y1: y + size, x2: x + size, y2: y - size, class: c }, svg);
  }
}

function polyline(svg, points, cls) {
  return el("polyline", { points: points.map((p) => xy(p).join(",")).join(" "), class: cls }, svg);
}

/// The last turn: its path, where it started and the stones it captured (small crosses).
function drawLast(svg, last) {
  if (!last || !last.steps || !last.steps.length) return;
  const path = [last.steps[0].from, ...last.steps.map((s) => s.to)];
  polyline(svg, path, "last-path");
  const [x, y] = xy(path[0]);
  el("circle", { cx: x, cy: y, r: 13, class: "last-from", "data-last-from": path[0] }, svg);
  for (const s of last.steps) for (const c of s.captured) drawCross(svg, c, "ghost", 7);
}

/// A suggested turn (the hint, or the better turn of a review): a dashed path, a double ring
/// round the stone to move and a dot where it ends.
function drawSuggestion(svg, steps) {
  if (!steps || !steps.length) return;
  const path = [steps[0].from, ...steps.map((s) => s.to)];
  polyline(svg, path, "hint-path");
  const [x, y] = xy(path[0]);
  for (const r of [24, 29]) el("circle", { cx: x, cy: y, r, class: "hint-from", "data-hint-from": path[0] }, svg);
  const [ex, ey] = xy(path[path.length - 1]);
  el("circle", { cx: ex, cy: ey, r: 7, class: "hint-to", "data-hint-to": path[path.length - 1] }, svg);
}

function pointLabel(p, board, o) {
  const stone = board.white.includes(p) ? t("point.white") : board.black.includes(p) ? t("point.black") : t("point.empty");
  const extra = [];
  if (o.selected === p || o.moving === p) extra.push(t("point.selected"));
  if ((o.targets || []).includes(p)) extra.push(t("point.target"));
  if ((o.must || []).includes(p)) extra.push(t("point.must"));
  if (o.lastTo === p) extra.push(t("point.last"));
  if (o.suggest && o.suggest.length && o.suggest[0].from === p) extra.push(t("point.hint"));
  return [p, stone, ...extra].join(", ");
}

function drawStones(svg, board, o) {
  const captured = new Set(o.captured || []), must = new Set(o.must || []);
  for (const [color, list] of [["white", board.white], ["black", board.black]]) {
    for (const p of list) {
      const [x, y] = xy(p);
      let cls = `stone ${color}`;
      if (captured.has(p)) cls += " captured";
      if (o.moving === p) cls += " moving";
      if (o.selected === p) cls += " selected";
      if (o.lastTo === p) cls += " last-to";
      el("circle", { cx: x, cy: y, r: 20, class: cls, "data-point": p }, svg);
      if (must.has(p)) el("circle", { cx: x, cy: y, r: 25, class: "must", "data-must": p }, svg);
      if (captured.has(p)) drawCross(svg, p, "cross", 12);
    }
  }
}

function drawHits(svg, board, o) {
  for (const p of allPoints()) {
    const [x, y] = xy(p);
    const hit = el("circle", { cx: x, cy: y, r: 28, class: "hit", "data-hit": p, id: "pt-" + p, role: "button", "aria-label": pointLabel(p, board, o) }, svg);
    hit.addEventListener("click", () => { S.cursor = p; if (boardClick) boardClick(p); });
  }
}

/// Draws `board` with the marks of `o`: last, path, captured, moving, selected, targets, must,
/// lastTo, suggest.
function drawBoard(board, o = {}) {
  const svg = $("board");
  const [w, h] = boardSize();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.classList.toggle("vertical", S.vertical);
  svg.replaceChildren();
  drawLines(svg);
  drawLast(svg, o.last);
  drawSuggestion(svg, o.suggest);
  if (o.path && o.path.length > 1) polyline(svg, o.path, "path");
  drawStones(svg, board, o);
  for (const p of o.targets || []) { const [x, y] = xy(p); el("circle", { cx: x, cy: y, r: 9, class: "target", "data-target": p }, svg); }
  const [cx, cy] = xy(S.cursor);
  el("circle", { cx, cy, r: 26, class: "cursor" }, svg);
  drawHits(svg, board, o);
  svg.setAttribute("aria-activedescendant", "pt-" + S.cursor);
  showCounts(board);
}

function showCounts(board) {
  $("count-white").textContent = board.white.length;
  $("count-black").textContent = board.black.length;
  $("count-white-box").classList.toggle("to-move", board.turn === "white");
  $("count-black-box").classList.toggle("to-move", board.turn === "black");
}

function setNames(white, black) {
  $("name-white").textContent = white;
  $("name-black").textContent = black;
}

/// The board after applying `steps` to `board` (a copy): the stone moves, captures vanish
/// (those of the last step stay when `keepLast`, to be shown crossed out).
function applySteps(board, steps, keepLast) {
  const b = { white: [...board.white], black: [...board.black], turn: board.turn };
  const side = b.white.includes(steps.length ? steps[0].from : "") ? "white" : "black";
  steps.forEach((s, i) => {
    b[side] = b[side].map((p) => (p === s.from ? s.to : p));
    if (!(keepLast && i === steps.length - 1)) b[other(side)] = b[other(side)].filter((p) => !s.captured.includes(p));
  });
  return b;
}

/// Moves the keyboard cursor one point in the direction of an arrow key, as drawn.
function moveCursor(key) {
  const d = { ArrowLeft: [-GAP, 0], ArrowRight: [GAP, 0], ArrowUp: [0, -GAP], ArrowDown: [0, GAP] }[key];
  const [x, y] = xy(S.cursor);
  const next = allPoints().find((p) => { const [a, b] = xy(p); return a === x + d[0] && b === y + d[1]; });
  if (!next) return;
  S.cursor = next;
  const svg = $("board"), ring = svg.querySelector(".cursor");
  const [nx, ny] = xy(next);
  if (ring) { ring.setAttribute("cx", nx); ring.setAttribute("cy", ny); }
  svg.setAttribute("aria-activedescendant", "pt-" + next);
  const hit = $("pt-" + next);
  if (hit) announce(hit.getAttribute("aria-label"));
}

function announce(text) { $("announce").textContent = text || ""; }

/// Slides a stone of `color` from `from` to `to` over `ms` milliseconds.
function slide(board, color, from, to, ms, extra) {
  const b = { ...board, [color]: board[color].filter((p) => p !== from) };
  drawBoard(b, extra);
  if (ms <= 0) return Promise.resolve();
  const [x1, y1] = xy(from), [x2, y2] = xy(to);
  const c = el("circle", { cx: x1, cy: y1, r: 20, class: `stone ${color} moving`, "data-sliding": to }, $("board"));
  const t0 = performance.now();
  return new Promise((res) => {
    const frame = () => {
      const k = Math.min(1, (performance.now() - t0) / ms);
      const e = k < 0.5 ? 2 * k * k : 1 - ((-2 * k + 2) ** 2) / 2;
      c.setAttribute("cx", x1 + (x2 - x1) * e);
      c.setAttribute("cy", y1 + (y2 - y1) * e);
      if (k < 1) setTimeout(frame, 16); else res();
    };
    setTimeout(frame, 16);
  });
}
