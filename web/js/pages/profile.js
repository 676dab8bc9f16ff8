// A player's page: level badge and points (RULES.md §11), Glicko-2 rating, a chart of points
// over time (inline SVG), and recent games.

import * as api from '../api.js';
import { h } from '../dom.js';
import { t, levelText, formatDate, resultText, apiText } from '../i18n.js';
import { tcLabel, playerName, variantText } from '../format.js';

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  children.forEach((c) => el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c));
  return el;
}

/** Points after each rated game as a line chart; the level marks (every 100 points) as grid. */
export function pointsChart(history) {
  const W = 640, H = 220, L = 48, R = 12, T = 12, B = 28;
  const pts = history.map((e) => ({ at: e.at_ms, v: Number(e.points) }));
  pts.unshift({ at: pts.length ? pts[0].at - 1 : 0, v: pts.length ? Number(pts[0].v) - Number(history[0].delta || 0) : 0 });
  const vs = pts.map((p) => p.v);
  let lo = Math.min(0, ...vs), hi = Math.max(100, ...vs);
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const x = (i) => L + (pts.length === 1 ? 0 : (i * (W - L - R)) / (pts.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'points-chart', role: 'img', 'aria-label': t('profile.chart') });
  const step = hi - lo > 1000 ? 500 : hi - lo > 400 ? 100 : 50;
  for (let g = Math.ceil(lo / step) * step; g <= hi; g += step) {
    svg.appendChild(s('line', { x1: L, x2: W - R, y1: y(g), y2: y(g), class: g === 0 ? 'axis' : 'grid' }));
    svg.appendChild(s('text', { x: L - 6, y: y(g) + 4, 'text-anchor': 'end', class: 'tick' }, String(g)));
  }
  const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  svg.appendChild(s('path', { d: `${d} L${x(pts.length - 1).toFixed(1)},${y(lo)} L${L},${y(lo)} Z`, class: 'area' }));
  svg.appendChild(s('path', { d, class: 'line' }));
  pts.forEach((p, i) => {
    if (i === 0) return;
    const dot = s('circle', { cx: x(i), cy: y(p.v), r: 3.5, class: 'pt' });
    dot.appendChild(s('title', {}, `${formatDate(p.at)}: ${p.v.toFixed(2)}`));
    svg.appendChild(dot);
  });
  if (pts.length > 1) {
    svg.appendChild(s('text', { x: L, y: H - 8, class: 'tick' }, formatDate(pts[1].at)));
    svg.appendChild(s('text', { x: W - R, y: H - 8, 'text-anchor': 'end', class: 'tick' }, formatDate(pts[pts.length - 1].at)));
  }
  return svg;
}

function outcomeFor(name, g) {
  if (g.status === 'live') return ['live', t('profile.live')];
  if (g.result === '1/2-1/2') return ['draw', t('profile.draw')];
  const white = g.white && g.white.name === name;
  if ((g.result === '1-0' && white) || (g.result === '0-1' && !white)) return ['win', t('profile.win')];
  if (g.result === '1-0' || g.result === '0-1') return ['loss', t('profile.loss')];
  return ['none', g.result || '*'];
}

export async function mount(page, [name], ctx) {
  page.classList.add('profile-page');
  let data;
  try { data = await api.user(name); } catch (e) {
    page.append(e.status === 404 ? ctx.notFound() : h('p.notice.error', t('common.error', { msg: apiText(e) })));
    return null;
  }
  const u = data.user;
  const r = u.rating || {};
  const history = data.history || [];
  page.append(
    h('section.panel.profile-head',
      h('h1.profile-name', u.name),
      h('div.badges',
        h('span.level-badge.big#level-badge', levelText(u.level)),
        h('span.stat#points', h('small', t('profile.points')), h('strong', u.points)),
        h('span.stat#rating', h('small', t('profile.rating')), h('strong', Math.round(r.rating || 0)), h('small', ` ±${Math.round(r.deviation || 0)}`))),
      h('p.record', t('profile.record', { w: u.wins ?? 0, d: u.draws ?? 0, l: u.losses ?? 0 }), ' · ', t('profile.member_since', { date: formatDate(u.created_at_ms) })),
      h('a.btn.small', { href: api.userPgnUrl(u.name), download: `${u.name}.pgn` }, t('profile.download'))),
    h('section.panel.chart-panel', h('h2', t('profile.chart')), history.length ? pointsChart(history) : h('p.muted', t('profile.no_history'))),
    h('section.panel.games-panel', h('h2', t('profile.recent')),
      (data.games || []).length ? h('ul.game-list', data.games.map((g) => {
        const [cls, label] = outcomeFor(u.name, g);
        const href = g.status === 'live' ? `/game/${g.id}` : `/review/${g.id}`;
        return h('li.game-row', { class: cls },
          h('span.outcome', label),
          h('span.players', playerName(g.white), ` ${t('profile.vs')} `, playerName(g.black)),
          h('span.meta', tcLabel(g.time_control), ' · ', t('rules.' + g.rules), ' · ', g.rated ? t('common.rated') : t('common.casual'),
            g.variant === 'chess960' ? [' · ', variantText(g)] : null),
          h('span.reason', g.status === 'live' ? '' : resultText(g.result, g.termination)),
          h('span.date', formatDate(g.ended_at_ms || g.created_at_ms)),
          h('a.btn.small', { href, 'data-link': true }, g.status === 'live' ? t('lobby.watch') : t('game.review')));
      })) : h('p.muted', t('profile.no_games'))));
  return null;
}
