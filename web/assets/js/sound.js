// Move sounds (a setting, off by default): a short tick for a step, a lower double knock for a
// capture, made with the Web Audio API (no sound files).
"use strict";

const SOUND = { ctx: null, played: 0 };

function tone(freq, at, length, gain) {
  const ctx = SOUND.ctx;
  const osc = ctx.createOscillator(), amp = ctx.createGain();
  osc.type = "triangle";
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(gain, ctx.currentTime + at);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + at);
  osc.stop(ctx.currentTime + at + length + 0.02);
}

/// Plays the sound of a step (`capture`: whether it captured), when sounds are on.
function moveSound(capture) {
  if (!S.settings.sound) return;
  SOUND.played++;
  try {
    if (!SOUND.ctx) SOUND.ctx = new AudioContext();
    if (SOUND.ctx.state === "suspended") SOUND.ctx.resume();
    if (capture) { tone(220, 0, 0.09, 0.25); tone(165, 0.08, 0.12, 0.25); } else tone(660, 0, 0.06, 0.15);
  } catch (e) { /* no audio here: the game goes on silently */ }
}
