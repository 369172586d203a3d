/**
 * `GET /widget.js`: the chat bubble a website embeds with its widget key. Plain browser JavaScript,
 * no framework; it holds no account key — only the widget's public key and, per visitor, the token
 * of the visitor's own chat (in localStorage). Every text is put on the page as text, never as HTML.
 * Messages arrive over the conversation's event stream, the visitor's own included, so the page
 * shows exactly what the conversation holds, a human's replies too; the assistant's reply grows in
 * a draft bubble as it is written (`message.delta`) until the stored message replaces it.
 */
export const WIDGET_SCRIPT = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var key = script.getAttribute('data-widget-key');
  if (!key) return;
  var api = (script.getAttribute('data-api') || new URL(script.src, location.href).origin).replace(/\/+$/, '');
  var title = script.getAttribute('data-title') || 'Chat';
  var base = api + '/api/widget/' + encodeURIComponent(key) + '/conversations';
  var storeKey = 'voiceplane-widget:' + key;
  var chat = null, source = null, seen = {}, lastId = 0, pending = 0, draft = null, draftId = null;

  var host = document.createElement('div');
  host.setAttribute('data-voiceplane-widget', '');
  var root = host.attachShadow({ mode: 'open' });
  var style = document.createElement('style');
  style.textContent = [
    ':host{all:initial}',
    '.b{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;background:#2b59c3;display:flex;align-items:center;justify-content:center;cursor:pointer;box-shadow:0 4px 12px rgba(0,0,0,.25);z-index:2147483646}',
    '.p{position:fixed;right:20px;bottom:88px;width:340px;max-width:calc(100vw - 40px);height:460px;max-height:calc(100vh - 120px);display:none;flex-direction:column;background:#fff;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.3);font:14px/1.4 sans-serif;color:#222;z-index:2147483647;overflow:hidden}',
    '.p.o{display:flex}',
    '.h{padding:12px 14px;background:#2b59c3;color:#fff;font-weight:600}',
    '.l{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f6f7fb}',
    '.m{max-width:80%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}',
    '.m.user{align-self:flex-end;background:#2b59c3;color:#fff}',
    '.m.assistant{align-self:flex-start;background:#fff;border:1px solid #dde}',
    '.m.draft{opacity:.85}',
    '.m.note{align-self:center;background:none;color:#a33;font-size:12px}',
    '.t{align-self:flex-start;color:#888;font-size:12px}',
    '.f{display:flex;border-top:1px solid #dde}',
    '.f textarea{flex:1;border:0;padding:10px;font:inherit;resize:none;height:44px;outline:none}',
    '.f button{border:0;background:#2b59c3;color:#fff;padding:0 16px;font:600 14px sans-serif;cursor:pointer}'
  ].join('');
  var bubble = el('button', 'b');
  bubble.setAttribute('aria-label', 'Open chat');
  var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '28');
  svg.setAttribute('height', '28');
  var path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', '#fff');
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z');
  svg.appendChild(path);
  bubble.appendChild(svg);
  var panel = el('div', 'p');
  var header = el('div', 'h', title);
  var list = el('div', 'l');
  list.setAttribute('role', 'log');
  var typing = el('div', 't', '\u2026');
  var form = el('form', 'f');
  var input = el('textarea');
  input.setAttribute('maxlength', '2000');
  input.setAttribute('placeholder', 'Type a message');
  input.setAttribute('aria-label', 'Message');
  var send = el('button', '', 'Send');
  send.type = 'submit';
  form.appendChild(input);
  form.appendChild(send);
  panel.appendChild(header);
  panel.appendChild(list);
  panel.appendChild(form);
  root.appendChild(style);
  root.appendChild(bubble);
  root.appendChild(panel);
  (document.body || document.documentElement).appendChild(host);

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function show(role, text) {
    list.appendChild(el('div', 'm ' + role, text));
    if (pending > 0) list.appendChild(typing);
    list.scrollTop = list.scrollHeight;
  }
  function note(text) { show('note', text); }
  function dropDraft(id) {
    if (!draft || (id !== null && id !== draftId)) return;
    if (draft.parentNode) draft.parentNode.removeChild(draft);
    draft = null;
    draftId = null;
  }
  function remember(value) {
    chat = value;
    try { if (value) localStorage.setItem(storeKey, JSON.stringify(value)); else localStorage.removeItem(storeKey); } catch (e) { /* private mode */ }
  }
  function remembered() {
    try { return JSON.parse(localStorage.getItem(storeKey) || 'null'); } catch (e) { return null; }
  }
  function request(method, url, body) {
    var headers = { 'Content-Type': 'application/json' };
    if (chat) headers['X-Visitor-Token'] = chat.token;
    return fetch(url, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' })
      .then(function (res) { return res.json().catch(function () { return {}; }).then(function (data) { return { ok: res.ok, status: res.status, data: data }; }); });
  }
  function listen() {
    if (source) source.close();
    source = new EventSource(base + '/' + chat.id + '/events?token=' + encodeURIComponent(chat.token) + '&after=' + lastId);
    source.addEventListener('message', function (event) {
      var m = JSON.parse(event.data);
      if (seen[m.id]) return;
      seen[m.id] = true;
      lastId = Math.max(lastId, m.id);
      if (m.role === 'assistant' && pending > 0) pending -= 1;
      if (m.role === 'assistant') dropDraft(null);
      if (pending === 0 && typing.parentNode) typing.parentNode.removeChild(typing);
      show(m.role === 'user' ? 'user' : 'assistant', m.content);
    });
    source.addEventListener('message.delta', function (event) {
      var d = JSON.parse(event.data);
      // A new draft (the model answered again after a tool) replaces what the last one showed.
      if (d.draft !== draftId) { draftId = d.draft; if (!draft) draft = el('div', 'm assistant draft'); draft.textContent = ''; }
      draft.textContent += d.delta;
      if (typing.parentNode) typing.parentNode.removeChild(typing);
      if (draft.parentNode !== list) list.appendChild(draft);
      list.scrollTop = list.scrollHeight;
    });
    source.addEventListener('message.discarded', function (event) { dropDraft(JSON.parse(event.data).draft); });
    source.addEventListener('refused', function (event) {
      source.close();
      var refusal = JSON.parse(event.data);
      // A chat this page no longer may read (another key, a cleared database): start afresh on the next open.
      if (refusal.http_status === 404) { remember(null); started = null; }
      note(refusal.error);
    });
  }
  function start() {
    if (chat) { listen(); return Promise.resolve(true); }
    return request('POST', base, {}).then(function (res) {
      if (!res.ok) { note(res.data.error || 'The chat is not available.'); return false; }
      remember({ id: res.data.conversation_id, token: res.data.visitor_token });
      listen();
      return true;
    });
  }
  var started = null;
  bubble.addEventListener('click', function () {
    panel.classList.toggle('o');
    if (panel.classList.contains('o')) {
      if (!started) started = start();
      input.focus();
    }
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var text = input.value;
    if (!text.trim() || !chat) return;
    input.value = '';
    pending += 1;
    list.appendChild(typing);
    request('POST', base + '/' + chat.id + '/messages', { message: text }).then(function (res) {
      if (res.ok && !res.data.ai_disabled) return;
      pending = Math.max(0, pending - 1);
      if (pending === 0 && typing.parentNode) typing.parentNode.removeChild(typing);
      if (!res.ok) note(res.data.error || 'The message was not sent.');
    }, function () { pending = 0; note('The message was not sent.'); });
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
  chat = remembered();
})();
`;
