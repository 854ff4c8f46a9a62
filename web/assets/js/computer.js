// The computer's side of a game: its turn asked of the server (a thinking indicator with the
// time so far; when the engine is busy with other games, the turn waits in line), shown step
// by step, and the hint (a good turn for the player, marked on the board).
"use strict";

// Milliseconds per computer step: [slide, captured stones shown before they vanish].
const SPEEDS = { slow: [650, 900], normal: [320, 520], fast: [120, 200], off: [0, 0] };
// The engine that suggests a turn: the embedded network, a short search.
const HINT_SPEC = "alphabeta:nodes=400000,movetime=1500,eval=embedded";

/// Options for api() that keep the thinking indicator true while the engine is busy.
function waitingLine(gen) {
  const P = S.play;
  return {
    timeoutMs: 60000,
    stale: () => gen !== P.gen,
    onBusy: (queued) => {
      if (gen !== P.gen) return;
      P.queued = queued;
      if (queued && P.queuedSince === null) P.queuedSince = performance.now();
      if (!queued) P.thinkingSince = performance.now();
      renderSay();
    },
  };
}

/// The computer chooses its turn and shows it.
async function engineMove() {
  const P = S.play, gen = P.gen, color = P.pos.turn;
  Object.assign(P, { busy: true, failed: null, queued: false, queuedSince: null, thinkingSince: performance.now() });
  renderPlay();
  const tick = setInterval(() => { if (gen === P.gen && P.busy) renderSay(); }, 200);
  let r;
  try {
    const body = { position: P.start, moves: P.moves, seed: P.seed + P.moves.length };
    if (P.engine) body.engine = P.engine; else if (P.level) body.level = P.level;
    r = await api("/api/engine", body, waitingLine(gen));
  } catch (e) {
    if (gen === P.gen) {
      Object.assign(P, { busy: false, failed: e.message, queued: false });
      announce(t("play.failed", { error: e.message }));
      renderPlay();
    }
    return;
  } finally { clearInterval(tick); }
  if (gen !== P.gen) return;
  P.thinkingSince = null;
  await playComputerTurn(r, color, gen);
}

async function playComputerTurn(r, color, gen) {
  const P = S.play;
  const done = await animateTurn(P.pos.board, r.turn.steps, color, gen);
  if (!done || gen !== P.gen) return;
  P.moves.push(r.turn.notation);
  P.turns.push({ mover: color, notation: r.turn.notation, steps: r.turn.steps });
  P.pos = r.after; P.history.push(r.after);
  P.busy = false;
  $("p-engine-note").textContent = S.settings.analysis && r.score_text
    ? t("play.engineNote", { score: r.score_text, depth: r.depth || 0, pv: r.pv.join(" ") })
    : "";
  renderPlay();
  const said = computerSaid();
  if (r.after.outcome) { finish(said); return; }
  announce(`${said} ${t("announce.yourTurn")}`);
}

/// Shows `steps` of `color` from `board`: each step slides, its captured stones are marked,
/// then they vanish. Returns false when the game changed meanwhile.
async function animateTurn(board, steps, color, gen) {
  const [slideMs, markMs] = SPEEDS[S.settings.anim] || SPEEDS.normal;
  const b = { white: [...board.white], black: [...board.black], turn: board.turn };
  const path = [steps[0].from];
  const live = () => gen === S.play.gen && S.mode === "play";
  for (const s of steps) {
    await slide(b, color, s.from, s.to, slideMs, { path });
    if (!live()) return false;
    b[color] = b[color].map((p) => (p === s.from ? s.to : p));
    path.push(s.to);
    S.shown.steps++;
    moveSound(s.captured.length > 0);
    if (s.captured.length) {
      S.shown.captureMarks++;
      drawBoard(b, { captured: s.captured, moving: s.to, path });
      if (markMs > 0) await sleep(markMs);
      if (!live()) return false;
      b[other(color)] = b[other(color)].filter((p) => !s.captured.includes(p));
    }
  }
  return true;
}

/// Asks the engine for a good turn and marks it on the board.
async function hint() {
  const P = S.play, gen = P.gen, ply = P.moves.length;
  if (!humanToMove() || P.busy || P.partial.length) return;
  P.hint = null;
  notify(t("hint.asking"));
  let r;
  try {
    r = await api("/api/engine", { position: P.start, moves: P.moves, engine: HINT_SPEC }, { timeoutMs: 30000, stale: () => gen !== P.gen });
  } catch (e) { if (gen === P.gen && P.moves.length === ply) notify(t("hint.failed", { error: e.message })); return; }
  if (gen !== P.gen || P.moves.length !== ply || P.partial.length) return;
  P.hint = { steps: r.turn.steps, notation: r.turn.notation };
  P.selected = null;
  renderPlay();
  const n = capturedBy(r.turn.steps);
  const text = n ? t("hint.capture", { route: turnRoute(r.turn.steps), n }) : t("hint.quiet", { route: turnRoute(r.turn.steps) });
  notify(text);
  announce(text);
}
