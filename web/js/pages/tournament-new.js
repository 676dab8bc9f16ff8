// Creating a tournament (api.md "Create"): every setting the API takes, the ones that do not
// apply to the chosen format hidden; the server's refusals shown next to the field they name.
// A second form imports a TRF-2026 file, to continue or publish a tournament run elsewhere.

import * as api from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { ACCELERATIONS, FORMATS, PAIRING_SYSTEMS, errorText, fieldName } from '../tournament/format.js';

/** Tournament presets as organisers say them (minutes+seconds), sent in the arbiter's syntax. */
const TC_PRESETS = [['3+2', '180+2'], ['5+3', '300+3'], ['10+5', '600+5'], ['15+10', '900+10'], ['25+10', '1500+10'], ['90+30', '5400+30'], ['40/90, 30+30', '40/5400:1800+30']];
const LEVELS = Array.from({ length: 30 }, (_, i) => 30 - i);

function radios(name, options, value) {
  return h('div.segmented', { role: 'radiogroup' }, options.map(([v, label]) => h('label', {},
    h('input', { type: 'radio', name, value: v, checked: v === value }), h('span', label))));
}

/** A labelled field whose error line the server's `field` can fill. */
function field(name, label, input, hint) {
  return h('div.field', { dataset: { field: name } },
    h('label.label', { for: input.id || null }, label), input,
    hint ? h('small.hint', hint) : null,
    h('small.field-error', { role: 'alert', hidden: true }));
}

function levelSelect(id) {
  return h('select', { id }, h('option', { value: '' }, t('tf.level.any')),
    LEVELS.map((n) => h('option', { value: String(n) }, t('tf.level.n', { n }))));
}

export async function mount(page, _params, ctx) {
  page.classList.add('tournament-new-page');
  if (!ctx.signedIn) {
    page.append(h('p.notice', t('tour.create_needs_account'), ' ', h('a', { href: '/login', 'data-link': true }, t('nav.signin'))));
    return null;
  }
  const $ = (sel) => form.querySelector(sel);
  const value = (name, root = form) => (root.querySelector(`input[name="${name}"]:checked`) || {}).value;
  const tcInput = h('input#tf-time-control', { type: 'text', value: '300+3', autocomplete: 'off', spellcheck: 'false' });
  const presets = h('div.presets.tour-presets', TC_PRESETS.map(([label, v]) => h('button.preset', {
    type: 'button', dataset: { tc: v }, on: { click: () => { tcInput.value = v; syncPresets(); } },
  }, h('strong', label))));
  const syncPresets = () => presets.querySelectorAll('.preset').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.tc === tcInput.value.trim())));
  tcInput.addEventListener('input', syncPresets);

  const form = h('form.panel.tour-form#tournament-form', { novalidate: true, on: { submit: onSubmit } },
    h('h1', t('tour.create')),
    field('name', t('tf.name'), h('input#tf-name', { type: 'text', maxLength: 80, autocomplete: 'off' })),
    field('format', t('tf.format'), radios('format', FORMATS.map((f) => [f, t('tf.format.' + f)]), 'swiss'), h('span#tf-format-help', t('tf.format.swiss.help'))),
    h('fieldset.tf-group',
      h('legend', t('tf.group.game')),
      field('time_control', t('tf.time_control'), tcInput, t('tf.time_control.help')),
      presets,
      field('rules', t('tf.rules'), radios('rules', ['seed', 'fide'].map((r) => [r, t('rules.' + r)]), 'seed'), h('span#tf-rules-help', t('rules.seed.help'))),
      field('rated', t('tf.rated'), radios('rated', [['rated', t('common.rated')], ['casual', t('common.casual')]], 'rated'), t('tf.rated.help')),
      field('variant', t('tf.variant'), radios('variant', [['standard', t('variant.standard')], ['chess960', t('variant.chess960')]], 'standard'), t('tf.variant.help')),
      field('over_the_board', t('tf.over_the_board'), h('label.check', h('input#tf-otb', { type: 'checkbox' }), ' ', t('tf.over_the_board.check')), t('tf.over_the_board.help'))),
    h('fieldset.tf-group',
      h('legend', t('tf.group.schedule')),
      field('rounds', t('tf.rounds'), h('input#tf-rounds', { type: 'number', min: 1, max: 99, value: 5 })),
      field('duration_s', t('tf.duration_min'), h('input#tf-duration', { type: 'number', min: 1, max: 1440, value: 30 })),
      field('starts_at_ms', t('tf.start'), h('div.tf-start',
        radios('start', [['manual', t('tf.start.manual')], ['scheduled', t('tf.start.scheduled')]], 'manual'),
        h('input#tf-starts-at', { type: 'datetime-local', hidden: true })), t('tf.start.help')),
      field('forfeit_s', t('tf.forfeit_s'), h('input#tf-forfeit', { type: 'number', min: 10, max: 3600, placeholder: t('tf.by_speed') }), t('tf.forfeit_s.help'))),
    h('fieldset.tf-group.tf-swiss',
      h('legend', t('tf.group.rules')),
      field('pairing_system', t('tf.pairing_system'), radios('pairing_system', PAIRING_SYSTEMS.map((p) => [p, t('tf.pairing_system.' + p)]), 'dutch'), t('tf.pairing_system.help')),
      field('acceleration', t('tf.acceleration'), radios('acceleration', ACCELERATIONS.map((a) => [a, t('tf.acceleration.' + a)]), 'none'), t('tf.acceleration.help')),
      field('tiebreaks', t('tf.tiebreaks'), h('div.tf-tiebreaks',
        h('select#tf-tiebreaks',
          h('option', { value: '' }, t('tf.tiebreaks.default')),
          h('option', { value: 'swiss' }, t('tf.tiebreaks.swiss')),
          h('option', { value: 'round_robin' }, t('tf.tiebreaks.round_robin')),
          h('option', { value: 'custom' }, t('tf.tiebreaks.custom'))),
        h('input#tf-tiebreaks-custom', { type: 'text', placeholder: 'BH-C1, BH, SB, DE', hidden: true, autocomplete: 'off', spellcheck: 'false' })), t('tf.tiebreaks.help')),
      field('regulations', t('tf.regulations'), radios('regulations', [['2026', t('tf.regulations.2026')], ['2024', t('tf.regulations.2024')]], '2026')),
      field('max_byes', t('tf.max_byes'), h('input#tf-max-byes', { type: 'number', min: 0, max: 10, value: 1 }), t('tf.max_byes.help')),
      field('late_join_until', t('tf.late_join_until'), h('input#tf-late-join', { type: 'number', min: 1, max: 99, value: 1 }), t('tf.late_join_until.help'))),
    h('fieldset.tf-group.tf-knockout',
      h('legend', t('tf.group.knockout')),
      h('p.hint', t('tf.knockout.otb')),
      h('p.hint#tf-knockout-online', { hidden: true }, t('tf.knockout.online')),
      field('match', t('tf.match'), h('input#tf-match', { type: 'number', min: 1, max: 100, value: 2 }), t('tf.match.help')),
      field('tiebreak_stages', t('tf.stages'), h('div.tf-stages',
        h('div.tf-row',
          h('label.inline', t('tf.rapid'), ' ', h('input#tf-rapid-games', { type: 'number', min: 0, max: 100, value: 2, class: 'round-input' })),
          h('label.inline', t('tf.stage_tc'), ' ', h('input#tf-rapid-tc', { type: 'text', value: '600+10', autocomplete: 'off', spellcheck: 'false' }))),
        h('div.tf-row',
          h('label.inline', t('tf.blitz'), ' ', h('input#tf-blitz-games', { type: 'number', min: 0, max: 100, value: 2, class: 'round-input' })),
          h('label.inline', t('tf.stage_tc'), ' ', h('input#tf-blitz-tc', { type: 'text', value: '180+2', autocomplete: 'off', spellcheck: 'false' })))), t('tf.stages.help')),
      field('armageddon', t('tf.armageddon'), h('div.tf-armageddon',
        h('label.check', h('input#tf-armageddon', { type: 'checkbox', checked: true }), ' ', t('tf.armageddon.check')),
        h('div.tf-row',
          h('label.inline', t('tf.armageddon.white'), ' ', h('input#tf-arm-white', { type: 'text', value: '300+2', autocomplete: 'off', spellcheck: 'false' })),
          h('label.inline', t('tf.armageddon.black'), ' ', h('input#tf-arm-black', { type: 'text', value: '240+2', autocomplete: 'off', spellcheck: 'false' })))))),
    h('fieldset.tf-group.tf-team',
      h('legend', t('tf.group.team')),
      h('p.hint', t('tf.team.otb')),
      h('div.tf-row',
        field('boards', t('tf.boards'), h('input#tf-boards', { type: 'number', min: 1, max: 20, value: 4 })),
        field('reserves', t('tf.reserves'), h('input#tf-reserves', { type: 'number', min: 0, max: 10, value: 2 }))),
      field('primary', t('tf.primary'), radios('primary', ['match_points', 'game_points'].map((p) => [p, t('tf.primary.' + p)]), 'match_points')),
      field('lineup_deadline_s', t('tf.lineup_deadline'), h('input#tf-lineup-deadline', { type: 'number', min: 0, max: 1440, value: 10 }), t('tf.lineup_deadline.help'))),
    h('fieldset.tf-group.tf-arena',
      h('legend', t('tf.group.arena')),
      h('label.check', h('input#tf-berserk', { type: 'checkbox', checked: true }), ' ', t('tf.berserk')),
      h('label.check', h('input#tf-streaks', { type: 'checkbox', checked: true }), ' ', t('tf.streaks'))),
    h('fieldset.tf-group',
      h('legend', t('tf.group.entry')),
      h('p.hint', t('tour.cond.account')),
      h('div.tf-row',
        field('min_level', t('tf.min_level'), levelSelect('tf-min-level'), t('tf.min_level.help')),
        field('max_level', t('tf.max_level'), levelSelect('tf-max-level'), t('tf.max_level.help'))),
      field('password', t('tf.password'), h('input#tf-password', { type: 'text', autocomplete: 'off' }), t('tf.password.help'))),
    h('p.form-error#tf-error', { role: 'alert', hidden: true }),
    h('button.btn.primary#tf-submit', { type: 'submit' }, t('tour.create')));

  function sync() {
    const format = value('format');
    const arena = format === 'arena';
    const knockout = format === 'knockout';
    // A team event is played over the board and unrated (api.md, *Teams*).
    const team = format === 'team_swiss' || format === 'team_round_robin';
    $('[data-field=rounds]').hidden = format !== 'swiss' && format !== 'team_swiss';
    $('.tf-team').hidden = !team;
    $('[data-field=duration_s]').hidden = !arena;
    $('.tf-arena').hidden = !arena;
    // A knockout has matches, not standings to break ties in. Over the board it is unrated;
    // online a live game has one clock for both players, so no Armageddon (api.md, *Knockout*).
    const otb = $('#tf-otb').checked;
    $('.tf-swiss').hidden = arena || knockout || team;
    $('.tf-knockout').hidden = !knockout;
    $('[data-field=over_the_board]').hidden = arena;
    $('[data-field=rated]').hidden = (knockout || team) && otb;
    $('[data-field=lineup_deadline_s]').hidden = !team || otb;
    $('[data-field=armageddon]').hidden = knockout && !otb;
    $('#tf-knockout-online').hidden = !knockout || otb;
    $('[data-field=pairing_system]').hidden = format !== 'swiss';
    $('[data-field=acceleration]').hidden = format !== 'swiss';
    $('[data-field=max_byes]').hidden = format !== 'swiss';
    $('[data-field=late_join_until]').hidden = format !== 'swiss';
    $('#tf-format-help').textContent = t(`tf.format.${format}.help`);
    $('#tf-rules-help').textContent = t(`rules.${value('rules')}.help`);
    $('#tf-starts-at').hidden = value('start') !== 'scheduled';
    $('#tf-tiebreaks-custom').hidden = $('#tf-tiebreaks').value !== 'custom';
  }
  form.addEventListener('change', sync);

  const importForm = h('form.panel.tour-form#import-form', { on: { submit: onImport } },
    h('h2', t('tour.import')),
    h('p.hint', t('tour.import.help')),
    field('trf', t('tf.trf'), h('input#import-file', { type: 'file', accept: '.trf,.txt,text/plain', on: { change: onFile } })),
    field('format', t('tf.format'), radios('iformat', [['swiss', t('tf.format.swiss')], ['round_robin', t('tf.format.round_robin')], ['double_round_robin', t('tf.format.double_round_robin')]], 'swiss')),
    field('name', t('tf.name'), h('input#import-name', { type: 'text', maxLength: 80, autocomplete: 'off' })),
    h('div.tf-row',
      field('time_control', t('tf.time_control'), h('input#import-tc', { type: 'text', value: '5400+30', autocomplete: 'off', spellcheck: 'false' })),
      field('rounds', t('tf.rounds'), h('input#import-rounds', { type: 'number', min: 1, max: 99 }))),
    h('label.check', h('input#import-finished', { type: 'checkbox' }), ' ', t('tour.import.finished')),
    h('p.form-error#import-error', { role: 'alert', hidden: true }),
    h('button.btn#import-submit', { type: 'submit' }, t('tour.import.submit')));

  page.append(form, importForm);
  sync();
  syncPresets();
  $('#tf-name').focus();

  function spec() {
    const format = value('format');
    const num = (sel) => { const v = $(sel).value.trim(); return v === '' ? null : Number(v); };
    const s = {
      name: $('#tf-name').value.trim(),
      format,
      time_control: tcInput.value.trim(),
      rules: value('rules'),
      rated: value('rated') === 'rated',
      starts_at_ms: value('start') === 'scheduled' && $('#tf-starts-at').value ? new Date($('#tf-starts-at').value).getTime() : null,
      min_level: num('#tf-min-level'),
      max_level: num('#tf-max-level'),
      password: $('#tf-password').value || null,
    };
    if (value('variant') === 'chess960') s.variant = 'chess960';
    const forfeit = num('#tf-forfeit');
    if (forfeit !== null) s.forfeit_s = forfeit;
    if (format === 'arena') {
      s.duration_s = Math.round((num('#tf-duration') || 0) * 60);
      s.berserk = $('#tf-berserk').checked;
      s.streaks = $('#tf-streaks').checked;
    } else if (format === 'knockout') {
      const otb = $('#tf-otb').checked;
      if (otb) { s.over_the_board = true; s.rated = false; }
      s.match = num('#tf-match');
      s.tiebreak_stages = [['rapid', '#tf-rapid-games', '#tf-rapid-tc'], ['blitz', '#tf-blitz-games', '#tf-blitz-tc']]
        .filter(([, games]) => num(games))
        .map(([name, games, tc]) => ({ name, games: num(games), time_control: $(tc).value.trim() }));
      if (otb && $('#tf-armageddon').checked) s.armageddon = { white: $('#tf-arm-white').value.trim(), black: $('#tf-arm-black').value.trim() };
    } else if (format === 'team_swiss' || format === 'team_round_robin') {
      // Over the board unrated; online each board is a game of the site, its line-ups due
      // `lineup_deadline_s` after the pairing.
      if ($('#tf-otb').checked) { s.over_the_board = true; s.rated = false; } else s.lineup_deadline_s = Math.round((num('#tf-lineup-deadline') || 0) * 60);
      s.boards = num('#tf-boards');
      s.reserves = num('#tf-reserves');
      s.primary = value('primary');
      if (format === 'team_swiss') s.rounds = num('#tf-rounds');
    } else {
      if ($('#tf-otb').checked) s.over_the_board = true;
      const tb = $('#tf-tiebreaks').value;
      if (tb === 'custom') s.tiebreaks = $('#tf-tiebreaks-custom').value.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase());
      else if (tb) s.tiebreaks = tb;
      s.regulations = value('regulations');
    }
    if (format === 'swiss') {
      s.rounds = num('#tf-rounds');
      s.pairing_system = value('pairing_system');
      s.acceleration = value('acceleration');
      s.max_byes = num('#tf-max-byes');
      s.late_join_until = num('#tf-late-join');
    }
    return s;
  }

  function showErrors(target, err, generalSel) {
    target.querySelectorAll('.field-error').forEach((e) => { e.hidden = true; });
    target.querySelectorAll('.field.invalid').forEach((e) => e.classList.remove('invalid'));
    const general = target.querySelector(generalSel);
    general.hidden = true;
    if (!err) return;
    const box = err.field && target.querySelector(`[data-field="${err.field}"]:not([hidden]) .field-error`);
    // A field's refusal in the dictionary's words for that field, else the code's.
    const fieldKey = 'tf.err.' + err.field;
    const text = err.code === 'bad_field' && err.field ? (t(fieldKey) !== fieldKey ? t(fieldKey) : t('err.bad_field')) : errorText(err);
    if (box) {
      box.hidden = false;
      box.textContent = text;
      box.closest('.field').classList.add('invalid');
      // The TRF reader's words name the line and column: worth showing as they are.
      if (err.field === 'trf' && err.message) box.append(h('br'), h('code', err.message));
    } else {
      general.hidden = false;
      general.textContent = err.field ? `${fieldName(err.field)}: ${text}` : text;
    }
  }

  async function onSubmit(e) {
    e.preventDefault();
    showErrors(form, null, '#tf-error');
    try {
      const tour = await api.createTournament(spec());
      ctx.navigate(`/tournaments/${tour.id}`);
    } catch (err) {
      showErrors(form, err, '#tf-error');
    }
  }

  /** The name (`012`) and planned rounds (`142`, JaVaFo's `XXR`) read from the file, to edit. */
  async function onFile() {
    const file = importForm.querySelector('#import-file').files[0];
    if (!file) return;
    const text = await file.text();
    const line = (tag) => (text.split(/\r\n|\r|\n/).find((l) => l.startsWith(tag + ' ')) || '').slice(4).trim();
    if (line('012')) importForm.querySelector('#import-name').value = line('012').slice(0, 80);
    const rounds = Number(line('142') || line('XXR'));
    if (rounds) importForm.querySelector('#import-rounds').value = rounds;
  }

  async function onImport(e) {
    e.preventDefault();
    showErrors(importForm, null, '#import-error');
    const file = importForm.querySelector('#import-file').files[0];
    if (!file) { showErrors(importForm, { code: 'bad_field', field: 'trf' }, '#import-error'); return; }
    const format = value('iformat', importForm);
    const body = { trf: await file.text(), format, name: importForm.querySelector('#import-name').value.trim(), time_control: importForm.querySelector('#import-tc').value.trim() };
    const rounds = importForm.querySelector('#import-rounds').value;
    if (format === 'swiss' && rounds) body.rounds = Number(rounds);
    if (importForm.querySelector('#import-finished').checked) body.status = 'finished';
    try {
      const tour = await api.importTournament(body);
      ctx.navigate(`/tournaments/${tour.id}`);
    } catch (err) {
      showErrors(importForm, err, '#import-error');
    }
  }
  return null;
}
