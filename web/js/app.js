// The single-page shell: client routes, the header (account, language, sound), and the
// visitor's identity shared with the pages. Each page module exports `mount(el, params, ctx)`
// returning a cleanup function.

import * as api from './api.js';
import { h, clear, toast, icon, blinkTitle } from './dom.js';
import { Socket } from './socket.js';
import { LANGS, lang, setLang, t, translateDom, apiText } from './i18n.js';
import { isMuted, setMuted } from './sound.js';

const ROUTES = [
  [/^\/(?:lobby)?$/, () => import('./pages/lobby.js')],
  [/^\/game\/([A-Za-z0-9_-]+)$/, () => import('./pages/game.js')],
  [/^\/review\/([A-Za-z0-9_-]+)$/, () => import('./pages/review.js')],
  [/^\/@\/([A-Za-z0-9_-]+)$/, () => import('./pages/profile.js')],
  [/^\/leaderboard$/, () => import('./pages/leaderboard.js')],
  [/^\/tournaments$/, () => import('./pages/tournaments.js')],
  [/^\/tournaments\/new$/, () => import('./pages/tournament-new.js')],
  [/^\/tournaments\/([A-Za-z0-9_-]+)$/, () => import('./pages/tournament.js')],
  [/^\/tournaments\/([A-Za-z0-9_-]+)\/boards\/(\d+)\/(\d+)\/moves$/, () => import('./pages/scoresheet.js')],
  [/^\/(login|signup|first-login)$/, () => import('./pages/account.js')],
  [/^\/class$/, () => import('./pages/class.js')],
];

const ctx = {
  me: null,
  /** The name the server knows this visitor by. */
  get name() { return this.me ? (this.me.user ? this.me.user.name : this.me.anonymous_name) : null; },
  get signedIn() { return !!(this.me && this.me.user); },
  navigate,
  refreshAccount,
  setNetStatus,
  notFound,
  announceGame,
  /** A game the visitor has on screen needs no announcing. */
  seenGame: (id) => announced.add(id),
  /** A page where the visitor plays sets this: a notice then does not take them away. */
  busy: null,
};

// A player's games in tournaments (protocol.md, "Lobby socket"): the lobby socket's
// `?notices` is open on every page, so a new round's game reaches its player wherever they
// are; the tournament and game pages add what their own sockets and views say.
const announced = new Set();
let notices = null;

/**
 * Says a game of the visitor's once (by id, whoever tells first): the title blinks, a toast;
 * and opens it unless `open` is false, the visitor is on it, or on a game they play.
 * `{game, round, color, opponent}`; `true` when it was new.
 */
function announceGame(m, { open = true } = {}) {
  if (!m || !m.game || announced.has(m.game)) return false;
  announced.add(m.game);
  if (location.pathname === `/game/${m.game}`) return false;
  toast(m.opponent && m.color ? t('tour.toast.your_game', { opponent: m.opponent, color: t('common.' + m.color) }) : t('tour.your_game'), 'ok');
  if (open && !(ctx.busy && ctx.busy())) navigate(`/game/${m.game}`);
  // After the page it leaves has put its title back: the star shows at once, on the board.
  blinkTitle(m.round ? t('tour.your_game_round', { round: m.round }) : t('tour.your_game'));
  return true;
}

/** The notices socket follows the account: open while signed in, as that user. */
function syncNotices() {
  const who = ctx.signedIn ? ctx.name : null;
  if (notices && notices.who !== who) { notices.close(); notices = null; }
  if (!who || notices) return;
  notices = new Socket(api.socketUrl('/lobby/socket?notices'), {
    onMessage: (m) => { if (m.t === 'tournament_game') announceGame(m); },
  });
  notices.who = who;
}

/** The "not found" page's content (issue 38), for an unknown path or a game that does not exist. */
function notFound(what) {
  const path = location.pathname;
  const game = /^\/(?:game|review)\/(.+)$/.exec(path);
  return h('section.panel.not-found#not-found',
    h('h1', t('common.not_found.title')),
    h('p', what || (game ? t('common.not_found.game', { id: decodeURIComponent(game[1]) }) : t('common.not_found.page', { path }))),
    h('p', h('a.btn.primary', { href: '/', 'data-link': true }, t('common.back_to_lobby'))));
}

let cleanup = null;
let renderSeq = 0;

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else if (path !== location.pathname + location.search) history.pushState(null, '', path);
  render();
}

async function render() {
  const seq = ++renderSeq;
  if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
  setNetStatus(null);
  const page = document.getElementById('page');
  const path = location.pathname;
  const route = ROUTES.find(([re]) => re.test(path));
  document.querySelectorAll('.site-nav a').forEach((a) => { const href = a.getAttribute('href'); a.classList.toggle('active', href === path || (href !== '/' && path.startsWith(href + '/'))); });
  if (!route) { clear(page, notFound()); return; }
  const params = path.match(route[0]).slice(1).map(decodeURIComponent);
  clear(page, h('p.loading', t('common.loading')));
  try {
    const mod = await route[1]();
    if (seq !== renderSeq) return;
    page.className = 'page';
    clear(page);
    cleanup = (await mod.mount(page, params, ctx)) || null;
  } catch (e) {
    console.error(e);
    if (seq === renderSeq) clear(page, h('p.notice.error', t('common.error', { msg: apiText(e) })));
  }
}

/** Shows "reconnecting" while a page's socket is down: an overlay, so that no text ever
 * reflows the header and moves the board under the player's pointer (issue 38). */
function setNetStatus(status) {
  const el = document.getElementById('net-status');
  if (!el) return;
  el.hidden = status !== 'closed';
  el.textContent = t('net.reconnecting');
}

async function refreshAccount() {
  try { ctx.me = await api.account(); } catch (e) { ctx.me = null; toast(t('common.error', { msg: apiText(e) }), 'error'); }
  renderHeader();
  syncNotices();
  return ctx.me;
}

function renderHeader() {
  translateDom(document);
  document.title = t('app.name');
  const sel = document.getElementById('lang-select');
  sel.setAttribute('aria-label', t('nav.language'));
  sel.title = t('nav.language');
  clear(sel, Object.entries(LANGS).map(([code, l]) => h('option', { value: code, selected: code === lang() }, l.name)));
  const sound = document.getElementById('sound-toggle');
  clear(sound, icon(isMuted() ? 'mute' : 'sound'));
  sound.title = t(isMuted() ? 'nav.sound_off' : 'nav.sound_on');
  sound.setAttribute('aria-label', sound.title);
  const box = document.getElementById('account-box');
  if (ctx.signedIn) {
    const name = ctx.me.user.name;
    clear(box,
      h('a.user-link', { href: `/@/${name}`, 'data-link': true, id: 'me-link' }, name),
      h('button.link-btn', { type: 'button', id: 'logout', on: { click: onLogout } }, t('nav.signout')));
  } else {
    clear(box,
      ctx.me ? h('span.anon-name', ctx.me.anonymous_name) : null,
      h('a.btn.small', { href: '/login', 'data-link': true, id: 'signin-link' }, t('nav.signin')));
  }
}

async function onLogout() {
  try { await api.logout(); } catch (e) { toast(apiText(e), 'error'); }
  await refreshAccount();
  render();
}

function init() {
  setLang(lang());
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-link]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute('href'));
  });
  window.addEventListener('popstate', render);
  document.getElementById('lang-select').addEventListener('change', (e) => {
    setLang(e.target.value);
    renderHeader();
    render();
  });
  document.getElementById('sound-toggle').addEventListener('click', () => { setMuted(!isMuted()); renderHeader(); });
  refreshAccount().then(render);
}

init();
