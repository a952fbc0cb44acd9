// A JSON-RPC 2.0 client over the server's WebSocket (/rpc): one request per message,
// replies matched by id, server notifications (game.changed) handed to listeners.
//
// A dropped socket (the network, a server restart) is reconnected by itself with backoff
// (0.5 s doubling to 8 s, without end); calls made meanwhile wait for the new socket, calls
// in flight fail (the page asks again: every method a page uses is safe to repeat, and
// game.apply carries its expected version). Status listeners hear (up, attempt); reconnect
// listeners are told once a new socket is open, so a page catches up from its version.

export class RpcError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 8000;

export class Rpc {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.reconnectListeners = new Set();
    this.attempt = 0;
    this.everOpen = false;
    this.ready = this.connect();
  }

  // A promise of an open socket: resolved by the first successful attempt.
  connect() {
    let opened;
    const ready = new Promise((resolve) => { opened = resolve; });
    const attempt = () => {
      const socket = new WebSocket(this.url);
      let open = false;
      socket.addEventListener("open", () => {
        open = true;
        this.socket = socket;
        const again = this.everOpen;
        this.everOpen = true;
        this.attempt = 0;
        this.setStatus(true);
        opened();
        if (again) for (const listener of this.reconnectListeners) listener();
      });
      socket.addEventListener("message", (event) => this.receive(event.data));
      socket.addEventListener("close", () => {
        for (const { fail } of this.pending.values()) fail(new Error("the connection was lost; reconnecting"));
        this.pending.clear();
        if (open) {
          this.socket = null;
          this.ready = this.connect(); // new calls wait for the next socket
          return;
        }
        this.attempt += 1;
        this.setStatus(false);
        const delay = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** (this.attempt - 1));
        setTimeout(attempt, delay);
      });
    };
    if (this.everOpen) this.setStatus(false);
    attempt();
    return ready;
  }

  setStatus(up) {
    for (const listener of this.statusListeners) listener(up, this.attempt);
  }

  receive(text) {
    const message = JSON.parse(text);
    if (message.method !== undefined && message.id === undefined) {
      for (const listener of this.listeners) listener(message.method, message.params);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (waiting === undefined) return;
    this.pending.delete(message.id);
    if (message.error) waiting.fail(new RpcError(message.error));
    else waiting.done(message.result);
  }

  async call(method, params = {}) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((done, fail) => {
      this.pending.set(id, { done, fail });
      this.socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  onNotify(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onReconnect(listener) {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }
}

export function rpcUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/rpc`;
}
