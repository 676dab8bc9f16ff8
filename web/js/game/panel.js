// Everything around the board that reads the game out: the players' bars, the game's facts,
// the rules the first time, whose move it is or the result, the touch-move obligation, the
// strikes, the move list (with earlier positions to step through) and the tools.

import * as api from '../api.js';
import { h, clear, copyText, icon } from '../dom.js';
import { t, colorName, resultText, levelText } from '../i18n.js';
import { boardThemeSelect, pieceSetSelect } from '../board.js';
import { toFen } from '../chess.js';
import { tcLabel, playerName, rulesBadge, openingLine, variantBadge } from '../format.js';
import { moveList, navKeys } from '../movelist.js';
import { other } from './state.js';
import { movesPath } from '../scoresheet.js';

/**
 * `board` is the page's board (game/board.js), `clockEls` the clocks for the bars, `actions`
 * the player's actions (game/actions.js), `firstMove` the first-move countdown.
 */
export function gamePanel(s, { board, clockEls, actions, firstMove }) {
  const bars = { top: h('div.player-bar.top'), bottom: h('div.player-bar.bottom') };
  const rulesIntro = h('div.rules-intro#rules-intro', { hidden: true });
  const info = h('div.game-info#game-info');
  const status = h('div.status#status', { 'aria-live': 'polite' });
  const banner = h('div.result-banner#result', { hidden: true });
  const obligationEl = h('div.obligation#obligation', { hidden: true });
  const strikesEl = h('div.strikes#strikes', { hidden: true });
  const movesEl = h('div.moves#moves', { role: 'list', 'aria-label': t('game.moves') });
  const spectatorsEl = h('span.spectators#spectators');
  const fenBtn = h('button.btn.small#copy-fen', { type: 'button', on: { click: copyFen } }, t('game.fen'));
  const reviewLink = h('a.btn.small#review-link', { href: `/review/${s.id}`, 'data-link': true, hidden: true }, t('game.review'));
  const tools = h('div.tools',
    h('button.btn.small#flip', { type: 'button', on: { click: () => { board.flip(); renderBars(); } } }, '⇅ ', t('game.flip')),
    h('a.btn.small#pgn-link', { href: api.pgnUrl(s.id), download: `rookery-${s.id}.pgn` }, t('game.pgn')),
    fenBtn, reviewLink, boardThemeSelect(), pieceSetSelect());

  async function copyFen() {
    const fen = s.viewPly === null ? s.g.fen : toFen(s.positions[s.viewPly]);
    if (await copyText(fen)) { fenBtn.textContent = t('common.copied'); setTimeout(() => { fenBtn.textContent = t('game.fen'); }, 1500); }
  }

  /** Shows an earlier position (or the game's, at its last ply). */
  function setView(ply) {
    if (!s.g) return;
    const p = Math.max(0, Math.min(s.g.ply, ply));
    s.viewPly = p === s.g.ply ? null : p;
    board.describe();
    board.render();
    renderMoves();
  }

  const keys = navKeys(() => (s.viewPly === null ? s.g.ply : s.viewPly), setView, () => (s.g ? s.g.ply : 0));
  document.addEventListener('keydown', keys);

  function renderTitle() {
    const { g, you } = s;
    const name = (p) => (p ? (p.kind === 'engine' ? t('lobby.engine_name', { n: p.engine_level }) : p.name) : '?');
    const mark = s.isLive() && you && g.turn === you ? '● ' : '';
    document.title = `${mark}${name(g.white)} – ${name(g.black)} · ${t('app.name')}`;
  }

  function renderInfo() {
    const { g, you } = s;
    clear(info,
      h('div.tc', h('strong', tcLabel(g.time_control)), ' · ', t('speed.' + g.speed), ' · ', g.rated ? t('common.rated') : t('common.casual')),
      h('div.rules', rulesBadge(g.rules), ' ', h('small', t(`rules.${g.rules}.help`))),
      g.variant === 'chess960' ? h('div.variant#game-variant', variantBadge(g), ' ', h('small', t('variant.chess960.castling'))) : null,
      openingLine(g.opening),
      h('div.role', you ? t('game.you_play', { color: colorName(you) }) : t('game.spectating'), ' · ', spectatorsEl),
      g.tournament ? h('div.tournament-link', h('a#tournament-link', { href: `/tournaments/${g.tournament.id}`, 'data-link': true }, g.tournament.name),
        ' · ', g.tournament.round !== null ? t('tour.round_board', { round: g.tournament.round, board: g.tournament.board }) : t('tour.arena_game', { n: g.tournament.board })) : null);
    clear(spectatorsEl, icon('eye'), ' ', t('game.spectators', { n: g.spectators || 0 }));
  }

  /** A player's first game under touch-move rules starts with them in words, once. */
  function renderIntro() {
    const g = s.g;
    const key = `rookery.rules_seen.${g.rules}`;
    const show = s.isLive() && !!s.you && g.rules !== 'casual' && !localStorage.getItem(key);
    rulesIntro.hidden = !show;
    if (!show || rulesIntro.childElementCount) return;
    clear(rulesIntro, h('strong', t('game.rules_intro.title')), h('p', t(`rules.${g.rules}.intro`)),
      h('button.btn.small.primary#rules-intro-ok', { type: 'button', on: { click: () => { localStorage.setItem(key, '1'); rulesIntro.hidden = true; } } }, t('game.rules_intro.ok')));
  }

  function renderBars() {
    const { g, you } = s;
    if (!g) return;
    const bottom = board.orientation();
    for (const [where, color] of [['top', other(bottom)], ['bottom', bottom]]) {
      const p = g[color] || {};
      const strikes = g.strikes ? g.strikes[color] : 0;
      clear(bars[where],
        h('span.dot', { class: p.online === false && p.kind !== 'engine' ? 'off' : 'on', title: t(p.online === false && p.kind !== 'engine' ? 'game.offline' : 'game.online') }),
        h('span.piece-icon', color === 'white' ? '♔' : '♚'),
        h('span.name', { dataset: { color } }, playerName(p)),
        (where === 'bottom' && color === you) ? actions.berserkButton() : null,
        s.berserkers.has(color) ? h('span.berserk-mark', { title: t('tour.berserk'), dataset: { color } }, '⚡') : null,
        strikes ? h('span.strike-badge', { dataset: { color }, title: t('game.strikes_nolimit', { n: strikes }) }, '✗'.repeat(Math.min(strikes, 5)), g.strike_limit ? ` ${strikes}/${g.strike_limit}` : ` ${strikes}`) : null,
        clockEls[color]);
      bars[where].classList.toggle('to-move', s.isLive() && g.turn === color);
    }
  }

  function renderMoves() {
    const current = s.viewPly === null ? s.g.ply : s.viewPly;
    clear(movesEl, moveList(s.g.moves, current, setView));
    const active = movesEl.querySelector('.move.active');
    if (active && s.viewPly === null) movesEl.scrollTop = movesEl.scrollHeight;
    else if (active) active.scrollIntoView({ block: 'nearest' });
  }

  function renderStatus() {
    const { g, you } = s;
    firstMove.render();
    // Result.
    if (!s.isLive()) {
      banner.hidden = false;
      const result = g.termination === 'no_start' && g.result === '*'
        ? t('game.no_start', { color: colorName(g.turn) }) // the side that owed the first move
        : g.status === 'aborted' ? t('game.aborted') : resultText(g.result, g.termination, g.reason);
      clear(banner,
        h('div.result-score', g.result && g.result !== '*' ? g.result.replace('1/2', '½').replace('1/2', '½') : '—'),
        h('div.result-text', result),
        g.ladder ? h('div.ladder', ['white', 'black'].map((c) => g.ladder[c] && h('div.ladder-line', { dataset: { color: c } },
          h('span.ladder-name', g[c] ? g[c].name : colorName(c), ' ', g.ladder[c].level ? h('span.level-badge', levelText(g.ladder[c].level)) : null),
          h('span.ladder-delta', t('game.points', {
            before: g.ladder[c].points_before, after: g.ladder[c].points_after,
            rb: Math.round(g.ladder[c].rating_before), ra: Math.round(g.ladder[c].rating_after),
          }))))) : null,
        h('div.banner-actions', g.tournament
          ? [h('a.btn.small.primary#back-to-tournament', { href: `/tournaments/${g.tournament.id}`, 'data-link': true }, t('tour.back')),
            // Over the board, a player types the game's moves from the scoresheet (issue 53).
            g.termination === 'over_the_board' && g.tournament.round !== null && s.you
              ? h('a.btn.small#type-moves', { href: movesPath(g.tournament.id, g.tournament.round, g.tournament.board), 'data-link': true }, t('sheet.title'))
              : null]
          : [h('a.btn.small', { href: '/', 'data-link': true }, t('game.new_game')), actions.rematchEl]));
      if (!g.tournament) actions.renderRematch();
      reviewLink.hidden = g.status !== 'finished';
      status.textContent = '';
      status.className = 'status over';
      status.hidden = true;
    } else {
      banner.hidden = true;
      reviewLink.hidden = true;
      status.hidden = false;
      if (you) status.textContent = g.turn === you ? t('game.your_turn') : t('game.waiting');
      else status.textContent = t('game.turn', { color: colorName(g.turn) });
      status.className = 'status' + (you && g.turn === you ? ' mine' : '');
      if (g.check) status.textContent += ' — ' + t('game.check');
    }
    // Touch-move obligation.
    const ob = s.isLive() && g.obligation;
    obligationEl.hidden = !ob;
    if (ob) {
      const color = ob.color || g.turn;
      obligationEl.textContent = color === you
        ? t('game.obligation.' + ob.kind, { square: ob.square })
        : t('game.obligation.other.' + ob.kind, { color: colorName(color), square: ob.square });
    }
    // Strikes (§8).
    const strikes = g.strikes || { white: 0, black: 0 };
    const counted = g.rules !== 'casual' && (s.isLive() || strikes.white > 0 || strikes.black > 0);
    strikesEl.hidden = !counted;
    if (counted) {
      clear(strikesEl, ['white', 'black'].map((c) => h('span.strike-count', { dataset: { color: c }, class: strikes[c] ? 'has' : null },
        colorName(c), ': ', g.strike_limit ? t('game.strikes', { n: strikes[c], limit: g.strike_limit }) : t('game.strikes_nolimit', { n: strikes[c] }))));
    }
    // Offers and abandonment.
    actions.renderOffers();
  }

  return {
    bars, info, rulesIntro, status, banner, obligationEl, strikesEl, movesEl, tools,
    renderTitle, renderInfo, renderIntro, renderBars, renderMoves, renderStatus,
    destroy: () => document.removeEventListener('keydown', keys),
  };
}
