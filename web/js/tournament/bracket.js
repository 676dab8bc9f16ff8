// A knockout's bracket (api.md "Views", `bracket`; RULES.md §12, *Knockout*): a column per
// round, a box per match with its two sides, their seeds and scores, the winner marked and
// how the match was decided, its games in order; lines join each match to the one its winner
// goes to (CSS only). On a phone the columns scroll sideways. For the arbiter, the match's
// next game (White, its stage, its clock) with the results to enter (online: to declare, with
// a reason), and a level match's decision by lots.

import { h } from '../dom.js';
import { t } from '../i18n.js';

const RESULTS = [['1-0', '1-0'], ['1/2-1/2', '½-½'], ['0-1', '0-1'], ['+-', '+−'], ['-+', '−+']];

/** A round's name: `final`, `semi_final`, `quarter_final`, `round_of_16` … */
export function roundName(name) {
  const m = /^round_of_(\d+)$/.exec(name);
  return m ? t('ko.round.round_of', { n: m[1] }) : t('ko.round.' + name);
}

/** A stage's name: the organiser's (`rapid`, `blitz` said in the page's language when known). */
export function stageName(stage) {
  const key = 'ko.stage.' + stage;
  return t(key) !== key ? t(key) : stage;
}

const points = (s) => (s == null ? '' : s.replace(/\.5$/, '½').replace(/^0½$/, '½').replace(/\.0$/, ''));

/**
 * The bracket of the view `T`. `arbiter`: `{ send, current }` when the visitor arbitrates it:
 * `send(action, button)` posts an action, `current` the round being played.
 */
export function bracketView(T, arbiter = null) {
  const b = T.bracket;
  if (!b) return h('p.empty#bracket-empty', t('ko.not_started'));
  const current = b.rounds.find((r) => r.matches.some((m) => ['playing', 'level', 'waiting'].includes(m.state)));
  return h('div.bracket-box',
    b.champion ? h('p.ko-champion#ko-champion', t('ko.champion', { name: b.champion })) : null,
    h('div.bracket#bracket', { dataset: { rounds: b.rounds.length } },
      b.rounds.map((r) => h('section.ko-round', { dataset: { round: r.round } },
        h('h3.ko-round-name', roundName(r.name)),
        h('div.ko-matches', r.matches.map((m) => h('div.ko-slot', matchBox(m, arbiter && current && current.round === r.round ? arbiter : null))))))));
}

/** A game's players; online, a link to the game of the site (to watch it, or replay it). */
const players = (g) => (g.id ? h('a.ko-game', { href: `/game/${g.id}`, 'data-link': true, dataset: { id: g.id } }, g.white, ' – ', g.black) : [g.white, ' – ', g.black]);

function matchBox(m, arbiter) {
  const side = (s, i) => {
    const won = m.winner && s.name === m.winner;
    return h('div.ko-side', { class: won ? 'won' : null, dataset: { side: i } },
      h('span.ko-seed', s.seed ?? ''),
      h('span.ko-name', s.bye ? h('em', t('ko.bye')) : s.name ?? h('em', s.winner_of ? t('ko.winner_of', { id: s.winner_of }) : '—')),
      h('span.ko-score', m.score ? points(m.score[i]) : ''));
  };
  const how = m.how ? h('small.ko-how', t('ko.how.' + m.how)) : null;
  const games = m.games.length ? h('details.ko-games',
    h('summary', t('ko.games_n', { n: m.games.length })),
    h('ol', m.games.map((g) => h('li', { dataset: { game: g.game, stage: g.stage } },
      h('span.ko-stage', stageName(g.stage)), ' ', players(g), ' ', h('strong', g.result.replace('1/2-1/2', '½-½')))))) : null;
  const next = m.next ? h('div.ko-next', { dataset: { game: m.next.game } },
    h('small', t('ko.next', { n: m.next.game, stage: stageName(m.next.stage), tc: m.next.time_control, white: m.next.white })),
    m.next.id ? h('a.btn.small.ko-watch', { href: `/game/${m.next.id}`, 'data-link': true }, t('lobby.watch')) : null,
    arbiter ? h('div.ko-enter', RESULTS.map(([r, label]) => h('button.btn.small.ko-result', {
      type: 'button', dataset: { result: r }, title: `${m.next.white} – ${m.next.black}: ${label}`,
      on: { click: (e) => {
        const at = { round: Number(m.id.split('.')[0]), board: m.number, result: r };
        // Over the board the desk enters the game; online the game reports itself, and the
        // arbiter's result is a decision, recorded with its reason (api.md, *Knockout*).
        if (!arbiter.online) { arbiter.send({ action: 'enter', game: m.next.game, ...at }, e.currentTarget); return; }
        const reason = window.prompt(t('ko.declare.reason'));
        if (reason) arbiter.send({ action: 'result', ...at, reason }, e.currentTarget);
      } },
    }, label))) : null) : null;
  const level = m.state === 'level' ? h('div.ko-level', h('small', t('ko.level')),
    arbiter ? m.sides.map((s) => h('button.btn.small.ko-lots', { type: 'button', dataset: { winner: s.name }, on: { click: (e) => {
      const reason = window.prompt(t('ko.lots.reason'), t('ko.lots.default'));
      if (reason) arbiter.send({ action: 'lots', round: Number(m.id.split('.')[0]), board: m.number, winner: s.name, reason }, e.currentTarget);
    } } }, t('ko.lots', { name: s.name }))) : null) : null;
  return h('div.ko-match', { dataset: { match: m.id, state: m.state } },
    h('div.ko-sides', m.sides.map(side)), how, next, level, games);
}
