// A WebSocket that comes back: reconnects with backoff (1 s, 2 s, 4 s … 30 s, protocol.md
// "Reconnection"), hands every JSON message to `onMessage`, and reports its state. Messages
// sent while disconnected are dropped, not queued: the server's `hello` on reconnection is
// the new truth and the page re-sends what it still means to do.

export class Socket {
  constructor(url, { onMessage, onStatus } = {}) {
    this.url = url;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 1000;
    this.closed = false;
    this.ws = null;
    this.connect();
    this.pinger = setInterval(() => this.send({ t: 'ping' }), 25000);
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => { this.delay = 1000; this.onStatus('open'); };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onStatus('closed');
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 30000);
      this.timer = setTimeout(() => this.connect(), wait);
    };
    ws.onerror = () => ws.close();
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** Sends `msg`; false when the socket is down (the message is dropped). */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
