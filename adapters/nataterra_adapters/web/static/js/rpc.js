// A JSON-RPC 2.0 client over the server's WebSocket (/rpc): one request per message,
// replies matched by id, server notifications (game.changed) handed to listeners.

export class RpcError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

export class Rpc {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.ready = this.connect();
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      socket.addEventListener("open", () => {
        this.socket = socket;
        this.setStatus(true);
        resolve();
      });
      socket.addEventListener("message", (event) => this.receive(event.data));
      socket.addEventListener("close", () => {
        this.setStatus(false);
        for (const { fail } of this.pending.values()) fail(new Error("connection closed"));
        this.pending.clear();
        reject(new Error("cannot connect"));
      });
    });
  }

  setStatus(up) {
    for (const listener of this.statusListeners) listener(up);
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
}

export function rpcUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/rpc`;
}
