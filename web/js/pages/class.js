// Class accounts (docs/api.md "Class accounts"; issue 51): an organiser pastes or reads a
// list of names and levels, the server creates the accounts all or none, and the page prints
// one slip per player with the first-log-in code. Below, the class with who has logged in,
// and a new code for a player who lost the slip.

import * as api from '../api.js';
import { h, clear, toast } from '../dom.js';
import { t, apiText, levelText } from '../i18n.js';

export async function mount(page, _params, ctx) {
  page.classList.add('class-page');
  if (!ctx.signedIn) {
    page.append(h('section.panel', h('h1', t('class.title')),
      h('p.notice', t('class.needs_account'), ' ', h('a', { href: '/login', 'data-link': true }, t('nav.signin')))));
    return null;
  }
  const list = h('textarea#class-list', { rows: 12, spellcheck: 'false', placeholder: 'lily,25\nmax,30\nyu-hang,unranked', 'aria-describedby': 'class-list-help' });
  const file = h('input#class-file', { type: 'file', accept: '.csv,.txt,text/csv,text/plain' });
  const error = h('p.form-error#class-error', { role: 'alert', hidden: true });
  const submit = h('button.btn.primary#class-create', { type: 'submit' }, t('class.create'));
  const slips = h('section#class-slips.class-slips', { hidden: true });
  const members = h('section.panel#class-members');
  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (f) list.value = await f.text();
  });
  const form = h('form.panel.class-form', { on: { submit: onSubmit } },
    h('h1', t('class.title')),
    h('p#class-list-help', t('class.intro')),
    h('label.field', h('span.label', t('class.list')), list),
    h('label.field', h('span.label', t('class.file')), file),
    error,
    submit);
  page.append(form, slips, members);
  await showMembers();
  return null;

  async function onSubmit(e) {
    e.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    try {
      const made = await api.createClassAccounts(list.value);
      list.value = '';
      showSlips(made);
      await showMembers();
    } catch (err) {
      error.hidden = false;
      if (err.field === 'csv') error.textContent = t('class.bad_list', { detail: err.message.replace(/^field csv: /, '') });
      else if (err.code === 'rate_limited') error.textContent = t('class.too_many', { detail: err.message });
      else error.textContent = apiText(err);
    } finally {
      submit.disabled = false;
    }
  }

  function showSlips(made) {
    const until = new Date(made.expires_at_ms).toLocaleDateString();
    const url = `${location.origin}/first-login`;
    clear(slips,
      h('div.panel.no-print',
        h('p#class-created', { role: 'status' }, t('class.created', { n: made.accounts.length, date: until })),
        h('button.btn.primary#class-print', { type: 'button', on: { click: () => window.print() } }, t('class.print'))),
      h('ol.slip-sheet', made.accounts.map((a) => h('li.slip', { dataset: { name: a.name } },
        h('p.slip-site', t('class.slip.site', { url })),
        h('dl',
          h('dt', t('class.slip.name')), h('dd.slip-name', a.name),
          h('dt', t('class.slip.code')), h('dd.slip-code', a.code),
          h('dt', t('class.slip.level')), h('dd', levelText(a.level))),
        h('p.slip-valid', t('class.slip.valid', { date: until }))))));
    slips.hidden = false;
  }

  async function showMembers() {
    let accounts = [];
    try {
      accounts = (await api.classAccounts()).accounts;
    } catch (err) {
      clear(members, h('p.notice.error', apiText(err)));
      return;
    }
    clear(members, h('h2', t('class.members')),
      accounts.length === 0 ? h('p.hint', t('class.empty')) : h('div.table-scroll', h('table.class-table',
        h('thead', h('tr', h('th', t('class.col.name')), h('th', t('class.col.level')), h('th', t('class.col.status')), h('th'))),
        h('tbody', accounts.map((a) => h('tr', { dataset: { name: a.name } },
          h('td', h('a', { href: `/@/${a.name}`, 'data-link': true }, a.name)),
          h('td', levelText(a.level)),
          h('td.class-status', t(a.claimed ? 'class.claimed' : 'class.waiting')),
          h('td', h('button.btn.small', { type: 'button', on: { click: () => renew(a) } }, t('class.renew')))))))));
  }

  async function renew(account) {
    try {
      const r = await api.renewClassCode(account.name);
      showSlips({ accounts: [{ name: r.name, code: r.code, level: account.level }], expires_at_ms: r.expires_at_ms });
      toast(t('class.renewed', { name: r.name }), 'ok');
      await showMembers();
    } catch (err) {
      toast(apiText(err), 'error');
    }
  }
}
