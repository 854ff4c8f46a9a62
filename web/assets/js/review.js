// Review, after a game: the engine goes through the player's turns and marks each that lowered
// the player's expected result (analyse.js's expectedResult: 1 a win, 1/2 a draw, 0 a loss) by
// at least a threshold: 0.10 an inaccuracy (?!), 0.20 a mistake (?), 0.30 a blunder (??). For
// each it shows the engine's better turn and offers to play on from the position before it.
"use strict";

// The engine that reviews: the embedded network, a fixed number of nodes a position (the same
// marks on any machine), at most 2 s each.
const REVIEW_SPEC = "alphabeta:nodes=200000,movetime=2000,eval=embedded";
const REVIEW_KINDS = [["blunder", 0.30, "??"], ["mistake", 0.20, "?"], ["inaccuracy", 0.10, "?!"]];

/// The kind of a turn that lost `loss` of the expected result, or null.
function reviewKind(loss) {
  const k = REVIEW_KINDS.find(([, threshold]) => loss >= threshold - 1e-9);
  return k ? k[0] : null;
}

/// The engine's turn and score (the mover's view) in the position after `ply` turns.
function reviewSearch(ply, gen) {
  const P = S.play;
  return api("/api/engine", { position: P.start, moves: P.moves.slice(0, ply), engine: REVIEW_SPEC }, { timeoutMs: 30000, stale: () => gen !== P.gen });
}

/// The expected result of the player after turn `ply` (played by the player).
async function valueAfter(ply, gen) {
  const P = S.play, after = P.history[ply + 1];
  if (after.outcome) return after.outcome.winner === null ? 0.5 : (after.outcome.winner === human() ? 1 : 0);
  const r = await reviewSearch(ply + 1, gen);
  return expectedResult(-(r.score ?? 0));
}

/// Reviews turn `ply` of the player: the best turn's value against the played one's.
async function reviewTurn(ply, gen) {
  const P = S.play;
  const best = await reviewSearch(ply, gen);
  const before = expectedResult(best.score ?? 0);
  const same = best.turn.notation === P.turns[ply].notation;
  const played = same ? before : await valueAfter(ply, gen);
  const loss = Math.max(0, before - played);
  return { ply, loss, before, played, kind: same ? null : reviewKind(loss), better: best.turn };
}

async function runReview() {
  const P = S.play, gen = P.gen, me = human();
  if (!gameOver() || (P.review && P.review.running)) return;
  const plies = P.turns.map((x, i) => (x.mover === me ? i : -1)).filter((i) => i >= 0);
  P.review = { items: [], done: 0, total: plies.length, running: true, error: null };
  renderReview();
  for (const ply of plies) {
    let item;
    try { item = await reviewTurn(ply, gen); } catch (e) {
      if (gen === P.gen) { P.review.error = e.message; P.review.running = false; renderReview(); }
      return;
    }
    if (gen !== P.gen) return;
    P.review.items.push(item);
    P.review.done++;
    renderReview();
  }
  P.review.running = false;
  renderReview();
  renderMoves();
}

/// The marks of the move list: ply index -> {mark, markText}.
function reviewMarks() {
  const R = S.play.review, out = {};
  if (!R) return out;
  for (const it of R.items) {
    if (!it.kind) continue;
    out[it.ply] = { mark: REVIEW_KINDS.find(([k]) => k === it.kind)[2], markText: t("review.kind." + it.kind) };
  }
  return out;
}

function reviewSummary(R) {
  const count = (k) => R.items.filter((x) => x.kind === k).length;
  if (R.error) return t("review.failed", { error: R.error });
  if (R.running) return t("review.running", { done: R.done, n: R.total });
  return t("review.done", { n: R.total, blunders: count("blunder"), mistakes: count("mistake"), inaccuracies: count("inaccuracy") });
}

function reviewItem(it) {
  const P = S.play, first = P.history[0].turn;
  const li = html("li", { "data-review-ply": it.ply, "data-kind": it.kind });
  li.appendChild(html("span", { class: "kind" }, t("review.head", { label: turnLabel(it.ply, first), turn: P.turns[it.ply].notation, kind: t("review.kind." + it.kind) })));
  li.appendChild(document.createTextNode(" " + t("review.item", { before: Math.round(it.before * 100), after: Math.round(it.played * 100), better: it.better.notation })));
  const row = html("div", {});
  const showIt = html("button", { type: "button", class: "review-show" }, t("review.show"));
  showIt.addEventListener("click", () => { P.reviewShow = { ply: it.ply, steps: it.better.steps }; P.view = it.ply; renderPlay(); });
  const again = html("button", { type: "button", class: "review-again" }, t("review.again"));
  again.addEventListener("click", () => openKept({ ...keptGame(P), moves: P.moves.slice(0, it.ply), resigned: "" }, false));
  row.append(showIt, again);
  li.appendChild(row);
  return li;
}

function renderReview() {
  const R = S.play.review;
  $("review").classList.toggle("show", !!R);
  $("p-review").disabled = !!(R && R.running);
  if (!R) return;
  $("review-status").textContent = reviewSummary(R);
  const list = $("review-list");
  list.replaceChildren();
  for (const it of R.items) if (it.kind) list.appendChild(reviewItem(it));
}
