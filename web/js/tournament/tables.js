// The tables of a tournament page, each a pure function of the `Tournament` view (api.md
// "Views"): a round's pairings, the standings with their tie-break columns, the crosstable as
// chess-results prints it, a player's card and the audit log.

import { h } from '../dom.js';
import { incidentNotes } from './incidents.js';
import { t, levelText } from '../i18n.js';
import { resultShown, dateTime } from './format.js';
import { mayTypeMoves, movesPath } from '../scoresheet.js';

const isArena = (T) => T.format === 'arena';

/** The standings rows in order, with the row number each player has in the crosstable. */
export function ranked(T) {
  const rows = (T.standings && T.standings.rows) || [];
  const byName = new Map((T.players || []).map((p) => [p.name, p]));
  return rows.map((r, i) => ({ ...r, n: i + 1, player: byName.get(r.name) || {} }));
}

function nameCell(name, me, onPick) {
  return h('button.link-btn.player-pick', { type: 'button', class: name === me ? 'me' : null, dataset: { player: name }, on: { click: () => onPick(name) } }, name);
}

/** One round's boards: board, White, result, Black, watch. */
export function pairingsTable(T, round, { me, onPick, arbiterRow } = {}) {
  const r = (T.rounds_list || []).find((x) => x.round === round);
  if (!r) return h('p.empty', t('tour.no_pairings'));
  const tpn = new Map((T.players || []).map((p) => [p.name, p.tpn]));
  const score = new Map((T.players || []).map((p) => [p.name, p.score]));
  const side = (name) => h('span.side', h('small.tpn', tpn.get(name) ?? ''), ' ', nameCell(name, me, onPick), ' ', h('small.score', `(${score.get(name) ?? 0})`));
  const rows = r.boards.map((b) => h('tr.board-row', { dataset: { board: b.board, game: b.game || '', status: b.status || '' }, class: [b.white, b.black].includes(me) ? 'mine' : null },
    h('td.num', String(b.board)),
    h('td.white', side(b.white)),
    h('td.result', { dataset: { result: b.result || '' } }, b.result ? resultShown(b.result) : b.status === 'live' ? h('span.live-dot', { title: t('game.live') }, '●') : '–'),
    h('td.black', side(b.black)),
    h('td.watch', b.game && !b.forfeit ? h('a.btn.small.watch-game', { href: `/game/${b.game}`, 'data-link': true }, b.status === 'live' ? t('lobby.watch') : t('tour.game')) : b.forfeit ? h('small', t('tour.forfeit')) : null,
      // Over the board: the scoresheet typed in, by the arbiter or the board's players.
      mayTypeMoves(T, b, me) ? [' ', h('a.btn.small.type-moves', { href: movesPath(T.id, r.round, b.board), 'data-link': true, title: t('sheet.title') }, t('sheet.open'))] : null),
    arbiterRow ? h('td.arb', arbiterRow(r, b)) : null));
  const extra = [];
  if (r.bye) extra.push(h('tr.bye-row', h('td'), h('td', { colspan: 3 }, nameCell(r.bye, me, onPick), ' ', h('span.tag', t('tour.bye.pab'))), h('td')));
  for (const a of r.absent || []) {
    extra.push(h('tr.bye-row', h('td'), h('td', { colspan: 3 }, nameCell(a.player, me, onPick), ' ', h('span.tag', t('tour.bye.' + a.kind))), h('td')));
  }
  return h('table.pairings#pairings-table', { dataset: { round: r.round, state: r.state } },
    h('thead', h('tr', h('th', t('tour.board')), h('th', t('common.white')), h('th', t('tour.result')), h('th', t('common.black')), h('th'), arbiterRow ? h('th') : null)),
    h('tbody', rows, extra));
}

/** Standings: rank, player, rating, score, the tie-breaks in order, performance. */
export function standingsTable(T, { me, onPick } = {}) {
  const rows = ranked(T);
  if (isArena(T)) {
    return h('table.standings.arena#standings',
      h('thead', h('tr', h('th', t('lb.rank')), h('th', t('lb.player')), h('th', t('tour.sheet')), h('th.num', t('tour.score')), h('th.num', t('tour.performance')))),
      h('tbody', rows.length ? rows.map((r) => h('tr', { dataset: { player: r.name }, class: [r.name === me ? 'me' : '', r.active === false ? 'inactive' : ''].join(' ').trim() || null },
        h('td.rank', String(r.rank)),
        h('td', nameCell(r.name, me, onPick), r.on_fire ? h('span.fire', { title: t('tour.on_fire') }, '🔥') : null, r.active === false ? h('small.paused', ` ${t('tour.paused')}`) : null),
        h('td.sheet', sheetCells(r.sheet)),
        h('td.num.score', r.score),
        h('td.num', r.performance ?? '—'))) : h('tr.empty', h('td', { colspan: 5 }, t('tour.no_players')))));
  }
  const codes = (T.standings && T.standings.tiebreaks) || [];
  // Over the board, the rating officer's columns: performance and each FIDE-rated player's
  // change (K and rated games in its title).
  const fide = rows.some((r) => r.fide_rating_change);
  // A rated event at the board: each account's §11 points and level before → after.
  const ladder = rows.some((r) => r.ladder);
  const extra = (fide ? 2 : 0) + (ladder ? 1 : 0);
  return h('table.standings#standings',
    h('thead', h('tr', h('th', t('lb.rank')), h('th', t('tour.tpn')), h('th', t('lb.player')), h('th.num', t('lb.rating')), h('th.num', t('tour.score')),
      codes.map((c) => h('th.num.tb', { title: t('tb.' + c) !== 'tb.' + c ? t('tb.' + c) : c }, c)),
      fide ? [h('th.num', t('tour.performance')), h('th.num', { title: t('tour.fide_change.help') }, t('tour.fide_change'))] : null,
      ladder ? h('th.num', { title: t('tour.ladder.help') }, t('tour.ladder')) : null)),
    h('tbody', rows.length ? rows.map((r) => h('tr', { dataset: { player: r.name }, class: r.name === me ? 'me' : r.player.withdrawn ? 'withdrawn' : null },
      h('td.rank', String(r.rank)),
      h('td.num', String(r.tpn ?? r.player.tpn ?? '')),
      h('td', nameCell(r.name, me, onPick), r.player.withdrawn ? h('small.paused', ` ${t('tour.withdrawn')}`) : null),
      h('td.num', r.player.rating ?? '—'),
      h('td.num.score', r.score),
      (r.tiebreaks || []).map((v) => h('td.num.tb', v)),
      fide ? [h('td.num', r.performance ?? '—'), fideCell(r.fide_rating_change)] : null,
      ladder ? ladderCell(r.ladder) : null)) : h('tr.empty', h('td', { colspan: 5 + codes.length + extra }, t('tour.no_players')))));
}

function ladderCell(l) {
  if (!l) return h('td.num.ladder', '—');
  return h('td.num.ladder', { title: `${levelText(l.level_before)} → ${levelText(l.level_after)} · ${t('tour.ladder.games', { n: l.games })}` },
    `${l.points_before} → ${l.points_after}`, h('small.hint', ` ${levelText(l.level_after)}`));
}

function fideCell(c) {
  if (!c) return h('td.num.fide-change', '—');
  return h('td.num.fide-change', { title: t('tour.fide_change.detail', { k: c.k, games: c.games }) }, c.change);
}

function sheetCells(sheet) {
  // One entry a game, first game first: its points, `*` doubled by a streak, `+` with the
  // berserk point (`2 4* 5*+ 0`). Shown as lichess does: doubled in fire, berserk with ⚡.
  return (sheet || '').split(/\s+/).filter(Boolean).map((e) => {
    const m = /^(\d+)(\*?)(\+?)$/.exec(e) || [e, e, '', ''];
    return h('span.sheet-entry', { class: [m[2] ? 'double' : '', m[3] ? 'berserk' : ''].join(' ').trim() || null, title: [m[2] ? t('tour.on_fire') : '', m[3] ? t('tour.berserk') : ''].filter(Boolean).join(' · ') || null }, m[1]);
  });
}

/**
 * The crosstable as chess-results prints it: rank, name, rating, one column per round with the
 * opponent's rank, colour and result (the server gives the opponent's pairing number: it is
 * turned into the row number here), total, tie-breaks.
 */
export function crosstable(T, { me, onPick } = {}) {
  if (T.format === 'round_robin' || T.format === 'double_round_robin') return grid(T, { me, onPick });
  const rows = ranked(T);
  const rounds = Math.max(0, ...((T.crosstable || []).map((c) => c.rounds.length)));
  const nOf = new Map(rows.map((r) => [String(r.tpn ?? r.player.tpn), r.n]));
  const byTpn = new Map((T.crosstable || []).map((c) => [c.tpn, c]));
  const codes = (T.standings && T.standings.tiebreaks) || [];
  // Over the board, a round whose board has incidents is marked with its note's number.
  const notes = incidentNotes(T);
  const noteOf = (name, i) => notes.find((n) => n.round === i + 1 && (n.white === name || n.black === name));
  const mark = (note) => note ? h('sup.xt-note', h('a', { href: `#xt-note-${note.n}`, title: t('inc.notes') }, String(note.n))) : null;
  const cell = (text, note) => {
    const m = /^(\d+)([wb])(.+)$/.exec(text || '');
    if (!m) return h('td.xt-cell', { class: text ? 'bye' : 'empty' }, text || '', mark(note));
    const opp = nOf.get(m[1]) ?? m[1];
    const res = m[3];
    const cls = { 1: 'win', '+': 'win', 0: 'loss', '-': 'loss', '½': 'draw' }[res] || null;
    return h('td.xt-cell', { class: cls, dataset: { colour: m[2] }, title: `${m[2] === 'w' ? t('common.white') : t('common.black')}` },
      h('span.xt-opp', String(opp)), h('span.xt-col', m[2] === 'w' ? t('tour.w') : t('tour.b')), h('span.xt-res', res), mark(note));
  };
  return h('table.crosstable#crosstable',
    h('thead', h('tr', h('th', t('tour.rk')), h('th', t('lb.player')), h('th.num', t('lb.rating')),
      Array.from({ length: rounds }, (_, i) => h('th.num', t('tour.round_short', { n: i + 1 }))),
      h('th.num', t('tour.pts')), codes.map((c) => h('th.num.tb', c)))),
    h('tbody', rows.map((r) => {
      const x = byTpn.get(r.tpn ?? r.player.tpn) || { rounds: [] };
      return h('tr', { dataset: { player: r.name }, class: r.name === me ? 'me' : null },
        h('td.rank', String(r.n)),
        h('td', nameCell(r.name, me, onPick)),
        h('td.num', r.player.rating ?? x.rating ?? '—'),
        Array.from({ length: rounds }, (_, i) => cell(x.rounds[i], noteOf(r.name, i))),
        h('td.num.score', r.score),
        (r.tiebreaks || []).map((v) => h('td.num.tb', v)));
    })));
}

/** A player's score against `opp`'s in one board's result, as a crosstable writes it. */
function scoreOf(b, name) {
  const white = b.white === name;
  return { '1-0': white ? '1' : '0', '0-1': white ? '0' : '1', '1/2-1/2': '½', '+-': white ? '+' : '−', '-+': white ? '−' : '+', '--': '−' }[b.result] || '';
}

/**
 * A round robin's crosstable as chess-results prints it: a grid of the players by rank, each
 * cell the results against that opponent (two in a double round robin), the diagonal shaded.
 */
function grid(T, { me, onPick }) {
  const rows = ranked(T);
  const codes = (T.standings && T.standings.tiebreaks) || [];
  const boards = (T.rounds_list || []).flatMap((r) => r.boards.filter((b) => b.result));
  // Over the board, a game with incidents is marked with its note's number.
  const notes = incidentNotes(T);
  const cell = (a, b) => {
    if (a === b) return h('td.xt-cell.self');
    const met = boards.filter((x) => (x.white === a && x.black === b) || (x.white === b && x.black === a));
    const text = met.map((x) => scoreOf(x, a)).join(' ');
    const marks = notes.filter((n) => (n.white === a && n.black === b) || (n.white === b && n.black === a))
      .map((n) => h('sup.xt-note', h('a', { href: `#xt-note-${n.n}`, title: t('inc.notes') }, String(n.n))));
    return h('td.xt-cell', { title: `${a} – ${b}` }, text, marks);
  };
  return h('table.crosstable.grid#crosstable',
    h('thead', h('tr', h('th', t('tour.rk')), h('th', t('lb.player')), h('th.num', t('lb.rating')),
      rows.map((r) => h('th.num', String(r.n))), h('th.num', t('tour.pts')), codes.map((c) => h('th.num.tb', c)))),
    h('tbody', rows.map((r) => h('tr', { dataset: { player: r.name }, class: r.name === me ? 'me' : null },
      h('td.rank', String(r.n)), h('td', nameCell(r.name, me, onPick)), h('td.num', r.player.rating ?? '—'),
      rows.map((o) => cell(r.name, o.name)),
      h('td.num.score', r.score), (r.tiebreaks || []).map((v) => h('td.num.tb', v))))));
}

/** A player's card: tpn, rating, level, score, rank, performance and every game. */
export function playerCard(T, name, { onClose } = {}) {
  const p = (T.players || []).find((x) => x.name === name);
  if (!p) return null;
  const row = ranked(T).find((r) => r.name === name) || {};
  const games = [];
  for (const r of T.rounds_list || []) {
    const b = r.boards.find((x) => x.white === name || x.black === name);
    if (b) {
      const white = b.white === name;
      const opp = white ? b.black : b.white;
      const mine = b.result ? { '1-0': white ? '1' : '0', '0-1': white ? '0' : '1', '1/2-1/2': '½', '+-': white ? '+' : '−', '-+': white ? '−' : '+', '--': '−' }[b.result] : '…';
      games.push(h('tr', h('td.num', String(r.round)), h('td', white ? '○' : '●'), h('td', opp), h('td.num', mine),
        h('td', b.game && !b.forfeit ? h('a', { href: `/game/${b.game}`, 'data-link': true }, t('tour.game')) : null)));
    } else if (r.bye === name) games.push(h('tr', h('td.num', String(r.round)), h('td'), h('td', t('tour.bye.pab')), h('td.num', '+'), h('td')));
    else {
      const a = (r.absent || []).find((x) => x.player === name);
      if (a) games.push(h('tr', h('td.num', String(r.round)), h('td'), h('td', t('tour.bye.' + a.kind)), h('td.num', a.kind === 'half' ? '½' : a.kind === 'full' ? '1' : '0'), h('td')));
    }
  }
  if (isArena(T) && T.arena) {
    for (const g of T.arena.games.filter((x) => x.white === name || x.black === name)) {
      const white = g.white === name;
      games.push(h('tr', h('td'), h('td', white ? '○' : '●'), h('td', white ? g.black : g.white), h('td.num', g.result ? resultShown(g.result) : '…'),
        h('td', h('a', { href: `/game/${g.game}`, 'data-link': true }, t('tour.game')))));
    }
  }
  return h('section.panel.player-card#player-card', { dataset: { player: name } },
    // A guest (over the board, no account) has no profile to open.
    h('div.card-head', h('h2', p.guest ? name : h('a', { href: `/@/${name}`, 'data-link': true }, name)), h('button.link-btn#close-card', { type: 'button', 'aria-label': t('common.close'), on: { click: onClose } }, '×')),
    h('div.badges',
      p.level ? h('span.level-badge', levelText(p.level)) : null,
      stat(t('tour.rank'), row.rank ?? '—'), stat(t('tour.score'), p.score), stat(t('lb.rating'), p.rating ?? '—'),
      stat(t('tour.performance'), row.performance ?? '—'), p.tpn ? stat(t('tour.tpn'), p.tpn) : null),
    p.arena ? h('div.badges.arena-card',
      stat(t('tour.games'), p.arena.games), stat(t('tour.streak'), p.arena.streak),
      stat(t('tour.berserks'), `${p.arena.berserks} (+${p.arena.berserk_points})`),
      p.arena.on_fire ? h('span.fire', { title: t('tour.on_fire') }, '🔥') : null) : null,
    p.withdrawn ? h('p.notice', t('tour.withdrawn')) : null,
    (p.byes || []).length ? h('p.hint', t('tour.byes_asked'), ' ', p.byes.map((b) => t('tour.bye_in', { round: b.round, kind: t('tour.bye.' + b.kind) })).join(', ')) : null,
    h('table.card-games', h('thead', h('tr', h('th', t('tour.round_short', { n: '' })), h('th'), h('th', t('tour.opponent')), h('th', t('tour.result')), h('th'))), h('tbody', games)));
}

function stat(label, value) {
  return h('div.stat', h('strong', String(value)), h('small', label));
}

/** The audit log, newest first: when, who, what, why. */
export function logList(T) {
  // Entries name entrants by their order of entry (the competition's EntrantId): the joins,
  // and each imported list's players, in log order, say who is who.
  const joins = (T.log || []).flatMap((e) => (e.action === 'join' ? [e.detail || {}] : e.action === 'roster' ? e.detail.players : []));
  const entrants = joins.map((d) => d.name || d.key);
  // An arena numbers its players itself, as they first join.
  const arena = new Map((T.log || []).filter((e) => e.action === 'arena_join').map((e) => [e.detail.player, e.detail.name]));
  const who = (x) => (typeof x !== 'number' ? x : T.format === 'arena' ? arena.get(x) ?? `#${x}` : entrants[x] ?? `#${x + 1}`);
  const entries = [...(T.log || [])].reverse();
  if (!entries.length) return h('p.empty', t('tour.log.empty'));
  // A scrolled list: focusable, so that it scrolls from the keyboard too (WCAG 2.1.1, issue 51).
  return h('ol.audit-log#audit-log', { tabindex: 0, 'aria-label': t('tour.log') }, entries.map((e) => h('li', { dataset: { action: e.action, seq: e.seq } },
    h('span.log-time', dateTime(e.at_ms)),
    h('span.log-by', e.by || t('tour.log.server')),
    h('span.log-what', logText(e, who)),
    e.reason ? h('span.log-reason', '“', e.reason, '”') : null)));
}

function logText(e, who) {
  const d = e.detail || {};
  const winner = d.winner === 'white' ? '1-0' : d.winner === 'black' ? '0-1' : d.winner === null ? '½-½' : '';
  // A check-in says which way (issue 53); a list says how many, and names them.
  const which = e.action === 'check_in' || e.action === 'check_ins' ? (d.present ? '.present' : '.absent')
    : e.action === 'fix_board' && d.board == null ? '.none'
      : e.action === 'team_absent' ? (d.absent ? '.absent' : '.present') : '';
  const key = 'tour.log.' + e.action + which;
  const listed = d.players ? d.players.map((p) => p.name) : (d.entrant_names || []).filter(Boolean);
  const s = t(key, {
    ...d,
    count: listed.length,
    names: listed.join(', '),
    player: d.name ?? who(d.player ?? d.entrant),
    // A team pair's numbers are teams', named beside them.
    a: d.a_name ?? who(d.a), b: d.b_name ?? who(d.b),
    seconds: d.seconds ?? (d.ms ? Math.round(d.ms / 1000) : ''),
    result: d.result ? resultShown(d.result) : winner,
    kind: d.kind ? t('tour.bye.' + d.kind) : '',
  });
  return s === key ? e.action : s.replace(/\s*\{\w+\}/g, '');
}
