// Fanorona in the browser: play against the computer, replay games, analyse positions.
// Plain JavaScript over the server's /api/; nothing is loaded from anywhere else.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const GAP = 60, MARGIN = 40;
const MAX_UPLOAD = 8 * 1024 * 1024;
// Milliseconds per computer step: [slide, captured stones shown before they vanish].
const SPEEDS = { slow: [650, 900], normal: [320, 520], fast: [120, 200], off: [0, 0] };
const SETTINGS_KEY = "fanorona.settings";

const S = {
  mode: "play",
  info: null,
  // The board's drawing: `vertical` on narrow screens (files top to bottom), `flip` when the
  // player has Black (their stones nearest to them).
  vertical: false,
  flip: false,
  cursor: "e3",
  settings: { anim: "normal", hints: false, analysis: false },
  replay: { file: null, game: null, data: null, ply: 0, step: 0 },
  analyse: { id: null, timer: null },
  // `gen` counts games: an answer that arrives after a new game (or a resignation) is dropped.
  play: {
    key: null, gen: 0, start: "startpos", moves: [], turns: [], history: [], color: "w", colorChoice: "w",
    level: "", engine: "", pos: null, partial: [], selected: null, busy: false, failed: null,
    resigned: null, view: null, seed: 1, resignArmed: null,
  },
  // What the computer's turns showed (read by the browser test).
  shown: { steps: 0, captureMarks: 0 },
  turnsOfFile: null,
};

// ---------- helpers ----------

async function api(path, body, timeoutMs) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let timer = null;
  if (timeoutMs) {
    const ctl = new AbortController();
    opts.signal = ctl.signal;
    timer = setTimeout(() => ctl.abort(), timeoutMs);
  }
  let r;
  try {
    r = await fetch(path, opts);
  } catch (e) {
    throw new Error(e.name === "AbortError" ? "no answer from the server in time" : `the server cannot be reached (${e.message})`);
  } finally { clearTimeout(timer); }
  const ct = r.headers.get("Content-Type") || "";
  if (!ct.startsWith("application/json")) {
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r;
  }
  const v = await r.json();
  if (!r.ok) { const e = new Error(v.error || `HTTP ${r.status}`); e.status = r.status; throw e; }
  return v;
}

function q(params) {
  return Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
function message(text) { $("message").textContent = text || ""; }
function status(text) { $("status").textContent = text || ""; }
function announce(text) { $("announce").textContent = text || ""; }
function show(id, on) { $(id).classList.toggle("hidden", !on); }
function capital(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

function parseHash() {
  const h = location.hash.replace(/^#/, "");
  const out = { mode: null };
  for (const part of h.split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    if (i < 0) { out.mode = decodeURIComponent(part); continue; }
    out[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
  }
  if (!out.mode) out.mode = out.file !== undefined ? "replay" : "play";
  return out;
}

function setHash(text) {
  if (location.hash !== "#" + text) history.replaceState(null, "", "#" + text);
}

function loadSettings() {
  try { Object.assign(S.settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}")); } catch (e) { /* defaults */ }
  if (!SPEEDS[S.settings.anim]) S.settings.anim = "normal";
}

function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch (e) { /* private mode */ }
}

// ---------- the board ----------

let boardClick = null;

function allPoints() {
  const pts = [];
  for (let r = 1; r <= 5; r++) for (const f of FILES) pts.push(f + r);
  return pts;
}

/// Where point `p` is drawn: 9 files across and 5 ranks up, or on narrow screens 5 ranks across
/// and 9 files down; turned half round when the player has Black.
function xy(p) {
  let f = FILES.indexOf(p[0]), r = Number(p[1]) - 1;
  if (S.flip) { f = 8 - f; r = 4 - r; }
  return S.vertical ? [MARGIN + r * GAP, MARGIN + f * GAP] : [MARGIN + f * GAP, MARGIN + (4 - r) * GAP];
}

function boardSize() { return S.vertical ? [320, 560] : [560, 320]; }

function drawLines(svg) {
  for (let r = 1; r <= 5; r++) { const [x1, y1] = xy("a" + r), [x2, y2] = xy("i" + r); el("line", { x1, y1, x2, y2, class: "line" }, svg); }
  for (const f of FILES) { const [x1, y1] = xy(f + "1"), [x2, y2] = xy(f + "5"); el("line", { x1, y1, x2, y2, class: "line" }, svg); }
  for (const p of allPoints()) {
    const fi = FILES.indexOf(p[0]), ri = Number(p[1]) - 1;
    if ((fi + ri) % 2 !== 0) continue;
    for (const [df, dr] of [[1, 1], [1, -1]]) {
      const nf = fi + df, nr = ri + dr;
      if (nf > 8 || nr < 0 || nr > 4) continue;
      const [x1, y1] = xy(p), [x2, y2] = xy(FILES[nf] + (nr + 1));
      el("line", { x1, y1, x2, y2, class: "line" }, svg);
    }
    const [x, y] = xy(p);
    el("circle", { cx: x, cy: y, r: 5, class: "strong" }, svg);
  }
  const [, h] = boardSize();
  for (const f of FILES) {
    const [x, y] = xy(f + (S.flip ? "5" : "1"));
    const t = el("text", S.vertical ? { x: 14, y: y + 4, class: "label" } : { x, y: h - 6, class: "label" }, svg);
    t.textContent = f;
  }
  for (let r = 1; r <= 5; r++) {
    const [x, y] = xy((S.flip ? "i" : "a") + r);
    const t = el("text", S.vertical ? { x, y: h - 6, class: "label" } : { x: 14, y: y + 4, class: "label" }, svg);
    t.textContent = r;
  }
}

function drawCross(svg, p, cls, size) {
  const [x, y] = xy(p);
  el("line", { x1: x - size, y1: y - size, x2: x + size, y2: y + size, class: cls }, svg);
  el("line", { x1: x - size, y1: y + size, x2: x + size, y2: y - size, class: cls }, svg);
}

/// The last turn: its path, where it started and the stones it captured (small crosses).
function drawLast(svg, last) {
  if (!last || !last.steps || !last.steps.length) return;
  const path = [last.steps[0].from, ...last.steps.map((s) => s.to)];
  el("polyline", { points: path.map((p) => xy(p).join(",")).join(" "), class: "last-path" }, svg);
  const [x, y] = xy(path[0]);
  el("circle", { cx: x, cy: y, r: 14, class: "last-from", "data-last-from": path[0] }, svg);
  for (const s of last.steps) for (const c of s.captured) drawCross(svg, c, "ghost", 7);
}

function pointLabel(p, board, o) {
  const stone = board.white.includes(p) ? "white stone" : board.black.includes(p) ? "black stone" : "empty";
  const extra = [];
  if (o.selected === p || o.moving === p) extra.push("selected");
  if ((o.targets || []).includes(p)) extra.push("you can move here");
  if ((o.hints || []).includes(p)) extra.push("must capture");
  if (o.lastTo === p) extra.push("moved last");
  return [p, stone, ...extra].join(", ");
}

function drawBoard(board, o = {}) {
  const svg = $("board");
  const [w, h] = boardSize();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.classList.toggle("vertical", S.vertical);
  svg.replaceChildren();
  drawLines(svg);
  drawLast(svg, o.last);
  if (o.path && o.path.length > 1) el("polyline", { points: o.path.map((p) => xy(p).join(",")).join(" "), class: "path" }, svg);
  const captured = new Set(o.captured || []), hints = new Set(o.hints || []);
  for (const [color, list] of [["white", board.white], ["black", board.black]]) {
    for (const p of list) {
      const [x, y] = xy(p);
      let cls = `stone ${color}`;
      if (captured.has(p)) cls += " captured";
      if (o.moving === p) cls += " moving";
      if (o.selected === p) cls += " selected";
      if (hints.has(p)) cls += " hint";
      if (o.lastTo === p) cls += " last-to";
      el("circle", { cx: x, cy: y, r: 20, class: cls, "data-point": p }, svg);
      if (captured.has(p)) drawCross(svg, p, "cross", 12);
    }
  }
  for (const p of o.targets || []) { const [x, y] = xy(p); el("circle", { cx: x, cy: y, r: 10, class: "target", "data-target": p }, svg); }
  const [cx, cy] = xy(S.cursor);
  el("circle", { cx, cy, r: 26, class: "cursor" }, svg);
  for (const p of allPoints()) {
    const [x, y] = xy(p);
    const hit = el("circle", { cx: x, cy: y, r: 28, class: "hit", "data-hit": p, id: "pt-" + p, role: "button", "aria-label": pointLabel(p, board, o) }, svg);
    hit.addEventListener("click", () => { S.cursor = p; if (boardClick) boardClick(p); });
  }
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

/// The board after applying `steps` to `board` (a copy): the stone moves, captures vanish.
function applySteps(board, steps, keepLast) {
  const b = { white: [...board.white], black: [...board.black], turn: board.turn };
  const side = b.white.includes(steps.length ? steps[0].from : "") ? "white" : "black";
  const other = side === "white" ? "black" : "white";
  steps.forEach((s, i) => {
    b[side] = b[side].map((p) => (p === s.from ? s.to : p));
    if (!(keepLast && i === steps.length - 1)) b[other] = b[other].filter((p) => !s.captured.includes(p));
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

function boardKeys(ev) {
  if (S.mode !== "play") return;
  if (ev.key.startsWith("Arrow")) { ev.preventDefault(); ev.stopPropagation(); moveCursor(ev.key); }
  else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); if (boardClick) boardClick(S.cursor); }
  else if (ev.key === "Escape") { ev.preventDefault(); cancelSelection(); }
}

// ---------- the computer's turn, step by step ----------

/// Slides the stone on `from` to `to` over `ms` milliseconds.
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

/// Shows `steps` of `color` from `board`: each step slides, its captured stones are marked,
/// then they vanish. Returns false when the game changed meanwhile.
async function animateTurn(board, steps, color, gen) {
  const [slideMs, markMs] = SPEEDS[S.settings.anim] || SPEEDS.normal;
  let b = { white: [...board.white], black: [...board.black], turn: board.turn };
  const other = color === "white" ? "black" : "white";
  const path = [steps[0].from];
  for (const s of steps) {
    await slide(b, color, s.from, s.to, slideMs, { path });
    if (gen !== S.play.gen || S.mode !== "play") return false;
    b[color] = b[color].map((p) => (p === s.from ? s.to : p));
    path.push(s.to);
    S.shown.steps++;
    if (s.captured.length) {
      S.shown.captureMarks++;
      drawBoard(b, { captured: s.captured, moving: s.to, path });
      if (markMs > 0) await sleep(markMs);
      if (gen !== S.play.gen || S.mode !== "play") return false;
      b[other] = b[other].filter((p) => !s.captured.includes(p));
    }
  }
  return true;
}

function describeTurn(steps) {
  const route = [steps[0].from, ...steps.map((s) => s.to)].join(" to ");
  const caps = steps.flatMap((s) => s.captured);
  if (!caps.length) return route;
  return `${route}, capturing ${caps.length} stone${caps.length > 1 ? "s" : ""} (${caps.join(" ")})`;
}

// ---------- replay ----------

async function loadFiles() {
  const v = await api("/api/files");
  const sel = $("file");
  sel.replaceChildren();
  for (const f of v.files) {
    sel.appendChild(html("option", { value: f.name }, `${f.name} (${f.kind || "?"}, ${f.games} games)${f.error ? " — " + f.error : ""}`));
  }
  $("games-count").textContent = v.files.length ? "" : "No game files yet: open one above, or start fanorona serve with record files or run directories.";
}

async function loadGames() {
  const file = $("file").value;
  if (!file) return [];
  try {
    const v = await api("/api/games?" + q({ file, engine: $("f-engine").value, result: $("f-result").value, termination: $("f-termination").value, min_len: $("f-min").value, max_len: $("f-max").value, limit: 1000 }));
    $("games-count").textContent = `${v.matched} of ${v.total} games${v.matched > v.games.length ? ` (first ${v.games.length} shown)` : ""}${v.error ? "; the file is damaged after them: " + v.error : ""}`;
    const tb = $("games").querySelector("tbody");
    tb.replaceChildren();
    for (const g of v.games) {
      const tr = document.createElement("tr");
      tr.dataset.game = g.game;
      tr.tabIndex = 0;
      for (const c of [g.game, g.white, g.black, g.result, g.termination, g.length]) tr.appendChild(html("td", {}, c));
      const open = () => { location.hash = q({ file, game: g.game, ply: 0 }); };
      tr.addEventListener("click", open);
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") open(); });
      tb.appendChild(tr);
    }
    message("");
    return v.games;
  } catch (e) { message(e.message); return []; }
}

async function uploadFile(file) {
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    message(`${file.name} is ${(file.size / 1048576).toFixed(1)} MiB: files of at most 8 MiB can be opened here (larger ones: fanorona serve FILE)`);
    return;
  }
  let v;
  try {
    const r = await fetch("/api/upload?" + q({ name: file.name }), { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
    v = await r.json();
    if (!r.ok) { message(v.error || `HTTP ${r.status}`); return; }
  } catch (e) { message(`${file.name}: ${e.message}`); return; }
  await loadFiles();
  $("file").value = v.file;
  S.turnsOfFile = v.file;
  const games = await loadGames();
  message("");
  status(`Opened ${file.name}: ${v.games} game${v.games === 1 ? "" : "s"}.`);
  if (games.length) location.hash = q({ file: v.file, game: games[0].game, ply: 0 });
}

async function openGame(file, game, ply, step) {
  const R = S.replay;
  if (R.file !== file || R.game !== game || !R.data) {
    try {
      R.data = await api("/api/game?" + q({ file, game }));
    } catch (e) { message(e.message); return; }
    R.file = file; R.game = game;
    if ($("file").value !== file) { $("file").value = file; }
    renderTurnList();
    drawChart();
  }
  R.ply = Math.max(0, Math.min(ply, R.data.turns.length));
  const n = R.ply < R.data.turns.length ? R.data.turns[R.ply].turn.steps.length : 0;
  R.step = Math.max(0, Math.min(step, n));
  renderReplay();
}

/// Fills a move table: one row per full turn (White, then Black), each turn a button.
function fillTurnTable(table, turns, current, onPick) {
  const tb = table.querySelector("tbody");
  tb.replaceChildren();
  let row = null, number = 0;
  const cellFor = (t, i) => {
    const td = document.createElement("td");
    const b = html("button", { type: "button", "data-ply": i + 1, "aria-label": `turn ${number}, ${t.mover}: ${t.notation}` }, t.notation);
    if (t.extra) b.appendChild(html("span", { class: "sc" }, t.extra));
    if (t.title) b.title = t.title;
    if (i === current) b.classList.add("current");
    b.addEventListener("click", () => onPick(i + 1));
    td.appendChild(b);
    return td;
  };
  turns.forEach((t, i) => {
    if (t.mover === "white" || !row || row.children.length === 3) {
      number++;
      row = document.createElement("tr");
      row.appendChild(html("td", {}, `${number}.`));
      tb.appendChild(row);
      if (t.mover === "black") row.appendChild(html("td", {}, "…"));
    }
    row.appendChild(cellFor(t, i));
  });
  const cur = tb.querySelector("button.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

function renderTurnList() {
  const d = S.replay.data;
  $("game-title").textContent = `Game ${d.game}: ${d.white || "?"} (White) vs ${d.black || "?"} (Black), ${d.outcome.text}`;
  for (const tr of $("games").querySelectorAll("tbody tr")) tr.classList.toggle("open", Number(tr.dataset.game) === d.game);
}

function replayView() {
  const { data: d, ply, step } = S.replay;
  if (ply >= d.turns.length) return { board: d.final_board, text: `End of game after ${d.turns.length} turns: ${d.outcome.text}${d.error ? " (" + d.error + ")" : ""}`, captured: [] };
  const t = d.turns[ply];
  if (step === 0) {
    return { board: t.board, text: `After ${ply} turns, ${t.mover} to move; next: ${t.turn.notation}`, captured: [] };
  }
  const steps = t.turn.steps, s = steps[step - 1];
  const board = applySteps(t.board, steps.slice(0, step), true);
  const kind = s.kind === "paika" ? "paika (no capture)" : s.kind;
  const caps = s.captured.length ? `, captures ${s.captured.join(" ")}` : "";
  return {
    board, captured: s.captured, moving: s.to, path: [steps[0].from, ...steps.slice(0, step).map((x) => x.to)],
    text: `Turn ${ply + 1} (${t.mover}) ${t.turn.notation}: step ${step} of ${steps.length}: ${s.from}-${s.to} ${kind}${caps}`,
  };
}

function renderReplay() {
  const R = S.replay;
  if (!R.data || S.mode !== "replay") return;
  const v = replayView();
  boardClick = null;
  S.flip = false;
  drawBoard(v.board, v);
  setNames(R.data.white || "White", R.data.black || "Black");
  status(v.text);
  $("prompt").replaceChildren();
  const turns = R.data.turns.map((t) => ({
    mover: t.mover, notation: t.turn.notation, extra: t.score_text === null || t.score_text === undefined ? "" : t.score_text,
    title: "recorded score: the mover's view, in stones" + (t.exploration ? "; chosen by exploration" : ""),
  }));
  fillTurnTable($("turns"), turns, R.ply - (R.step === 0 ? 1 : 0), (ply) => { R.ply = ply; R.step = 0; renderReplay(); });
  const hash = q({ file: R.file, game: R.game, ply: R.ply, step: R.step || undefined });
  setHash(hash);
  $("link").href = "#" + hash;
  drawChart();
}

function stepNext() {
  const R = S.replay; const d = R.data; if (!d || R.ply >= d.turns.length) return;
  const steps = d.turns[R.ply].turn.steps;
  const paika = steps.length === 1 && steps[0].kind === "paika";
  if (R.step < steps.length && !(paika && R.step === 0)) R.step++; else { R.ply++; R.step = 0; }
  renderReplay();
}

function stepPrev() {
  const R = S.replay; const d = R.data; if (!d) return;
  if (R.step > 0) R.step--;
  else if (R.ply > 0) {
    R.ply--;
    const steps = d.turns[R.ply].turn.steps;
    R.step = steps.length === 1 && steps[0].kind === "paika" ? 0 : steps.length;
  }
  renderReplay();
}

function drawChart() {
  const svg = $("chart");
  svg.replaceChildren();
  const d = S.replay.data;
  if (!d || S.mode !== "replay") { $("chart-note").textContent = ""; return; }
  const W = 560, H = 120, CAP = 600, n = Math.max(1, d.turns.length);
  const X = (i) => 30 + (i / n) * (W - 40), Y = (s) => H / 2 - (Math.max(-CAP, Math.min(CAP, s)) / CAP) * (H / 2 - 10);
  el("line", { x1: 30, y1: H / 2, x2: W - 10, y2: H / 2, class: "axis" }, svg);
  for (const [s, label] of [[CAP, "+6"], [-CAP, "-6"], [0, "0"]]) { const t = el("text", { x: 4, y: Y(s) + 3 }, svg); t.textContent = label; }
  const pts = d.turns.map((t, i) => (t.white_score === null ? null : `${X(i)},${Y(t.white_score)}`)).filter(Boolean);
  if (pts.length) el("polyline", { points: pts.join(" "), class: "curve" }, svg);
  el("line", { x1: X(S.replay.ply), y1: 4, x2: X(S.replay.ply), y2: H - 4, class: "now" }, svg);
  $("chart-note").textContent = pts.length ? `Recorded score per turn, White's view, in stones (clipped at ±6; forced wins at the edge): ${d.turns.filter((t) => t.white_score !== null).length} scored turns.` : "No recorded scores in this game.";
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const ply = Math.round((((ev.clientX - r.left) * (W / r.width)) - 30) / (W - 40) * n);
    S.replay.ply = Math.max(0, Math.min(d.turns.length, ply)); S.replay.step = 0; renderReplay();
  };
}

// ---------- analyse ----------

async function analyseShow() {
  try {
    const v = await api("/api/position?" + q({ position: $("a-position").value, moves: $("a-moves").value }));
    boardClick = null;
    S.flip = false;
    drawBoard(v.board);
    setNames("White", "Black");
    status(`${v.position}: ${v.turn} to move, ${v.legal.length} legal turns${v.outcome ? "; " + v.outcome.text : ""}`);
    $("a-tb").textContent = v.tablebase ? `Tablebase: ${v.tablebase.text} (side to move's view)` : (S.info && S.info.tablebase ? "Tablebase: not covered" : "");
    setHash("analyse&" + q({ position: $("a-position").value, moves: $("a-moves").value }));
    message("");
    return v;
  } catch (e) { message(e.message); return null; }
}

async function analyseStart() {
  await analyseStop();
  if (!(await analyseShow())) return;
  $("depths").querySelector("tbody").replaceChildren();
  $("a-result").textContent = "searching…";
  try {
    const r = await api("/api/search", { position: $("a-position").value, moves: $("a-moves").value, engine: $("a-engine").value });
    S.analyse.id = r.id;
    poll();
  } catch (e) { $("a-result").textContent = ""; message(e.message); }
}

async function poll() {
  const id = S.analyse.id;
  if (id === null) return;
  try {
    const v = await api("/api/search?" + q({ id }));
    const tb = $("depths").querySelector("tbody");
    tb.replaceChildren();
    for (const d of v.depths) {
      const tr = document.createElement("tr");
      for (const c of [d.depth, d.score_text, d.nodes, d.time_ms, d.pv.join(" ")]) tr.appendChild(html("td", {}, c));
      tb.appendChild(tr);
    }
    if (v.done) {
      const r = v.result;
      $("a-result").textContent = `best ${r.best || "none"}, score ${r.score_text} at depth ${r.depth}, ${r.nodes} nodes, ${r.time_ms} ms${r.stopped ? " (stopped)" : ""}`;
      S.analyse.id = null;
      return;
    }
    S.analyse.timer = setTimeout(poll, 250);
  } catch (e) { message(e.message); S.analyse.id = null; }
}

async function analyseStop() {
  clearTimeout(S.analyse.timer);
  const id = S.analyse.id;
  if (id !== null) { try { await api("/api/search/stop?" + q({ id }), {}); } catch (e) { /* already gone */ } S.analyse.timer = setTimeout(poll, 50); }
}

// ---------- play: settings and a new game ----------

function levels() { return (S.info && S.info.levels) || []; }
function levelInfo(name) { return levels().find((l) => l.name === name) || null; }

function buildLevels() {
  const box = $("levels");
  for (const l of levels()) {
    const label = html("label", { title: l.description });
    const input = html("input", { type: "radio", name: "p-level", value: l.name });
    label.append(input, document.createTextNode(" " + l.name));
    input.addEventListener("change", showLevelNote);
    box.appendChild(label);
  }
  setLevel((S.info && S.info.default_level) || (levels()[0] || {}).name);
}

function setLevel(name) {
  for (const r of document.querySelectorAll("input[name=p-level]")) r.checked = r.value.toLowerCase() === String(name || "").toLowerCase();
  showLevelNote();
}

function chosenLevel() { const r = document.querySelector("input[name=p-level]:checked"); return r ? r.value : ""; }
function chosenColor() { const r = document.querySelector("input[name=p-color]:checked"); return r ? r.value : "w"; }
function setColor(c) { for (const r of document.querySelectorAll("input[name=p-color]")) r.checked = r.value === c; }

function showLevelNote() {
  const l = levelInfo(chosenLevel());
  const playing = S.play.pos && S.play.level !== chosenLevel() ? " (from the next game)" : "";
  $("level-note").textContent = l ? `${l.name}: ${l.description}${playing}` : "";
}

function playKey(h) { return `${h.color}|${h.level}|${h.engine}|${h.position}`; }
function uiKey() { return playKey({ color: chosenColor(), level: chosenLevel(), engine: $("p-engine").value.trim(), position: $("p-position").value.trim() }); }
function human() { return S.play.color === "w" ? "white" : "black"; }
function computerName() { const P = S.play; return P.engine ? `Computer (${P.engine})` : `Computer (${P.level || "default"})`; }
function recordName() {
  const P = S.play, l = levelInfo(P.level);
  return P.engine || (l ? `${l.name} level (${l.spec})` : (S.info && S.info.engine) || "engine");
}

async function playNew() {
  const P = S.play;
  P.colorChoice = chosenColor();
  P.color = P.colorChoice === "r" ? (Math.random() < 0.5 ? "w" : "b") : P.colorChoice;
  P.level = chosenLevel();
  P.engine = $("p-engine").value.trim();
  P.start = $("p-position").value.trim() || "startpos";
  P.key = uiKey();
  P.gen++; P.busy = false; P.failed = null; P.resigned = null; P.view = null; P.resignArmed = null;
  P.moves = []; P.turns = []; P.history = []; P.partial = []; P.selected = null; P.pos = null;
  P.seed = 1 + Math.floor(Math.random() * 1e9);
  message(P.warning || ""); P.warning = null; announce(""); $("p-engine-note").textContent = "";
  setHash("play&" + q({ level: P.level, color: P.colorChoice, engine: P.engine, position: $("p-position").value.trim() }));
  showLevelNote();
  const gen = P.gen;
  let pos;
  try {
    pos = await api("/api/position?" + q({ position: P.start }));
  } catch (e) { if (gen === P.gen) { message(e.message); status("The game cannot start: fix the start position under Advanced."); } return; }
  if (gen !== P.gen) return;
  P.pos = pos; P.history = [pos];
  renderPlay();
  if (!pos.outcome && pos.turn !== human()) await engineMove();
  else if (pos.outcome) finish();
}

async function rematch() {
  setColor(S.play.color === "w" ? "b" : "w");
  setLevel(S.play.level);
  await playNew();
}

// ---------- play: the board and the player's clicks ----------

function lastTurn(ply) {
  const t = S.play.turns[ply - 1];
  return t ? { steps: t.steps, to: t.steps[t.steps.length - 1].to } : null;
}

function hintStones() {
  const P = S.play;
  if (!S.settings.hints || !P.pos || P.pos.outcome || P.busy || P.pos.turn !== human() || P.partial.length || !P.pos.must_capture) return [];
  return [...new Set(P.pos.legal.map((t) => t.steps[0].from))];
}

function playBoard() {
  const P = S.play;
  const last = lastTurn(P.moves.length);
  const base = { last, lastTo: last && !P.partial.length ? last.to : null, hints: hintStones() };
  if (!P.partial.length) return { ...base, board: P.pos.board, selected: P.selected, moving: P.selected, targets: P.selected ? targetsFrom(P.selected) : [] };
  const at = P.partial[P.partial.length - 1].to;
  return { ...base, board: applySteps(P.pos.board, P.partial, false), moving: at, targets: targetsFrom(at), path: [P.partial[0].from, ...P.partial.map((s) => s.to)] };
}

/// Turns whose first steps are the chain chosen so far.
function continuing() {
  const pre = S.play.partial;
  return S.play.pos.legal.filter((t) => t.steps.length > pre.length && pre.every((s, i) => t.steps[i].from === s.from && t.steps[i].to === s.to && t.steps[i].mark === s.mark));
}

function targetsFrom(from) {
  const i = S.play.partial.length;
  return [...new Set(continuing().filter((t) => t.steps[i].from === from).map((t) => t.steps[i].to))];
}

function playStatus() {
  const P = S.play, me = human();
  if (P.resigned || P.pos.outcome) return resultWords().title;
  if (P.busy) return "The computer is thinking…";
  if (P.failed) return "The computer could not move: see the message below, then ask again or start a new game.";
  if (P.pos.turn !== me) return "The computer's turn.";
  if (P.partial.length) return `Capture chain ${notation(P.partial)}: capture again with the same stone, or stop (click the stone or press "Stop the chain here").`;
  if (P.selected) return `Your turn (${me}): click a highlighted point to move the stone on ${P.selected}.`;
  return `Your turn (${me}): ${P.pos.must_capture ? "you must capture. " : ""}Click one of your stones.`;
}

function renderPlay() {
  if (S.mode !== "play" || !S.play.pos) return;
  const P = S.play, me = human();
  S.flip = P.color === "b";
  setNames(me === "white" ? "You" : computerName(), me === "black" ? "You" : computerName());
  if (P.view !== null && P.view < P.history.length - 1) {
    boardClick = onPlayClick;
    const last = lastTurn(P.view);
    drawBoard(P.history[P.view].board, { last, lastTo: last && last.to });
    $("viewing-text").textContent = P.view === 0 ? "Viewing the start of the game." : `Viewing the position after turn ${P.view} (${P.moves[P.view - 1]}).`;
    $("viewing").classList.add("show");
  } else {
    P.view = null;
    $("viewing").classList.remove("show");
    boardClick = onPlayClick;
    const v = playBoard();
    drawBoard(v.board, v);
  }
  status(playStatus());
  const over = !!(P.pos.outcome || P.resigned);
  show("p-stop", P.partial.length > 0 && !over);
  show("p-retry", !!P.failed && !over && !P.busy);
  show("p-undo", P.turns.some((t) => t.mover === me) && !P.busy);
  show("p-resign", !over && P.moves.length > 0);
  show("p-save", !!(S.info && S.info.save));
  $("p-resign").textContent = P.resignArmed ? "Really resign?" : "Resign";
  renderMoves();
}

function renderMoves() {
  const P = S.play;
  const current = P.view === null ? P.moves.length - 1 : P.view - 1;
  fillTurnTable($("movelist"), P.turns.map((t) => ({ mover: t.mover, notation: t.notation })), current, viewPly);
}

function viewPly(ply) {
  const P = S.play;
  if (P.partial.length) return;
  P.view = ply >= P.history.length - 1 ? null : ply;
  renderPlay();
}

function notation(steps) { return steps.map((s) => s.from + s.to + s.mark).join(","); }

function cancelSelection() {
  const P = S.play;
  if (P.partial.length) return;
  P.selected = null;
  $("prompt").replaceChildren();
  renderPlay();
}

async function onPlayClick(p) {
  const P = S.play;
  $("prompt").replaceChildren();
  if (!P.pos) return;
  if (P.view !== null) { P.view = null; renderPlay(); message("Back to the current position."); return; }
  if (P.pos.outcome || P.resigned) { message("The game is over: press Rematch or New game."); return; }
  if (P.busy) { message("Wait: the computer is moving."); return; }
  if (P.pos.turn !== human()) { message("It is the computer's turn: ask it again, or start a new game."); return; }
  if (P.partial.length) {
    const at = P.partial[P.partial.length - 1].to;
    if (p === at) { commit(); return; }
    await tryStep(at, p);
    return;
  }
  if (P.selected === p) { cancelSelection(); return; }
  const own = P.pos.board[human()].includes(p);
  if (own || P.selected === null) {
    try {
      const gen = P.gen;
      const v = await api("/api/check?" + q({ position: P.start, moves: P.moves.join(" "), from: p }));
      if (gen !== P.gen) return;
      if (!v.legal) { message(v.error); P.selected = null; renderPlay(); return; }
      P.selected = p; message(""); renderPlay();
    } catch (e) { message(e.message); }
    return;
  }
  await tryStep(P.selected, p);
}

async function tryStep(from, to) {
  const P = S.play, i = P.partial.length;
  const cands = continuing().filter((t) => t.steps[i].from === from && t.steps[i].to === to);
  if (!cands.length) {
    const text = (i ? notation(P.partial) + "," : "") + from + to;
    try {
      const v = await api("/api/check?" + q({ position: P.start, moves: P.moves.join(" "), turn: text }));
      message(v.legal ? "" : `Not allowed: ${v.error}`);
    } catch (e) { message(`Not allowed: ${e.message.replace(/^turn "[^"]*": /, "")}`); }
    return;
  }
  message("");
  const options = [];
  for (const t of cands) if (!options.some((o) => o.mark === t.steps[i].mark)) options.push(t.steps[i]);
  if (options.length === 1) { choose(options[0]); return; }
  const box = $("prompt");
  box.appendChild(html("span", {}, `${from}-${to} captures two ways: `));
  for (const o of options) {
    const b = html("button", { type: "button", "data-mark": o.mark }, `${o.kind === "approach" ? "Approach" : "Withdrawal"}: captures ${o.captured.join(" ")}`);
    b.addEventListener("click", () => { box.replaceChildren(); choose(o); });
    box.appendChild(b);
  }
  box.querySelector("button").focus();
}

function choose(step) {
  const P = S.play;
  P.partial.push({ from: step.from, to: step.to, mark: step.mark, captured: step.captured, kind: step.kind });
  if (continuing().length) { renderPlay(); return; }
  commit();
}

async function commit() {
  const P = S.play, gen = P.gen;
  if (!P.partial.length || P.busy) return;
  P.busy = true;
  const steps = P.partial;
  P.moves.push(notation(steps));
  P.turns.push({ mover: human(), notation: notation(steps), steps });
  P.partial = []; P.selected = null;
  $("prompt").replaceChildren();
  let pos;
  try {
    pos = await api("/api/position?" + q({ position: P.start, moves: P.moves.join(" ") }));
  } catch (e) { if (gen === P.gen) { P.busy = false; message(e.message); } return; }
  if (gen !== P.gen) return;
  P.pos = pos; P.history.push(pos);
  P.busy = false;
  renderPlay();
  if (pos.outcome) finish();
  else await engineMove();
}

// ---------- play: the computer ----------

async function engineMove() {
  const P = S.play, gen = P.gen, color = P.pos.turn;
  if (P.failed) message("");
  P.busy = true; P.failed = null;
  renderPlay();
  let r;
  try {
    const body = { position: P.start, moves: P.moves, seed: P.seed + P.moves.length };
    if (P.engine) body.engine = P.engine; else if (P.level) body.level = P.level;
    r = await api("/api/engine", body, 60000);
  } catch (e) {
    if (gen !== P.gen) return;
    P.busy = false; P.failed = e.message;
    message(`The computer could not move: ${e.message}`);
    announce(`The computer could not move: ${e.message}`);
    renderPlay();
    return;
  }
  if (gen !== P.gen) return;
  const before = P.pos.board;
  const done = await animateTurn(before, r.turn.steps, color, gen);
  if (!done || gen !== P.gen) return;
  P.moves.push(r.turn.notation);
  P.turns.push({ mover: color, notation: r.turn.notation, steps: r.turn.steps });
  P.pos = r.after; P.history.push(r.after);
  P.busy = false;
  $("p-engine-note").textContent = S.settings.analysis && r.score_text
    ? `The computer's view: score ${r.score_text} for itself${r.depth ? `, looking ${r.depth} turns ahead` : ""}; expected line ${r.pv.join(" ")}`
    : "";
  renderPlay();
  const said = `The computer played ${describeTurn(r.turn.steps)}.`;
  if (r.after.outcome) { finish(said); return; }
  announce(`${said} Your turn.`);
}

// ---------- play: the end of a game ----------

function resultWords() {
  const P = S.play, me = human();
  if (P.resigned) {
    return { title: P.resigned === me ? "You resigned: the computer wins" : "The computer resigned: you win", reason: "" };
  }
  const o = P.pos.outcome;
  const mine = o.winner === me;
  const title = o.winner === null ? "Draw" : (mine ? "You won!" : "The computer won");
  const info = S.info || {};
  const reasons = {
    "all-captured": mine ? "You captured all of the computer's stones." : "The computer captured all of your stones.",
    "no-moves": mine ? "The computer has no legal move left." : "You have no legal move left.",
    repetition: "The same position occurred for the third time.",
    "no-progress": `${info.max_quiet_plies || "Too many"} turns in a row passed without a capture.`,
    "max-length": `The game reached its limit of ${info.max_plies || "the maximum number of"} turns.`,
  };
  return { title, reason: reasons[o.termination] || capital(o.text) + "." };
}

function finish(said) {
  const w = resultWords();
  $("result-title").textContent = w.title;
  $("result-reason").textContent = w.reason;
  $("result").classList.add("show");
  $("p-rematch").textContent = `Rematch (you play ${S.play.color === "w" ? "Black" : "White"})`;
  renderPlay();
  announce(`${said ? said + " " : ""}${w.title}. ${w.reason}`);
}

function hideResult() { $("result").classList.remove("show"); }

async function resign() {
  const P = S.play;
  if (P.pos.outcome || P.resigned) return;
  if (!P.resignArmed) {
    P.resignArmed = setTimeout(() => { P.resignArmed = null; renderPlay(); }, 4000);
    renderPlay();
    return;
  }
  clearTimeout(P.resignArmed); P.resignArmed = null;
  P.gen++; P.busy = false; P.partial = []; P.selected = null;
  P.resigned = human();
  finish();
}

function recordBody() {
  const P = S.play, me = human(), them = recordName();
  return {
    position: P.start, moves: P.moves, white: me === "white" ? "human" : them, black: me === "black" ? "human" : them,
    resigned: P.resigned || undefined,
  };
}

async function download(path, name) {
  try {
    const r = await api(path, recordBody());
    const a = html("a", { download: name });
    a.href = URL.createObjectURL(await r.blob());
    document.body.appendChild(a); a.click(); a.remove();
    message("");
    status(`Downloaded ${name}.`);
  } catch (e) { message(e.message); }
}

async function playSave() {
  try {
    const v = await api("/api/save", recordBody());
    status(`Saved as game ${v.game} of ${v.file}.`);
    loadFiles();
  } catch (e) { message(e.message); }
}

async function playUndo() {
  const P = S.play, me = human();
  if (P.busy || !P.turns.some((t) => t.mover === me)) return;
  P.gen++; P.partial = []; P.selected = null; P.failed = null; P.resigned = null; P.view = null;
  do { P.moves.pop(); P.turns.pop(); P.history.pop(); } while (P.moves.length && P.history[P.history.length - 1].turn !== me);
  P.pos = P.history[P.history.length - 1];
  hideResult(); message(""); $("prompt").replaceChildren();
  renderPlay();
  if (P.pos.turn !== me && !P.pos.outcome) await engineMove();
}

// ---------- modes and the address ----------

function setMode(mode) {
  S.mode = mode;
  for (const m of ["replay", "analyse", "play"]) {
    $("tab-" + m).classList.toggle("active", m === mode);
    if (m === mode) $("tab-" + m).setAttribute("aria-current", "page"); else $("tab-" + m).removeAttribute("aria-current");
    $("panel-" + m).classList.toggle("active", m === mode);
  }
  for (const id of ["replay-controls", "chart", "chart-note"]) $(id).style.display = mode === "replay" ? "" : "none";
  for (const id of ["play-controls", "p-engine-note"]) $(id).style.display = mode === "play" ? "" : "none";
  if (mode !== "play") { $("result").classList.remove("show"); $("viewing").classList.remove("show"); }
  else if (S.play.pos && (S.play.pos.outcome || S.play.resigned)) $("result").classList.add("show");
  $("prompt").replaceChildren();
  message("");
}

async function route() {
  const h = parseHash();
  const mode = ["replay", "analyse"].includes(h.mode) ? h.mode : "play";
  setMode(mode);
  if (mode === "replay") {
    if (h.file !== undefined) {
      await openGame(h.file, Number(h.game || 0), Number(h.ply || 0), Number(h.step || 0));
      if (S.turnsOfFile !== h.file) { S.turnsOfFile = h.file; $("file").value = h.file; loadGames(); }
    } else if (S.replay.data) renderReplay();
    else { boardClick = null; S.flip = false; drawBoard({ white: [], black: [] }); setNames("White", "Black"); status("Pick a game from the list, or open a game file."); }
  } else if (mode === "analyse") {
    if (h.position !== undefined) $("a-position").value = h.position;
    if (h.moves !== undefined) $("a-moves").value = h.moves;
    await analyseShow();
  } else {
    if (h.color) setColor(["w", "b", "r"].includes(h.color) ? h.color : "w");
    if (h.level) {
      setLevel(h.level);
      if (!chosenLevel()) { setLevel(S.info && S.info.default_level); S.play.warning = `unknown level "${h.level}": the levels are ${levels().map((l) => l.name).join(", ")}`; }
    }
    // An address that names a game names all of it: what it leaves out is the default.
    if (["level", "color", "engine", "position"].some((k) => h[k] !== undefined)) {
      $("p-engine").value = h.engine || "";
      $("p-position").value = h.position || "";
    }
    if (h.engine || h.position) $("p-advanced").open = true;
    if (h.anim && SPEEDS[h.anim]) { S.settings.anim = h.anim; $("p-anim").value = h.anim; }
    if (S.play.key !== uiKey() || !S.play.pos) { hideResult(); await playNew(); } else renderPlay();
  }
}

function keys(ev) {
  if (S.mode !== "replay" || ["INPUT", "SELECT", "BUTTON", "SUMMARY"].includes(ev.target.tagName)) return;
  const R = S.replay;
  if (!R.data) return;
  const act = { ArrowRight: stepNext, ArrowLeft: stepPrev, ArrowDown: () => { R.ply = Math.min(R.data.turns.length, R.ply + 1); R.step = 0; renderReplay(); }, ArrowUp: () => { if (R.step > 0) R.step = 0; else R.ply = Math.max(0, R.ply - 1); renderReplay(); }, Home: () => { R.ply = 0; R.step = 0; renderReplay(); }, End: () => { R.ply = R.data.turns.length; R.step = 0; renderReplay(); } }[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

function rerender() {
  if (S.mode === "play") renderPlay();
  else if (S.mode === "replay" && S.replay.data) renderReplay();
  else if (S.mode === "analyse") analyseShow();
}

function initSettings() {
  loadSettings();
  $("p-anim").value = S.settings.anim;
  $("p-hints").checked = S.settings.hints;
  $("p-analysis").checked = S.settings.analysis;
  $("p-anim").addEventListener("change", () => { S.settings.anim = $("p-anim").value; saveSettings(); });
  $("p-hints").addEventListener("change", () => { S.settings.hints = $("p-hints").checked; saveSettings(); renderPlay(); });
  $("p-analysis").addEventListener("change", () => { S.settings.analysis = $("p-analysis").checked; saveSettings(); if (!S.settings.analysis) $("p-engine-note").textContent = ""; });
  const narrow = window.matchMedia("(max-width: 640px)");
  S.vertical = narrow.matches;
  narrow.addEventListener("change", () => { S.vertical = narrow.matches; rerender(); });
}

function initReplay() {
  const terms = ["all-captured", "no-moves", "repetition", "no-progress", "max-length", "illegal-move", "time-forfeit", "engine-failure", "adjudication", "tablebase"];
  for (const t of terms) $("f-termination").appendChild(html("option", { value: t }, t));
  $("file").addEventListener("change", () => { S.turnsOfFile = $("file").value; loadGames(); });
  $("upload").addEventListener("change", () => { const f = $("upload").files[0]; $("upload").value = ""; uploadFile(f); });
  $("f-apply").addEventListener("click", loadGames);
  $("next").addEventListener("click", stepNext);
  $("prev").addEventListener("click", stepPrev);
  $("next-turn").addEventListener("click", () => keys({ key: "ArrowDown", target: {}, preventDefault() {} }));
  $("prev-turn").addEventListener("click", () => keys({ key: "ArrowUp", target: {}, preventDefault() {} }));
  $("first").addEventListener("click", () => keys({ key: "Home", target: {}, preventDefault() {} }));
  $("last").addEventListener("click", () => keys({ key: "End", target: {}, preventDefault() {} }));
  $("to-analyse").addEventListener("click", () => {
    const R = S.replay; if (!R.data) return;
    // The game's start and its turns so far: the search knows the history (repetitions, the
    // no-progress count).
    const moves = R.data.turns.slice(0, R.ply).map((t) => t.turn.notation).join(" ");
    location.hash = "analyse&" + q({ position: R.data.start, moves });
  });
}

function initPlay() {
  buildLevels();
  $("p-new").addEventListener("click", () => { hideResult(); playNew(); });
  $("p-stop").addEventListener("click", commit);
  $("p-retry").addEventListener("click", engineMove);
  $("p-undo").addEventListener("click", playUndo);
  $("p-resign").addEventListener("click", resign);
  $("p-rematch").addEventListener("click", () => { hideResult(); rematch(); });
  $("p-pgn").addEventListener("click", () => download("/api/pgn", "fanorona-game.pgn"));
  $("p-bin").addEventListener("click", () => download("/api/record", "fanorona-game.bin"));
  $("p-save").addEventListener("click", playSave);
  $("p-live").addEventListener("click", () => { S.play.view = null; renderPlay(); });
  for (const r of document.querySelectorAll("input[name=p-color]")) r.addEventListener("change", showLevelNote);
  $("board").addEventListener("keydown", boardKeys);
}

async function init() {
  try { S.info = await api("/api/info"); } catch (e) { message(e.message); }
  if (S.info) $("program").textContent = `${S.info.program}${S.info.save ? "; saving to " + S.info.save : ""}`;
  initSettings();
  initReplay();
  initPlay();
  for (const m of ["replay", "analyse", "play"]) $("tab-" + m).addEventListener("click", (ev) => { ev.preventDefault(); location.hash = m === "replay" && S.replay.data ? q({ file: S.replay.file, game: S.replay.game, ply: S.replay.ply }) : m; });
  $("a-show").addEventListener("click", analyseShow);
  $("a-start").addEventListener("click", analyseStart);
  $("a-stop").addEventListener("click", analyseStop);
  document.addEventListener("keydown", keys);
  window.addEventListener("hashchange", route);
  try { await loadFiles(); } catch (e) { message(e.message); }
  const h = parseHash();
  if (h.file === undefined && $("file").value) { S.turnsOfFile = $("file").value; loadGames(); }
  await route();
  document.body.dataset.ready = "1";
}

init();
