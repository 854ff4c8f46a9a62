// Fanorona in the browser: shared helpers (elements, the JSON API, the address).
// Plain JavaScript over the server's /api/; nothing is loaded from anywhere else.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
// How long a request waits for a free engine (the server runs a few at once and answers 503
// to more) before giving up, and the pauses between its tries.
const BUSY_WAIT_MS = 20000;
const BUSY_PAUSES_MS = [300, 600, 1000, 1500, 2000];

/// An error of the API: its message and HTTP status (0 when the server was not reached).
class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function fetchOnce(path, opts, timeoutMs) {
  let timer = null;
  if (timeoutMs) {
    const ctl = new AbortController();
    opts.signal = ctl.signal;
    timer = setTimeout(() => ctl.abort(), timeoutMs);
  }
  try {
    return await fetch(path, opts);
  } catch (e) {
    throw new ApiError(e.name === "AbortError" ? t("error.timeout") : t("error.unreachable", { error: e.message }), 0);
  } finally { clearTimeout(timer); }
}

/// Calls the API: GET `path`, or POST `body` as JSON. `o.timeoutMs` bounds each try; when the
/// engine is busy (503) the call waits and tries again for up to BUSY_WAIT_MS, telling
/// `o.onBusy(true)` when it starts waiting and `o.onBusy(false)` when it asks again, unless
/// `o.stale()` says the answer is no longer wanted.
async function api(path, body, o = {}) {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const r = await fetchOnce(path, opts, o.timeoutMs);
    const ct = r.headers.get("Content-Type") || "";
    if (!ct.startsWith("application/json")) {
      if (!r.ok) throw new ApiError(`HTTP ${r.status}`, r.status);
      return r;
    }
    const v = await r.json();
    if (r.ok) return v;
    const waited = performance.now() - started;
    if (r.status === 503 && waited < BUSY_WAIT_MS && !(o.stale && o.stale())) {
      if (o.onBusy) o.onBusy(true);
      await sleep(BUSY_PAUSES_MS[Math.min(attempt, BUSY_PAUSES_MS.length - 1)]);
      if (o.onBusy) o.onBusy(false);
      continue;
    }
    throw new ApiError(v.error || `HTTP ${r.status}`, r.status);
  }
}

/// A query string from `params` (empty values left out).
function q(params) {
  return Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

/// An SVG element.
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/// An HTML element.
function html(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function show(id, on) { $(id).classList.toggle("hidden", !on); }

/// The address's `#` part as a map (`mode`: play, replay or analyse).
function parseHash(hash) {
  const h = (hash === undefined ? location.hash : hash).replace(/^#/, "");
  const out = { mode: null };
  for (const part of h.split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    try {
      if (i < 0) { out.mode = decodeURIComponent(part); continue; }
      out[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
    } catch (e) { out.malformed = true; }
  }
  if (!out.mode) out.mode = out.file !== undefined ? "replay" : "play";
  return out;
}

/// Replaces the address's `#` part without a new history entry.
function setHash(text) {
  if (location.hash !== "#" + text) history.replaceState(null, "", "#" + text);
}

/// The notation of `steps`: `d3e3+,e3f4-`.
function notation(steps) { return steps.map((s) => s.from + s.to + s.mark).join(","); }

/// A turn's route in words: `g4-g5-f4`.
function turnRoute(steps) { return [steps[0].from, ...steps.map((s) => s.to)].join("-"); }

/// The stones a turn captures.
function capturedBy(steps) { return steps.reduce((n, s) => n + s.captured.length, 0); }

/// Turn numbering, the same everywhere (move list, captions, Replay, PGN): row N holds White's
/// N-th turn and Black's N-th turn; a game that starts with Black has "…" in White's place on
/// row 1. Turn `i` (from 0) of a game whose first turn is `firstMover`'s: its row and mover.
function turnNumber(i, firstMover) {
  const k = i + (firstMover === "black" ? 1 : 0);
  return { row: Math.floor(k / 2) + 1, mover: k % 2 === 0 ? "white" : "black" };
}

/// `12.` (White's) or `12…` (Black's) before a turn's notation.
function turnLabel(i, firstMover) {
  const n = turnNumber(i, firstMover);
  return n.mover === "white" ? `${n.row}.` : `${n.row}…`;
}

/// Rows a game of `plies` turns fills.
function rowCount(plies, firstMover) {
  return plies === 0 ? 0 : turnNumber(plies - 1, firstMover).row;
}

/// The other colour.
function other(color) { return color === "white" ? "black" : "white"; }
