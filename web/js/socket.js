// A WebSocket that comes back: reconnects with backoff (1 s, 2 s, 4 s … 30 s, protocol.md
// "Reconnection"), hands every JSON message to `onMessage`, and reports its state. Messages
// sent while disconnected are dropped, not queued: the server's `hello` on reconnection is
// the new truth and the page re-sends what it still means to do.
//
// A stalled network does not close a socket: frames just stop (issue 38). So the socket sends
// `ping` whenever it has sent nothing for PING_EVERY and, when nothing at all has come back
// within DEADLINE, drops the connection itself, says "reconnecting" and dials again. The
// server, likewise, closes a game socket that has sent nothing for 8 s (protocol.md). The pongs
// also measure the offset between this machine's clock and the server's (`serverNow`).

const PING_EVERY = 2500;
const DEADLINE = 5000;

export class Socket {
  constructor(url, { onMessage, onStatus } = {}) {
    this.url = url;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 1000;
    this.closed = false;
    this.ws = null;
    this.heard = 0;
    this.sentAt = 0;
    this.pingSent = null;
    /** Server clock minus this one (ms), from the best round trip seen; null until measured. */
    this.offset = null;
    this.bestRtt = Infinity;
    this.onOnline = () => { if (!this.ws && !this.closed) { clearTimeout(this.timer); this.delay = 1000; this.connect(); } };
    window.addEventListener('online', this.onOnline);
    this.connect();
    this.watch = setInterval(() => this.check(), 500);
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.delay = 1000;
      this.heard = performance.now();
      this.ping();
      this.onStatus('open');
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // a socket given up for dead may still deliver late frames
      this.heard = performance.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.t === 'pong') this.onPong(msg);
      this.onMessage(msg);
    };
    ws.onclose = () => { if (this.ws === ws) this.lost(); };
    ws.onerror = () => ws.close();
  }

  /** The connection is gone (closed, or silent past the deadline): say so and dial again. */
  lost() {
    const ws = this.ws;
    this.ws = null;
    this.pingSent = null;
    if (ws) { ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null; try { ws.close(); } catch { /* already closing */ } }
    if (this.closed) return;
    this.onStatus('closed');
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 30000);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  check() {
    if (!this.open) return;
    const now = performance.now();
    if (now - this.heard > DEADLINE) { this.lost(); return; }
    if (now - this.sentAt >= PING_EVERY) this.ping();
  }

  ping() {
    if (!this.open) return;
    this.pingSent = { at: performance.now(), wall: Date.now() };
    this.sentAt = this.pingSent.at;
    this.ws.send(JSON.stringify({ t: 'ping' }));
  }

  onPong(msg) {
    const sent = this.pingSent;
    if (!sent || typeof msg.server_ms !== 'number') return;
    const rtt = performance.now() - sent.at;
    // The round trip with the least queueing says the most about the offset.
    if (rtt <= this.bestRtt * 1.5 || this.offset === null) {
      this.bestRtt = Math.min(this.bestRtt, rtt);
      this.offset = msg.server_ms - (sent.wall + rtt / 2);
    }
  }

  /** The server's clock now (Unix ms), as well as it is known. */
  serverNow() { return Date.now() + (this.offset || 0); }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** Sends `msg`; false when the socket is down (the message is dropped). */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    this.sentAt = performance.now();
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.watch);
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
  }
}
