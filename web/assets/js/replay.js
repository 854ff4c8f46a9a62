// Replay: the record files (given to the server, or opened in this browser: uploads belong to
// the browser that made them), their games with filters, a game stepped through turn by turn
// and step by step, its recorded scores as a chart; and a game from a link, rebuilt here.
"use strict";

const MAX_UPLOAD = 8 * 1024 * 1024;
const OWNER_KEY = "fanorona.owner";

/// This browser's key for its uploads: random, kept in the browser, sent with every request
/// about files (the server lists an upload only to the browser that made it).
function owner() {
  let k = null;
  try { k = localStorage.getItem(OWNER_KEY); } catch (e) { /* private mode */ }
  if (!k || !/^[0-9a-f]{32}$/.test(k)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    k = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem(OWNER_KEY, k); } catch (e) { /* kept for this page only */ }
  }
  S.owner = k;
  return k;
}

async function loadFiles() {
  const v = await api("/api/files?" + q({ owner: S.owner }));
  const sel = $("file");
  const was = sel.value;
  sel.replaceChildren();
  for (const f of v.files) {
    const games = t("replay.fileGames", { n: f.games });
    sel.appendChild(html("option", { value: f.name }, `${f.name} (${games})${f.error ? " — " + f.error : ""}`));
  }
  if (was && v.files.some((f) => f.name === was)) sel.value = was;
  $("games-count").textContent = v.files.length ? "" : t("replay.noFiles");
}

/// The listing's length filter counts rows (numbered moves); the server counts turns.
function lengthFilter() {
  const min = parseInt($("f-min").value, 10), max = parseInt($("f-max").value, 10);
  return { min_len: min > 0 ? 2 * min - 1 : undefined, max_len: max >= 0 ? 2 * max : undefined };
}

async function loadGames() {
  const file = $("file").value;
  if (!file) return [];
  try {
    const v = await api("/api/games?" + q({ file, owner: S.owner, engine: $("f-engine").value, result: $("f-result").value, termination: $("f-termination").value, ...lengthFilter(), limit: 1000 }));
    const parts = [t("replay.count", { matched: v.matched, n: v.total })];
    if (v.matched > v.games.length) parts.push(t("replay.firstShown", { n: v.games.length }));
    if (v.error) parts.push(t("replay.damaged", { error: v.error }));
    $("games-count").replaceChildren(...parts.map((p) => html("span", {}, p + " ")));
    const tb = $("games").querySelector("tbody");
    tb.replaceChildren();
    for (const g of v.games) {
      const tr = document.createElement("tr");
      tr.dataset.game = g.game;
      tr.tabIndex = 0;
      // Games from a record file start from the position of its header: White moves first
      // unless the game says otherwise, so the rows are the turns halved, rounded up.
      for (const c of [g.game, g.white, g.black, g.result, t("ending." + g.termination), rowCount(g.length, "white")]) tr.appendChild(html("td", {}, c));
      const open = () => { location.hash = q({ file, game: g.game, ply: 0 }); };
      tr.addEventListener("click", open);
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") open(); });
      tb.appendChild(tr);
    }
    $("message").textContent = "";
    return v.games;
  } catch (e) { $("message").textContent = e.message; return []; }
}

async function uploadFile(file) {
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    $("message").textContent = t("replay.tooLarge", { file: file.name, mib: Math.round(file.size / 104857.6) / 10 });
    return;
  }
  let v;
  try {
    const r = await fetch("/api/upload?" + q({ name: file.name, owner: S.owner }), { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
    v = await r.json();
    if (!r.ok) { $("message").textContent = v.error || `HTTP ${r.status}`; return; }
  } catch (e) { $("message").textContent = `${file.name}: ${e.message}`; return; }
  await loadFiles();
  $("file").value = v.file;
  S.turnsOfFile = v.file;
  const games = await loadGames();
  $("status").textContent = t("replay.opened", { file: file.name, n: v.games });
  if (games.length) location.hash = q({ file: v.file, game: games[0].game, ply: 0 });
}

async function openGame(file, game, ply, step) {
  const R = S.replay;
  if (R.file !== file || R.game !== game || !R.data) {
    try {
      R.data = await api("/api/game?" + q({ file, game, owner: S.owner }));
    } catch (e) { $("message").textContent = e.message; return; }
    R.file = file; R.game = game; R.link = null;
    if ($("file").value !== file) $("file").value = file;
    renderTurnList();
  }
  showReplayAt(ply, step);
}

function showReplayAt(ply, step) {
  const R = S.replay;
  R.ply = Math.max(0, Math.min(ply, R.data.turns.length));
  const n = R.ply < R.data.turns.length ? R.data.turns[R.ply].turn.steps.length : 0;
  R.step = Math.max(0, Math.min(step, n));
  renderReplay();
}

/// A game from a link (`#replay&v=1&position=&moves=`), rebuilt as the server's replay.
async function openLinkedReplay(g, ply) {
  const R = S.replay;
  const key = gameLink(g, "replay");
  if (R.link !== key || !R.data) {
    let game;
    try { game = await rebuildGame(g.start, g.moves); } catch (e) { $("message").textContent = t("kept.illegal", { error: e.message }); return; }
    const last = game.history[game.history.length - 1];
    const me = g.color === "b" ? "black" : "white";
    const them = g.engine || (g.level ? t("name.computer", { level: levelName(g.level) }) : t("name.computerPlain"));
    const outcome = last.outcome || { text: g.resigned ? t("replay.resigned", { side: t("color." + g.resigned) }) : t("replay.unfinished") };
    R.data = {
      file: null, game: null, white: me === "white" ? t("name.you") : them, black: me === "black" ? t("name.you") : them, start: g.start, outcome,
      turns: game.turns.map((x, i) => ({ mover: x.mover, board: game.history[i].board, turn: { notation: x.notation, steps: x.steps }, score_text: null, white_score: null })),
      final_board: last.board,
    };
    R.link = key; R.file = null; R.game = null;
    renderTurnList();
  }
  showReplayAt(ply, 0);
}

function renderTurnList() {
  const d = S.replay.data;
  $("game-title").textContent = d.game === null
    ? t("replay.linkTitle", { white: d.white, black: d.black, outcome: outcomeText(d.outcome) })
    : t("replay.title", { game: d.game, white: d.white || "?", black: d.black || "?", outcome: outcomeText(d.outcome) });
  for (const tr of $("games").querySelectorAll("tbody tr")) tr.classList.toggle("open", Number(tr.dataset.game) === d.game);
}

/// An outcome in words: the winner (or a draw) and the ending; a text of the page's own as it is.
function outcomeText(o) {
  if (!o.termination) return o.text;
  const ending = t("ending." + o.termination);
  return o.winner ? t("outcome.win", { side: t("color." + o.winner), ending }) : t("outcome.draw", { ending });
}

function firstMover() {
  const d = S.replay.data;
  return d.turns.length ? d.turns[0].mover : "white";
}

function replayView() {
  const { data: d, ply, step } = S.replay;
  const first = firstMover();
  if (ply >= d.turns.length) {
    const text = t(d.error ? "replay.endDamaged" : "replay.end", { n: rowCount(d.turns.length, first), outcome: outcomeText(d.outcome), error: d.error });
    return { board: d.final_board, text, captured: [] };
  }
  const tn = d.turns[ply];
  if (step === 0) {
    const text = ply === 0
      ? t("replay.atStart", { side: t("side." + tn.mover), next: `${turnLabel(0, first)} ${tn.turn.notation}` })
      : t("replay.after", { label: turnLabel(ply - 1, first), turn: d.turns[ply - 1].turn.notation, next: `${turnLabel(ply, first)} ${tn.turn.notation}` });
    return { board: tn.board, text, captured: [] };
  }
  const steps = tn.turn.steps, s = steps[step - 1];
  const board = applySteps(tn.board, steps.slice(0, step), true);
  const caps = s.captured.length ? t("replay.stepCaptures", { stones: s.captured.join(" ") }) : t("replay.stepQuiet");
  return {
    board, captured: s.captured, moving: s.to, path: [steps[0].from, ...steps.slice(0, step).map((x) => x.to)],
    text: t("replay.step", { label: turnLabel(ply, first), turn: tn.turn.notation, step, n: steps.length, from: s.from, to: s.to, kind: t("kind." + s.kind), captures: caps }),
  };
}

function renderReplay() {
  const R = S.replay;
  if (!R.data || S.mode !== "replay") return;
  const v = replayView();
  boardClick = null;
  S.flip = !!S.flipped;
  drawBoard(v.board, v);
  setNames(R.data.white || t("color.white"), R.data.black || t("color.black"));
  $("status").textContent = v.text;
  $("prompt").replaceChildren();
  const turns = R.data.turns.map((x) => ({
    mover: x.mover, notation: x.turn.notation, extra: x.score_text === null || x.score_text === undefined ? "" : x.score_text,
    title: x.score_text === null || x.score_text === undefined ? "" : t(x.exploration ? "replay.scoreExploration" : "replay.score"),
  }));
  fillTurnTable($("turns"), turns, { current: R.ply - (R.step === 0 ? 1 : 0), firstMover: firstMover(), onPick: (ply) => { R.ply = ply; R.step = 0; renderReplay(); } });
  const hash = R.link ? `${R.link}&ply=${R.ply}` : q({ file: R.file, game: R.game, ply: R.ply, step: R.step || undefined });
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
  for (const [s, label] of [[CAP, "+6"], [-CAP, "-6"], [0, "0"]]) el("text", { x: 4, y: Y(s) + 3 }, svg).textContent = label;
  const pts = d.turns.map((x, i) => (x.white_score === null ? null : `${X(i)},${Y(x.white_score)}`)).filter(Boolean);
  if (pts.length) el("polyline", { points: pts.join(" "), class: "curve" }, svg);
  el("line", { x1: X(S.replay.ply), y1: 4, x2: X(S.replay.ply), y2: H - 4, class: "now" }, svg);
  $("chart-note").textContent = pts.length ? t("replay.chart", { n: d.turns.filter((x) => x.white_score !== null).length }) : t("replay.noScores");
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const ply = Math.round((((ev.clientX - r.left) * (W / r.width)) - 30) / (W - 40) * n);
    S.replay.ply = Math.max(0, Math.min(d.turns.length, ply)); S.replay.step = 0; renderReplay();
  };
}

function replayKeys(ev) {
  if (S.mode !== "replay" || ["INPUT", "SELECT", "BUTTON", "SUMMARY"].includes(ev.target.tagName)) return;
  const R = S.replay;
  if (!R.data) return;
  const act = {
    ArrowRight: stepNext, ArrowLeft: stepPrev,
    ArrowDown: () => { R.ply = Math.min(R.data.turns.length, R.ply + 1); R.step = 0; renderReplay(); },
    ArrowUp: () => { if (R.step > 0) R.step = 0; else R.ply = Math.max(0, R.ply - 1); renderReplay(); },
    Home: () => { R.ply = 0; R.step = 0; renderReplay(); },
    End: () => { R.ply = R.data.turns.length; R.step = 0; renderReplay(); },
  }[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

/// Opens Replay from the address: a file's game, a linked game, or the list.
async function routeReplay(h) {
  const linked = linkedGame(h);
  if (linked && linked.error) { $("message").textContent = t(linked.error.key, linked.error.vars); return; }
  if (linked) { await openLinkedReplay(linked.game, Number(h.ply || 0)); return; }
  if (h.file !== undefined) {
    await openGame(h.file, Number(h.game || 0), Number(h.ply || 0), Number(h.step || 0));
    if (S.turnsOfFile !== h.file) { S.turnsOfFile = h.file; $("file").value = h.file; loadGames(); }
  } else if (S.replay.data) renderReplay();
  else {
    boardClick = null; S.flip = false;
    drawBoard({ white: [], black: [] });
    setNames(t("color.white"), t("color.black"));
    $("status").textContent = t("replay.pick");
  }
}

function initReplay() {
  owner();
  for (const x of (S.info && S.info.terminations) || []) $("f-termination").appendChild(html("option", { value: x, "data-i18n": "ending." + x }, t("ending." + x)));
  $("file").addEventListener("change", () => { S.turnsOfFile = $("file").value; loadGames(); });
  $("upload").addEventListener("change", () => { const f = $("upload").files[0]; $("upload").value = ""; uploadFile(f); });
  $("f-apply").addEventListener("click", loadGames);
  $("next").addEventListener("click", stepNext);
  $("prev").addEventListener("click", stepPrev);
  const press = (key) => () => replayKeys({ key, target: {}, preventDefault() {} });
  $("next-turn").addEventListener("click", press("ArrowDown"));
  $("prev-turn").addEventListener("click", press("ArrowUp"));
  $("first").addEventListener("click", press("Home"));
  $("last").addEventListener("click", press("End"));
  $("to-analyse").addEventListener("click", () => {
    const R = S.replay; if (!R.data) return;
    // The game's start and its turns so far: the search knows the history (repetitions, the
    // no-progress count).
    const moves = R.data.turns.slice(0, R.ply).map((x) => x.turn.notation).join(" ");
    S.analyse.side = null;
    location.hash = "analyse&" + q({ position: R.data.start, moves });
  });
}
