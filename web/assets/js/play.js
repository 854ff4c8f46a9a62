// Play: the game's state, a new game (from the dialog, a link or the game kept in the browser),
// the player's clicks, and the one message area under the board, drawn from the state alone.
"use strict";

function human() { return S.play.color === "w" ? "white" : "black"; }
function levels() { return (S.info && S.info.levels) || []; }
function levelInfo(name) { return levels().find((l) => l.name.toLowerCase() === String(name || "").toLowerCase()) || null; }
function levelName(name) { return levelInfo(name) ? t(`level.${levelInfo(name).name}.name`) : name; }
function gameOver() { const P = S.play; return !!(P.pos && (P.pos.outcome || P.resigned)); }
function humanToMove() { const P = S.play; return !!P.pos && !gameOver() && P.pos.turn === human(); }
function computerName() { const P = S.play; return P.engine ? t("name.engine", { engine: P.engine }) : t("name.computer", { level: levelName(P.level) }); }

/// What the board and the messages depend on: a notice set in one state disappears in the next.
function stamp() {
  const P = S.play;
  return [P.gen, P.moves.length, P.partial.length, P.selected, P.busy, P.view, !!P.failed].join("|");
}

/// A notice under the status line: gone as soon as the state changes (`sticky`: when the
/// player next acts).
function notify(text, sticky) {
  S.play.notice = text ? { text, stamp: stamp(), sticky: !!sticky } : null;
  renderSay();
}

// ---------- the dialog's choices ----------

function buildLevels() {
  const box = $("levels");
  for (const e of box.querySelectorAll("label")) e.remove();
  for (const l of levels()) {
    const label = html("label", {});
    const input = html("input", { type: "radio", name: "p-level", value: l.name });
    const name = html("span", { class: "name" }, t(`level.${l.name}.name`));
    const time = html("span", { class: "time" }, l.turn_ms >= 100 ? t("level.time", { time: seconds(l.turn_ms) }) : t("level.instant"));
    const head = html("span", {});
    head.append(input, " ", name);
    label.append(head, time);
    input.addEventListener("change", showLevelNote);
    box.appendChild(label);
  }
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
  $("level-note").textContent = l ? t(`level.${l.name}.description`) : "";
}

function playKey(h) { return `${h.color}|${h.level}|${h.engine}|${h.position}`; }
function uiKey() { return playKey({ color: chosenColor(), level: chosenLevel(), engine: $("p-engine").value.trim(), position: $("p-position").value.trim() }); }

// ---------- starting a game ----------

/// Clears the game for a new one (every pending answer of the old one is dropped).
function resetGame() {
  const P = S.play;
  P.gen++; P.busy = false; P.failed = null; P.resigned = null; P.view = null; P.resignArmed = null; P.paused = false;
  P.moves = []; P.turns = []; P.history = []; P.partial = []; P.selected = null; P.pos = null; P.hint = null;
  P.notice = null; P.review = null; P.reviewShow = null; P.restoring = false; P.asking = null;
  hideResult(); announce(""); $("prompt").replaceChildren(); $("p-engine-note").textContent = "";
  show("resume", false);
}

/// A new game from the dialog's choices; `warning` (a refused link or kept game) is shown.
async function playNew(warning) {
  const P = S.play;
  resetGame();
  P.colorChoice = chosenColor();
  P.color = P.colorChoice === "r" ? (Math.random() < 0.5 ? "w" : "b") : P.colorChoice;
  P.level = chosenLevel();
  P.engine = $("p-engine").value.trim();
  P.start = $("p-position").value.trim() || "startpos";
  P.key = uiKey();
  P.seed = 1 + Math.floor(Math.random() * 1e9);
  if (warning) P.notice = { text: warning, sticky: true };
  const gen = P.gen;
  let pos;
  try {
    pos = await api("/api/position?" + q({ position: P.start }));
  } catch (e) {
    if (gen === P.gen) { P.notice = { text: t("play.badStart", { error: e.message }), sticky: true }; renderSay(); }
    return;
  }
  if (gen !== P.gen) return;
  P.pos = pos; P.history = [pos];
  renderPlay();
  if (pos.outcome) finish();
  else if (pos.turn !== human()) await engineMove();
}

/// Opens kept game `g` (a link or the browser's): its positions are asked of the server, which
/// checks every turn. `paused`: the player is asked first whether to resume it.
async function openKept(g, paused) {
  const P = S.play;
  resetGame();
  Object.assign(P, { start: g.start, color: g.color, colorChoice: g.color, level: g.level, engine: g.engine, seed: g.seed || 1, restoring: true });
  if (g.level && !levelInfo(g.level)) { P.level = S.info && S.info.default_level; P.notice = { text: t("play.unknownLevel", { level: g.level }), sticky: true }; }
  P.key = playKey({ color: g.color, level: P.level, engine: g.engine, position: g.start === "startpos" ? "" : g.start });
  const gen = P.gen;
  renderSay();
  let game;
  try {
    game = await rebuildGame(g.start, g.moves);
  } catch (e) {
    if (gen === P.gen) await playNew(t("play.refused", { reason: t("kept.illegal", { error: e.message }) }));
    return;
  }
  if (gen !== P.gen) return;
  Object.assign(P, { moves: [...g.moves], turns: game.turns, history: game.history, pos: game.history[game.history.length - 1], restoring: false });
  P.resigned = g.resigned || null;
  syncDialog();
  if (gameOver()) { finish(); return; }
  P.paused = !!paused && P.moves.length > 0;
  renderPlay();
  if (P.paused) offerResume();
  else if (P.pos.turn !== human()) await engineMove();
}

/// The dialog shows the game's level and colour.
function syncDialog() {
  const P = S.play;
  setColor(P.color);
  setLevel(P.level);
  $("p-engine").value = P.engine;
  $("p-position").value = P.start === "startpos" ? "" : P.start;
}

function offerResume() {
  const P = S.play;
  $("resume-text").textContent = t("resume.text", { opponent: computerName(), n: rowCount(P.moves.length, P.history[0].turn) });
  show("resume", true);
}

async function resume() {
  const P = S.play;
  P.paused = false;
  show("resume", false);
  renderPlay();
  if (humanToMove() || gameOver()) return;
  await engineMove();
}

// ---------- the player's clicks ----------

function cancelSelection() {
  const P = S.play;
  if (P.partial.length) return;
  P.selected = null;
  P.asking = null;
  $("prompt").replaceChildren();
  renderPlay();
}

async function onPlayClick(p) {
  const P = S.play;
  $("prompt").replaceChildren();
  P.asking = null;
  if (!P.pos || P.restoring) return;
  if (P.notice && P.notice.sticky) P.notice = null;
  if (P.paused) { const mine = humanToMove(); resume(); if (!mine) return; }
  if (P.view !== null) { P.view = null; renderPlay(); return; }
  // The status line says what is going on: a click out of turn changes nothing.
  if (!humanToMove() || P.busy) { renderSay(); return; }
  if (P.partial.length) {
    const at = P.partial[P.partial.length - 1].to;
    if (p === at) { commit(); return; }
    await tryStep(at, p);
    return;
  }
  if (P.selected === p) { cancelSelection(); return; }
  if (P.pos.board[human()].includes(p) || P.selected === null) { await pickStone(p); return; }
  await tryStep(P.selected, p);
}

/// Selects the stone on `p`, or says why it cannot move.
async function pickStone(p) {
  const P = S.play, gen = P.gen;
  const turns = P.pos.legal.filter((t) => t.steps[0].from === p);
  if (turns.length) { P.selected = p; P.hint = null; renderPlay(); return; }
  P.selected = null;
  renderPlay();
  let why = null;
  try {
    const v = await api("/api/check?" + q({ position: P.start, moves: P.moves.join(" "), from: p }));
    if (gen !== P.gen) return;
    why = ruleText(v.rule, { point: p, error: v.error });
  } catch (e) { why = e.message; }
  notify(why);
}

/// Whether `a` and `b` are neighbours along a line of the board.
function adjacent(a, b) {
  const df = FILES.indexOf(b[0]) - FILES.indexOf(a[0]), dr = Number(b[1]) - Number(a[1]);
  if (Math.max(Math.abs(df), Math.abs(dr)) !== 1) return false;
  return df === 0 || dr === 0 || (FILES.indexOf(a[0]) + Number(a[1]) - 1) % 2 === 0;
}

/// The stones of the player that can capture now.
function capturers() {
  return [...new Set(S.play.pos.legal.filter((t) => t.steps[0].kind !== "paika").map((t) => t.steps[0].from))];
}

/// Why a click broke a rule, in words: `rule` is the server's key (/api/check).
function ruleText(rule, v) {
  const me = human();
  switch (rule) {
    case "not-your-stone": return t("rule.notYourStone", { side: t("side." + me), point: v.point });
    case "capture-compulsory": return t("rule.captureCompulsory", { point: v.point || v.from, stones: capturers().join(" ") });
    case "blocked": return t("rule.blocked", { point: v.point });
    case "occupied": return t("rule.occupied", { point: v.to });
    case "chain-needs-capture": return t("rule.chainNeedsCapture", { from: v.from, to: v.to });
    case "same-direction": return t("rule.sameDirection");
    case "revisit": return t("rule.revisit", { point: v.to });
    default: return t("rule.other", { error: v.error || "" });
  }
}

async function tryStep(from, to) {
  const P = S.play, i = P.partial.length, gen = P.gen;
  const cands = continuing().filter((t) => t.steps[i].from === from && t.steps[i].to === to);
  if (!cands.length) {
    if (!adjacent(from, to)) { notify(t("rule.notNext", { from, to })); return; }
    const text = (i ? notation(P.partial) + "," : "") + from + to;
    let why;
    try {
      const v = await api("/api/check?" + q({ position: P.start, moves: P.moves.join(" "), turn: text }));
      why = v.legal ? null : ruleText(v.rule, { from, to, error: v.error });
    } catch (e) { why = ruleText("other", { error: e.message }); }
    if (gen === P.gen) notify(why);
    return;
  }
  const options = [];
  for (const c of cands) if (!options.some((o) => o.mark === c.steps[i].mark)) options.push(c.steps[i]);
  if (options.length === 1) { choose(options[0]); return; }
  askWhichWay(from, to, options);
}

/// A step that captures both ways: the player picks approach or withdrawal (the question is
/// the status line, the answers one row of buttons under it).
function askWhichWay(from, to, options) {
  const box = $("prompt");
  S.play.asking = { from, to };
  renderSay();
  for (const o of options) {
    const label = t(o.kind === "approach" ? "prompt.approach" : "prompt.withdrawal", { stones: o.captured.join(" ") });
    const b = html("button", { type: "button", "data-mark": o.mark }, label);
    b.addEventListener("click", () => { box.replaceChildren(); S.play.asking = null; choose(o); });
    box.appendChild(b);
  }
  box.querySelector("button").focus({ preventScroll: true });
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

function choose(step) {
  const P = S.play;
  P.partial.push({ from: step.from, to: step.to, mark: step.mark, captured: step.captured, kind: step.kind });
  moveSound(step.captured.length > 0);
  if (continuing().length) { renderPlay(); return; }
  commit();
}

/// Plays the chain chosen so far as the player's turn.
async function commit() {
  const P = S.play, gen = P.gen;
  if (!P.partial.length || P.busy) return;
  P.busy = true;
  const steps = P.partial;
  P.moves.push(notation(steps));
  P.turns.push({ mover: human(), notation: notation(steps), steps });
  P.partial = []; P.selected = null; P.hint = null;
  $("prompt").replaceChildren();
  let pos;
  try {
    pos = await api("/api/position?" + q({ position: P.start, moves: P.moves.join(" ") }));
  } catch (e) {
    if (gen === P.gen) { P.moves.pop(); P.turns.pop(); P.busy = false; renderPlay(); notify(e.message); }
    return;
  }
  if (gen !== P.gen) return;
  P.pos = pos; P.history.push(pos);
  P.busy = false;
  renderPlay();
  if (pos.outcome) finish();
  else await engineMove();
}

// ---------- drawing the game ----------

function lastTurn(ply) {
  const t = S.play.turns[ply - 1];
  return t ? { steps: t.steps, to: t.steps[t.steps.length - 1].to } : null;
}

function mustStones() {
  const P = S.play;
  if (!S.settings.hints || !humanToMove() || P.busy || P.partial.length || !P.pos.must_capture) return [];
  return capturers();
}

function playBoard() {
  const P = S.play;
  const last = lastTurn(P.moves.length);
  const base = { last, lastTo: last && !P.partial.length ? last.to : null, must: mustStones(), suggest: P.hint && !P.partial.length && !P.selected ? P.hint.steps : null };
  if (!P.partial.length) return { ...base, board: P.pos.board, selected: P.selected, moving: P.selected, targets: P.selected ? targetsFrom(P.selected) : [] };
  const at = P.partial[P.partial.length - 1].to;
  return { ...base, board: applySteps(P.pos.board, P.partial, false), moving: at, targets: targetsFrom(at), path: [P.partial[0].from, ...P.partial.map((s) => s.to)] };
}

/// The status line: what the game is waiting for.
function playStatus() {
  const P = S.play, side = t("side." + human());
  if (P.restoring) return t("status.restoring");
  if (!P.pos) return "";
  if (gameOver()) return resultWords().title;
  if (P.queued && P.busy) return t("status.queued", { time: seconds(performance.now() - P.queuedSince) });
  if (P.busy && P.pos.turn !== human()) return t("status.thinking");
  if (P.failed) return t("status.failed");
  if (P.paused) return t("status.paused");
  if (P.pos.turn !== human()) return t("status.computerTurn");
  if (P.asking) return t("status.twoWays", P.asking);
  if (P.partial.length) return t("status.chain", { chain: notation(P.partial) });
  if (P.selected) return t("status.selected", { side, point: P.selected });
  return t(P.pos.must_capture ? "status.yourTurnMust" : "status.yourTurn", { side });
}

/// The computer's last turn in words ("g4-g5-f4, capturing 4").
function computerSaid() {
  const P = S.play;
  const last = [...P.turns].reverse().find((x) => x.mover !== human());
  if (!last || P.view !== null) return "";
  const n = capturedBy(last.steps);
  return n ? t("said.capture", { route: turnRoute(last.steps), n }) : t("said.quiet", { route: turnRoute(last.steps) });
}

/// The message area: status, the computer's last turn, and a notice or failure; all drawn
/// from the state, so that nothing stale stays.
function renderSay() {
  if (S.mode !== "play") return;
  const P = S.play;
  const st = $("status");
  st.textContent = playStatus();
  const thinking = P.busy && !P.queued && P.pos && P.pos.turn !== human() && !gameOver();
  st.classList.toggle("thinking", thinking);
  if (thinking && P.thinkingSince !== null) st.appendChild(html("span", { class: "elapsed" }, seconds(performance.now() - P.thinkingSince)));
  $("last-turn").textContent = P.pos ? computerSaid() : "";
  const n = P.notice;
  const notice = n && (n.sticky || n.stamp === stamp()) ? n.text : "";
  $("message").textContent = P.failed && !P.busy ? t("play.failed", { error: P.failed }) : notice;
}

function renderBar() {
  const P = S.play, me = human(), over = gameOver();
  $("p-undo").disabled = !P.turns.some((x) => x.mover === me) || P.busy || P.restoring;
  $("p-hint").disabled = !humanToMove() || P.busy || P.partial.length > 0 || P.view !== null;
  $("p-resign").disabled = over || P.moves.length === 0 || P.restoring;
  $("p-resign").textContent = P.resignArmed ? t("bar.resignConfirm") : t("bar.resign");
  $("p-flip").setAttribute("aria-pressed", String(!!S.flipped));
  show("p-stop", P.partial.length > 0 && !over);
  show("p-hint", P.partial.length === 0);
  show("p-retry", !!P.failed && !over && !P.busy);
  show("p-save", !!(S.info && S.info.save));
}

function renderPlay() {
  if (S.mode !== "play" || !S.play.pos) { renderSay(); return; }
  const P = S.play;
  S.flip = (P.color === "b") !== !!S.flipped;
  setNames(human() === "white" ? t("name.you") : computerName(), human() === "black" ? t("name.you") : computerName());
  boardClick = onPlayClick;
  if (P.view !== null && P.view < P.history.length - 1) {
    const last = lastTurn(P.view);
    const suggest = P.reviewShow && P.reviewShow.ply === P.view ? P.reviewShow.steps : null;
    drawBoard(P.history[P.view].board, { last, lastTo: last && last.to, suggest });
    $("viewing-text").textContent = P.view === 0 ? t("view.start") : t("view.after", { label: turnLabel(P.view - 1, P.history[0].turn), turn: P.moves[P.view - 1] });
    $("viewing").classList.add("show");
  } else {
    P.view = null;
    $("viewing").classList.remove("show");
    const v = playBoard();
    drawBoard(v.board, v);
  }
  renderSay();
  renderBar();
  renderMoves();
  keepGame();
}

function renderMoves() {
  const P = S.play;
  const current = P.view === null ? P.moves.length - 1 : P.view - 1;
  const marks = reviewMarks();
  const turns = P.turns.map((x, i) => ({ mover: x.mover, notation: x.notation, ...(marks[i] || {}) }));
  fillTurnTable($("movelist"), turns, { current, onPick: viewPly, firstMover: P.history[0].turn });
}

/// The game kept in the browser and in the address, and the tab's title.
function keepGame() {
  const P = S.play;
  if (P.restoring || !P.pos) return;
  const g = keptGame(P);
  storeGame(P);
  setHash(gameLink(g, "play"));
  $("p-link").href = "#" + gameLink(g, "play");
  $("p-link-replay").href = "#" + gameLink(g, "replay");
  document.title = humanToMove() && !P.busy ? t("title.yourTurn") : t("app.title");
}

function viewPly(ply) {
  const P = S.play;
  if (P.partial.length) return;
  P.view = ply >= P.history.length - 1 ? null : ply;
  if (P.reviewShow && P.reviewShow.ply !== P.view) P.reviewShow = null;
  renderPlay();
}

function boardKeys(ev) {
  if (S.mode !== "play") return;
  if (ev.key.startsWith("Arrow")) { ev.preventDefault(); ev.stopPropagation(); moveCursor(ev.key); }
  else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); if (boardClick) boardClick(S.cursor); }
  else if (ev.key === "Escape") { ev.preventDefault(); cancelSelection(); }
}
