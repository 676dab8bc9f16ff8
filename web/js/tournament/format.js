// How a tournament is read out, shared by the list, the lobby and the tournament page: its
// format, rules, time control, start, entry conditions, a list's rows, and the server's error
// codes in words.

import { h } from '../dom.js';
import { t, lang } from '../i18n.js';
import { tcLabel } from '../format.js';

export const FORMATS = ['swiss', 'round_robin', 'double_round_robin', 'arena', 'knockout', 'team_swiss', 'team_round_robin'];

export const formatName = (f) => t('tf.format.' + f);

export const PAIRING_SYSTEMS = ['dutch', 'burstein'];
export const ACCELERATIONS = ['none', 'baku'];

/**
 * The format as a summary shows it: a Swiss with its pairing system and acceleration
 * ("Swiss (Burstein, accelerated)"), any other format by its name.
 */
export function formatLabel(s) {
  if (s.format !== 'swiss' || !PAIRING_SYSTEMS.includes(s.pairing_system)) return formatName(s.format);
  const accelerated = s.acceleration && s.acceleration !== 'none' ? '.' + s.acceleration : '';
  return t(`tour.swiss.${s.pairing_system}${accelerated}`);
}

/** The rounds a tournament has, or an arena's duration. */
export function roundsText(s) {
  if (s.format === 'arena') return s.duration_s ? t('tour.duration', { min: Math.round(s.duration_s / 60) }) : '';
  return s.rounds ? t('tour.rounds_n', { n: s.rounds }) : '';
}

export function dateTime(ms) {
  return new Date(ms).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', {
    month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
  });
}

export function startText(s) {
  if (s.status === 'upcoming') return s.starts_at_ms ? t('tour.starts_at', { when: dateTime(s.starts_at_ms) }) : t('tour.starts_by_hand');
  if (s.status === 'running') return s.format === 'arena' ? t('tour.status.running') : t('tour.round_of', { round: s.round, rounds: s.rounds ?? '?' });
  return t('tour.status.' + s.status);
}

/** Entry conditions: account, level range, password. */
export function conditionsText(c) {
  if (!c) return t('tour.cond.account');
  const parts = [t('tour.cond.account')];
  if (c.min_level) parts.push(t('tour.cond.min_level', { n: c.min_level }));
  if (c.max_level) parts.push(t('tour.cond.max_level', { n: c.max_level }));
  if (c.password) parts.push(t('tour.cond.password'));
  return parts.join(' · ');
}

/** The tags of a summary: format, rules, time control, rated, rounds. */
export function summaryTags(s) {
  return [
    h('span.tag.format', { dataset: { format: s.format } }, formatLabel(s)),
    s.over_the_board ? h('span.tag.otb', { title: t('tf.over_the_board.help') }, t('tour.otb')) : null,
    h('span.tag', { title: t(`rules.${s.rules}.help`) }, t('rules.' + s.rules)),
    h('span.tag.tc', tcLabel(s.time_control), s.speed ? ` · ${t('speed.' + s.speed)}` : ''),
    h('span.tag', s.rated ? t('common.rated') : t('common.casual')),
    roundsText(s) ? h('span.tag', roundsText(s)) : null,
  ];
}

/** One line per tournament: name and tags, start or round, players, entry conditions. */
export function tournamentRows(list, { empty = 'tour.none' } = {}) {
  if (!list.length) return [h('li.empty', t(empty))];
  return list.map((s) => h('li', h('a.tour-row', { href: `/tournaments/${s.id}`, 'data-link': true, dataset: { id: s.id, status: s.status } },
    h('span.tour-name', s.name),
    h('span.tour-tags', summaryTags(s)),
    h('span.tour-when', startText(s)),
    h('span.tour-players', t('tour.players_n', { n: Array.isArray(s.players) ? s.players.length : s.players })),
    h('span.tour-cond', conditionsText(s.conditions)))));
}

/** A refusal in words: a dictionary message for every code the API documents, never raw. */
export function errorText(err) {
  const code = err && err.code;
  if (code === 'bad_field' && err.field) return t('err.bad_field_named', { field: fieldName(err.field) });
  const key = 'err.' + code;
  const s = t(key);
  return s === key ? t('err.unknown', { code: code || '?' }) : s;
}

export function fieldName(field) {
  const key = 'tf.' + field;
  const s = t(key);
  return s === key ? field : s;
}

/** A board result as shown: `1-0`, `½-½`, forfeits as `+ -`. */
export function resultShown(r) {
  if (!r) return '';
  return { '1/2-1/2': '½-½', '+-': '+ −', '-+': '− +', '--': '− −' }[r] || r;
}
