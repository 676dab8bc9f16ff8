// A tournament's page: what it is, joining and leaving, byes, the round's pairings with live
// results, standings, the crosstable, each player's card, the audit log, the downloads, an
// arena's countdown and games, and for its creator the arbiter's desk. The tournament socket
// (protocol.md "Tournament socket") sends the whole view on every change; events before it
// tell the page what to say (a round paired, a result) and a player's own new game, which
// makes the title blink and opens the board.

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { h, clear, toast, confirmButton } from '../dom.js';
import { t, lang } from '../i18n.js';
import { formatMs } from '../clock.js';
import { summaryTags, startText, conditionsText, errorText, resultShown } from '../tournament/format.js';
import { pairingsTable, standingsTable, crosstable, playerCard, logList } from '../tournament/tables.js';
import { arbiterPanel, isArbiter } from '../tournament/arbiter.js';
import { notesList } from '../tournament/incidents.js';
import { bracketView } from '../tournament/bracket.js';
import { teamMatches, teamStandings, boardPrizes, teamsList, lineUpForm } from '../tournament/teams.js';

export async function mount(page, [id], ctx) {
  page.classList.add('tournament-page');
  let T = null;
  let shownRound = null; // null: follow the latest round
  let picked = null;
  let clock = null; // the last `clock` message, with the local time it arrived
  let arbKey = null;

  const head = h('section.panel.tour-header#tour-header');
  const mine = h('div.tour-mine#tour-mine');
  const countdown = h('div.countdown#countdown', { hidden: true });
  // The player's box: a countdown and what the visitor may do. A finished tournament offers
  // nothing: the box is not drawn empty (issue 51).
  const actions = h('section.panel.tour-actions#tour-actions', countdown, mine);
  const syncActions = () => { actions.hidden = countdown.hidden && !mine.childElementCount; };
  syncActions();
  const roundTabs = h('div.round-tabs#round-tabs', { role: 'tablist' });
  const pairings = h('div.pairings-box#pairings');
  const arenaGames = h('div.arena-games#arena-games', { hidden: true });
  const standings = h('div.table-scroll#standings-box');
  const xt = h('div.table-scroll#crosstable-box');
  const cardBox = h('div#card-box');
  const arbBox = h('div#arbiter-box');
  const log = h('div.log-box#log-box');
  const downloads = h('div.downloads#downloads');

  page.append(
    h('div.tour-layout',
      h('div.tour-main',
        head,
        h('section.panel.pairings-panel', h('h2#pairings-title', t('tour.pairings')), roundTabs, pairings, arenaGames),
        h('section.panel.standings-panel#standings-panel', h('h2', t('tour.standings')), standings),
        h('section.panel.crosstable-panel#crosstable-panel', h('h2#crosstable-title', t('tour.crosstable')), xt)),
      h('aside.tour-side', actions, cardBox, arbBox,
        h('section.panel.log-panel', h('h2', t('tour.log')), log),
        h('section.panel', h('h2', t('tour.downloads')), downloads))));

  const socket = new Socket(api.socketUrl(`/tournaments/${encodeURIComponent(id)}/socket`), {
    onStatus: (s) => ctx.setNetStatus(s),
    onMessage: (msg) => { try { onMessage(msg); } catch (e) { console.error(e, msg); } },
  });

  function onMessage(msg) {
    switch (msg.t) {
      case 'tournament': set(msg.tournament); break;
      case 'clock': clock = { ...msg, at: Date.now() }; renderCountdown(); break;
      case 'round_paired':
        if (msg.state === 'published') toast(t('tour.toast.published', { round: msg.round }), 'ok');
        else if (msg.state === 'paired') toast(t('tour.toast.preview', { round: msg.round }));
        else if (msg.state === 'unpaired') toast(t('tour.toast.unpaired', { round: msg.round }));
        shownRound = null;
        break;
      case 'your_game':
        // To its player's sockets only (protocol.md): to the board.
        ctx.announceGame(msg);
        break;
      case 'result': {
        if (msg.corrected) toast(t('tour.toast.corrected', { round: msg.round, board: msg.board }));
        // The board's result at once, in the pairings: the whole view (standings, crosstable)
        // follows within a second, as the server sends it at most once a second; a hall's
        // 400-player page waited for it, and a result typed at the desk took a second to show.
        const round = T && (T.rounds_list || []).find((r) => r.round === msg.round);
        const board = round && round.boards.find((b) => b.board === msg.board);
        if (board && board.result !== msg.result) {
          board.result = msg.result;
          renderPairings();
        }
        break;
      }
      case 'error': toast(t('common.error', { msg: errorText(msg) }), 'error'); break;
      default: break;
    }
  }

  function set(view) {
    if (T && view.seq < T.seq) return; // an older view than the one shown
    T = view;
    render();
    // A `your_game` missed (a socket that lagged or reconnected): the view says where the
    // player plays now, and that game opens once (protocol.md, "Tournament socket").
    const game = currentGame();
    if (game) ctx.announceGame(game);
  }

  /** The player's game being played, from the view: `{game, round, color, opponent}`. */
  function currentGame() {
    if (!ctx.signedIn || T.status !== 'running') return null;
    const name = ctx.name;
    if (T.format === 'arena') {
      const g = ((T.arena && T.arena.games) || []).find((x) => !x.result && (x.white === name || x.black === name));
      return g && { game: g.game, round: null, color: g.white === name ? 'white' : 'black', opponent: g.white === name ? g.black : g.white };
    }
    const r = (T.rounds_list || []).find((x) => x.round === T.round);
    const b = r && r.state === 'published' && r.boards.find((x) => x.status === 'live' && x.game && (x.white === name || x.black === name));
    return b && { game: b.game, round: r.round, color: b.white === name ? 'white' : 'black', opponent: b.white === name ? b.black : b.white };
  }

  // Player actions.
  async function call(fn, btn) {
    if (btn) btn.disabled = true;
    try { const view = await fn(); if (view && view.id) set(view); return true; } catch (err) { toast(errorText(err), 'error', 6000); return false; } finally { if (btn) btn.disabled = false; }
  }

  function me() { return T.players.find((p) => p.name === ctx.name) || null; }

  function renderMine() {
    const p = me();
    const open = T.status === 'upcoming' || T.status === 'running';
    const items = [];
    if (T.teams) {
      // A team event: teams are registered by the arbiter; a captain enters the line-ups.
      const own = ctx.signedIn ? T.teams.teams.filter((x) => x.captain === ctx.name.toLowerCase()).map((x) => x.name) : [];
      const kind = `captain:${own.join('|')}:${T.status}:${T.teams.rounds.length}:${T.teams.rounds.map((r) => r.finished).join()}`;
      if (mine.dataset.kind === kind) { syncActions(); return; }
      if (own.length && T.status === 'running') {
        items.push(h('p.you-are#you-captain', t('team.your_team', { team: own.join(', ') })));
        items.push(lineUpForm(T, own, async (body, btn) => {
          if (await call(() => api.lineUp(id, body), btn)) toast(t('team.line_up.done'), 'ok');
        }));
      }
      mine.dataset.kind = kind;
      clear(mine, items);
      syncActions();
      return;
    }
    if (!ctx.signedIn) {
      if (open) items.push(h('p.hint', t('tour.join_needs_account'), ' ', h('a', { href: '/login', 'data-link': true }, t('nav.signin'))));
    } else if (!p || (T.format === 'arena' && p.withdrawn)) {
      if (open) {
        // The form is kept while it would be drawn the same: a view arriving (another player
        // joining) must not take the password field's focus from a player typing in it, nor
        // swap the button under a click between its press and release (a lost join).
        const needsPassword = !!(T.conditions && T.conditions.password);
        const label = T.format === 'arena' && p ? t('tour.rejoin') : t('tour.join');
        const kind = `join:${needsPassword}:${label}`;
        if (mine.dataset.kind === kind) { syncActions(); return; }
        const pw = needsPassword ? h('input#join-password', { type: 'password', placeholder: t('tf.password'), autocomplete: 'off', value: joinPassword, on: { input: (e) => { joinPassword = e.target.value; } } }) : null;
        items.push(h('form.join-form', { on: { submit: (e) => { e.preventDefault(); call(async () => { await api.joinTournament(id, pw && pw.value); return api.tournament(id); }, e.submitter); } } },
          pw, h('button.btn.primary#join', { type: 'submit' }, label)));
        mine.dataset.kind = kind;
        clear(mine, items);
        syncActions();
        return;
      }
    } else {
      items.push(h('p.you-are#you-are', p.withdrawn ? t('tour.you_withdrawn') : t('tour.you_play', { tpn: p.tpn ?? '—', score: p.score })));
      // A knockout's field is fixed once its bracket is seeded.
      if (open && !p.withdrawn && !T.bracket) {
        items.push(confirmButton(T.format === 'arena' ? t('tour.leave') : t('tour.withdraw'), t('common.confirm'), () => call(() => api.withdrawTournament(id)), { class: 'btn', id: 'withdraw' }));
      }
      const current = (T.rounds_list || []).find((r) => r.round === T.round);
      const myBoard = current && current.state === 'published' && current.boards.find((b) => (b.white === p.name || b.black === p.name) && b.status === 'live');
      // Over the board the game is at a table in the hall: the player reports its result here.
      if (myBoard && T.over_the_board && !T.bracket) items.push(reportBox(current.round, myBoard, p.name));
      else if (myBoard) items.push(h('a.btn.primary#to-my-game', { href: `/game/${myBoard.game}`, 'data-link': true }, t('tour.to_my_game')));
      if (T.format === 'arena' && T.arena) {
        const g = T.arena.games.find((x) => !x.result && (x.white === p.name || x.black === p.name));
        if (g) items.push(h('a.btn.primary#to-my-game', { href: `/game/${g.game}`, 'data-link': true }, t('tour.to_my_game')));
      }
      if (T.format === 'swiss' && open && !p.withdrawn) items.push(byeForm(p));
    }
    delete mine.dataset.kind;
    clear(mine, items);
    syncActions();
  }

  /**
   * Over the board, the player's own board: whom they play, and the result to report — the
   * same from both players enters it; different, the arbiter decides.
   */
  function reportBox(round, b, name) {
    const color = b.white === name ? 'white' : 'black';
    const other = color === 'white' ? 'black' : 'white';
    const r = b.reports || {};
    const status = r.disputed ? t('tour.report.disputed', { mine: resultShown(r[color]), theirs: resultShown(r[other]) })
      : r[color] ? t('tour.report.waiting', { result: resultShown(r[color]) })
      : r[other] ? t('tour.report.confirm', { result: resultShown(r[other]) })
      : t('tour.report.help');
    const button = (result, key) => h('button.btn', {
      type: 'button', id: `report-${key}`, class: r[color] === result ? 'btn primary' : 'btn', 'aria-pressed': String(r[color] === result),
      on: { click: (e) => call(() => api.reportResult(id, round, b.board, result), e.currentTarget) },
    }, resultShown(result));
    return h('div.report-box#report-box', { dataset: { board: b.board } },
      h('p', t('tour.report.board', { round, board: b.board, color: t('common.' + color), opponent: b[other] })),
      h('div.arb-row', button('1-0', 'white'), button('1/2-1/2', 'draw'), button('0-1', 'black')),
      h('p.hint#report-status', { class: r.disputed ? 'hint warn' : 'hint' }, status));
  }

  // The join form's password, kept across redraws.
  let joinPassword = '';

  // The bye form's choice, kept across redraws.
  const byeChoice = { round: null, kind: null };

  function byeForm(p) {
    const rounds = T.settings.rounds || 0;
    // Byes are for rounds not yet paired: after the last one paired (a preview included).
    const free = [];
    for (let r = T.round + 1; r <= rounds; r++) if (!(p.byes || []).some((b) => b.round === r)) free.push(r);
    const left = (T.settings.max_byes ?? 0) - (p.byes || []).length;
    // The page is redrawn from every socket message (another player's join too): the choice
    // survives it, or a redraw between choosing and asking would ask for another round.
    const sel = h('select#bye-round', { on: { change: () => { byeChoice.round = sel.value; } } },
      free.map((r) => h('option', { value: r }, t('tour.round_n', { n: r }))));
    const kind = h('select#bye-kind', { on: { change: () => { byeChoice.kind = kind.value; } } },
      ['half', 'zero'].map((k) => h('option', { value: k }, t('tour.bye.' + k))));
    if (free.map(String).includes(byeChoice.round)) sel.value = byeChoice.round;
    if (byeChoice.kind) kind.value = byeChoice.kind;
    return h('div.bye-box#bye-box',
      h('h3', t('tour.byes'), ' ', h('small', t('tour.byes_left', { n: Math.max(0, left), max: T.settings.max_byes ?? 0 }))),
      (p.byes || []).map((b) => h('div.bye-line', { dataset: { round: b.round } }, t('tour.bye_in', { round: b.round, kind: t('tour.bye.' + b.kind) }), ' ',
        b.round > T.round ? h('button.btn.small.cancel-bye', { type: 'button', on: { click: (e) => call(() => api.cancelBye(id, b.round), e.currentTarget) } }, t('common.cancel')) : null)),
      left > 0 && free.length ? h('div.arb-row', sel, kind, h('button.btn.small#request-bye', { type: 'button', on: { click: (e) => call(() => api.requestBye(id, Number(sel.value), kind.value), e.currentTarget) } }, t('tour.request_bye'))) : null);
  }

  // Rendering.
  function render() {
    document.title = `${T.name} · ${t('app.name')}`;
    renderHead();
    renderMine();
    renderPairings();
    const opts = { me: ctx.name, onPick: pick };
    if (T.teams) {
      // A team event: the team standings, then the teams and the board prizes where a
      // player's event has its crosstable.
      clear(standings, teamStandings(T));
      page.querySelector('#crosstable-title').textContent = `${t('team.teams')} · ${t('team.board_prizes')}`;
      page.querySelector('#crosstable-panel').hidden = false;
      page.querySelector('#standings-panel').hidden = false;
      clear(xt, teamsList(T), h('h2', t('team.board_prizes')), boardPrizes(T));
      renderArbiter();
      clear(log, logList(T));
      renderDownloads();
      renderCountdown();
      return;
    }
    clear(standings, standingsTable(T, opts));
    const arena = T.format === 'arena';
    // A knockout's bracket is its table: no standings, no crosstable.
    const knockout = T.format === 'knockout';
    page.querySelector('#crosstable-panel').hidden = arena || knockout;
    page.querySelector('#standings-panel').hidden = knockout;
    // Over the board, the crosstable's marks point to the incidents' notes under it.
    if (!arena && !knockout) clear(xt, crosstable(T, opts), notesList(T));
    renderCard();
    renderArbiter();
    clear(log, logList(T));
    renderDownloads();
    renderCountdown();
  }

  function renderHead() {
    const s = { ...T, ...T.settings };
    clear(head,
      h('div.tour-title', h('h1#tour-name', T.name), h('span.status-badge#tour-status', { dataset: { status: T.status } }, t('tour.status.' + T.status))),
      h('div.tour-tags', summaryTags(s)),
      h('dl.tour-facts',
        fact(t('tour.when'), h('span#tour-when', startText(s))),
        fact(t('tour.entry'), conditionsText(T.conditions)),
        T.format === 'knockout' && T.settings.knockout ? fact(t('tf.group.knockout'), knockoutRules(T.settings.knockout)) : null,
        T.teams ? fact(t('tf.boards'), `${T.teams.boards} · ${t('tf.primary.' + T.teams.primary)}`) : null,
        T.teams ? fact(t('tf.tiebreaks'), T.teams.standings.tiebreaks.join(', ')) : null,
        !['arena', 'knockout'].includes(T.format) && !T.teams ? fact(t('tf.tiebreaks'), (T.settings.tiebreaks || []).join(', ') + (T.settings.regulations ? ` (C.07 ${T.settings.regulations})` : '')) : null,
        fact(t('tf.forfeit_s'), T.settings.forfeit_s ? t('tour.seconds', { n: T.settings.forfeit_s }) : '—'),
        T.format === 'swiss' ? fact(t('tf.max_byes'), String(T.settings.max_byes ?? 0)) : null,
        T.format === 'swiss' && T.settings.late_join_until > 1 ? fact(t('tf.late_join_until'), t('tour.round_n', { n: T.settings.late_join_until })) : null,
        T.format === 'arena' ? fact(t('tf.group.arena'), [T.settings.berserk ? t('tf.berserk') : null, T.settings.streaks ? t('tf.streaks') : null].filter(Boolean).join(' · ') || '—') : null,
        fact(t('tour.arbiter'), h('a', { href: `/@/${T.created_by}`, 'data-link': true }, T.created_by)),
        T.teams ? fact(t('team.teams'), String(T.teams.teams.length)) : fact(t('tour.players'), String(T.players.length))));
  }

  function fact(label, value) { return h('div.fact', h('dt', label), h('dd', value)); }

  /** A knockout's match regulations in a line: `2 · rapid 2 × 600+10 · blitz 2 × 180+2 · Armageddon 300+2 / 240+2`. */
  function knockoutRules(k) {
    const stages = (k.tiebreak_stages || []).map((s) => `${t('ko.stage.' + s.name) !== 'ko.stage.' + s.name ? t('ko.stage.' + s.name) : s.name} ${s.games} × ${s.time_control}`);
    const arm = k.armageddon ? `${t('ko.stage.armageddon')} ${k.armageddon.white} / ${k.armageddon.black}` : null;
    return h('span#ko-rules', [`${t('tf.match')}: ${k.match}`, ...stages, arm].filter(Boolean).join(' · '));
  }

  /** The bracket's arbiter actions: posted, the answer's view shown, a refusal said. */
  async function sendBracket(action, btn) {
    if (btn) btn.disabled = true;
    try { set(await api.arbiter(id, action)); } catch (err) { toast(errorText(err), 'error', 6000); } finally { if (btn) btn.disabled = false; }
  }

  function renderPairings() {
    const knockout = T.format === 'knockout';
    page.querySelector('#pairings-title').textContent = knockout ? t('ko.bracket') : T.teams ? t('team.matches') : t('tour.pairings');
    if (T.teams) {
      arenaGames.hidden = true;
      roundTabs.hidden = false;
      const list = T.teams.rounds;
      const round = shownRound ?? (list.length ? list[list.length - 1].round : null);
      clear(roundTabs, list.map((r) => h('button.round-tab', {
        type: 'button', role: 'tab', 'aria-selected': String(r.round === round), dataset: { round: r.round, state: r.finished ? 'finished' : 'published' },
        on: { click: () => { shownRound = r.round === list[list.length - 1].round ? null : r.round; renderPairings(); } },
      }, String(r.round))));
      clear(pairings, round === null ? h('p.empty', T.status === 'upcoming' ? t('tour.not_started') : t('tour.no_pairings')) : teamMatches(T, round));
      return;
    }
    if (knockout) {
      roundTabs.hidden = true;
      arenaGames.hidden = true;
      const arbiter = isArbiter(T, ctx.name) && T.status === 'running' ? { send: sendBracket, online: !T.over_the_board } : null;
      clear(pairings, bracketView(T, arbiter));
      return;
    }
    const arena = T.format === 'arena';
    roundTabs.hidden = arena;
    arenaGames.hidden = !arena;
    if (arena) {
      clear(pairings);
      const games = (T.arena && T.arena.games) || [];
      const live = games.filter((g) => !g.result);
      clear(arenaGames, h('p.hint', t('tour.arena.now_playing', { n: T.arena ? T.arena.now_playing : 0 })),
        live.length ? h('ul.arena-list', live.map((g) => h('li', h('a.live-game', { href: `/game/${g.game}`, 'data-link': true, dataset: { game: g.game } },
          h('span.players', g.white, g.berserk && g.berserk.white ? ' ⚡' : '', ' – ', g.black, g.berserk && g.berserk.black ? ' ⚡' : ''),
          h('span.watch', t('lobby.watch')))))) : null);
      return;
    }
    const list = T.rounds_list || [];
    const round = shownRound ?? (list.length ? list[list.length - 1].round : null);
    clear(roundTabs, list.map((r) => h('button.round-tab', {
      type: 'button', role: 'tab', 'aria-selected': String(r.round === round), dataset: { round: r.round, state: r.state },
      on: { click: () => { shownRound = r.round === list[list.length - 1].round ? null : r.round; renderPairings(); } },
    }, String(r.round))));
    if (round === null) { clear(pairings, h('p.empty', T.status === 'upcoming' ? t('tour.not_started') : t('tour.no_pairings'))); return; }
    const r = list.find((x) => x.round === round);
    clear(pairings,
      h('div.round-head', h('strong', t('tour.round_n', { n: round })), ' ', h('span.tag.round-state', { dataset: { state: r.state } }, t('tour.round_state.' + r.state)),
        r.chess960 != null ? ' ' : null,
        r.chess960 != null ? h('span.variant-badge', { title: t('variant.chess960.help') }, t('variant.chess960_n', { n: r.chess960 })) : null),
      pairingsTable(T, round, { me: ctx.name, onPick: pick, arbiterRow: incidentOpener(r) }));
  }

  /** Over the board, the arbiter opens the desk's incident form on a board of the round played. */
  function incidentOpener(r) {
    if (!T.over_the_board || !['published', 'finished'].includes(r.state) || r.round !== T.round || !isArbiter(T, ctx.name)) return undefined;
    return (_, b) => h('button.link-btn.inc-open', { type: 'button', title: t('inc.title'), dataset: { board: b.board }, on: { click: () => {
      const board = arbBox.querySelector('#inc-board');
      if (!board) return;
      board.value = String(b.board);
      board.dispatchEvent(new Event('change'));
      board.closest('.arb-box').scrollIntoView({ block: 'nearest' });
      arbBox.querySelector('#inc-kind').focus();
    } } }, t('inc.open'));
  }

  function pick(name) { picked = picked === name ? null : name; renderCard(); if (picked) cardBox.scrollIntoView({ block: 'nearest' }); }

  function renderCard() { clear(cardBox, picked ? playerCard(T, picked, { onClose: () => { picked = null; renderCard(); } }) : null); }

  function renderArbiter() {
    if (!isArbiter(T, ctx.name)) { clear(arbBox); arbKey = null; return; }
    // Rebuilt only when what it offers changes.
    const key = JSON.stringify([T.teams ? [T.teams.teams.length, T.teams.rounds, T.teams.absent || [], T.teams.forbidden_pairs || []] : null, T.status, T.round, T.round_state, T.players.map((p) => [p.name, p.present, p.guest, p.fixed_board]), T.forbidden_pairs || [], (T.rounds_list || []).map((r) => [r.state, r.boards.map((b) => [b.result, !!b.started, (b.incidents || []).length, !!(b.reports && b.reports.disputed)])])]);
    if (key === arbKey) return;
    arbKey = key;
    // What the arbiter has chosen or typed is kept across the rebuild (in document order, so
    // a round chosen refills its boards before the board is chosen again).
    const kept = [...arbBox.querySelectorAll('input[id], select[id], textarea[id]')].map((el) => [el.id, el.value]);
    const focused = document.activeElement && arbBox.contains(document.activeElement) ? document.activeElement.id : null;
    clear(arbBox, arbiterPanel(T, { onDone: set }));
    for (const [elId, v] of kept) {
      const el = arbBox.querySelector(`#${elId}`);
      if (!el || v === '' || el.value === v) continue;
      if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === v)) continue;
      el.value = v;
      el.dispatchEvent(new Event('change'));
    }
    if (focused && arbBox.querySelector(`#${focused}`)) arbBox.querySelector(`#${focused}`).focus();
  }

  function renderDownloads() {
    // A team event's files are the teams' (api.md): its standings.csv is the teams', and it
    // has a board prize table; it prints its matches, scoresheets and standings.
    const teams = Boolean(T && T.teams);
    const fileKeys = [['trf', 'tour.dl.trf'], ['pgn', 'tour.dl.pgn'], ['standings.csv', 'tour.dl.csv'],
      ...(teams ? [['board-prizes.csv', 'tour.dl.board_prizes']] : []), ['standings.html', 'tour.dl.html']];
    const files = fileKeys.map(([file, key]) =>
      h('a.btn.small', { href: api.tournamentFileUrl(id, file), target: file === 'standings.html' ? '_blank' : null, download: file === 'standings.html' ? null : `${id}-${file.replace('standings.', 'standings.')}`, dataset: { file } }, t(key)));
    // A round's printable documents (api.md), in the page's language; the browser prints them
    // or saves them as PDF.
    const paired = T && T.format !== 'arena' && (teams ? T.teams.rounds : T.rounds_list || []).length > 0;
    const printable = teams ? ['pairings', 'scoresheets', 'standings'] : ['pairings', 'pairings-by-name', 'scoresheets', 'slips', 'standings', 'wall-chart'];
    const docs = paired ? printable.map((doc) =>
      h('a.btn.small', { href: api.tournamentFileUrl(id, `print/${doc}?lang=${lang()}`), target: '_blank', dataset: { file: `print/${doc}` } }, t('tour.print.' + doc))) : [];
    clear(downloads, [...files, ...docs]);
  }

  // The countdown: to the scheduled start, or to an arena's end; on server time.
  let tick = null;
  function renderCountdown() {
    clearInterval(tick);
    tick = null;
    const c = clock;
    if (!T) return;
    // The clock message comes on each change of status, maybe before the view that has it.
    const status = T.status === 'upcoming' && c && c.status !== 'upcoming' ? c.status : T.status;
    const target = status === 'upcoming' ? (c && c.starts_at_ms) || T.settings.starts_at_ms : status === 'running' && T.format === 'arena' ? (c && c.ends_at_ms) || T.settings.ends_at_ms : null;
    countdown.hidden = !target;
    syncActions();
    if (!target) return;
    const offset = c ? c.server_ms - c.at : 0;
    const label = status === 'upcoming' ? 'tour.starts_in' : 'tour.ends_in';
    const draw = () => {
      const left = Math.max(0, target - (Date.now() + offset));
      clear(countdown, h('small', t(label)), h('strong.countdown-time', formatMs(left).replace(/\.\d$/, '')));
      if (left === 0) { clearInterval(tick); tick = null; }
    };
    draw();
    tick = setInterval(draw, 500);
  }

  // A first view over HTTP, so the page is filled even before the socket answers.
  try { set(await api.tournament(id)); } catch (err) {
    if (err.status === 404) { clear(page, h('p.notice', t('common.not_found'))); socket.close(); return null; }
    toast(errorText(err), 'error');
  }

  return () => {
    socket.close();
    clearInterval(tick);
    document.title = t('app.name');
  };
}

