// The game page: play or watch one game over its socket (docs/protocol.md). The server's
// `hello`/`state` is the whole truth; `move`, `event` and `end` update it; the page renders
// from it. Earlier positions can be reviewed from the move list while the game goes on.
// The parts live in game/: the state (state.js), the board and the moves made on it
// (board.js), the clocks (clocks.js), the player's actions and offers (actions.js), what is
// read out around the board (panel.js) and the socket's messages (messages.js).

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { gameState } from '../game/state.js';
import { gameClocks, firstMoveCountdown } from '../game/clocks.js';
import { gameBoard } from '../game/board.js';
import { gameActions } from '../game/actions.js';
import { gamePanel } from '../game/panel.js';
import { gameMessages } from '../game/messages.js';

export async function mount(page, [id], ctx) {
  page.classList.add('game-page');
  const s = gameState(id);
  ctx.seenGame(id);
  // A player on their game's page is not taken away by a notice: a tournament game's page
  // opens the next game itself, after the result has been in view a moment.
  ctx.busy = () => !!s.you;

  const send = (msg) => socket.send(msg);
  const firstMove = firstMoveCountdown(s);
  const board = gameBoard(s, { send, offerWanted: () => actions.offerWanted(), firstMoveEl: firstMove.el });
  const actions = gameActions(s, { ctx, send, moveInput: board.moveInput, renderBars: () => panel.renderBars() });
  const { els: clockEls, clocks } = gameClocks(s, { sync: () => send({ t: 'sync' }) });
  const panel = gamePanel(s, { board, clockEls, actions, firstMove });

  page.append(h('div.game-layout',
    h('div.board-col', panel.bars.top, board.frame, panel.bars.bottom),
    h('div.side-col',
      panel.info, panel.rulesIntro, panel.status, panel.banner, panel.obligationEl, panel.strikesEl, actions.offerBox,
      h('div.move-panel', panel.movesEl, board.viewNote),
      h('div.actions', actions.offerLabel, actions.controls),
      board.moveForm,
      panel.tools)));
  board.attach();

  function renderAll() {
    if (!s.g) return;
    panel.renderTitle();
    panel.renderIntro();
    board.describe();
    panel.renderInfo();
    panel.renderBars();
    board.render();
    panel.renderMoves();
    panel.renderStatus();
    actions.renderControls();
  }

  // A game that does not exist has no socket to speak of: ask once, and say so (issue 38).
  let gone = false;
  const socket = new Socket(api.socketUrl(`/games/${encodeURIComponent(id)}/socket`), {
    onStatus: (st) => { if (!gone) ctx.setNetStatus(st); },
    onMessage: (msg) => { try { messages.onMessage(msg, performance.now()); } catch (e) { console.error(e, msg); } },
  });
  const messages = gameMessages(s, { ctx, socket, clocks, board, actions, renderAll });
  api.game(id).catch((e) => {
    if (e.status !== 404 || s.g) return;
    gone = true;
    socket.close();
    ctx.setNetStatus(null);
    clear(page, ctx.notFound());
  });

  return () => {
    document.title = t('app.name');
    ctx.busy = null;
    socket.close();
    messages.destroy();
    actions.destroy();
    clocks.destroy();
    board.destroy();
    firstMove.destroy();
    panel.destroy();
  };
}
