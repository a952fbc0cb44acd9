// The client's entry point: one WebSocket to the server's JSON-RPC methods, and a router on
// the location's hash: #/ (new game), #/play/GAME/TOKEN, #/watch/GAME, #/replay[/GAME].

import { errorText, h } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { playPage } from "./play.js";
import { replayPage } from "./replay.js";
import { Rpc, rpcUrl } from "./rpc.js";

const rpc = new Rpc(rpcUrl());
const root = document.getElementById("app");
const connection = document.getElementById("connection");

rpc.statusListeners.add((up) => {
  connection.textContent = up ? "connected" : "disconnected: reload the page";
  connection.classList.toggle("down", !up);
});

async function route() {
  const [page, ...rest] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  root.dataset.page = page || "lobby";
  try {
    if (page === "play" && rest.length === 2) await playPage(root, rpc, rest[0], rest[1]);
    else if (page === "watch" && rest.length === 1) await playPage(root, rpc, rest[0], null);
    else if (page === "replay") await replayPage(root, rpc, rest[0] || null);
    else await lobbyPage(root, rpc);
  } catch (error) {
    root.replaceChildren(h("p", { class: "error" }, errorText(error)));
  }
}

window.addEventListener("hashchange", route);
route();
