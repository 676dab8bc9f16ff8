// The game page's clocks: both players' clocks counted from the server's stamp, the low-time
// mark and sound, and the first-move countdown (protocol.md, "Starting a game").

import { h } from '../dom.js';
import { Clocks } from '../clock.js';
import { t, colorName } from '../i18n.js';
import * as sound from '../sound.js';

/** The low-time mark: 10 s, or a fifth of a shorter base time. */
export function lowMark(tc) {
  const m = /^(\d+(?:\.\d+)?)/.exec(tc || '');
  if (!m || tc.includes('/') || /d$/.test(tc)) return 10000;
  return Math.min(10000, Math.max(2000, Number(m[1]) * 200));
}

/**
 * When the clocks in `msg` held, on this page's performance clock: the server's stamp less
 * the measured offset when both are known, else the arrival. A message held up by the
 * network then counts its time in the queue (issue 38).
 */
export function heldAt(socket, msg, arrival) {
  const clock = msg.clock || (msg.game && msg.game.clock);
  if (!clock || typeof clock.server_ms !== 'number' || socket.offset === null) return arrival;
  const age = socket.serverNow() - clock.server_ms;
  return arrival - Math.max(0, Math.min(age, 60000));
}

/** Both clocks (`els` go into the players' bars); `sync()` asks the server to look at a flag. */
export function gameClocks(s, { sync }) {
  let lastZeroSync = 0;
  const els = {
    white: h('div.clock#clock-white', { role: 'timer', 'aria-label': t('game.clock_label', { color: colorName('white') }), dataset: { color: 'white' } }),
    black: h('div.clock#clock-black', { role: 'timer', 'aria-label': t('game.clock_label', { color: colorName('black') }), dataset: { color: 'black' } }),
  };
  const clocks = new Clocks(els, {
    onLow: (color) => { if (color === s.you) sound.play('lowTime'); },
    onZero: () => {
      // The server decides flags; ask it to look (at most once a second).
      if (s.g && s.g.status === 'live' && performance.now() - lastZeroSync > 1000) { lastZeroSync = performance.now(); sync(); }
    },
  });
  return { els, clocks };
}

/** The first-move countdown, shown on the board. */
export function firstMoveCountdown(s) {
  const el = h('div.first-move#first-move', { hidden: true, 'aria-live': 'polite' });
  let timer = null;
  function render() {
    clearInterval(timer);
    timer = null;
    const fm = s.isLive() && s.g.first_move;
    el.hidden = !fm;
    if (!fm) return;
    const until = s.g.firstMoveAt + fm.ms;
    const tick = () => {
      const sec = Math.max(0, Math.ceil((until - performance.now()) / 1000));
      el.dataset.color = fm.color;
      // In a tournament the default time passes into a forfeit, not an abort (RULES.md §12).
      const k = s.g.tournament ? 'game.first_move_forfeit' : 'game.first_move';
      el.textContent = fm.color === s.you ? t(k + '_you', { s: sec }) : t(k, { color: colorName(fm.color), s: sec });
      if (sec === 0) clearInterval(timer);
    };
    tick();
    timer = setInterval(tick, 250);
  }
  return { el, render, destroy: () => clearInterval(timer) };
}
