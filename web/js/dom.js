// Small DOM helpers shared by the pages: an element builder, toasts, two-step confirm buttons.

/** `h('div.card#id', {attrs, on: {click}}, children…)`. */
export function h(tag, attrs, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || 'div');
  for (const part of rest) {
    if (part[0] === '.') el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function toast(text, kind = 'info', ms = 4000) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div.toast', { class: kind, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.appendChild(el);
  setTimeout(() => { el.classList.add('gone'); setTimeout(() => el.remove(), 400); }, ms);
}

/** A button that asks "Confirm?" on the first press and acts on the second (within 3 s). */
export function confirmButton(label, confirmLabel, onConfirm, attrs = {}) {
  let armed = null;
  const btn = h('button', { type: 'button', ...attrs }, label);
  btn.addEventListener('click', () => {
    if (armed) {
      clearTimeout(armed);
      armed = null;
      btn.classList.remove('armed');
      btn.textContent = label;
      onConfirm();
      return;
    }
    btn.classList.add('armed');
    btn.textContent = confirmLabel;
    armed = setTimeout(() => { armed = null; btn.classList.remove('armed'); btn.textContent = label; }, 3000);
  });
  return btn;
}

let blink = null;

/**
 * Makes the tab's title blink with `text` (a player's new game) for about ten seconds or until
 * the player touches the page. The star shows at once and stays in its turns whatever the
 * page does meanwhile: a title the page sets (a new page opening, a game's own title) becomes
 * the one the star alternates with.
 */
export function blinkTitle(text) {
  if (blink) blink.stop();
  const mark = `★ ${text}`;
  let base = document.title;
  let shown = true;
  let n = 0;
  const titleElement = document.querySelector('title');
  const observer = new MutationObserver(() => {
    const now = document.title;
    if (now === mark) return;
    base = now;
    if (shown) document.title = mark;
  });
  const timer = setInterval(() => {
    shown = !shown;
    document.title = shown ? mark : base;
    if (++n >= 20) stop();
  }, 500);
  const stop = () => {
    clearInterval(timer);
    observer.disconnect();
    if (document.title === mark) document.title = base;
    document.removeEventListener('pointerdown', stop);
    document.removeEventListener('keydown', stop);
    blink = null;
  };
  document.addEventListener('pointerdown', stop);
  document.addEventListener('keydown', stop);
  document.title = mark;
  if (titleElement) observer.observe(titleElement, { childList: true, subtree: true, characterData: true });
  blink = { stop };
}

/** Copies text, also where the async clipboard is unavailable (plain http). */
export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch { /* fall back */ }
  const ta = h('textarea', { style: 'position:fixed;opacity:0' });
  ta.value = text;
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  ta.remove();
  return ok;
}

const ICONS = {
  sound: 'M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z',
  mute: 'M16.5 12A4.5 4.5 0 0 0 14 8v2.2l2.5 2.5V12zM19 12c0 .9-.2 1.8-.5 2.6l1.5 1.5A8.8 8.8 0 0 0 21 12a9 9 0 0 0-7-8.8v2.1a7 7 0 0 1 5 6.7zM4.3 3 3 4.3 7.7 9H3v6h4l5 5v-6.7l4.3 4.3c-.7.5-1.4.9-2.3 1.1v2.1a9 9 0 0 0 3.7-1.8l2 2 1.3-1.3-9-9L4.3 3zM12 4 9.9 6.1 12 8.2V4z',
  eye: 'M12 4.5C7 4.5 2.7 7.6 1 12c1.7 4.4 6 7.5 11 7.5s9.3-3.1 11-7.5c-1.7-4.4-6-7.5-11-7.5zM12 17a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
};

/** A small inline SVG icon (no emoji font needed). */
export function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  path.setAttribute('fill', 'currentColor');
  svg.appendChild(path);
  return svg;
}
