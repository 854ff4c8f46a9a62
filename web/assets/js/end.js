// The end of a game and the turns back: the result in words, resigning, taking back, a rematch,
// the downloads, saving on the server, and "Analyse this game".
"use strict";

function resultWords() {
  const P = S.play, me = human();
  if (P.resigned) return { title: t(P.resigned === me ? "end.youResigned" : "end.computerResigned"), reason: "" };
  const o = P.pos.outcome;
  const mine = o.winner === me;
  const title = t(o.winner === null ? "end.draw" : (mine ? "end.youWon" : "end.computerWon"));
  const info = S.info || {};
  const keys = {
    "all-captured": mine ? "end.allCapturedYou" : "end.allCapturedComputer",
    "no-moves": mine ? "end.noMovesComputer" : "end.noMovesYou",
    repetition: "end.repetition", "no-progress": "end.noProgress", "max-length": "end.maxLength",
  };
  const key = keys[o.termination];
  const reason = key ? t(key, { n: key === "end.noProgress" ? info.max_quiet_plies || 0 : info.max_plies || 0 }) : t("end.other", { text: o.text });
  return { title, reason };
}

function finish(said) {
  const w = resultWords();
  $("result-title").textContent = w.title;
  $("result-reason").textContent = w.reason;
  $("result").classList.add("show");
  $("p-rematch").textContent = t(S.play.color === "w" ? "end.rematchBlack" : "end.rematchWhite");
  renderPlay();
  renderReview();
  announce(`${said ? said + " " : ""}${w.title} ${w.reason}`);
}

function hideResult() { $("result").classList.remove("show"); $("review").classList.remove("show"); }

async function resign() {
  const P = S.play;
  if (gameOver() || !P.moves.length) return;
  if (!P.resignArmed) {
    P.resignArmed = setTimeout(() => { P.resignArmed = null; renderBar(); }, 4000);
    renderBar();
    return;
  }
  clearTimeout(P.resignArmed); P.resignArmed = null;
  P.gen++; P.busy = false; P.partial = []; P.selected = null; P.hint = null;
  P.resigned = human();
  finish();
}

/// The players' names and the resignation, for the record and PGN downloads and saving.
function recordBody() {
  const P = S.play, me = human(), l = levelInfo(P.level);
  const them = P.engine || (l ? `${l.name} level (${l.spec})` : (S.info && S.info.engine) || "engine");
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
    notify(t("end.downloaded", { file: name }));
  } catch (e) { notify(e.message); }
}

async function playSave() {
  try {
    const v = await api("/api/save", recordBody());
    notify(t("end.saved", { game: v.game, file: v.file }));
    loadFiles();
  } catch (e) { notify(e.message); }
}

/// Takes back the player's last turn (and the computer's answer to it).
async function playUndo() {
  const P = S.play, me = human();
  if (P.busy || !P.turns.some((x) => x.mover === me)) return;
  P.gen++; P.partial = []; P.selected = null; P.failed = null; P.resigned = null; P.view = null; P.hint = null; P.review = null;
  do { P.moves.pop(); P.turns.pop(); P.history.pop(); } while (P.moves.length && P.history[P.history.length - 1].turn !== me);
  P.pos = P.history[P.history.length - 1];
  hideResult(); $("prompt").replaceChildren();
  renderPlay();
  if (P.pos.turn !== me && !P.pos.outcome) await engineMove();
}

async function rematch() {
  setColor(S.play.color === "w" ? "b" : "w");
  setLevel(S.play.level);
  await playNew();
}

/// Opens the game in Analyse: its start and every turn, seen from the player's side.
function analyseThisGame() {
  const P = S.play;
  S.analyse.side = human();
  // A finished game has nothing left to search: it opens on the position before its last turn.
  const ply = P.pos.outcome && P.moves.length ? P.moves.length - 1 : undefined;
  location.hash = "analyse&" + q({ position: P.start, moves: P.moves.join(" "), ply, side: human() });
}
