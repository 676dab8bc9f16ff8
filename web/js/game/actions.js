// What a player can do besides moving: offer a draw with a move, abort, resign, ask for a
// takeback, claim a draw; answer the opponent's offer or takeback request; claim an abandoned
// game; go berserk in an arena; and, once the game is over, ask for a rematch.

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { h, clear, toast, confirmButton } from '../dom.js';
import { t, colorName, apiText } from '../i18n.js';
import { errorText } from '../tournament/format.js';
import { other } from './state.js';

/**
 * `send(msg)` sends over the game socket; `moveInput` is the typed-move field, shown only to
 * a player of a live game; `renderBars()` redraws the players' bars (the berserk mark).
 */
export function gameActions(s, { ctx, send, moveInput, renderBars }) {
  const offerCheck = h('input#offer-draw', { type: 'checkbox' });
  const offerReasonEl = h('small.offer-reason#offer-reason', { hidden: true });
  const offerLabel = h('label.offer-draw', offerCheck, ' ', h('span', t('game.offer_draw')), offerReasonEl);
  const controls = h('div.controls#controls');
  const offerBox = h('div.offer-box#offer-box', { hidden: true });
  let abandonTimer = null;

  /** Why this player may not offer a draw now (§7), in words. */
  function offerReason() { return s.g.offer === s.you ? t('game.offer_standing') : t('game.offer_barred'); }

  let controlsKey = null;
  function renderControls() {
    const g = s.g;
    const playing = s.isLive() && !!s.you;
    offerLabel.hidden = !playing;
    const noOffer = playing && s.barred();
    offerCheck.disabled = noOffer;
    if (noOffer) offerCheck.checked = false;
    offerReasonEl.hidden = !noOffer;
    offerReasonEl.textContent = noOffer ? offerReason() : '';
    moveInput.disabled = !playing;
    moveInput.closest('form').hidden = !playing;
    // Rebuild only when the set of actions changes, so a half-confirmed resign survives a move.
    const key = playing ? [g.ply < 2 && !g.tournament, g.rules, g.ply > 0, !!g.takeback, g.turn === s.you, (g.claimable || []).join()].join('|') : '';
    if (key === controlsKey) return;
    controlsKey = key;
    if (!playing) { clear(controls); return; }
    const buttons = [];
    if (g.ply < 2 && !g.tournament) buttons.push(confirmButton(t('game.abort'), t('common.confirm'), () => send({ t: 'abort' }), { class: 'btn', id: 'abort' }));
    buttons.push(confirmButton('⚐ ' + t('game.resign'), t('common.confirm'), () => send({ t: 'resign' }), { class: 'btn', id: 'resign' }));
    if (g.rules === 'casual' && g.ply > 0 && !g.takeback) {
      buttons.push(h('button.btn#takeback', { type: 'button', on: { click: () => send({ t: 'takeback', ply: s.g.ply }) } }, t('game.takeback')));
    }
    if (g.rules === 'fide' && g.turn === s.you) {
      for (const claim of g.claimable || []) {
        buttons.push(h('button.btn.primary.claim', { type: 'button', dataset: { claim }, on: { click: () => send({ t: 'claim_draw', claim, ply: s.g.ply }) } }, t('game.claim.' + claim)));
      }
    }
    clear(controls, buttons);
  }

  /** The opponent's draw offer or takeback request, and an abandoned game's claim. */
  function renderOffers() {
    const g = s.g;
    const you = s.you;
    clearInterval(abandonTimer);
    abandonTimer = null;
    // Rebuilt from nothing each time: an abandonment box left behind froze (issue 38).
    offerBox.hidden = true;
    clear(offerBox);
    if (s.isLive() && g.offer) {
      offerBox.hidden = false;
      if (g.offer === you) clear(offerBox, h('span', t('game.your_offer')));
      else clear(offerBox, h('span', t('game.draw_offered_by', { color: colorName(g.offer) })),
        you ? h('span.offer-actions',
          h('button.btn.small.primary#accept-draw', { type: 'button', on: { click: () => send({ t: 'accept_draw', ply: s.g.ply }) } }, t('game.accept')),
          h('button.btn.small#decline-draw', { type: 'button', on: { click: () => send({ t: 'decline_draw', ply: s.g.ply }) } }, t('game.decline'))) : null);
    } else if (s.isLive() && g.takeback && g.takeback !== you && you) {
      offerBox.hidden = false;
      clear(offerBox, h('span', t('game.takeback_requested', { color: colorName(g.takeback) })),
        h('button.btn.small.primary#accept-takeback', { type: 'button', on: { click: () => send({ t: 'accept_takeback', ply: s.g.ply }) } }, t('game.accept')));
    }
    // Abandonment.
    if (s.isLive() && g.abandoned && g.abandoned.color !== you) {
      const until = performance.now() + (g.abandoned.claim_in_ms || 0);
      const color = g.abandoned.color;
      const box = h('div.abandoned#abandoned');
      offerBox.hidden = false;
      offerBox.appendChild(box);
      const tick = () => {
        const left = Math.max(0, until - performance.now());
        if (left > 0 || !s.you) clear(box, s.you ? t('game.abandoned_wait', { color: colorName(color), s: Math.ceil(left / 1000) }) : t('game.abandoned', { color: colorName(color) }));
        else {
          clearInterval(abandonTimer);
          clear(box, t('game.abandoned', { color: colorName(color) }),
            h('button.btn.small.primary#claim-win', { type: 'button', on: { click: () => send({ t: 'claim_abandoned', result: 'win' }) } }, t('game.claim_win')),
            h('button.btn.small#claim-abandoned-draw', { type: 'button', on: { click: () => send({ t: 'claim_abandoned', result: 'draw' }) } }, t('game.claim_draw_abandoned')));
        }
      };
      tick();
      abandonTimer = setInterval(tick, 500);
    }
  }

  /** Arena berserk (api.md): half one's clock, no increment, before one's first move. */
  async function onBerserk() {
    try {
      await api.berserk(s.g.tournament.id, s.id);
      s.berserked = true;
      s.berserkers.add(s.you);
      send({ t: 'sync' });
      renderBars();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function canBerserk() {
    const { g, you } = s;
    // Only where the arena allows it (the game's `tournament.berserk`, protocol.md).
    if (!s.isLive() || !you || !g.tournament || !g.tournament.berserk || s.berserked) return false;
    return you === 'white' ? g.ply === 0 : g.ply <= 1;
  }

  /** The berserk button for the player's own bar, when it may be pressed. */
  function berserkButton() {
    return canBerserk() ? h('button.berserk-btn#berserk', { type: 'button', title: t('tour.berserk.help'), on: { click: onBerserk } }, '⚡ ', t('tour.berserk')) : null;
  }

  // Rematch (issue 38), colours swapped: against the engine a new game at once; against a
  // person a challenge, seen over the lobby socket, which the page opens once the game is over.
  const rematchEl = h('span.rematch#rematch-box');
  let lobby = null;
  let rematch = null; // {id, mine}: the standing rematch challenge
  const opponent = () => (s.you && s.g ? s.g[other(s.you)] : null);
  function renderRematch() {
    const opp = opponent();
    if (!opp || s.g.status !== 'finished') { clear(rematchEl); return; }
    if (opp.kind !== 'engine') openLobby();
    if (rematch && rematch.mine) {
      clear(rematchEl, h('span.rematch-note', t('game.rematch_sent')),
        h('button.btn.small#rematch-cancel', { type: 'button', on: { click: cancelRematch } }, t('common.cancel')));
    } else if (rematch) {
      clear(rematchEl, h('span.rematch-note#rematch-offer', t('game.rematch_offered', { name: opp.name })),
        h('button.btn.small.primary#rematch-accept', { type: 'button', on: { click: acceptRematch } }, t('game.accept')));
    } else {
      clear(rematchEl, h('button.btn.small.primary#rematch', { type: 'button', on: { click: offerRematch } }, t('game.rematch')));
    }
  }
  function openLobby() {
    if (lobby) return;
    lobby = new Socket(api.socketUrl('/lobby/socket'), {
      onMessage: (msg) => {
        const opp = opponent();
        const theirs = (x) => opp && x.owner && x.owner.name === opp.name && x.to && ctx.name && x.to.toLowerCase() === ctx.name.toLowerCase();
        if (msg.t === 'seeks') { const x = msg.seeks.find(theirs); if (x) { rematch = { id: x.id, mine: false }; renderRematch(); } }
        if (msg.t === 'seek_added' && theirs(msg.seek)) { rematch = { id: msg.seek.id, mine: false }; renderRematch(); }
        if (msg.t === 'seek_removed' && rematch && rematch.id === msg.id) { rematch = null; renderRematch(); }
        if (msg.t === 'game_started') ctx.navigate(`/game/${msg.game}`);
      },
    });
  }
  async function offerRematch() {
    const opp = opponent();
    const g = s.g;
    // A Chess960 rematch is played from the same start, colours swapped, as on lichess.
    const variant = g.variant === 'chess960' ? { variant: 'chess960', position: g.position } : {};
    const spec = { time_control: g.time_control, rules: g.rules, color: other(s.you), ...variant };
    try {
      if (opp.kind === 'engine') {
        const r = await api.engineGame({ ...spec, level: opp.engine_level });
        ctx.navigate(`/game/${r.game}`);
        return;
      }
      const seek = await api.createChallenge({ ...spec, to: opp.name, rated: s.g.rated });
      rematch = { id: seek.id, mine: true };
      renderRematch();
    } catch (e) { toast(t('common.error', { msg: apiText(e) }), 'error'); }
  }
  async function acceptRematch() {
    try { const r = await api.acceptSeek(rematch.id); ctx.navigate(`/game/${r.game}`); } catch (e) { rematch = null; renderRematch(); toast(t('common.error', { msg: apiText(e) }), 'error'); }
  }
  async function cancelRematch() {
    try { await api.cancelSeek(rematch.id); } catch { /* gone already */ }
    rematch = null;
    renderRematch();
  }

  return {
    offerLabel, offerCheck, controls, offerBox, rematchEl,
    renderControls, renderOffers, renderRematch, offerReason, berserkButton,
    /** Whether the next move goes with a draw offer: asked for and allowed. */
    offerWanted: () => offerCheck.checked && !s.barred(),
    destroy() {
      if (lobby) lobby.close();
      clearInterval(abandonTimer);
    },
  };
}
