// The two clocks of a game, synchronised to the server: each clock message gives both times as
// of the moment it was sent; the running side's time is that minus the time since it arrived
// (less any delay still to run, protocol.md `delay_ms`). Ticks with requestAnimationFrame.

export function formatMs(ms) {
  if (ms === null || ms === undefined) return '∞';
  ms = Math.max(0, ms);
  if (ms >= 86400000) {
    const d = Math.floor(ms / 86400000), h = Math.floor((ms % 86400000) / 3600000);
    return `${d}d ${h}h`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  if (h > 0) return `${h}:${pad(m)}:${pad(s)}`;
  if (ms < 10000) return `${pad(m)}:${pad(s)}.${Math.floor((ms % 1000) / 100)}`;
  return `${pad(m)}:${pad(s)}`;
}

export class Clocks {
  /**
   * `els`: {white, black} elements to render into. `onLow(color)` once per side when its time
   * falls under the low-time mark; `onZero(color)` while a running clock shows zero.
   */
  constructor(els, { onLow, onZero, lowMs = 10000 } = {}) {
    this.els = els;
    this.onLow = onLow || (() => {});
    this.onZero = onZero || (() => {});
    this.lowMs = lowMs;
    this.warned = { white: false, black: false };
    this.state = null;
    this.frame = null;
    this.lastZero = 0;
  }

  /** `clock`: the protocol's clock object; `receivedAt`: performance.now() at arrival. */
  set(clock, receivedAt = performance.now()) {
    this.state = clock ? { ...clock, at: receivedAt } : null;
    this.render();
    if (this.state && this.state.running && !this.frame) this.loop();
  }

  stop() {
    if (this.state) {
      const now = performance.now();
      this.state = { ...this.state, white_ms: this.time('white', now), black_ms: this.time('black', now), running: null, at: now };
    }
    this.render();
  }

  destroy() { cancelAnimationFrame(this.frame); this.frame = null; this.state = null; }

  time(color, now = performance.now()) {
    const s = this.state;
    if (!s) return null;
    const base = s[color + '_ms'];
    if (base === null || base === undefined) return null;
    if (s.running !== color) return base;
    const elapsed = now - s.at - (s.delay_ms || 0);
    return Math.max(0, base - Math.max(0, elapsed));
  }

  loop() {
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.render();
      if (this.state && this.state.running) this.loop();
    });
  }

  render() {
    for (const color of ['white', 'black']) {
      const el = this.els[color];
      if (!el) continue;
      const ms = this.time(color);
      const running = !!this.state && this.state.running === color;
      const text = formatMs(ms);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('running', running);
      const low = ms !== null && ms < this.lowMs;
      el.classList.toggle('low', low);
      el.classList.toggle('flagged', ms === 0);
      if (low && running && !this.warned[color] && ms > 0) { this.warned[color] = true; this.onLow(color); }
      if (ms === 0 && running && performance.now() - this.lastZero > 1000) { this.lastZero = performance.now(); this.onZero(color); }
    }
  }
}
