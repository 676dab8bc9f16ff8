// A team event on its page (api.md "Teams"; RULES.md §12, *Teams*; issue 54): the round's
// matches board by board, the team standings with their tie-breaks, the board prize table,
// the teams with their rosters; for the arbiter the desk (`3.2 1-0`: match 3, board 2), the
// team registration, the line-ups, the teams absent or present, the forbidden team pairs and
// the round's unpairing; for a captain the team's line-up.

import { h, toast, confirmButton } from '../dom.js';
import { t } from '../i18n.js';

const points = (s) => (s == null ? '' : s.replace(/\.5$/, '½').replace(/^0½$/, '½').replace(/\.0$/, ''));
const shown = (r) => (r ? r.replace('1/2-1/2', '½-½') : '');

/**
 * A desk entry of a team round as typed (`3.2 1-0`, `3.2 =`, `3 2 ½`, `3.2 +-`): the match,
 * the board and the result as the API spells it, or null.
 */
export function parseTeamDeskEntry(text) {
  const m = /^\s*(\d{1,3})\s*[.\s/:-]\s*(\d{1,2})\s+(1-0|0-1|=|1\/2|½|1\/2-1\/2|½-½|\+-|-\+|--)\s*$/.exec(text);
  if (!m) return null;
  const [number, board] = [Number(m[1]), Number(m[2])];
  if (number < 1 || board < 1) return null;
  const draws = ['=', '1/2', '½', '1/2-1/2', '½-½'];
  return { match: number, board, result: draws.includes(m[3]) ? '1/2-1/2' : m[3] };
}

/** The matches of round `round` of the view `T`, each a table of its boards. */
export function teamMatches(T, round) {
  const r = T.teams.rounds.find((x) => x.round === round);
  if (!r) return h('p.empty', T.status === 'upcoming' ? t('tour.not_started') : t('tour.no_pairings'));
  return h('div.team-round#team-round', { dataset: { round } },
    r.bye ? h('p.hint.team-bye', t('team.bye', { team: r.bye })) : null,
    r.matches.map((m) => h('section.team-match', { dataset: { match: m.number } },
      h('h3.team-match-head',
        h('span.match-no', `${round}.${m.number}`), ' ',
        h('span.team-name', m.white), ' ',
        h('strong.match-score', `${points(m.score[0])} : ${points(m.score[1])}`), ' ',
        h('span.team-name', m.black),
        m.match_points ? h('small.match-points', ` (${points(m.match_points[0])} – ${points(m.match_points[1])})`) : null),
      h('div.table-scroll', h('table.data.team-boards',
        h('thead', h('tr', h('th', t('tour.board')), h('th', t('common.white')), h('th', t('tour.result')), h('th', t('common.black')))),
        h('tbody', m.boards.map((b) => h('tr', { dataset: { board: b.board, first: b.first_team } },
          h('td', `${m.number}.${b.board}`),
          h('td', b.white),
          // Online the board's game of the site, to watch or replay.
          h('td.result', b.game ? h('a.team-game', { href: `/game/${b.game}`, 'data-link': true, dataset: { game: b.game } }, shown(b.result) || t('lobby.watch')) : shown(b.result) || '–'),
          h('td', b.black)))))))));
}

/** The team standings: rank, team, match points, game points, the tie-breaks. */
export function teamStandings(T) {
  const s = T.teams.standings;
  if (!s.rows.length) return h('p.empty', t('team.standings.none'));
  return h('table.data.team-standings#team-standings',
    h('thead', h('tr', h('th', '#'), h('th', t('team.team')), h('th', { title: t('team.mp.help') }, t('team.mp')),
      h('th', { title: t('team.gp.help') }, t('team.gp')), s.tiebreaks.map((c) => h('th', c)))),
    h('tbody', s.rows.map((r) => h('tr', { dataset: { team: r.team } },
      h('td', String(r.rank)), h('td', r.team), h('td', points(r.match_points)), h('td', points(r.game_points)),
      r.tiebreaks.map((v) => h('td', v))))));
}

/** The board prize table: a table a board, every player who played there, best first. */
export function boardPrizes(T) {
  const boards = T.teams.board_prizes;
  if (!boards.length) return h('p.empty', t('team.standings.none'));
  return h('div.board-prizes#board-prizes', boards.map((rows, i) => h('section.board-prize', { dataset: { board: i + 1 } },
    h('h3', t('team.board_n', { n: i + 1 })),
    h('table.data',
      h('thead', h('tr', h('th', t('team.player')), h('th', t('team.team')), h('th', t('tour.score')), h('th', t('team.games')), h('th', '%'))),
      h('tbody', rows.map((r) => h('tr', { class: r.eligible ? null : 'ineligible', dataset: { player: r.name } },
        h('td', r.name), h('td', r.team), h('td', points(r.points)), h('td', String(r.games)), h('td', r.percent))))))));
}

/** The teams, each with its roster in board order, the reserves marked. */
export function teamsList(T) {
  const teams = T.teams.teams;
  if (!teams.length) return h('p.empty#teams-empty', t('team.none'));
  return h('div.teams-list#teams-list', teams.map((team) => h('details.team-card', { dataset: { team: team.name } },
    h('summary', h('span.team-no', `${team.number}.`), ' ', h('strong', team.name),
      team.rating ? h('small', ` ${team.rating}`) : null,
      team.captain ? h('small.team-captain', ` · ${t('team.captain')}: ${team.captain}`) : null),
    h('ol.roster', team.players.map((p) => h('li', { class: p.reserve ? 'reserve' : null },
      p.name, p.rating ? ` (${p.rating})` : '', p.reserve ? h('small', ` · ${t('team.reserve')}`) : null))))));
}

/**
 * The round a line-up is for next: the last paired while its line-ups may change (at the
 * board until its matches begin, online until its games are on), else the next.
 */
export function lineUpRound(T) {
  const rounds = T.teams.rounds;
  const last = rounds[rounds.length - 1];
  const on = last && last.matches.some((m) => m.boards.some((b) => b.game || b.result));
  if (last && !last.finished && !on) return last.round;
  return rounds.length + 1;
}

/**
 * A line-up form for `team` (a name) or, for the arbiter, any team: a select per board among
 * the roster, board order kept by the server's check. `submit({round, team, players}, button)`.
 */
export function lineUpForm(T, teams, submit) {
  const round = h('input#lu-round', { type: 'number', min: 1, value: lineUpRound(T), class: 'round-input', 'aria-label': t('tour.round') });
  const teamSel = h('select#lu-team', teams.map((n) => h('option', { value: n }, n)));
  const boards = h('div.lu-boards#lu-boards');
  const fill = () => {
    const team = T.teams.teams.find((x) => x.name === teamSel.value);
    if (!team) return;
    boards.replaceChildren(...Array.from({ length: T.teams.boards }, (_, i) => h('label.inline', t('team.board_n', { n: i + 1 }), ' ',
      h('select.lu-board', { id: `lu-board-${i + 1}` }, team.players.map((p, j) => h('option', { value: p.name, selected: j === i }, p.name))))));
  };
  teamSel.addEventListener('change', fill);
  fill();
  return h('div.arb-box#line-up-box',
    h('h3', t('team.line_up')), h('p.hint', t('team.line_up.help')),
    h('div.arb-row', h('label.inline', t('tour.round'), ' ', round), teams.length > 1 ? teamSel : h('strong', teams[0])),
    boards,
    h('button.btn.small#lu-submit', { type: 'button', on: { click: (e) => submit({
      round: Number(round.value), team: teamSel.value,
      players: [...boards.querySelectorAll('select')].map((s) => s.value),
    }, e.currentTarget) } }, t('team.line_up.submit')));
}

/** The arbiter's team boxes: registration (before the start), the desk, line-ups, pairing. */
export function teamDesk(T, send) {
  const boxes = [];
  if (T.status === 'upcoming') {
    const name = h('input#team-name', { type: 'text', maxLength: 100, autocomplete: 'off', placeholder: t('team.name') });
    const players = h('textarea#team-players', { rows: 5, spellcheck: 'false', placeholder: t('team.players.placeholder') });
    const captain = h('input#team-captain', { type: 'text', autocomplete: 'off', placeholder: t('team.captain.placeholder') });
    boxes.push(h('div.arb-box#team-register',
      h('h3', t('team.register')), h('p.hint', t('team.register.help', { boards: T.teams.boards })),
      name, players, captain,
      h('button.btn.small#team-register-submit', { type: 'button', on: { click: async (e) => {
        // A line a player: `Name` or `Name, 1850` (a rating after the last comma).
        const roster = players.value.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
          const m = /^(.*?)[,\t]\s*(\d{1,4})$/.exec(l);
          return m ? { name: m[1].trim(), rating: Number(m[2]) } : { name: l };
        });
        const body = { action: 'team', name: name.value.trim(), players: roster };
        if (captain.value.trim()) body.captain = captain.value.trim();
        if (await send(body, e.currentTarget)) { name.value = ''; players.value = ''; captain.value = ''; }
      } } }, t('team.register.submit'))));
  }
  // Forbidden pairs before the start too: round 1 is paired at it.
  if (T.format === 'team_swiss' && (T.status === 'upcoming' || T.status === 'running')) boxes.push(forbidBox(T, send));
  if (T.status !== 'running') return boxes;
  const rounds = T.teams.rounds;
  const current = rounds[rounds.length - 1];
  if (current && !current.finished && !T.over_the_board) {
    // Online the boards' games report their results; the arbiter may decide a board (a game
    // decided otherwise, a player who did not come), with a reason: the live game ends with it.
    const at = h('input#team-declare', { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '3.2 1-0' });
    const reason = h('input#team-declare-reason', { type: 'text', autocomplete: 'off', placeholder: t('arb.reason'), class: 'reason' });
    boxes.push(h('div.arb-box#team-declare-box',
      h('h3', t('arb.boards')), h('p.hint', t('team.declare.help')), at, reason,
      h('button.btn.small#team-declare-submit', { type: 'button', on: { click: (e) => {
        const entry = parseTeamDeskEntry(at.value);
        if (!entry) { toast(t('arb.desk.bad', { text: at.value }), 'error', 6000); return; }
        if (!reason.value.trim()) { reason.classList.add('invalid'); toast(t('arb.reason_needed'), 'error'); return; }
        send({ action: 'result', round: current.round, ...entry, reason: reason.value.trim() }, e.currentTarget);
      } } }, t('arb.declare'))));
  }
  if (current && !current.finished && T.over_the_board) {
    const missing = current.matches.flatMap((m) => m.boards.filter((b) => !b.result).map((b) => `${m.number}.${b.board}`));
    const desk = h('input#team-desk', { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '3.2 1-0', 'aria-describedby': 'team-desk-help' });
    desk.addEventListener('keydown', async (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      const text = desk.value;
      const entry = parseTeamDeskEntry(text);
      if (!entry) { toast(t('arb.desk.bad', { text }), 'error', 6000); return; }
      desk.value = '';
      if (!await send({ action: 'enter', round: current.round, ...entry })) desk.value = text;
    });
    boxes.push(h('div.arb-box#team-desk-box',
      h('h3', t('arb.desk', { n: current.round })),
      h('p.hint#team-desk-help', t('team.desk.help')),
      desk,
      h('p#team-missing', t('arb.desk.missing', { boards: missing.join(', ') }))));
  }
  boxes.push(lineUpForm(T, T.teams.teams.map((x) => x.name), (body, btn) => send({ action: 'line_up', ...body }, btn)));
  boxes.push(absentBox(T, send));
  return boxes;
}

/**
 * The teams marked absent or present (`team_absent`): a button a team. Marking a team absent
 * forfeits its match of the round paired at once; the hint says so, and that the round can
 * be unpaired first so that the Swiss pairs it without the team.
 */
function absentBox(T, send) {
  const absent = new Set(T.teams.absent || []);
  const reason = h('input#team-absent-reason', { type: 'text', autocomplete: 'off', placeholder: t('arb.reason'), class: 'reason' });
  return h('div.arb-box#team-absent-box',
    h('h3', t('team.absent')), h('p.hint', t('team.absent.help')),
    h('ul.team-absent-list', T.teams.teams.map((team) => {
      const away = absent.has(team.name);
      return h('li', { class: away ? 'absent' : null, dataset: { team: team.name, absent: String(away) } },
        h('span', team.name), ' ', away ? h('small.warn', t('team.absent.marked')) : null, ' ',
        h('button.btn.small.team-absent-toggle', { type: 'button', on: { click: (e) => {
          const r = reason.value.trim();
          send({ action: 'team_absent', team: team.name, absent: !away, ...(r ? { reason: r } : {}) }, e.currentTarget);
        } } }, away ? t('team.absent.present') : t('team.absent.mark')));
    })),
    reason);
}

/**
 * A team Swiss's forbidden team pairs (`forbid_team_pair`): two teams that must not meet,
 * added and listed, each lifted with its button (`allow_team_pair`). A round robin has none:
 * its tables are fixed.
 */
function forbidBox(T, send) {
  const names = T.teams.teams.map((x) => x.name);
  const select = (id) => h('select', { id }, names.map((n) => h('option', { value: n }, n)));
  const [a, b] = [select('team-forbid-a'), select('team-forbid-b')];
  if (names.length > 1) b.selectedIndex = 1;
  const reason = h('input#team-forbid-reason', { type: 'text', autocomplete: 'off', placeholder: t('arb.reason'), class: 'reason' });
  const withReason = (body) => {
    const r = reason.value.trim();
    return r ? { ...body, reason: r } : body;
  };
  const pairs = T.teams.forbidden_pairs || [];
  return h('div.arb-box#team-forbid-box',
    h('h3', t('arb.forbid')), h('p.hint', t('team.forbid.help')),
    pairs.length ? h('ul.forbidden-list#team-forbidden', pairs.map(([x, y]) => h('li', { dataset: { a: x, b: y } }, `${x} × ${y} `,
      h('button.btn.small.allow-team-pair', { type: 'button', on: { click: (e) => send(withReason({ action: 'allow_team_pair', a: x, b: y }), e.currentTarget) } }, t('arb.allow'))))) : null,
    h('div.arb-row', a, h('span', '×'), b), reason,
    h('button.btn.small#team-forbid-submit', { type: 'button', on: { click: (e) => send(withReason({ action: 'forbid_team_pair', a: a.value, b: b.value }), e.currentTarget) } }, t('arb.forbid.submit')));
}

/**
 * The arbiter's pairing button once the last round is finished (and one is left); while the
 * last round has no result yet, its unpairing (online the server refuses it once a move is
 * played: api.md, `unpair`).
 */
export function teamPairButton(T, send) {
  const rounds = T.teams.rounds;
  const last = rounds[rounds.length - 1];
  if (T.status !== 'running' || (last && !last.finished) || rounds.length >= (T.settings.rounds || 0)) {
    if (!last || last.finished) return null;
    const begun = last.matches.some((m) => m.boards.some((b) => b.result));
    return [h('p.hint', t('arb.round_in_play', { round: last.round })),
      begun ? h('p.hint#arb-round-started', t('team.unpair.begun'))
        : confirmButton(t('team.unpair', { round: last.round }), t('common.confirm'), () => send({ action: 'unpair', round: last.round }), { class: 'btn', id: 'team-unpair' })];
  }
  return h('button.btn.primary#arb-pair', { type: 'button', on: { click: (e) => send({ action: 'pair' }, e.currentTarget) } }, t('arb.pair', { round: rounds.length + 1 }));
}
