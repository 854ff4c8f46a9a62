// The page's state, its settings, the three views (Play, Replay, Analyse) chosen by the
// address's `#` part, and the start.
"use strict";

const SETTINGS_KEY = "fanorona.settings";

const S = {
  mode: "play",
  info: null,
  // The board's drawing: `vertical` on narrow screens (files top to bottom), `flip` when the
  // player has Black (their stones nearest to them), turned again when `flipped` by hand.
  vertical: false,
  flip: false,
  flipped: false,
  cursor: "e3",
  owner: null,
  settings: { anim: "normal", hints: false, analysis: false, sound: false, theme: "auto", lang: "" },
  replay: { file: null, game: null, data: null, ply: 0, step: 0, link: null },
  analyse: { id: null, timer: null, side: null, game: null, ply: 0, mover: "white" },
  // `gen` counts games: an answer that arrives after a new game (or a resignation) is dropped.
  play: {
    key: null, gen: 0, start: "startpos", moves: [], turns: [], history: [], color: "w", colorChoice: "w",
    level: "", engine: "", pos: null, partial: [], selected: null, busy: false, failed: null,
    resigned: null, view: null, seed: 1, resignArmed: null, notice: null, hint: null, review: null, reviewShow: null,
    paused: false, restoring: false, queued: false, queuedSince: null, thinkingSince: null, asking: null,
  },
  // What the computer's turns showed (read by the browser test).
  shown: { steps: 0, captureMarks: 0 },
  turnsOfFile: null,
};

// ---------- settings ----------

function loadSettings() {
  try { Object.assign(S.settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}")); } catch (e) { /* defaults */ }
  if (!SPEEDS[S.settings.anim]) S.settings.anim = "normal";
  if (!["auto", "light", "dark"].includes(S.settings.theme)) S.settings.theme = "auto";
}

function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch (e) { /* private mode */ }
}

const DARK = window.matchMedia("(prefers-color-scheme: dark)");

/// Dark or light colours: the settings' choice, else the system's.
function applyTheme() {
  const dark = S.settings.theme === "dark" || (S.settings.theme === "auto" && DARK.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

function initSettings() {
  const bind = (id, key, after) => {
    const e = $(id);
    if (e.type === "checkbox") e.checked = !!S.settings[key]; else e.value = S.settings[key];
    e.addEventListener("change", () => { S.settings[key] = e.type === "checkbox" ? e.checked : e.value; saveSettings(); if (after) after(); });
  };
  bind("p-anim", "anim");
  bind("p-hints", "hints", renderPlay);
  bind("p-sound", "sound");
  bind("p-theme", "theme", applyTheme);
  bind("p-analysis", "analysis", () => { if (!S.settings.analysis) $("p-engine-note").textContent = ""; });
  DARK.addEventListener("change", applyTheme);
  const narrow = window.matchMedia("(max-width: 640px)");
  S.vertical = narrow.matches;
  narrow.addEventListener("change", () => { S.vertical = narrow.matches; rerender(); });
}

// ---------- views and the address ----------

function setMode(mode) {
  S.mode = mode;
  for (const m of ["replay", "analyse", "play"]) {
    $("tab-" + m).classList.toggle("active", m === mode);
    if (m === mode) $("tab-" + m).setAttribute("aria-current", "page"); else $("tab-" + m).removeAttribute("aria-current");
    $("panel-" + m).classList.toggle("active", m === mode);
  }
  for (const id of ["replay-controls", "chart", "chart-note"]) $(id).style.display = mode === "replay" ? "" : "none";
  for (const id of ["play-controls", "p-engine-note", "game-bar", "last-turn"]) $(id).style.display = mode === "play" ? "" : "none";
  if (mode !== "play") { $("result").classList.remove("show"); $("viewing").classList.remove("show"); show("resume", false); document.title = t("app.title"); }
  else if (gameOver()) $("result").classList.add("show");
  if (mode !== "analyse") hideEvalBar();
  $("prompt").replaceChildren();
  $("message").textContent = "";
}

/// Play from the address: a game link reopens its game; `level`, `color`, `engine`,
/// `position` set up a new game; otherwise the game in progress, or the one kept in the
/// browser (offered to resume), or a new one.
async function routePlay(h) {
  const P = S.play;
  if (h.anim && SPEEDS[h.anim]) { S.settings.anim = h.anim; $("p-anim").value = h.anim; }
  const linked = linkedGame(h);
  if (linked && linked.error) { await playNew(t("play.refused", { reason: t(linked.error.key, linked.error.vars) })); return; }
  if (linked) {
    if (P.pos && gameLink(keptGame(P), "play") === gameLink(linked.game, "play")) renderPlay();
    else await openKept(linked.game, false);
    return;
  }
  if (["level", "color", "engine", "position"].some((k) => h[k] !== undefined)) { await setUpFromAddress(h); return; }
  if (P.pos) { renderPlay(); return; }
  const stored = storedGame();
  if (stored && stored.error) await playNew(t("play.refused", { reason: t(stored.error.key, stored.error.vars) }));
  else if (stored && !stored.game.over && stored.game.moves.length) await openKept(stored.game, true);
  else await playNew();
}

/// A new game as the address describes it (what it leaves out is the default).
async function setUpFromAddress(h) {
  let warning = null;
  if (h.color) setColor(["w", "b", "r"].includes(h.color) ? h.color : "w");
  if (h.level) {
    setLevel(h.level);
    if (!chosenLevel()) {
      setLevel(S.info && S.info.default_level);
      warning = t("play.unknownLevel", { level: h.level, levels: levels().map((l) => levelName(l.name)).join(", ") });
    }
  }
  $("p-engine").value = h.engine || "";
  $("p-position").value = h.position || "";
  if (h.engine || h.position) $("p-advanced").open = true;
  if (S.play.key !== uiKey() || !S.play.pos || warning) await playNew(warning);
  else renderPlay();
}

async function route() {
  const h = parseHash();
  const mode = ["replay", "analyse"].includes(h.mode) ? h.mode : "play";
  setMode(mode);
  if (mode === "replay") await routeReplay(h);
  else if (mode === "analyse") await routeAnalyse(h);
  else await routePlay(h);
}

function rerender() {
  if (S.mode === "play") renderPlay();
  else if (S.mode === "replay" && S.replay.data) renderReplay();
  else if (S.mode === "analyse") analyseShow();
}

/// After a change of language: what scripts wrote is written again.
async function relabel() {
  const level = chosenLevel();
  buildLevels();
  setLevel(level);
  if (S.mode === "play" && gameOver()) {
    const w = resultWords();
    $("result-title").textContent = w.title;
    $("result-reason").textContent = w.reason;
    $("p-rematch").textContent = t(S.play.color === "w" ? "end.rematchBlack" : "end.rematchWhite");
  }
  if (S.play.review) renderReview();
  if (S.play.paused) offerResume();
  showProgram();
  try { await loadFiles(); } catch (e) { /* shown when Replay is opened */ }
  if (S.replay.data) renderTurnList();
  rerender();
}

function showProgram() {
  if (S.info) $("program").textContent = S.info.save ? t("header.saving", { program: S.info.program, file: S.info.save }) : S.info.program;
}

function initPlay() {
  buildLevels();
  setLevel((S.info && S.info.default_level) || (levels()[0] || {}).name);
  const setup = $("setup");
  $("p-new-open").addEventListener("click", () => { showLevelNote(); setup.showModal(); });
  $("p-new").addEventListener("click", () => { setup.close(); playNew(); });
  $("p-setup-cancel").addEventListener("click", () => setup.close());
  $("p-hint").addEventListener("click", hint);
  $("p-undo").addEventListener("click", playUndo);
  $("p-flip").addEventListener("click", () => { S.flipped = !S.flipped; rerender(); renderBar(); });
  $("p-resign").addEventListener("click", resign);
  $("p-stop").addEventListener("click", commit);
  $("p-retry").addEventListener("click", engineMove);
  $("p-rematch").addEventListener("click", () => { hideResult(); rematch(); });
  $("p-review").addEventListener("click", runReview);
  $("p-to-analyse").addEventListener("click", analyseThisGame);
  $("p-pgn").addEventListener("click", () => download("/api/pgn", "fanorona-game.pgn"));
  $("p-bin").addEventListener("click", () => download("/api/record", "fanorona-game.bin"));
  $("p-save").addEventListener("click", playSave);
  $("p-live").addEventListener("click", () => { S.play.view = null; S.play.reviewShow = null; renderPlay(); });
  $("resume-yes").addEventListener("click", resume);
  $("resume-no").addEventListener("click", () => playNew());
  $("board").addEventListener("keydown", boardKeys);
}

async function init() {
  loadSettings();
  applyTheme();
  try { await setLanguage(preferredLanguage(S.settings.lang)); } catch (e) { $("message").textContent = e.message; }
  try { S.info = await api("/api/info"); } catch (e) { $("message").textContent = e.message; }
  showProgram();
  buildLanguageSwitch(async (lang) => { S.settings.lang = lang; saveSettings(); await setLanguage(lang); await relabel(); });
  initSettings();
  initReplay();
  initPlay();
  for (const m of ["replay", "analyse", "play"]) {
    $("tab-" + m).addEventListener("click", (ev) => {
      ev.preventDefault();
      const R = S.replay;
      location.hash = m === "replay" && R.data ? (R.link ? `${R.link}&ply=${R.ply}` : q({ file: R.file, game: R.game, ply: R.ply })) : m;
    });
  }
  $("a-show").addEventListener("click", analyseShow);
  $("a-start").addEventListener("click", analyseStart);
  $("a-stop").addEventListener("click", analyseStop);
  document.addEventListener("keydown", replayKeys);
  window.addEventListener("hashchange", route);
  try { await loadFiles(); } catch (e) { $("message").textContent = e.message; }
  if (parseHash().file === undefined && $("file").value) { S.turnsOfFile = $("file").value; loadGames(); }
  await route();
  document.body.dataset.ready = "1";
}

init();
