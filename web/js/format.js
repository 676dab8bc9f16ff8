// How a game is read out, wherever it is shown (lobby, game, review, profile, tournaments): its
// time control, its players, its rule set, its variant and its opening.

import { h } from './dom.js';
import { t } from './i18n.js';

/** How a time control is read out: `300+2` → `5+2`, `-` → untimed. */
export function tcLabel(tc) {
  if (!tc || tc === '-' || tc === '?') return t('common.untimed');
  const m = /^(\d+(?:\.\d+)?)([+db])(\d+(?:\.\d+)?)$/.exec(tc);
  if (m) {
    const min = Number(m[1]) / 60;
    const base = Number.isInteger(min) ? String(min) : min < 1 ? `${m[1]}s` : min.toFixed(1);
    return `${base}${m[2]}${m[3]}`;
  }
  if (/^\d+$/.test(tc)) { const min = Number(tc) / 60; return Number.isInteger(min) ? `${min}+0` : `${tc}s`; }
  return tc;
}

/** A player as shown: an engine by its level, an account linked to its profile (unless `link` is false). */
export function playerName(p, link = true) {
  if (!p) return '?';
  if (p.kind === 'engine') return t('lobby.engine_name', { n: p.engine_level });
  if (p.kind === 'user' && link) return h('a', { href: `/@/${p.name}`, 'data-link': true }, p.name);
  return p.name;
}

/** A rule set as a badge, its one-line explanation in the title and, if asked, beneath. */
export function rulesBadge(rules, { explain = false } = {}) {
  const badge = h('span.rules-badge', { dataset: { rules }, title: t(`rules.${rules}.help`) }, t('rules.' + rules));
  return explain ? h('span.rules-cell', badge, h('small.rules-help', t(`rules.${rules}.help`))) : badge;
}

/**
 * A Chess960 game's or seek's variant as a badge, "Chess960 #412" (a seek whose start is
 * drawn with its game: "Chess960"); nothing for standard chess. `x` has the protocol's
 * `variant` and `position`.
 */
export function variantBadge(x) {
  if (!x || x.variant !== 'chess960') return null;
  const known = x.position !== null && x.position !== undefined;
  return h('span.variant-badge', { dataset: { variant: 'chess960' }, title: t('variant.chess960.help') },
    known ? t('variant.chess960_n', { n: x.position }) : t('variant.chess960'));
}

/** The variant in words for a line of text: "Chess960 #412", or "" for standard chess. */
export function variantText(x) {
  if (!x || x.variant !== 'chess960') return '';
  return x.position !== null && x.position !== undefined ? t('variant.chess960_n', { n: x.position }) : t('variant.chess960');
}

/** The opening's ECO code and name (lichess's names, in English), or nothing. */
export function openingLine(opening) {
  if (!opening) return null;
  return h('div.opening#opening', { title: t('game.opening') }, h('span.eco', opening.eco), ' ', h('span.opening-name', opening.name));
}
