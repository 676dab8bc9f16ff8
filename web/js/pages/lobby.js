// The lobby: open seeks (live over the lobby socket), creating a seek or a challenge, playing
// the computer, and the live games to watch.

import * as api from '../api.js';
import { Socket } from '../socket.js';
import { h, clear, toast } from '../dom.js';
import { tournamentRows } from '../tournament/format.js';
import { t, tCount, apiText, levelText } from '../i18n.js';
import { tcLabel, playerName, rulesBadge, variantBadge, variantText } from '../format.js';

/** Presets in minutes+seconds as players say them, sent in the arbiter's seconds syntax. */
const PRESETS = [['1+0', '60+0'], ['3+2', '180+2'], ['5+3', '300+3'], ['10+0', '600+0'], ['15+10', '900+10'], ['30+0', '1800+0']];

function radioGroup(name, options, value) {
  return h('div.segmented', { role: 'radiogroup' }, options.map(([v, label]) => h('label', {},
    h('input', { type: 'radio', name, value: v, checked: v === value }), h('span', label))));
}

const valueOf = (form, name) => (form.querySelector(`input[name="${name}"]:checked`) || {}).value;

/**
 * The variant choice of a form (issue 55): standard chess, Chess960 from a start drawn when
 * the game is made, or Chess960 from the start position numbered in the box (0–959). `fields()`
 * is what the request carries: nothing for standard (as before), else `variant` and maybe
 * `position`, sent as typed so that the server names a wrong one.
 */
function variantChoice(name) {
  const input = h(`input.position-input#${name}-position`, {
    type: 'number', min: 0, max: 959, step: 1, inputmode: 'numeric', disabled: true,
    placeholder: '0–959', 'aria-label': t('variant.position'),
  });
  const el = h('div.field.variant-field', h('span.label', t('lobby.variant')),
    radioGroup(name, [['standard', t('variant.standard')], ['random', t('variant.chess960_random')], ['position', t('variant.chess960_position')]], 'standard'),
    h('label.position-label', h('span', t('variant.position')), input),
    h('small.hint', t('variant.chess960.help')));
  el.addEventListener('change', (e) => {
    if (e.target.name !== name) return;
    input.disabled = e.target.value !== 'position';
    if (!input.disabled) input.focus();
  });
  return {
    el,
    fields() {
      const v = valueOf(el, name);
      if (v === 'random') return { variant: 'chess960' };
      if (v !== 'position') return {};
      const text = input.value.trim();
      return { variant: 'chess960', position: /^\d+$/.test(text) ? Number(text) : text };
    },
  };
}

export async function mount(page, _params, ctx) {
  page.classList.add('lobby-page');
  let seeks = new Map();
  const seekBody = h('tbody#seek-list');
  const liveList = h('ul.live-games#live-games');
  const liveCount = h('span.live-count#live-count');
  const tourList = h('ul.tour-list#lobby-tournaments');

  // Create a game.
  let tc = '300+3';
  const customInput = h('input#tc-custom', { type: 'text', placeholder: t('lobby.custom.help'), autocomplete: 'off', spellcheck: 'false' });
  const presetButtons = PRESETS.map(([label, value]) => h('button.preset', {
    type: 'button', dataset: { tc: value }, 'aria-pressed': String(value === tc),
    on: { click: () => { tc = value; customInput.value = ''; syncPresets(); } },
  }, h('strong', label), h('small', speedOf(value))));
  function syncPresets() { presetButtons.forEach((b) => { b.setAttribute('aria-pressed', String(!customInput.value && b.dataset.tc === tc)); }); }
  customInput.addEventListener('input', syncPresets);

  const ratedOk = ctx.signedIn;
  const variant = variantChoice('variant');
  const form = h('form.create-form#create-form', { on: { submit: onCreate } },
    h('h2', t('lobby.create')),
    h('div.field', h('span.label', t('lobby.time_control')), h('div.presets', presetButtons)),
    h('label.field', h('span.label', t('lobby.custom')), customInput),
    h('div.field', h('span.label', t('lobby.mode')),
      radioGroup('rated', [['casual', t('common.casual')], ['rated', t('common.rated')]], ratedOk ? 'rated' : 'casual'),
      ratedOk ? null : h('small.hint', t('lobby.rated_needs_account'))),
    h('div.field', h('span.label', t('lobby.rules')),
      radioGroup('rules', ['seed', 'fide', 'casual'].map((r) => [r, t('rules.' + r)]), 'seed'),
      h('small.hint#rules-help', t('rules.seed.help'))),
    variant.el,
    h('div.field', h('span.label', t('lobby.color')),
      radioGroup('color', [['white', t('common.white')], ['random', t('common.random')], ['black', t('common.black')]], 'random')),
    h('label.field', h('span.label', t('lobby.challenge_to')), h('input#challenge-to', { type: 'text', autocomplete: 'off', spellcheck: 'false' })),
    h('button.btn.primary#create-seek', { type: 'submit' }, t('lobby.submit')));
  // Rated games need an account and the seed or fide rules (no takebacks, RULES.md §8.1).
  const syncRated = () => {
    const ratedInput = form.querySelector('input[name=rated][value=rated]');
    const allowed = ratedOk && valueOf(form, 'rules') !== 'casual';
    ratedInput.disabled = !allowed;
    if (!allowed && ratedInput.checked) form.querySelector('input[name=rated][value=casual]').checked = true;
  };
  syncRated();
  form.addEventListener('change', (e) => {
    if (e.target.name === 'rules') {
      form.querySelector('#rules-help').textContent = t(`rules.${e.target.value}.help`);
      syncRated();
    }
  });

  async function onCreate(e) {
    e.preventDefault();
    const spec = {
      time_control: customInput.value.trim() || tc,
      rated: valueOf(form, 'rated') === 'rated',
      rules: valueOf(form, 'rules'),
      color: valueOf(form, 'color'),
      ...variant.fields(),
    };
    const to = form.querySelector('#challenge-to').value.trim();
    try {
      if (to) await api.createChallenge({ to, ...spec });
      else await api.createSeek(spec);
      toast(t('lobby.seek_created'), 'ok');
      refreshSeeks();
    } catch (err) {
      toast(t('common.error', { msg: apiText(err) }), 'error');
    }
  }

  // Play the computer.
  let level = 3;
  const levelButtons = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('button.level', {
    type: 'button', dataset: { level: n }, 'aria-pressed': String(n === level),
    on: { click: () => { level = n; levelButtons.forEach((b) => b.setAttribute('aria-pressed', String(Number(b.dataset.level) === n))); } },
  }, String(n)));
  const engineTc = h('select#engine-tc', PRESETS.map(([label, value]) => h('option', { value, selected: value === '600+0' }, label)), h('option', { value: '-' }, t('common.untimed')));
  const engineVariant = variantChoice('evariant');
  const engineForm = h('form.engine-form#engine-form', { on: { submit: onEngine } },
    h('h2', t('lobby.computer')),
    h('div.field', h('span.label#strength-label', t('lobby.strength')), h('div.levels', { role: 'group', 'aria-labelledby': 'strength-label' }, levelButtons), h('small.hint', t('lobby.strength.help'))),
    h('label.field', h('span.label', t('lobby.time_control')), engineTc),
    h('div.field', h('span.label', t('lobby.rules')), radioGroup('erules', ['casual', 'seed', 'fide'].map((r) => [r, t('rules.' + r)]), 'casual')),
    engineVariant.el,
    h('div.field', h('span.label', t('lobby.color')),
      radioGroup('ecolor', [['white', t('common.white')], ['random', t('common.random')], ['black', t('common.black')]], 'random')),
    h('button.btn.primary#play-computer', { type: 'submit' }, t('lobby.play_computer')));

  async function onEngine(e) {
    e.preventDefault();
    try {
      const r = await api.engineGame({ level, color: valueOf(engineForm, 'ecolor'), time_control: engineTc.value, rules: valueOf(engineForm, 'erules'), ...engineVariant.fields() });
      ctx.navigate(`/game/${r.game}`);
    } catch (err) {
      toast(t('common.error', { msg: apiText(err) }), 'error');
    }
  }

  // Quick pairing (issue 38): one click on a time control joins the waiting seek of the
  // nearest points with the form's mode, rules and variant (a chosen Chess960 start only
  // with seeks of that start), or creates one.
  const QUICK = [['1+0', '60+0'], ['3+0', '180+0'], ['3+2', '180+2'], ['5+3', '300+3'], ['10+0', '600+0'], ['15+10', '900+10'], ['30+0', '1800+0']];
  const quickRules = h('span.quick-rules');
  const syncQuick = () => {
    const v = variant.fields();
    clear(quickRules, rulesBadge(valueOf(form, 'rules')), ' ', valueOf(form, 'rated') === 'rated' ? t('common.rated') : t('common.casual'),
      v.variant ? [' ', variantBadge({ variant: v.variant, position: typeof v.position === 'number' ? v.position : null })] : null);
  };
  form.addEventListener('input', syncQuick);
  form.addEventListener('change', syncQuick);
  syncQuick();
  const quickPanel = h('section.panel.quick-panel#quick',
    h('h2', t('lobby.quick'), ' ', quickRules),
    h('div.quick-buttons', QUICK.map(([label, tcv]) => h('button.btn.quick', { type: 'button', dataset: { tc: tcv }, on: { click: () => quick(label, tcv) } }, h('strong', label), h('small', speedOf(tcv))))),
    h('small.hint', t('lobby.quick.help')));

  async function quick(label, tcv) {
    const spec = { time_control: tcv, rated: valueOf(form, 'rated') === 'rated', rules: valueOf(form, 'rules'), color: 'random', ...variant.fields() };
    const mine = ctx.signedIn ? ownerInfo(ctx.name) : null;
    const points = (u) => Number(u && u.points) || 0;
    const sameVariant = (x) => (x.variant || 'standard') === (spec.variant || 'standard')
      && (spec.position === undefined || x.position === spec.position);
    const waiting = [...seeks.values()].filter((x) => x.owner && x.owner.name !== ctx.name && !x.to
      && tcLabel(x.time_control) === label && x.rules === spec.rules && x.rated === spec.rated && sameVariant(x));
    waiting.sort((a, b) => Math.abs(points(ownerInfo(a.owner.name)) - points(mine)) - Math.abs(points(ownerInfo(b.owner.name)) - points(mine)));
    if (waiting.length) { accept(waiting[0].id); return; }
    try {
      await api.createSeek(spec);
      toast(t('lobby.quick.waiting', { tc: label }), 'ok');
      refreshSeeks();
    } catch (err) { toast(t('common.error', { msg: apiText(err) }), 'error'); }
  }

  page.append(
    quickPanel,
    h('section.panel.seeks-panel',
      h('h2', t('lobby.seeks')),
      h('table.seeks', h('thead', h('tr', h('th', t('lobby.player')), h('th', t('lobby.time_control')), h('th', t('lobby.mode')), h('th', t('lobby.rules')), h('th', t('lobby.your_color')), h('th'))), seekBody),
      h('p.hint.color-legend#color-legend', t('lobby.color_legend'))),
    h('section.panel.create-panel', form),
    h('section.panel.engine-panel', engineForm),
    h('section.panel.live-panel', h('h2', t('lobby.live'), ' ', liveCount), liveList),
    h('section.panel.tours-panel', h('h2', h('a', { href: '/tournaments', 'data-link': true }, t('nav.tournaments'))), tourList),
  );

  // The seek owners' standing (level, points, rating), fetched once per name (issue 38: a
  // lichess player reads a seek by who made it).
  const owners = new Map();
  function ownerInfo(name) {
    if (!owners.has(name)) {
      owners.set(name, null);
      api.user(name).then((r) => { owners.set(name, r.user); renderSeeks(); }).catch(() => {});
    }
    return owners.get(name);
  }

  let confirming = null; // the seek whose accept step is open
  function renderSeeks() {
    const rows = [...seeks.values()].sort((a, b) => (a.created_at_ms || 0) - (b.created_at_ms || 0));
    if (!rows.length) { clear(seekBody, h('tr.empty', h('td', { colspan: 6 }, t('lobby.no_seeks')))); return; }
    clear(seekBody, rows.map((s) => {
      const mine = s.owner && s.owner.name === ctx.name;
      // Touch-move rule sets are not what a lichess player expects: one more step, with the
      // rules in words, before the game starts.
      const action = mine
        ? h('button.btn.small.cancel-seek', { type: 'button', on: { click: () => cancel(s.id) } }, t('common.cancel'))
        : h('button.btn.small.primary.accept-seek', { type: 'button', on: { click: () => (s.rules === 'casual' ? accept(s.id) : openAcceptStep(s.id)) } }, t('lobby.accept'));
      const user = s.owner && s.owner.kind === 'user' ? ownerInfo(s.owner.name) : null;
      const row = h('tr.seek', { dataset: { id: s.id, owner: s.owner ? s.owner.name : '' }, class: mine ? 'mine' : null },
        h('td', s.owner && s.owner.kind === 'user' ? h('a', { href: `/@/${s.owner.name}`, 'data-link': true }, s.owner.name) : (s.owner ? s.owner.name : '?'),
          mine ? h('span.tag', t('lobby.yours')) : null, s.to ? h('span.tag.challenge', `${t('lobby.challenge')} → ${s.to}`) : null,
          user ? h('small.owner-standing', t('lobby.standing', { level: levelText(user.level), points: user.points, r: Math.round(user.rating ? user.rating.rating : 1500) })) : null),
        h('td', tcLabel(s.time_control), ' ', h('small', t('speed.' + s.speed)), s.variant === 'chess960' ? [' ', variantBadge(s)] : null),
        h('td', s.rated ? t('common.rated') : t('common.casual')),
        h('td', rulesBadge(s.rules, { explain: true })),
        h('td', colorCell(s.color, mine)),
        h('td', action));
      if (confirming !== s.id) return row;
      return [row, h('tr.accept-step#accept-step', h('td', { colspan: 6 },
        h('div.accept-box', rulesBadge(s.rules), h('span', t(`rules.${s.rules}.intro`)),
          h('span.accept-actions',
            h('button.btn.small.primary#confirm-accept', { type: 'button', on: { click: () => accept(s.id) } }, t('lobby.accept_rules')),
            h('button.btn.small#cancel-accept', { type: 'button', on: { click: () => { confirming = null; renderSeeks(); } } }, t('common.cancel'))))))];
    }));
  }

  function openAcceptStep(id) {
    confirming = id;
    renderSeeks();
    document.getElementById('confirm-accept')?.focus();
  }

  async function accept(id) {
    confirming = null;
    try {
      const r = await api.acceptSeek(id);
      ctx.navigate(`/game/${r.game}`);
    } catch (err) {
      toast(err.code === 'gone' ? t('lobby.gone') : t('common.error', { msg: apiText(err) }), 'error');
      seeks.delete(id);
      renderSeeks();
    }
  }

  async function cancel(id) {
    try { await api.cancelSeek(id); seeks.delete(id); renderSeeks(); } catch (err) { toast(t('common.error', { msg: apiText(err) }), 'error'); }
  }

  async function refreshSeeks() {
    try { const r = await api.seeks(); seeks = new Map(r.seeks.map((s) => [s.id, s])); renderSeeks(); } catch { /* the socket will tell */ }
  }

  async function refreshTournaments() {
    try {
      const r = await api.tournaments();
      clear(tourList, tournamentRows([...(r.running || []), ...(r.upcoming || [])].slice(0, 8), { empty: 'tour.none_soon' }));
    } catch { clear(tourList); }
  }

  // The count and the list come from one read, so the two never disagree: the socket's `live`
  // count only says it is time to read them again (on a cluster it can be a few seconds older
  // than the list, protocol.md). Of reads that overlap, the last begun is the one shown.
  let liveReads = 0;
  async function refreshLive() {
    const read = ++liveReads;
    try {
      const r = await api.liveGames();
      if (read !== liveReads) return;
      liveCount.textContent = tCount('lobby.live_count', r.count);
      if (!r.games.length) { clear(liveList, h('li.empty', t('lobby.no_live'))); return; }
      clear(liveList, r.games.map((g) => h('li', h('a.live-game', { href: `/game/${g.id}`, 'data-link': true, dataset: { id: g.id } },
        h('span.players', playerName(g.white, false), ' – ', playerName(g.black, false)),
        h('span.meta', tcLabel(g.time_control), ' · ', t('rules.' + g.rules), ' · ', g.rated ? t('common.rated') : t('common.casual'),
          g.variant === 'chess960' ? [' · ', h('span.variant-text', variantText(g))] : null),
        h('span.watch', t('lobby.watch'))))));
    } catch (err) {
      if (read === liveReads) clear(liveList, h('li.empty', t('common.error', { msg: apiText(err) })));
    }
  }

  const socket = new Socket(api.socketUrl('/lobby/socket'), {
    onStatus: (s) => ctx.setNetStatus(s),
    onMessage: (msg) => {
      switch (msg.t) {
        case 'seeks': seeks = new Map(msg.seeks.map((s) => [s.id, s])); renderSeeks(); break;
        case 'seek_added': seeks.set(msg.seek.id, msg.seek); renderSeeks(); break;
        case 'seek_removed': seeks.delete(msg.id); renderSeeks(); break;
        case 'game_started': ctx.navigate(`/game/${msg.game}`); break;
        case 'tournament_game':
          // A round of one's tournament was published (or an arena paired): to the board
          // (the site's notices socket may have said it first).
          ctx.announceGame(msg);
          break;
        case 'live': refreshLive(); break;
        default: break;
      }
    },
  });
  renderSeeks();
  refreshSeeks();
  refreshLive();
  refreshTournaments();
  const liveTimer = setInterval(() => { refreshLive(); refreshTournaments(); }, 15000);
  return () => { socket.close(); clearInterval(liveTimer); };
}

function speedOf(tc) {
  const [base, inc] = tc.split('+').map(Number);
  const est = base + 40 * inc;
  return t('speed.' + (est < 180 ? 'bullet' : est < 480 ? 'blitz' : est < 1500 ? 'rapid' : 'classical'));
}

/** The colour the visitor gets by joining (the owner's choice reversed), symbol and word. */
function colorCell(ownerColor, mine) {
  const yours = mine || ownerColor === 'random' ? ownerColor : ownerColor === 'white' ? 'black' : 'white';
  const sym = { white: '○', black: '●', random: '◐' }[yours] || yours;
  const word = yours === 'random' ? t('common.random') : t(yours === 'white' ? 'common.white' : 'common.black');
  return h('span.color-cell', h('span.color-icon', { 'aria-hidden': 'true' }, sym), ' ', h('small', word));
}
