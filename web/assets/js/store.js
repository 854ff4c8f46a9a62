// A game kept: in the browser (localStorage, so that it survives a reload, Back and a closed
// tab) and as a link (the address's `#` part: the start, the turns, the level and colours,
// which reopens the game in Play or Replay). Both are checked the same way before use: a
// malformed, foreign-version, oversized or illegal game is refused with a message.
"use strict";

const GAME_KEY = "fanorona.game";
const GAME_VERSION = "1";
// The most characters a kept game (stored or linked) may have.
const MAX_GAME_CHARS = 64 * 1024;
const TURN_RE = /^[a-i][1-5][a-i][1-5][+-]?(,[a-i][1-5][a-i][1-5][+-]?)*$/;
const POSITION_RE = /^[A-Za-z0-9/. ]{1,120}$/;

/// The most turns a kept game may have: the server's game length limit (or 2000 without one).
function maxKeptTurns() { return (S.info && S.info.max_plies) || 2000; }

/// The fields of a kept game: start, moves, color (`w`/`b`), level, engine, seed, resigned.
function keptGame(P) {
  return {
    v: GAME_VERSION, start: P.start, moves: [...P.moves], color: P.color, level: P.level || "", engine: P.engine || "",
    seed: P.seed, resigned: P.resigned || "",
  };
}

/// `null` when `g` (a kept game read back) is well formed, else why not: `{key, vars}` for t().
function checkKept(g) {
  if (!g || typeof g !== "object") return { key: "kept.malformed" };
  if (String(g.v) !== GAME_VERSION) return { key: "kept.version", vars: { v: String(g.v ?? "?") } };
  if (!Array.isArray(g.moves) || !g.moves.every((m) => typeof m === "string" && TURN_RE.test(m))) return { key: "kept.malformed" };
  if (g.moves.length > maxKeptTurns()) return { key: "kept.oversized", vars: { n: g.moves.length, max: maxKeptTurns() } };
  if (typeof g.start !== "string" || !(g.start === "startpos" || POSITION_RE.test(g.start))) return { key: "kept.malformed" };
  if (!["w", "b"].includes(g.color)) return { key: "kept.malformed" };
  if (!["", "white", "black"].includes(g.resigned || "")) return { key: "kept.malformed" };
  if (typeof (g.level || "") !== "string" || typeof (g.engine || "") !== "string") return { key: "kept.malformed" };
  return null;
}

/// The game in the address `h` (parsed), `null` when it names none, or `{error}`.
function linkedGame(h) {
  if (h.moves === undefined && h.v === undefined) return null;
  if (h.malformed) return { error: { key: "kept.malformed" } };
  if (location.hash.length > MAX_GAME_CHARS) return { error: { key: "kept.tooLarge", vars: { n: Math.round(location.hash.length / 1024) } } };
  const g = {
    v: h.v, start: h.position || "startpos", moves: (h.moves || "").split(" ").filter(Boolean), color: h.color,
    level: h.level || "", engine: h.engine || "", seed: Number(h.seed) || 1, resigned: h.resigned || "",
  };
  const bad = checkKept(g);
  return bad ? { error: bad } : { game: g };
}

/// The address of kept game `g` in `mode` (play or replay).
function gameLink(g, mode) {
  return `${mode}&` + q({ v: GAME_VERSION, level: g.level, color: g.color, engine: g.engine, position: g.start === "startpos" ? "" : g.start, moves: g.moves.join(" "), seed: g.seed, resigned: g.resigned });
}

/// Keeps the game in the browser.
function storeGame(P) {
  try { localStorage.setItem(GAME_KEY, JSON.stringify({ ...keptGame(P), over: !!(P.pos && P.pos.outcome) || !!P.resigned, saved: Date.now() })); } catch (e) { /* private mode: not kept */ }
}

/// The game kept in the browser, `null`, or `{error}` (the kept game is then dropped).
function storedGame() {
  let text;
  try { text = localStorage.getItem(GAME_KEY); } catch (e) { return null; }
  if (!text) return null;
  const drop = (error) => { try { localStorage.removeItem(GAME_KEY); } catch (e) { /* nothing */ } return { error }; };
  if (text.length > MAX_GAME_CHARS) return drop({ key: "kept.tooLarge", vars: { n: Math.round(text.length / 1024) } });
  let g;
  try { g = JSON.parse(text); } catch (e) { return drop({ key: "kept.malformed" }); }
  const bad = checkKept(g);
  return bad ? drop(bad) : { game: g };
}

/// The positions of a game (`start`, then every turn of `moves`) with each turn's steps, from
/// the server (which checks every turn): `{history, turns}`; throws the server's error for an
/// illegal turn. Asks a few positions at a time.
async function rebuildGame(start, moves) {
  const history = new Array(moves.length + 1);
  const ask = (k) => api("/api/position?" + q({ position: start, moves: moves.slice(0, k).join(" ") })).then((v) => { history[k] = v; });
  const order = [...Array(moves.length + 1).keys()];
  for (let i = 0; i < order.length; i += 6) await Promise.all(order.slice(i, i + 6).map(ask));
  const turns = moves.map((m, i) => {
    const before = history[i];
    const turn = before.legal.find((x) => x.notation === m);
    if (!turn) throw new ApiError(t("kept.illegalTurn", { turn: m, n: i + 1 }), 400);
    return { mover: before.turn, notation: m, steps: turn.steps };
  });
  return { history, turns };
}
