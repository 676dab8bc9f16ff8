// The evaluation graph of an analysed game (issue 38), drawn as lichess draws its own: White's
// win percentage after each move as a filled curve (White's share below it), the judged moves
// marked in their colours, the move on the board as a line. A click goes to that move.

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const HEIGHT = 100;

function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * The graph of `analysis` (the server's report: `evals` with White's `win`, `moves` with their
 * judgements), `width` user units wide; `onPick(ply)` on a click. Returns `{svg, setPly}`.
 */
export function evalGraph(analysis, width, onPick) {
  const evals = analysis.evals || [];
  const n = Math.max(1, evals.length - 1);
  const x = (ply) => (ply / n) * width;
  const y = (win) => HEIGHT * (1 - win / 100);
  const svg = el('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, class: 'eval-graph', id: 'eval-graph', role: 'img' });
  svg.setAttribute('aria-label', t('review.graph'));
  svg.appendChild(el('rect', { x: 0, y: 0, width, height: HEIGHT, class: 'graph-bg' }));
  const line = evals.map((e) => `${x(e.ply).toFixed(1)},${y(e.win).toFixed(1)}`).join(' ');
  svg.appendChild(el('polygon', { points: `0,${HEIGHT} ${line} ${x(evals.length - 1).toFixed(1)},${HEIGHT}`, class: 'graph-white' }));
  svg.appendChild(el('polyline', { points: line, class: 'graph-line' }));
  svg.appendChild(el('line', { x1: 0, x2: width, y1: HEIGHT / 2, y2: HEIGHT / 2, class: 'graph-mid' }));
  const cursor = el('line', { x1: 0, x2: 0, y1: 0, y2: HEIGHT, class: 'graph-cursor' });
  svg.appendChild(cursor);
  for (const m of analysis.moves || []) {
    if (!m.judgement) continue;
    const e = evals[m.ply];
    if (!e) continue;
    const dot = el('circle', { cx: x(m.ply).toFixed(1), cy: y(e.win).toFixed(1), r: 4, class: `graph-mark ${m.judgement}` });
    dot.dataset.ply = m.ply;
    svg.appendChild(dot);
  }
  // One invisible band per position takes the clicks, so that a point is easy to hit.
  const band = width / n;
  for (const e of evals) {
    const hit = el('rect', { x: Math.max(0, x(e.ply) - band / 2).toFixed(1), y: 0, width: band.toFixed(1), height: HEIGHT, class: 'graph-hit' });
    hit.dataset.ply = e.ply;
    const title = el('title');
    title.textContent = scoreText(e);
    hit.appendChild(title);
    hit.addEventListener('click', () => onPick(e.ply));
    svg.appendChild(hit);
  }
  const setPly = (ply) => {
    cursor.setAttribute('x1', x(ply).toFixed(1));
    cursor.setAttribute('x2', x(ply).toFixed(1));
  };
  return { svg, setPly };
}

/** `+0.35`, `#3`, `#-2`, or `#` for a mate on the board, from White's point of view. */
export function scoreText(e) {
  if (!e) return '';
  if (e.mate === 0) return '#';
  if (e.mate !== null && e.mate !== undefined) return (e.mate > 0 ? '#' : '#-') + Math.abs(e.mate);
  const cp = e.cp || 0;
  return (cp >= 0 ? '+' : '−') + (Math.abs(cp) / 100).toFixed(2);
}
