// The game page: play or watch one game over its socket (docs/protocol.md). The server's
// `hello`/`state` is the whole truth; `move`, `event` and `end` update it; the page renders
// from it. Earlier positions can be reviewed from the move list while the game goes on.

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { Board, uciSquares, destsFromServer, boardThemeSelect, pieceSetSelect } from '../board.js';
import { Clocks } from '../clock.js';
import { h, clear, toast, confirmButton, copyText, icon } from '../dom.js';
import { t, colorName, resultText, levelText, serverText, illegalReason, apiText } from '../i18n.js';
import * as sound from '../sound.js';
import { parseFen, toFen, patternMoves, destsMap, replay, play, toSan, parseUci, squareIndex } from '../chess.js';
import { sanWords, pieceList, pieceLists } from '../speech.js';
import { tcLabel, playerName, rulesBadge, openingLine } from '../format.js';
import { moveList, navKeys } from '../movelist.js';
import { errorText } from '../tournament/format.js';

const other = (c) => (c === 'white' ? 'black' : 'white');
const UCI_RE = /^[a-h][1-8][a-h][1-8][qrbn]?$/i;

/** The low-time mark: 10 s, or a fifth of a shorter base time. */
function lowMark(tc) {
  const m = /^(\d+(?:\.\d+)?)/.exec(tc || '');
  if (!m || tc.includes('/') || /d$/.test(tc)) return 10000;
  return Math.min(10000, Math.max(2000, Number(m[1]) * 200));
}

export async function mount(page, [id], ctx) {
  page.classList.add('game-page');
  let g = null; // the protocol's game object
  let you = null;
  let positions = []; // parsed positions, [0] initial … [ply]
  let viewPly = null; // null: following the game
  let lastTouch = null;
  let firstHello = true;
  let abandonTimer = null;
  let firstMoveTimer = null;
  let lastZeroSync = 0;
  let tourSocket = null; // a tournament game's: the player's next game opens by itself
  ctx.seenGame(id);
  // A player on their game's page is not taken away by a notice: a tournament game's page
  // opens the next game itself, after the result has been in view a moment.
  ctx.busy = () => !!you;
  let berserked = false;
  /** The sides that went berserk (ours from our request, the opponent's from the event). */
  const berserkers = new Set();
  let nextGameTimer = null;

  // Layout.
  const boardEl = h('div.board#board');
  const bars = { top: h('div.player-bar.top'), bottom: h('div.player-bar.bottom') };
  const clockEls = {
    white: h('div.clock#clock-white', { role: 'timer', 'aria-label': t('game.clock_label', { color: colorName('white') }), dataset: { color: 'white' } }),
    black: h('div.clock#clock-black', { role: 'timer', 'aria-label': t('game.clock_label', { color: colorName('black') }), dataset: { color: 'black' } }),
  };
  // The board for people who do not see it: a name and a description (whose move, the last
  // move, where every piece stands), and each move announced as it is played (issue 38); the
  // pieces as a list per side to walk through, and moves said in words (issue 51).
  const boardDesc = h('div.visually-hidden#board-desc');
  const announce = h('div.visually-hidden#board-announce', { 'aria-live': 'polite', role: 'status' });
  const pieces = pieceLists();
  const rulesIntro = h('div.rules-intro#rules-intro', { hidden: true });
  const info = h('div.game-info#game-info');
  const status = h('div.status#status', { 'aria-live': 'polite' });
  const banner = h('div.result-banner#result', { hidden: true });
  const obligationEl = h('div.obligation#obligation', { hidden: true });
  // The first-move countdown (protocol.md, "Starting a game"), shown on the board.
  const firstMoveEl = h('div.first-move#first-move', { hidden: true, 'aria-live': 'polite' });
  const strikesEl = h('div.strikes#strikes', { hidden: true });
  const offerBox = h('div.offer-box#offer-box', { hidden: true });
  const controls = h('div.controls#controls');
  const movesEl = h('div.moves#moves', { role: 'list', 'aria-label': t('game.moves') });
  const viewNote = h('div.view-note#view-note', { hidden: true });
  const offerCheck = h('input#offer-draw', { type: 'checkbox' });
  const offerReasonEl = h('small.offer-reason#offer-reason', { hidden: true });
  const offerLabel = h('label.offer-draw', offerCheck, ' ', h('span', t('game.offer_draw')), offerReasonEl);
  const moveInput = h('input#move-input', { type: 'text', placeholder: t('game.move_input'), 'aria-label': t('game.move_input.label'), autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' });
  const spectatorsEl = h('span.spectators#spectators');
  const fenBtn = h('button.btn.small#copy-fen', { type: 'button', on: { click: copyFen } }, t('game.fen'));
  const reviewLink = h('a.btn.small#review-link', { href: `/review/${id}`, 'data-link': true, hidden: true }, t('game.review'));
  const tools = h('div.tools',
    h('button.btn.small#flip', { type: 'button', on: { click: () => { board.flip(); renderBars(); } } }, '⇅ ', t('game.flip')),
    h('a.btn.small#pgn-link', { href: api.pgnUrl(id), download: `rookery-${id}.pgn` }, t('game.pgn')),
    fenBtn, reviewLink, boardThemeSelect(), pieceSetSelect());

  page.append(h('div.game-layout',
    h('div.board-col', bars.top, h('div.board-frame', boardEl, firstMoveEl, boardDesc, announce, pieces.el), bars.bottom),
    h('div.side-col',
      info, rulesIntro, status, banner, obligationEl, strikesEl, offerBox,
      h('div.move-panel', movesEl, viewNote),
      h('div.actions', offerLabel, controls),
      h('form.move-form', { on: { submit: onTypedMove } }, moveInput),
      tools)));

  const board = new Board(boardEl, { onMove: onBoardMove, onSelect: onBoardSelect });
  boardEl.setAttribute('role', 'img');
  boardEl.setAttribute('aria-label', t('game.board_label'));
  boardEl.setAttribute('aria-describedby', 'board-desc');
  const clocks = new Clocks(clockEls, {
    onLow: (color) => { if (color === you) sound.play('lowTime'); },
    onZero: () => {
      // The server decides flags; ask it to look (at most once a second).
      if (g && g.status === 'live' && performance.now() - lastZeroSync > 1000) { lastZeroSync = performance.now(); socket.send({ t: 'sync' }); }
    },
  });

  // A game that does not exist has no socket to speak of: ask once, and say so (issue 38).
  let gone = false;
  const socket = new Socket(api.socketUrl(`/games/${encodeURIComponent(id)}/socket`), {
    onStatus: (s) => { if (!gone) ctx.setNetStatus(s); },
    onMessage: (msg) => { try { onMessage(msg, performance.now()); } catch (e) { console.error(e, msg); } },
  });
  api.game(id).catch((e) => {
    if (e.status !== 404 || g) return;
    gone = true;
    socket.close();
    ctx.setNetStatus(null);
    clear(page, ctx.notFound());
  });

  /**
   * When the clocks in `msg` held, on this page's performance clock: the server's stamp less
   * the measured offset when both are known, else the arrival. A message held up by the
   * network then counts its time in the queue (issue 38).
   */
  function heldAt(msg, arrival) {
    const clock = msg.clock || (msg.game && msg.game.clock);
    if (!clock || typeof clock.server_ms !== 'number' || socket.offset === null) return arrival;
    const age = socket.serverNow() - clock.server_ms;
    return arrival - Math.max(0, Math.min(age, 60000));
  }

  function onMessage(msg, arrival) {
    const at = heldAt(msg, arrival);
    switch (msg.t) {
      case 'hello':
        you = msg.you || null;
        setGame(msg.game, at);
        followTournament();
        if (firstHello) {
          // A finished game greets its own players as spectators (`you: null`): face them anyway.
          const mine = g.black && g.black.kind !== 'engine' && g.black.name === ctx.name ? 'black' : 'white';
          board.setOrientation(you || mine);
          firstHello = false;
        }
        renderAll();
        break;
      case 'state':
        setGame(msg.game, at);
        renderAll();
        break;
      case 'move': onMove(msg, at); break;
      case 'event': onEvent(msg); break;
      case 'end': onEnd(msg, at); break;
      case 'rejected': onRejected(msg); break;
      case 'error': toast(t('common.error', { msg: serverText('error', msg) }), 'error'); renderBoard(); break;
      default: break;
    }
  }

  /** A player of a tournament game listens to the tournament for their next game. */
  function followTournament() {
    if (tourSocket || !you || !g.tournament) return;
    tourSocket = new Socket(api.socketUrl(`/tournaments/${encodeURIComponent(g.tournament.id)}/socket`), {
      onMessage: (m) => {
        // `your_game` comes to the player's own sockets only (protocol.md).
        if (m.t !== 'your_game' || m.game === id) return;
        // A game restarted with the colours turned round opens at once; after a finished game
        // (an arena pairs again as soon as it ends) the result stays in view a moment.
        ctx.announceGame(m, { open: false });
        clearTimeout(nextGameTimer);
        nextGameTimer = setTimeout(() => ctx.navigate(`/game/${m.game}`), isLive() ? 0 : 3000);
      },
    });
  }

  /** Arena berserk (api.md): half one's clock, no increment, before one's first move. */
  async function onBerserk() {
    try {
      await api.berserk(g.tournament.id, id);
      berserked = true;
      berserkers.add(you);
      socket.send({ t: 'sync' });
      renderBars();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function canBerserk() {
    // Only where the arena allows it (the game's `tournament.berserk`, protocol.md).
    if (!isLive() || !you || !g.tournament || !g.tournament.berserk || berserked) return false;
    return you === 'white' ? g.ply === 0 : g.ply <= 1;
  }

  function setGame(game, at) {
    g = { ...game, firstMoveAt: at };
    offerCheck.checked = offerCheck.checked && !barred();
    lowSet();
    positions = replay(g.initial_fen, g.moves.map((m) => m.uci));
    // Trust the server's current position over the replay if they disagree.
    if (g.fen && toFen(positions[positions.length - 1]).split(' ')[0] !== g.fen.split(' ')[0]) positions[positions.length - 1] = parseFen(g.fen);
    if (viewPly !== null && viewPly > g.ply) viewPly = null;
    lastTouch = null;
    clocks.set(g.status === 'live' ? g.clock : g.clock && { ...g.clock, running: null }, at);
  }

  function lowSet() { clocks.lowMs = lowMark(g.time_control); }

  function onMove(msg, at) {
    if (!g) return;
    if (msg.ply !== g.ply + 1) { socket.send({ t: 'sync' }); return; }
    const prev = positions[positions.length - 1];
    const capture = (msg.san || '').includes('x') || !!prev.board[squareIndex(parseUci(msg.uci).to)];
    g.moves.push({ uci: msg.uci, san: msg.san, clock_ms: msg.clock ? msg.clock[msg.by + '_ms'] : null });
    // A move that is not the latest of its batch comes without `fen`: replay it.
    const next = msg.fen ? parseFen(msg.fen) : play(prev, msg.uci);
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
    positions.push(next);
    lastTouch = null;
    announce.textContent = t('game.announce_move', { color: colorName(msg.by), san: sanWords(msg.san || toSan(prev, msg.uci)) });
    if (msg.by === you) offerCheck.checked = false;
    clocks.set(g.clock, at);
    sound.play(g.check ? 'check' : capture ? 'capture' : 'move');
    renderAll();
    if (you && g.turn === you && g.status === 'live') {
      if (board.playPremove()) return;
    }
  }

  function onEvent(ev) {
    if (!g) return;
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
        if (ev.clock) { g.clock = ev.clock; clocks.set(ev.clock, heldAt(ev, performance.now())); }
        else if (clocks.state && clocks.state[ev.color + '_ms'] !== null) { clocks.state[ev.color + '_ms'] += ev.ms; clocks.render(); }
        if (ev.ms > 0) toast(t('game.time_added', { s: Math.round(ev.ms / 1000), color: colorName(ev.color) }));
        break;
      case 'berserk':
        // Either side's, at once: the clocks after it, the mark on the player's bar.
        if (ev.clock) { g.clock = ev.clock; clocks.set(ev.clock, heldAt(ev, performance.now())); }
        berserkers.add(ev.color);
        if (ev.color === you) berserked = true;
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
    if (msg.code === 'stale_ply') socket.send({ t: 'sync' });
    // Refuse the offer, not the move (issue 38): play the move alone, and say why.
    if (msg.code === 'offer_not_allowed' && lastSent && lastSent.offer_draw && g && lastSent.ply === g.ply) {
      g.offer_barred = { ...(g.offer_barred || {}), [you]: g.offer !== you };
      offerCheck.checked = false;
      toast(t('game.rejected', { msg: offerReason() }), 'error', 6000);
      sendMove(lastSent.fields, false);
      renderControls();
      return;
    }
    // A counted illegal move is told by its `illegal_move` event (with the count): once is enough.
    const counted = msg.code === 'illegal' && g && g.rules !== 'casual';
    if (!counted) toast(t('game.rejected', { msg: serverText('reject', msg) }), 'error', 6000);
    if (msg.code !== 'illegal') sound.play('error');
    renderBoard();
  }

  // Input.
  function isLive() { return g && g.status === 'live'; }
  function myTurn() { return isLive() && you && g.turn === you; }
  function touchMove() { return g && (g.rules === 'seed' || g.rules === 'fide'); }

  let lastSent = null;
  function sendMove(fields, offer = offerCheck.checked && !barred()) {
    lastSent = { fields, ply: g.ply, offer_draw: offer };
    const sent = socket.send({ t: 'move', ...fields, ply: g.ply, offer_draw: offer });
    if (!sent) { toast(t('net.offline'), 'error'); renderBoard(); }
    return sent;
  }

  function onBoardMove(uci, opts = {}) {
    if (!uci || !isLive() || viewPly !== null) { renderBoard(); return; }
    if (opts.premove && touchMove()) socket.send({ t: 'touch', square: parseUci(uci).from, ply: g.ply });
    sendMove({ uci });
  }

  function onBoardSelect(key) {
    if (!myTurn() || !touchMove() || viewPly !== null) return;
    if (g.obligation && g.obligation.color === you) return;
    const pos = positions[positions.length - 1];
    const p = pos && pos.board[squareIndex(key)];
    if (!p || (p === p.toUpperCase() ? 'white' : 'black') !== you) return;
    if (lastTouch === key) return;
    lastTouch = key;
    socket.send({ t: 'touch', square: key, ply: g.ply });
  }

  function onTypedMove(e) {
    e.preventDefault();
    const text = moveInput.value.trim();
    if (!text || !isLive() || !you) return;
    const fields = UCI_RE.test(text) ? { uci: text.toLowerCase() } : { san: text };
    if (sendMove(fields)) moveInput.value = '';
  }

  async function copyFen() {
    const fen = viewPly === null ? g.fen : toFen(positions[viewPly]);
    if (await copyText(fen)) { fenBtn.textContent = t('common.copied'); setTimeout(() => { fenBtn.textContent = t('game.fen'); }, 1500); }
  }

  function setView(ply) {
    if (!g) return;
    const p = Math.max(0, Math.min(g.ply, ply));
    viewPly = p === g.ply ? null : p;
    describeBoard();
    renderBoard();
    renderMoves();
  }

  const keys = navKeys(() => (viewPly === null ? g.ply : viewPly), setView, () => (g ? g.ply : 0));
  document.addEventListener('keydown', keys);

  // Rendering.
  function renderAll() {
    if (!g) return;
    renderTitle();
    renderIntro();
    describeBoard();
    renderInfo();
    renderBars();
    renderBoard();
    renderMoves();
    renderStatus();
    renderControls();
  }

  function renderTitle() {
    const name = (p) => (p ? (p.kind === 'engine' ? t('lobby.engine_name', { n: p.engine_level }) : p.name) : '?');
    const mark = isLive() && you && g.turn === you ? '● ' : '';
    document.title = `${mark}${name(g.white)} – ${name(g.black)} · ${t('app.name')}`;
  }

  function renderInfo() {
    clear(info,
      h('div.tc', h('strong', tcLabel(g.time_control)), ' · ', t('speed.' + g.speed), ' · ', g.rated ? t('common.rated') : t('common.casual')),
      h('div.rules', rulesBadge(g.rules), ' ', h('small', t(`rules.${g.rules}.help`))),
      openingLine(g.opening),
      h('div.role', you ? t('game.you_play', { color: colorName(you) }) : t('game.spectating'), ' · ', spectatorsEl),
      g.tournament ? h('div.tournament-link', h('a#tournament-link', { href: `/tournaments/${g.tournament.id}`, 'data-link': true }, g.tournament.name),
        ' · ', g.tournament.round !== null ? t('tour.round_board', { round: g.tournament.round, board: g.tournament.board }) : t('tour.arena_game', { n: g.tournament.board })) : null);
    clear(spectatorsEl, icon('eye'), ' ', t('game.spectators', { n: g.spectators || 0 }));
  }

  /** A player's first game under touch-move rules starts with them in words, once. */
  function renderIntro() {
    const key = `rookery.rules_seen.${g.rules}`;
    const show = isLive() && !!you && g.rules !== 'casual' && !localStorage.getItem(key);
    rulesIntro.hidden = !show;
    if (!show || rulesIntro.childElementCount) return;
    clear(rulesIntro, h('strong', t('game.rules_intro.title')), h('p', t(`rules.${g.rules}.intro`)),
      h('button.btn.small.primary#rules-intro-ok', { type: 'button', on: { click: () => { localStorage.setItem(key, '1'); rulesIntro.hidden = true; } } }, t('game.rules_intro.ok')));
  }

  /** The position shown on the board (the game's, or an earlier one under review) in words. */
  function describeBoard() {
    const ply = viewPly ?? positions.length - 1;
    const pos = positions[ply];
    if (!pos) return;
    const last = g.moves[ply - 1];
    const list = pieceList(pos);
    boardDesc.textContent = [
      t('game.board_desc', { turn: colorName(pos.turn), last: last ? t('game.board_desc.last', { san: sanWords(last.san || last.uci) }) : t('game.board_desc.start') }),
      t('game.board_pieces', { white: list.white.join(', '), black: list.black.join(', ') }),
    ].join(' ');
    pieces.show(pos);
  }

  function renderBars() {
    if (!g) return;
    const bottom = board.orientation();
    for (const [where, color] of [['top', other(bottom)], ['bottom', bottom]]) {
      const p = g[color] || {};
      const strikes = g.strikes ? g.strikes[color] : 0;
      clear(bars[where],
        h('span.dot', { class: p.online === false && p.kind !== 'engine' ? 'off' : 'on', title: t(p.online === false && p.kind !== 'engine' ? 'game.offline' : 'game.online') }),
        h('span.piece-icon', color === 'white' ? '♔' : '♚'),
        h('span.name', { dataset: { color } }, playerName(p)),
        (where === 'bottom' && color === you && canBerserk())
          ? h('button.berserk-btn#berserk', { type: 'button', title: t('tour.berserk.help'), on: { click: onBerserk } }, '⚡ ', t('tour.berserk')) : null,
        berserkers.has(color) ? h('span.berserk-mark', { title: t('tour.berserk'), dataset: { color } }, '⚡') : null,
        strikes ? h('span.strike-badge', { dataset: { color }, title: t('game.strikes_nolimit', { n: strikes }) }, '✗'.repeat(Math.min(strikes, 5)), g.strike_limit ? ` ${strikes}/${g.strike_limit}` : ` ${strikes}`) : null,
        clockEls[color]);
      bars[where].classList.toggle('to-move', isLive() && g.turn === color);
    }
  }

  function renderBoard() {
    if (!g) return;
    board.closePicker();
    if (viewPly !== null) {
      const pos = positions[viewPly];
      const mv = g.moves[viewPly - 1];
      board.set({ fen: toFen(pos), turn: pos.turn, lastMove: uciSquares(mv && mv.uci), check: !!mv && /[+#]/.test(mv.san || ''), movable: undefined, premove: false });
      viewNote.hidden = false;
      viewNote.textContent = t('game.review_mode', { ply: viewPly });
      return;
    }
    viewNote.hidden = true;
    const last = g.moves[g.moves.length - 1];
    let dests = new Map();
    let showDests = true;
    if (myTurn()) {
      if (touchMove()) {
        // RULES.md §8.2: any move the piece's pattern allows may be attempted; the server
        // judges. No destination hints, as over the board.
        dests = destsMap(patternMoves(parseFen(g.fen)));
        showDests = false;
        const ob = g.obligation && (g.obligation.color || g.turn) === you ? g.obligation : null;
        if (ob && ob.kind === 'move_piece') dests = new Map([[ob.square, dests.get(ob.square) || []]]);
        if (ob && ob.kind === 'capture') {
          const only = new Map();
          for (const [from, tos] of dests) if (tos.includes(ob.square)) only.set(from, [ob.square]);
          dests = only;
        }
      } else {
        dests = destsFromServer(g.dests);
      }
    }
    const custom = new Map();
    if (g.obligation && isLive()) custom.set(g.obligation.square, 'obligation');
    board.set({
      fen: g.fen, turn: g.turn, lastMove: uciSquares(last && last.uci), check: g.check,
      movable: isLive() && you ? you : undefined, dests, showDests,
      premove: isLive() && !!you && g.turn !== you, customHighlight: custom,
    });
  }

  function renderMoves() {
    const current = viewPly === null ? g.ply : viewPly;
    clear(movesEl, moveList(g.moves, current, setView));
    const active = movesEl.querySelector('.move.active');
    if (active && viewPly === null) movesEl.scrollTop = movesEl.scrollHeight;
    else if (active) active.scrollIntoView({ block: 'nearest' });
  }

  function renderFirstMove() {
    clearInterval(firstMoveTimer);
    firstMoveTimer = null;
    const fm = isLive() && g.first_move;
    firstMoveEl.hidden = !fm;
    if (!fm) return;
    const until = g.firstMoveAt + fm.ms;
    const tick = () => {
      const s = Math.max(0, Math.ceil((until - performance.now()) / 1000));
      firstMoveEl.dataset.color = fm.color;
      // In a tournament the default time passes into a forfeit, not an abort (RULES.md §12).
      const k = g.tournament ? 'game.first_move_forfeit' : 'game.first_move';
      firstMoveEl.textContent = fm.color === you ? t(k + '_you', { s }) : t(k, { color: colorName(fm.color), s });
      if (s === 0) clearInterval(firstMoveTimer);
    };
    tick();
    firstMoveTimer = setInterval(tick, 250);
  }

  // Rematch (issue 38), colours swapped: against the engine a new game at once; against a
  // person a challenge, seen over the lobby socket, which the page opens once the game is over.
  const rematchEl = h('span.rematch#rematch-box');
  let lobby = null;
  let rematch = null; // {id, mine}: the standing rematch challenge
  const opponent = () => (you && g ? g[other(you)] : null);
  function renderRematch() {
    const opp = opponent();
    if (!opp || g.status !== 'finished') { clear(rematchEl); return; }
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
        const theirs = (s) => opp && s.owner && s.owner.name === opp.name && s.to && ctx.name && s.to.toLowerCase() === ctx.name.toLowerCase();
        if (msg.t === 'seeks') { const s = msg.seeks.find(theirs); if (s) { rematch = { id: s.id, mine: false }; renderRematch(); } }
        if (msg.t === 'seek_added' && theirs(msg.seek)) { rematch = { id: msg.seek.id, mine: false }; renderRematch(); }
        if (msg.t === 'seek_removed' && rematch && rematch.id === msg.id) { rematch = null; renderRematch(); }
        if (msg.t === 'game_started') ctx.navigate(`/game/${msg.game}`);
      },
    });
  }
  async function offerRematch() {
    const opp = opponent();
    const spec = { time_control: g.time_control, rules: g.rules, color: other(you) };
    try {
      if (opp.kind === 'engine') {
        const r = await api.engineGame({ ...spec, level: opp.engine_level });
        ctx.navigate(`/game/${r.game}`);
        return;
      }
      const seek = await api.createChallenge({ ...spec, to: opp.name, rated: g.rated });
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

  function renderStatus() {
    renderFirstMove();
    clearInterval(abandonTimer);
    abandonTimer = null;
    // Result.
    if (!isLive()) {
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
          ? h('a.btn.small.primary#back-to-tournament', { href: `/tournaments/${g.tournament.id}`, 'data-link': true }, t('tour.back'))
          : [h('a.btn.small', { href: '/', 'data-link': true }, t('game.new_game')), rematchEl]));
      if (!g.tournament) renderRematch();
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
    const ob = isLive() && g.obligation;
    obligationEl.hidden = !ob;
    if (ob) {
      const color = ob.color || g.turn;
      obligationEl.textContent = color === you
        ? t('game.obligation.' + ob.kind, { square: ob.square })
        : t('game.obligation.other.' + ob.kind, { color: colorName(color), square: ob.square });
    }
    // Strikes (§8).
    const strikes = g.strikes || { white: 0, black: 0 };
    const counted = g.rules !== 'casual' && (isLive() || strikes.white > 0 || strikes.black > 0);
    strikesEl.hidden = !counted;
    if (counted) {
      clear(strikesEl, ['white', 'black'].map((c) => h('span.strike-count', { dataset: { color: c }, class: strikes[c] ? 'has' : null },
        colorName(c), ': ', g.strike_limit ? t('game.strikes', { n: strikes[c], limit: g.strike_limit }) : t('game.strikes_nolimit', { n: strikes[c] }))));
    }
    // Offers. (Rebuilt from nothing each time: an abandonment box left behind froze, issue 38.)
    offerBox.hidden = true;
    clear(offerBox);
    if (isLive() && g.offer) {
      offerBox.hidden = false;
      if (g.offer === you) clear(offerBox, h('span', t('game.your_offer')));
      else clear(offerBox, h('span', t('game.draw_offered_by', { color: colorName(g.offer) })),
        you ? h('span.offer-actions',
          h('button.btn.small.primary#accept-draw', { type: 'button', on: { click: () => socket.send({ t: 'accept_draw', ply: g.ply }) } }, t('game.accept')),
          h('button.btn.small#decline-draw', { type: 'button', on: { click: () => socket.send({ t: 'decline_draw', ply: g.ply }) } }, t('game.decline'))) : null);
    } else if (isLive() && g.takeback && g.takeback !== you && you) {
      offerBox.hidden = false;
      clear(offerBox, h('span', t('game.takeback_requested', { color: colorName(g.takeback) })),
        h('button.btn.small.primary#accept-takeback', { type: 'button', on: { click: () => socket.send({ t: 'accept_takeback', ply: g.ply }) } }, t('game.accept')));
    }
    // Abandonment.
    if (isLive() && g.abandoned && g.abandoned.color !== you) {
      const until = performance.now() + (g.abandoned.claim_in_ms || 0);
      const color = g.abandoned.color;
      const box = h('div.abandoned#abandoned');
      offerBox.hidden = false;
      offerBox.appendChild(box);
      const tick = () => {
        const left = Math.max(0, until - performance.now());
        if (left > 0 || !you) clear(box, you ? t('game.abandoned_wait', { color: colorName(color), s: Math.ceil(left / 1000) }) : t('game.abandoned', { color: colorName(color) }));
        else {
          clearInterval(abandonTimer);
          clear(box, t('game.abandoned', { color: colorName(color) }),
            h('button.btn.small.primary#claim-win', { type: 'button', on: { click: () => socket.send({ t: 'claim_abandoned', result: 'win' }) } }, t('game.claim_win')),
            h('button.btn.small#claim-abandoned-draw', { type: 'button', on: { click: () => socket.send({ t: 'claim_abandoned', result: 'draw' }) } }, t('game.claim_draw_abandoned')));
        }
      };
      tick();
      abandonTimer = setInterval(tick, 500);
    }
  }

  /** Whether this player may not offer a draw now (§7), and why in words. */
  function barred() { return !!(g && you && (g.offer === you || (g.offer_barred && g.offer_barred[you]))); }
  function offerReason() { return g.offer === you ? t('game.offer_standing') : t('game.offer_barred'); }

  let controlsKey = null;
  function renderControls() {
    const playing = isLive() && !!you;
    offerLabel.hidden = !playing;
    const noOffer = playing && barred();
    offerCheck.disabled = noOffer;
    if (noOffer) offerCheck.checked = false;
    offerReasonEl.hidden = !noOffer;
    offerReasonEl.textContent = noOffer ? offerReason() : '';
    moveInput.disabled = !playing;
    moveInput.closest('form').hidden = !playing;
    // Rebuild only when the set of actions changes, so a half-confirmed resign survives a move.
    const key = playing ? [g.ply < 2 && !g.tournament, g.rules, g.ply > 0, !!g.takeback, g.turn === you, (g.claimable || []).join()].join('|') : '';
    if (key === controlsKey) return;
    controlsKey = key;
    if (!playing) { clear(controls); return; }
    const buttons = [];
    if (g.ply < 2 && !g.tournament) buttons.push(confirmButton(t('game.abort'), t('common.confirm'), () => socket.send({ t: 'abort' }), { class: 'btn', id: 'abort' }));
    buttons.push(confirmButton('⚐ ' + t('game.resign'), t('common.confirm'), () => socket.send({ t: 'resign' }), { class: 'btn', id: 'resign' }));
    if (g.rules === 'casual' && g.ply > 0 && !g.takeback) {
      buttons.push(h('button.btn#takeback', { type: 'button', on: { click: () => socket.send({ t: 'takeback', ply: g.ply }) } }, t('game.takeback')));
    }
    if (g.rules === 'fide' && g.turn === you) {
      for (const claim of g.claimable || []) {
        buttons.push(h('button.btn.primary.claim', { type: 'button', dataset: { claim }, on: { click: () => socket.send({ t: 'claim_draw', claim, ply: g.ply }) } }, t('game.claim.' + claim)));
      }
    }
    clear(controls, buttons);
  }

  return () => {
    document.title = t('app.name');
    ctx.busy = null;
    socket.close();
    if (tourSocket) tourSocket.close();
    clearTimeout(nextGameTimer);
    if (lobby) lobby.close();
    clocks.destroy();
    board.destroy();
    clearInterval(abandonTimer);
    clearInterval(firstMoveTimer);
    document.removeEventListener('keydown', keys);
  };
}
