// Sign in, sign up, and a class account's first log-in with its printed code (docs/api.md
// "Accounts", "Class accounts").

import * as api from '../api.js';
import { h } from '../dom.js';
import { t, apiText } from '../i18n.js';

export async function mount(page, [mode], ctx) {
  page.classList.add('account-page');
  const signup = mode === 'signup';
  const first = mode === 'first-login';
  const error = h('p.form-error#account-error', { role: 'alert', hidden: true });
  const username = h('input#username', { type: 'text', name: 'username', autocomplete: 'username', required: true, minLength: 3, maxLength: 20, autocapitalize: 'off', spellcheck: 'false' });
  const code = first ? h('input#code', { type: 'text', name: 'code', autocomplete: 'one-time-code', required: true, autocapitalize: 'off', spellcheck: 'false', maxLength: 40 }) : null;
  const newPassword = signup || first;
  const password = h('input#password', { type: 'password', name: 'password', autocomplete: newPassword ? 'new-password' : 'current-password', required: true, minLength: newPassword ? 8 : 1, maxLength: 256 });
  const title = t(first ? 'account.first_login' : signup ? 'account.signup' : 'account.signin');
  const form = h('form.panel.account-form', { on: { submit: onSubmit } },
    h('h1', title),
    first ? h('p.hint', t('account.first_login.intro')) : null,
    h('label.field', h('span.label', t('account.username')), username, signup ? h('small.hint', t('account.username.help')) : null),
    first ? h('label.field', h('span.label', t('account.code')), code, h('small.hint', t('account.code.help'))) : null,
    h('label.field', h('span.label', t(first ? 'account.new_password' : 'account.password')), password, newPassword ? h('small.hint', t('account.password.help')) : null),
    error,
    h('button.btn.primary#account-submit', { type: 'submit' }, title),
    h('p', h('a', { href: signup || first ? '/login' : '/signup', 'data-link': true, id: 'account-switch' }, t(signup || first ? 'account.have_account' : 'account.no_account'))),
    signup || first ? null : h('p', h('a', { href: '/first-login', 'data-link': true, id: 'first-login-link' }, t('account.have_code'))));
  page.append(form);
  username.focus();

  async function onSubmit(e) {
    e.preventDefault();
    error.hidden = true;
    const name = username.value.trim();
    try {
      if (first) await api.firstLogin(name, code.value.trim(), password.value);
      else await (signup ? api.signup : api.login)(name, password.value);
      await ctx.refreshAccount();
      ctx.navigate('/');
    } catch (err) {
      error.hidden = false;
      if (err.code === 'bad_credentials') error.textContent = t(first ? 'account.bad_code' : 'account.bad_credentials');
      else error.textContent = apiText(err, { name });
    }
  }
  return null;
}
