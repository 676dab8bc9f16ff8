// Sounds made with WebAudio (no sound files): move, capture, check, low time, game end.
// Muted state is remembered in localStorage.

let ctx = null;
let muted = localStorage.getItem('rookery.muted') === '1';

export const isMuted = () => muted;
export function setMuted(m) { muted = m; localStorage.setItem('rookery.muted', m ? '1' : '0'); }

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

function tone(freq, { at = 0, dur = 0.08, type = 'sine', gain = 0.2, slide = null } = {}) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + at;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

function noise({ dur = 0.05, gain = 0.25, freq = 1800 } = {}) {
  const a = audio();
  if (!a) return;
  const buf = a.createBuffer(1, Math.floor(a.sampleRate * dur), a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const filter = a.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(a.destination);
  src.start();
}

const SOUNDS = {
  move: () => { noise({ freq: 1200, gain: 0.5 }); tone(220, { dur: 0.05, type: 'triangle', gain: 0.15 }); },
  capture: () => { noise({ freq: 2200, gain: 0.7, dur: 0.08 }); tone(160, { dur: 0.09, type: 'triangle', gain: 0.2 }); },
  check: () => { tone(880, { dur: 0.12, type: 'square', gain: 0.06 }); tone(660, { at: 0.12, dur: 0.14, type: 'square', gain: 0.06 }); },
  lowTime: () => { tone(1000, { dur: 0.07, gain: 0.12 }); tone(1000, { at: 0.15, dur: 0.07, gain: 0.12 }); },
  end: () => { tone(523, { dur: 0.15 }); tone(659, { at: 0.15, dur: 0.15 }); tone(784, { at: 0.3, dur: 0.3 }); },
  error: () => tone(200, { dur: 0.2, type: 'sawtooth', gain: 0.06, slide: 120 }),
};

export function play(name) {
  if (muted || !SOUNDS[name]) return;
  try { SOUNDS[name](); } catch { /* audio is a nicety */ }
}
