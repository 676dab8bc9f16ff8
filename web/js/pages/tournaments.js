// The tournaments list (api.md "Tournaments"): upcoming, running and finished, each with its
// format, rules, time control, rating, rounds, start and entry conditions. The lobby shows the
// upcoming and running ones through the same rows (`tournamentRows`, tournament/format.js).

import * as api from '../api.js';
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { tournamentRows } from '../tournament/format.js';

export async function mount(page, _params, ctx) {
  page.classList.add('tournaments-page');
  const lists = {
    running: h('ul.tour-list#tournaments-running'),
    upcoming: h('ul.tour-list#tournaments-upcoming'),
    finished: h('ul.tour-list#tournaments-finished'),
  };
  page.append(
    h('div.tour-head',
      h('h1', t('tour.title')),
      ctx.signedIn
        ? h('span.tour-head-actions',
          h('a.btn#class-link', { href: '/class', 'data-link': true }, t('class.link')),
          h('a.btn.primary#new-tournament', { href: '/tournaments/new', 'data-link': true }, t('tour.create')))
        : h('small.hint', t('tour.create_needs_account'))),
    ...['running', 'upcoming', 'finished'].map((k) => h('section.panel', { class: `tour-${k}` }, h('h2', t('tour.section.' + k)), lists[k])));
  async function load() {
    try {
      const r = await api.tournaments();
      for (const k of Object.keys(lists)) clear(lists[k], tournamentRows(r[k] || []));
    } catch (e) {
      clear(lists.running, h('li.empty', t('common.error', { msg: e.message })));
    }
  }
  await load();
  const timer = setInterval(load, 20000);
  return () => clearInterval(timer);
}
