// Sign in and sign up (docs/api.md "Accounts").

import * as api from '../api.js';
import { h } from '../dom.js';
import { t, apiText } from '../i18n.js';

export async function mount(page, [mode], ctx) {
  page.classList.add('account-page');
  const signup = mode === 'signup';
  const error = h('p.form-error#account-error', { role: 'alert', hidden: true });
  const username = h('input#username', { type: 'text', name: 'username', autocomplete: 'username', required: true, minLength: 3, maxLength: 20, autocapitalize: 'off', spellcheck: 'false' });
  const password = h('input#password', { type: 'password', name: 'password', autocomplete: signup ? 'new-password' : 'current-password', required: true, minLength: signup ? 8 : 1, maxLength: 256 });
  const form = h('form.panel.account-form', { on: { submit: onSubmit } },
    h('h1', t(signup ? 'account.signup' : 'account.signin')),
    h('label.field', h('span.label', t('account.username')), username, signup ? h('small.hint', t('account.username.help')) : null),
    h('label.field', h('span.label', t('account.password')), password, signup ? h('small.hint', t('account.password.help')) : null),
    error,
    h('button.btn.primary#account-submit', { type: 'submit' }, t(signup ? 'account.signup' : 'account.signin')),
    h('p', h('a', { href: signup ? '/login' : '/signup', 'data-link': true, id: 'account-switch' }, t(signup ? 'account.have_account' : 'account.no_account'))));
  page.append(form);
  username.focus();

  async function onSubmit(e) {
    e.preventDefault();
    error.hidden = true;
    try {
      await (signup ? api.signup : api.login)(username.value.trim(), password.value);
      await ctx.refreshAccount();
      ctx.navigate('/');
    } catch (err) {
      error.hidden = false;
      error.textContent = err.code === 'bad_credentials' ? t('account.bad_credentials') : apiText(err, { name: username.value.trim() });
    }
  }
  return null;
}
