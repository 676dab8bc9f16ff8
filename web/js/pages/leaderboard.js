// The leaderboard: players by points, then rating (docs/api.md), fifty to a page.

import * as api from '../api.js';
import { h, clear } from '../dom.js';
import { t, levelText, apiText } from '../i18n.js';

const LIMIT = 50;

export async function mount(page, _params, ctx) {
  page.classList.add('leaderboard-page');
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get('offset')) || 0);
  const body = h('tbody#leaderboard');
  const pager = h('div.pager');
  page.append(h('section.panel', h('h1', t('lb.title')),
    h('table.leaderboard', h('thead', h('tr', ['lb.rank', 'lb.player', 'lb.level', 'lb.points', 'lb.rating', 'lb.games'].map((k) => h('th', t(k))))), body),
    pager));
  try {
    const r = await api.leaderboard(LIMIT, offset);
    if (!r.users.length) clear(body, h('tr', h('td', { colspan: 6 }, t('lb.empty'))));
    else clear(body, r.users.map((u, i) => h('tr', { class: ctx.name === u.name ? 'me' : null },
      h('td.rank', String(offset + i + 1)),
      h('td', h('a', { href: `/@/${u.name}`, 'data-link': true }, u.name)),
      h('td', h('span.level-badge', levelText(u.level))),
      h('td.num', u.points),
      h('td.num', String(Math.round(u.rating ? u.rating.rating : 0))),
      h('td.num', `${u.wins ?? 0} / ${u.draws ?? 0} / ${u.losses ?? 0}`))));
    clear(pager,
      offset > 0 ? h('a.btn.small', { href: `/leaderboard?offset=${Math.max(0, offset - LIMIT)}`, 'data-link': true }, t('lb.prev')) : null,
      r.users.length === LIMIT ? h('a.btn.small', { href: `/leaderboard?offset=${offset + LIMIT}`, 'data-link': true }, t('lb.next')) : null);
  } catch (e) {
    clear(body, h('tr', h('td', { colspan: 6 }, t('common.error', { msg: apiText(e) }))));
  }
  return null;
}
