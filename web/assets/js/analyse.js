// Analyse: a position (a start and turns played from it) searched by an engine spec, depth by
// depth, with an evaluation bar: the engine's score as an expected result for one side (the
// player's, when the game came from Play; White's otherwise).
"use strict";

// Scores are hundredths of a stone, side to move's view; the value network is trained on
// tanh(score / 400) (nn/src/scale.rs), a value from -1 (lost) to 1 (won), so the expected
// result (1 a win, 1/2 a draw, 0 a loss) is (1 + tanh(score / 400)) / 2. Forced wins and
// losses (|score| > 29000) give 1 and 0.
const SCORE_SCALE = 400;

/// The expected result (0..1) of a score, for the side whose view it is.
function expectedResult(score) {
  if (score > 29000) return 1;
  if (score < -29000) return 0;
  return (1 + Math.tanh(score / SCORE_SCALE)) / 2;
}

/// Shows the bar: `score` from the view of `mover` (the side to move), drawn for S.analyse.side.
function showEvalBar(score, mover) {
  const side = S.analyse.side || "white";
  const e = expectedResult(mover === side ? score : -score);
  const pct = Math.round(e * 100);
  const whiteShare = side === "white" ? e : 1 - e;
  $("evalbar-fill").style.width = `${Math.round(whiteShare * 100)}%`;
  const bar = $("evalbar");
  bar.setAttribute("aria-valuenow", String(pct));
  const text = t("evalbar.text", { side: t("color." + side), pct });
  bar.setAttribute("aria-valuetext", text);
  $("evalbar-text").textContent = text;
  bar.classList.add("show");
}

function hideEvalBar() { $("evalbar").classList.remove("show"); }

/// The turns field of the game shown, up to the chosen turn.
function analyseMoves() {
  const A = S.analyse;
  return A.game ? A.game.moves.slice(0, A.ply).join(" ") : $("a-moves").value;
}

function renderAnalyseTurns() {
  const A = S.analyse;
  const box = $("a-turns-box");
  if (!A.game || !A.game.moves.length) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const turns = A.game.moves.map((m, i) => ({ mover: turnNumber(i, A.game.first).mover, notation: m }));
  fillTurnTable($("a-turns"), turns, { current: A.ply - 1, firstMover: A.game.first, onPick: (ply) => { A.ply = ply; $("a-moves").value = analyseMoves(); analyseStop(); analyseShow(); } });
}

async function analyseShow() {
  if (S.analyse.game && $("a-moves").value !== analyseMoves()) S.analyse.game = null;
  try {
    const v = await api("/api/position?" + q({ position: $("a-position").value, moves: $("a-moves").value }));
    if (S.mode !== "analyse") return v;
    boardClick = null;
    S.flip = (S.analyse.side || "white") === "black" ? !S.flipped : !!S.flipped;
    drawBoard(v.board);
    setNames(t("color.white"), t("color.black"));
    $("status").textContent = v.outcome
      ? t("analyse.statusOver", { position: v.position, side: t("side." + v.turn), outcome: outcomeText(v.outcome) })
      : t("analyse.status", { position: v.position, side: t("side." + v.turn), n: v.legal.length });
    $("a-tb").textContent = v.tablebase ? t("analyse.tb", { value: v.tablebase.text }) : (S.info && S.info.tablebase ? t("analyse.tbNone") : "");
    const A = S.analyse;
    const moves = A.game ? A.game.moves.join(" ") : $("a-moves").value;
    setHash("analyse&" + q({ position: $("a-position").value, moves, ply: A.game && A.ply < A.game.moves.length ? A.ply : undefined, side: A.side }));
    $("message").textContent = "";
    renderAnalyseTurns();
    return v;
  } catch (e) { $("message").textContent = e.message; return null; }
}

async function analyseStart() {
  await analyseStop();
  const v = await analyseShow();
  if (!v) return;
  $("depths").querySelector("tbody").replaceChildren();
  $("a-result").textContent = t("analyse.searching");
  S.analyse.mover = v.turn;
  try {
    const r = await api("/api/search", { position: $("a-position").value, moves: $("a-moves").value, engine: $("a-engine").value }, { timeoutMs: 30000 });
    S.analyse.id = r.id;
    poll();
  } catch (e) { $("a-result").textContent = ""; $("message").textContent = e.message; }
}

async function poll() {
  const A = S.analyse, id = A.id;
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
    if (v.depths.length) showEvalBar(v.depths[v.depths.length - 1].score, A.mover);
    if (v.done) {
      const r = v.result;
      $("a-result").textContent = t(r.stopped ? "analyse.resultStopped" : "analyse.result", { best: r.best || "—", score: r.score_text, depth: r.depth, nodes: r.nodes, ms: r.time_ms });
      A.id = null;
      return;
    }
    A.timer = setTimeout(poll, 250);
  } catch (e) { $("message").textContent = e.message; A.id = null; }
}

async function analyseStop() {
  clearTimeout(S.analyse.timer);
  const id = S.analyse.id;
  if (id !== null) { try { await api("/api/search/stop?" + q({ id }), {}); } catch (e) { /* already gone */ } S.analyse.timer = setTimeout(poll, 50); }
}

/// Opens Analyse from the address: `position`, `moves` (the game's turns), `ply` (how many of
/// them are played; all by default), `side` (whose expected result the bar shows).
async function routeAnalyse(h) {
  const A = S.analyse;
  if (h.side === "white" || h.side === "black") A.side = h.side;
  if (h.position !== undefined) $("a-position").value = h.position;
  if (h.moves !== undefined) {
    const moves = h.moves.split(" ").filter(Boolean);
    const ply = Number(h.ply);
    A.game = { moves, first: "white" };
    A.ply = Number.isInteger(ply) && ply >= 0 && ply <= moves.length ? ply : moves.length;
    $("a-moves").value = analyseMoves();
    const start = await api("/api/position?" + q({ position: $("a-position").value })).catch(() => null);
    if (start) A.game.first = start.turn;
  }
  hideEvalBar();
  await analyseShow();
}
