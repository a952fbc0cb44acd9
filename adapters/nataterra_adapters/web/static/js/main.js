// The client's entry point: one WebSocket to the server's JSON-RPC methods, and a router on
// the location's hash: #/ (new game), #/play/GAME/TOKEN, #/watch/GAME, #/replay[/GAME],
// #/how-to-play/RULES.

import { errorText, h } from "./dom.js";
import { howToPlayPage } from "./howto.js";
import { lobbyPage } from "./lobby.js";
import { playPage } from "./play.js";
import { replayPage } from "./replay.js";
import { Rpc, rpcUrl } from "./rpc.js";

const rpc = new Rpc(rpcUrl());
const root = document.getElementById("app");
const connection = document.getElementById("connection");
const away = document.getElementById("away");

// While the socket is away: a banner over the page, until it is back (rpc.js retries).
rpc.statusListeners.add((up, attempt) => {
  connection.textContent = up ? "connected" : "reconnecting…";
  connection.classList.toggle("down", !up);
  away.hidden = up;
  away.textContent = up ? "" : `The connection to the server was lost. Reconnecting by itself${attempt > 1 ? ` (attempt ${attempt})` : ""}…`;
});

async function route() {
  const [page, ...rest] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  root.dataset.page = page || "lobby";
  try {
    if (page === "play" && rest.length === 2) await playPage(root, rpc, rest[0], rest[1]);
    else if (page === "watch" && rest.length === 1) await playPage(root, rpc, rest[0], null);
    else if (page === "replay") await replayPage(root, rpc, rest[0] || null);
    else if (page === "how-to-play" && rest.length === 1) await howToPlayPage(root, rest[0]);
    else await lobbyPage(root, rpc);
  } catch (error) {
    root.replaceChildren(h("p", { class: "error" }, errorText(error)));
  }
}

window.addEventListener("hashchange", route);
route();
