// Fanorona in the browser: replay, analyse, play. Plain JavaScript over the server's /api/.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const GAP = 60, MARGIN = 40;

const S = {
  mode: "replay",
  info: null,
  replay: { file: null, game: null, data: null, ply: 0, step: 0 },
  analyse: { id: null, timer: null },
  // `gen` counts games: an answer that arrives after a new game started is dropped.
  play: { key: null, gen: 0, start: "startpos", moves: [], color: "w", engine: "", pos: null, partial: [], selected: null, busy: false },
  turnsOfFile: null,
};

// ---------- helpers ----------

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const ct = r.headers.get("Content-Type") || "";
  if (!ct.startsWith("application/json")) {
    if (!r.ok) throw new Error(`${r.status}`);
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

function xy(p) {
  const f = FILES.indexOf(p[0]), r = Number(p[1]) - 1;
  return [MARGIN + f * GAP, MARGIN + (4 - r) * GAP];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function message(text) { $("message").textContent = text || ""; }
function status(text) { $("status").textContent = text || ""; }

function parseHash() {
  const h = location.hash.replace(/^#/, "");
  const out = { mode: null };
  for (const part of h.split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    if (i < 0) { out.mode = decodeURIComponent(part); continue; }
    out[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
  }
  if (!out.mode) out.mode = out.file !== undefined ? "replay" : (h === "" ? "replay" : "replay");
  return out;
}

function setHash(text) {
  if (location.hash !== "#" + text) history.replaceState(null, "", "#" + text);
}

// ---------- the board ----------

let boardClick = null;

function drawBoard(board, o = {}) {
  const svg = $("board");
  svg.replaceChildren();
  const pts = [];
  for (let r = 1; r <= 5; r++) for (const f of FILES) pts.push(f + r);
  for (let r = 1; r <= 5; r++) { const [x1, y] = xy("a" + r), [x2] = xy("i" + r); el("line", { x1, y1: y, x2, y2: y, class: "line" }, svg); }
  for (const f of FILES) { const [x, y1] = xy(f + "1"), [, y2] = xy(f + "5"); el("line", { x1: x, y1, x2: x, y2, class: "line" }, svg); }
  for (const p of pts) {
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
  FILES.split("").forEach((f) => { const [x] = xy(f + "1"); const t = el("text", { x, y: 314, class: "label" }, svg); t.textContent = f; });
  for (let r = 1; r <= 5; r++) { const [, y] = xy("a" + r); const t = el("text", { x: 14, y: y + 4, class: "label" }, svg); t.textContent = r; }
  if (o.path && o.path.length > 1) {
    el("polyline", { points: o.path.map((p) => xy(p).join(",")).join(" "), class: "path" }, svg);
  }
  const captured = new Set(o.captured || []);
  for (const [color, list] of [["white", board.white], ["black", board.black]]) {
    for (const p of list) {
      const [x, y] = xy(p);
      let cls = `stone ${color}`;
      if (captured.has(p)) cls += " captured";
      if (o.moving === p) cls += " moving";
      if (o.selected === p) cls += " selected";
      el("circle", { cx: x, cy: y, r: 20, class: cls, "data-point": p }, svg);
      if (captured.has(p)) {
        el("line", { x1: x - 12, y1: y - 12, x2: x + 12, y2: y + 12, class: "cross" }, svg);
        el("line", { x1: x - 12, y1: y + 12, x2: x + 12, y2: y - 12, class: "cross" }, svg);
      }
    }
  }
  for (const p of o.targets || []) { const [x, y] = xy(p); el("circle", { cx: x, cy: y, r: 10, class: "target", "data-target": p }, svg); }
  for (const p of pts) {
    const [x, y] = xy(p);
    const hit = el("circle", { cx: x, cy: y, r: 28, class: "hit", "data-hit": p }, svg);
    hit.addEventListener("click", () => boardClick && boardClick(p));
  }
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

// ---------- replay ----------

async function loadFiles() {
  const v = await api("/api/files");
  const sel = $("file");
  sel.replaceChildren();
  for (const f of v.files) {
    const o = document.createElement("option");
    o.value = f.name;
    o.textContent = `${f.name} (${f.kind || "?"}, ${f.games} games)${f.error ? " — " + f.error : ""}`;
    sel.appendChild(o);
  }
  if (!v.files.length) $("games-count").textContent = "No record files: start fanorona serve with record files or run directories.";
}

async function loadGames() {
  const file = $("file").value;
  if (!file) return;
  try {
    const v = await api("/api/games?" + q({ file, engine: $("f-engine").value, result: $("f-result").value, termination: $("f-termination").value, min_len: $("f-min").value, max_len: $("f-max").value, limit: 1000 }));
    $("games-count").textContent = `${v.matched} of ${v.total} games${v.matched > v.games.length ? ` (first ${v.games.length} shown)` : ""}${v.error ? "; the file is damaged after them: " + v.error : ""}`;
    const tb = $("games").querySelector("tbody");
    tb.replaceChildren();
    for (const g of v.games) {
      const tr = document.createElement("tr");
      tr.dataset.game = g.game;
      for (const c of [g.game, g.white, g.black, g.result, g.termination, g.length]) { const td = document.createElement("td"); td.textContent = c; tr.appendChild(td); }
      tr.addEventListener("click", () => { openGame(file, g.game, 0, 0); });
      tb.appendChild(tr);
    }
    message("");
  } catch (e) { message(e.message); }
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

function renderTurnList() {
  const d = S.replay.data;
  $("game-title").textContent = `Game ${d.game}: ${d.white || "?"} (White) vs ${d.black || "?"} (Black), ${d.outcome.text}`;
  const ol = $("turns");
  ol.replaceChildren();
  d.turns.forEach((t, i) => {
    const li = document.createElement("li");
    li.textContent = `${t.mover[0]} ${t.turn.notation}${t.score_text !== null && t.score_text !== undefined ? "  " + t.score_text : ""}${t.exploration ? " (explored)" : ""}`;
    li.title = "recorded score: the mover's view, centi-stones; (explored): chosen by exploration";
    li.addEventListener("click", () => { S.replay.ply = i + 1; S.replay.step = 0; renderReplay(); });
    ol.appendChild(li);
  });
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
  drawBoard(v.board, v);
  status(v.text);
  $("prompt").replaceChildren();
  for (const [i, li] of [...$("turns").children].entries()) li.classList.toggle("current", i === R.ply - (R.step === 0 ? 1 : 0));
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
    drawBoard(v.board);
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
      for (const c of [d.depth, d.score_text, d.nodes, d.time_ms, d.pv.join(" ")]) { const td = document.createElement("td"); td.textContent = c; tr.appendChild(td); }
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

// ---------- play ----------

function playKey(h) { return `${h.color || "w"}|${h.engine || ""}|${h.position || ""}`; }

async function playNew() {
  const P = S.play;
  P.color = $("p-color").value; P.engine = $("p-engine").value || (S.info && S.info.engine) || "";
  P.start = $("p-position").value || "startpos";
  P.gen++; P.busy = false; message("");
  P.moves = []; P.partial = []; P.selected = null; P.key = playKey({ color: P.color, engine: $("p-engine").value, position: $("p-position").value });
  $("movelist").replaceChildren(); $("result").textContent = ""; $("p-engine-note").textContent = "";
  setHash("play&" + q({ color: P.color, engine: $("p-engine").value, position: $("p-position").value }));
  await playRefresh();
}

function human() { return S.play.color === "w" ? "white" : "black"; }

async function playRefresh() {
  const P = S.play, gen = P.gen;
  let pos;
  try {
    pos = await api("/api/position?" + q({ position: P.start, moves: P.moves.join(" ") }));
  } catch (e) { if (gen === P.gen) message(e.message); return; }
  if (gen !== P.gen) return;
  P.pos = pos;
  renderMoves();
  renderPlay();
  if (P.pos.outcome) {
    const w = P.pos.outcome.winner;
    $("result").textContent = `Game over: ${P.pos.outcome.text}: ${w === null ? "draw" : (w === human() ? "you win" : "the engine wins")}.`;
    return;
  }
  if (P.pos.turn !== human()) await engineMove();
}

function renderMoves() {
  const ol = $("movelist");
  ol.replaceChildren();
  S.play.moves.forEach((m) => { const li = document.createElement("li"); li.textContent = m; ol.appendChild(li); });
}

function playBoard() {
  const P = S.play;
  if (!P.partial.length) return { board: P.pos.board, moving: P.selected, targets: P.selected ? targetsFrom(P.selected) : [] };
  const at = P.partial[P.partial.length - 1].to;
  return { board: applySteps(P.pos.board, P.partial, false), moving: at, targets: targetsFrom(at), path: [P.partial[0].from, ...P.partial.map((s) => s.to)] };
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

function renderPlay() {
  if (S.mode !== "play" || !S.play.pos) return;
  const P = S.play;
  boardClick = onPlayClick;
  const v = playBoard();
  drawBoard(v.board, { moving: v.moving, selected: P.partial.length ? null : P.selected, targets: v.targets, path: v.path });
  const mover = P.pos.turn;
  if (P.pos.outcome) status(P.pos.outcome.text);
  else if (P.partial.length) status(`Capture chain ${notation(P.partial)}: continue with the same stone, or stop (click it or "Stop the chain here").`);
  else status(`${mover} to move${mover === human() ? " (you)" : " (engine)"}${P.pos.must_capture ? ": capturing is compulsory" : ""}`);
}

function notation(steps) { return steps.map((s) => s.from + s.to + s.mark).join(","); }

async function onPlayClick(p) {
  const P = S.play;
  $("prompt").replaceChildren();
  if (!P.pos || P.busy) return;
  if (P.pos.outcome) { message("The game is over: start a new one."); return; }
  if (P.pos.turn !== human()) { message("Wait: it is the engine's turn."); return; }
  if (P.partial.length) {
    const at = P.partial[P.partial.length - 1].to;
    if (p === at) { commit(); return; }
    await tryStep(at, p);
    return;
  }
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
  const label = document.createElement("span");
  label.textContent = `${from}-${to} captures two ways: `;
  box.appendChild(label);
  for (const o of options) {
    const b = document.createElement("button");
    b.dataset.mark = o.mark;
    b.textContent = `${o.kind === "approach" ? "Approach" : "Withdrawal"}: captures ${o.captured.join(" ")}`;
    b.addEventListener("click", () => { box.replaceChildren(); choose(o); });
    box.appendChild(b);
  }
}

function choose(step) {
  const P = S.play;
  P.partial.push({ from: step.from, to: step.to, mark: step.mark, captured: step.captured, kind: step.kind });
  if (continuing().length) { renderPlay(); return; }
  commit();
}

async function commit() {
  const P = S.play;
  if (!P.partial.length) return;
  P.moves.push(notation(P.partial));
  P.partial = []; P.selected = null;
  $("prompt").replaceChildren();
  await playRefresh();
}

async function engineMove() {
  const P = S.play, gen = P.gen;
  P.busy = true;
  $("p-engine-note").textContent = `${P.engine || "the engine"} is thinking…`;
  try {
    const r = await api("/api/engine", { position: P.start, moves: P.moves, engine: P.engine || undefined, seed: P.moves.length + 1 });
    if (gen !== P.gen) return;
    P.moves.push(r.turn.notation);
    $("p-engine-note").textContent = `${r.engine} played ${r.turn.notation}${r.score_text ? ` (score ${r.score_text}${r.depth ? " at depth " + r.depth : ""}; pv ${r.pv.join(" ")})` : ""}`;
  } catch (e) { if (gen === P.gen) { message(e.message); P.busy = false; } return; }
  P.busy = false;
  await playRefresh();
}

async function playUndo() {
  const P = S.play, gen = P.gen;
  if (P.busy) return;
  P.partial = []; P.selected = null;
  // Take back to the human's previous turn: replay the prefixes to find whose turns they were.
  const me = human();
  while (P.moves.length) {
    P.moves.pop();
    const v = await api("/api/position?" + q({ position: P.start, moves: P.moves.join(" ") }));
    if (gen !== P.gen) return;
    if (v.turn === me) break;
  }
  const pos = await api("/api/position?" + q({ position: P.start, moves: P.moves.join(" ") }));
  if (gen !== P.gen) return;
  P.pos = pos;
  $("result").textContent = "";
  renderMoves(); renderPlay();
  if (P.pos.turn !== me && !P.pos.outcome) await engineMove();
}

async function playSave() {
  const P = S.play;
  const me = human();
  const eng = P.engine || (S.info && S.info.engine) || "engine";
  const body = { position: P.start, moves: P.moves, white: me === "white" ? "human" : eng, black: me === "black" ? "human" : eng };
  try {
    if (S.info && S.info.save) {
      const v = await api("/api/save", body);
      message(`Saved as game ${v.game} of ${v.file}.`);
      loadFiles();
    } else {
      const r = await api("/api/record", body);
      const blob = await r.blob();
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob); a.download = "fanorona-game.bin"; a.click();
      message("Downloaded the game as a record file (start the server with --save FILE to save on the server).");
    }
  } catch (e) { message(e.message); }
}

// ---------- modes and the address ----------

function setMode(mode) {
  S.mode = mode;
  for (const m of ["replay", "analyse", "play"]) {
    $("tab-" + m).classList.toggle("active", m === mode);
    $("panel-" + m).classList.toggle("active", m === mode);
  }
  $("replay-controls").style.display = mode === "replay" ? "" : "none";
  $("chart").style.display = mode === "replay" ? "" : "none";
  $("chart-note").style.display = mode === "replay" ? "" : "none";
  $("prompt").replaceChildren();
}

async function route() {
  const h = parseHash();
  const mode = ["play", "analyse"].includes(h.mode) ? h.mode : "replay";
  setMode(mode);
  if (mode === "replay") {
    if (h.file !== undefined) {
      await openGame(h.file, Number(h.game || 0), Number(h.ply || 0), Number(h.step || 0));
      if (S.turnsOfFile !== h.file) { S.turnsOfFile = h.file; $("file").value = h.file; loadGames(); }
    } else if (S.replay.data) renderReplay();
    else { boardClick = null; drawBoard({ white: [], black: [] }); status("Pick a game from the list."); }
  } else if (mode === "analyse") {
    if (h.position !== undefined) $("a-position").value = h.position;
    if (h.moves !== undefined) $("a-moves").value = h.moves;
    await analyseShow();
  } else {
    if (h.color) $("p-color").value = h.color === "b" ? "b" : "w";
    if (h.engine !== undefined) $("p-engine").value = h.engine;
    if (h.position !== undefined) $("p-position").value = h.position;
    const key = playKey({ color: $("p-color").value, engine: $("p-engine").value, position: $("p-position").value });
    if (S.play.key !== key || !S.play.pos) await playNew(); else renderPlay();
  }
}

function keys(ev) {
  if (S.mode !== "replay" || ev.target.tagName === "INPUT") return;
  const R = S.replay;
  if (!R.data) return;
  const act = { ArrowRight: stepNext, ArrowLeft: stepPrev, ArrowDown: () => { R.ply = Math.min(R.data.turns.length, R.ply + 1); R.step = 0; renderReplay(); }, ArrowUp: () => { if (R.step > 0) R.step = 0; else R.ply = Math.max(0, R.ply - 1); renderReplay(); }, Home: () => { R.ply = 0; R.step = 0; renderReplay(); }, End: () => { R.ply = R.data.turns.length; R.step = 0; renderReplay(); } }[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

async function init() {
  try { S.info = await api("/api/info"); } catch (e) { message(e.message); }
  if (S.info) { $("program").textContent = `${S.info.program}${S.info.save ? "; saving to " + S.info.save : ""}`; $("p-engine").placeholder = S.info.engine; }
  const terms = ["all-captured", "no-moves", "repetition", "no-progress", "max-length", "illegal-move", "time-forfeit", "engine-failure", "adjudication", "tablebase"];
  for (const t of terms) { const o = document.createElement("option"); o.value = t; o.textContent = t; $("f-termination").appendChild(o); }
  for (const m of ["replay", "analyse", "play"]) $("tab-" + m).addEventListener("click", (ev) => { ev.preventDefault(); location.hash = m === "replay" && S.replay.data ? q({ file: S.replay.file, game: S.replay.game, ply: S.replay.ply }) : m; });
  $("file").addEventListener("change", () => { S.turnsOfFile = $("file").value; loadGames(); });
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
  $("a-show").addEventListener("click", analyseShow);
  $("a-start").addEventListener("click", analyseStart);
  $("a-stop").addEventListener("click", analyseStop);
  $("p-new").addEventListener("click", playNew);
  $("p-stop").addEventListener("click", commit);
  $("p-undo").addEventListener("click", playUndo);
  $("p-save").addEventListener("click", playSave);
  document.addEventListener("keydown", keys);
  window.addEventListener("hashchange", route);
  await loadFiles();
  const h = parseHash();
  if (h.file === undefined && $("file").value) { S.turnsOfFile = $("file").value; loadGames(); }
  await route();
  document.body.dataset.ready = "1";
}

init();
