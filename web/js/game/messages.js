// The game socket's messages applied to the page's state (docs/protocol.md): `hello` and
// `state` replace the game, `move`, `event` and `end` update it, `rejected` and `error` say
// why a request failed. A player of a tournament game also listens to the tournament, for
// their next game.

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { toast } from '../dom.js';
import { t, colorName, serverText, illegalReason } from '../i18n.js';
import * as sound from '../sound.js';
import { parseFen, toFen, replay, play, toSan, parseUci, squareIndex } from '../chess.js';
import { sanWords } from '../speech.js';
import { lowMark, heldAt } from './clocks.js';
import { other } from './state.js';

/**
 * `socket` is the game socket, `clocks` the page's Clocks, `board` and `actions` the page's
 * parts (game/board.js, game/actions.js); `renderAll()` redraws the page from the state.
 */
export function gameMessages(s, { ctx, socket, clocks, board, actions, renderAll }) {
  let firstHello = true;
  let tourSocket = null; // a tournament game's: the player's next game opens by itself
  let nextGameTimer = null;
  const send = (msg) => socket.send(msg);

  function onMessage(msg, arrival) {
    const at = heldAt(socket, msg, arrival);
    switch (msg.t) {
      case 'hello':
        s.you = msg.you || null;
        setGame(msg.game, at);
        followTournament();
        if (firstHello) {
          // A finished game greets its own players as spectators (`you: null`): face them anyway.
          const g = s.g;
          const mine = g.black && g.black.kind !== 'engine' && g.black.name === ctx.name ? 'black' : 'white';
          board.setOrientation(s.you || mine);
          firstHello = false;
        }
        renderAll();
        resendLostMove();
        break;
      case 'state':
        setGame(msg.game, at);
        renderAll();
        break;
      case 'move': onMove(msg, at); break;
      case 'event': onEvent(msg); break;
      case 'end': onEnd(msg, at); break;
      case 'rejected': onRejected(msg); break;
      case 'error': toast(t('common.error', { msg: serverText('error', msg) }), 'error'); board.render(); break;
      default: break;
    }
  }

  /** A player of a tournament game listens to the tournament for their next game. */
  function followTournament() {
    if (tourSocket || !s.you || !s.g.tournament) return;
    tourSocket = new Socket(api.socketUrl(`/tournaments/${encodeURIComponent(s.g.tournament.id)}/socket`), {
      onMessage: (m) => {
        // `your_game` comes to the player's own sockets only (protocol.md).
        if (m.t !== 'your_game' || m.game === s.id) return;
        // A game restarted with the colours turned round opens at once; after a finished game
        // (an arena pairs again as soon as it ends) the result stays in view a moment.
        ctx.announceGame(m, { open: false });
        clearTimeout(nextGameTimer);
        nextGameTimer = setTimeout(() => ctx.navigate(`/game/${m.game}`), s.isLive() ? 0 : 3000);
      },
    });
  }

  /**
   * A move sent just before the connection died may never have reached the server: when the
   * new connection's `hello` still shows the position it was played in, with this side to
   * move, it is sent again. The server takes it once (its `ply` names the position); a copy
   * that comes second is refused as `stale_ply`, silently.
   */
  function resendLostMove() {
    const sent = board.lastSent();
    if (!sent || sent.settled || !s.myTurn() || sent.ply !== s.g.ply) return;
    board.sendMove(sent.fields, sent.offer_draw, { resent: true });
  }

  function setGame(game, at) {
    const g = { ...game, firstMoveAt: at };
    s.g = g;
    actions.offerCheck.checked = actions.offerCheck.checked && !s.barred();
    clocks.lowMs = lowMark(g.time_control);
    s.positions = replay(g.initial_fen, g.moves.map((m) => m.uci), s.variant());
    const positions = s.positions;
    // Trust the server's current position over the replay if they disagree.
    if (g.fen && toFen(positions[positions.length - 1]).split(' ')[0] !== g.fen.split(' ')[0]) positions[positions.length - 1] = parseFen(g.fen, s.variant());
    if (s.viewPly !== null && s.viewPly > g.ply) s.viewPly = null;
    s.lastTouch = null;
    clocks.set(g.status === 'live' ? g.clock : g.clock && { ...g.clock, running: null }, at);
  }

  function onMove(msg, at) {
    const g = s.g;
    if (!g) return;
    if (msg.ply !== g.ply + 1) { send({ t: 'sync' }); return; }
    const prev = s.positions[s.positions.length - 1];
    // By the SAN when there is one: a Chess960 castling's `uci` lands on the king's own rook.
    const capture = msg.san ? msg.san.includes('x') : !!prev.board[squareIndex(parseUci(msg.uci).to)];
    g.moves.push({ uci: msg.uci, san: msg.san, clock_ms: msg.clock ? msg.clock[msg.by + '_ms'] : null });
    // A move that is not the latest of its batch comes without `fen`: replay it.
    const next = msg.fen ? parseFen(msg.fen, s.variant()) : play(prev, msg.uci);
    g.ply = msg.ply;
    g.fen = msg.fen || toFen(next);
    g.turn = other(msg.by);
    g.check = !!msg.check;
    g.dests = msg.dests || {};
    g.clock = msg.clock || g.clock;
    g.offer = msg.offer_draw ? msg.by : null;
    g.takeback = null;
    g.obligation = null;
    g.claimable = [];
    g.first_move = msg.first_move || null;
    g.firstMoveAt = at;
    // The latest move of a batch names the opening reached (issue 38).
    if (msg.fen) g.opening = msg.opening || null;
    s.positions.push(next);
    s.lastTouch = null;
    if (msg.by === s.you) board.settled();
    board.announce(t('game.announce_move', { color: colorName(msg.by), san: sanWords(msg.san || toSan(prev, msg.uci)) }));
    if (msg.by === s.you) actions.offerCheck.checked = false;
    clocks.set(g.clock, at);
    sound.play(g.check ? 'check' : capture ? 'capture' : 'move');
    renderAll();
    if (s.you && g.turn === s.you && g.status === 'live') {
      if (board.playPremove()) return;
    }
  }

  function onEvent(ev) {
    const g = s.g;
    if (!g) return;
    const you = s.you;
    switch (ev.kind) {
      case 'draw_offered':
        g.offer = ev.by;
        // §7: an offer frees the other side to offer again.
        g.offer_barred = { ...(g.offer_barred || {}), [other(ev.by)]: false };
        if (ev.by !== you) toast(t('game.draw_offered_by', { color: colorName(ev.by) }));
        break;
      case 'draw_declined':
        g.offer = null;
        g.offer_barred = { ...(g.offer_barred || {}), [other(ev.by)]: true };
        if (ev.by !== you) toast(t('game.draw_declined', { color: colorName(ev.by) }));
        break;
      case 'obliged':
        g.obligation = { ...ev.obligation, color: ev.color };
        break;
      case 'illegal_move':
        g.strikes = { ...(g.strikes || { white: 0, black: 0 }), [ev.color]: ev.count };
        if ('limit' in ev) g.strike_limit = ev.limit;
        toast(ev.limit ? t('game.illegal', { n: ev.count, limit: ev.limit, reason: illegalReason(ev.code, ev.reason) }) : t('game.illegal_nolimit', { n: ev.count, reason: illegalReason(ev.code, ev.reason) }), 'error', 6000);
        sound.play('error');
        break;
      case 'time_added':
        if (ev.clock) { g.clock = ev.clock; clocks.set(ev.clock, heldAt(socket, ev, performance.now())); }
        else if (clocks.state && clocks.state[ev.color + '_ms'] !== null) { clocks.state[ev.color + '_ms'] += ev.ms; clocks.render(); }
        if (ev.ms > 0) toast(t('game.time_added', { s: Math.round(ev.ms / 1000), color: colorName(ev.color) }));
        break;
      case 'berserk':
        // Either side's, at once: the clocks after it, the mark on the player's bar.
        if (ev.clock) { g.clock = ev.clock; clocks.set(ev.clock, heldAt(socket, ev, performance.now())); }
        s.berserkers.add(ev.color);
        if (ev.color === you) s.berserked = true;
        else toast(t('game.berserk_by', { color: colorName(ev.color) }));
        break;
      case 'draw_claimable':
        g.claimable = [...new Set([...(g.claimable || []), ev.claim])];
        break;
      case 'takeback_requested':
        g.takeback = ev.by;
        break;
      case 'crowd':
        g.spectators = ev.spectators;
        if (g.white) g.white.online = ev.white_online;
        if (g.black) g.black.online = ev.black_online;
        g.abandoned = ev.abandoned || null;
        break;
      default: break;
    }
    renderAll();
  }

  function onEnd(msg, at) {
    const g = s.g;
    if (!g) return;
    g.status = msg.result === '*' ? 'aborted' : 'finished';
    g.first_move = null;
    g.result = msg.result;
    g.termination = msg.termination;
    g.reason = msg.reason;
    g.ladder = msg.ladder || null;
    g.dests = {};
    g.offer = null;
    g.abandoned = null;
    g.clock = msg.clock || g.clock;
    clocks.set(g.clock && { ...g.clock, running: null }, at);
    board.cancelPremove();
    sound.play('end');
    renderAll();
  }

  function onRejected(msg) {
    const g = s.g;
    const lastSent = board.lastSent();
    board.settled();
    if (msg.code === 'stale_ply') send({ t: 'sync' });
    // A move sent again after a reconnection that had reached the server after all.
    if (msg.code === 'stale_ply' && lastSent && lastSent.resent) { board.render(); return; }
    // Refuse the offer, not the move (issue 38): play the move alone, and say why.
    if (msg.code === 'offer_not_allowed' && lastSent && lastSent.offer_draw && g && lastSent.ply === g.ply) {
      g.offer_barred = { ...(g.offer_barred || {}), [s.you]: g.offer !== s.you };
      actions.offerCheck.checked = false;
      toast(t('game.rejected', { msg: actions.offerReason() }), 'error', 6000);
      board.sendMove(lastSent.fields, false);
      actions.renderControls();
      return;
    }
    // A counted illegal move is told by its `illegal_move` event (with the count): once is enough.
    const counted = msg.code === 'illegal' && g && g.rules !== 'casual';
    if (!counted) toast(t('game.rejected', { msg: serverText('reject', msg) }), 'error', 6000);
    if (msg.code !== 'illegal') sound.play('error');
    board.render();
  }

  return {
    onMessage,
    destroy() {
      if (tourSocket) tourSocket.close();
      clearTimeout(nextGameTimer);
    },
  };
}
