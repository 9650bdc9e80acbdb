// Tavolata's table: draws a seat's state (sent by the server after every committed action)
// and sends plays. No framework, no card art from elsewhere: the cards are drawn here in SVG.
"use strict";

const app = document.getElementById("app");
const toastBox = document.getElementById("toast");
const hashParams = new URLSearchParams(location.hash.slice(1));
const queryParams = new URLSearchParams(location.search);
// Telegram hands the Mini App its signed data in the URL's fragment (tgWebAppData).
const initData =
  (window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData) ||
  hashParams.get("tgWebAppData") ||
  "";

let session = null; // user, language, texts, games
let state = null; // the seat's state being drawn
let stream = null; // the live EventSource
let choosing = null; // the card whose capture choices are shown (Cirulla)
let dismissed = -1; // move number of the deal result the player closed
let busy = false; // a play is on its way

const T = (key) => (session && session.texts[key]) || key;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// -- Telegram ----------------------------------------------------------------------------------
function postEvent(type, data) {
  const payload = JSON.stringify(data || {});
  try {
    if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, payload);
    else if (window.external && "notify" in window.external)
      window.external.notify(JSON.stringify({ eventType: type, eventData: data || {} }));
    else if (window.parent !== window)
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }), "*");
  } catch (e) {
    /* outside Telegram */
  }
}

// Telegram's colours as --tg-* properties (the style falls back to its own without them).
let themed = [];
function setTheme(theme) {
  if (!theme || typeof theme !== "object") return;
  const root = document.documentElement.style;
  for (const name of themed) root.removeProperty(name);
  themed = [];
  for (const [key, value] of Object.entries(theme)) {
    if (typeof value !== "string" || !/^#[0-9a-f]{3,8}$/i.test(value)) continue;
    const name = `--tg-${key.replace(/_/g, "-")}`;
    root.setProperty(name, value);
    themed.push(name);
  }
}

function applyTheme() {
  try {
    setTheme(JSON.parse(hashParams.get("tgWebAppThemeParams") || "null"));
  } catch (e) {
    /* no theme in the address: the page's own colours */
  }
}

// Telegram tells the page when the user changes theme (or night mode): apps call
// Telegram.WebView.receiveEvent (or TelegramGameProxy.receiveEvent), the web version posts
// {eventType, eventData} from the parent frame. With Telegram's own script on the page, its
// Telegram.WebApp receives them and fires themeChanged.
function receiveEvent(type, data) {
  if (type === "theme_changed" && data) setTheme(data.theme_params);
  if (type === "visibility_changed" && data) reportPresence(data.is_visible !== false);
}

function followTheme() {
  const tg = (window.Telegram = window.Telegram || {});
  if (tg.WebApp && typeof tg.WebApp.onEvent === "function") {
    tg.WebApp.onEvent("themeChanged", () => setTheme(tg.WebApp.themeParams));
    setTheme(tg.WebApp.themeParams);
    return;
  }
  const before = tg.WebView && tg.WebView.receiveEvent;
  tg.WebView = Object.assign(tg.WebView || {}, {
    receiveEvent(type, data) {
      receiveEvent(type, data);
      if (typeof before === "function") before(type, data);
    },
  });
  window.TelegramGameProxy = { receiveEvent: tg.WebView.receiveEvent };
  window.TelegramGameProxy_receiveEvent = tg.WebView.receiveEvent;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || window.parent === window) return;
    let message = null;
    try {
      message = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
    } catch (e) {
      return;
    }
    if (message && message.eventType) receiveEvent(message.eventType, message.eventData);
  });
}

// -- the server ----------------------------------------------------------------------------------
async function api(path, body) {
  const options = { headers: { "X-Init-Data": initData } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

function toast(text) {
  toastBox.textContent = text;
  toastBox.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => toastBox.classList.remove("show"), 2600);
}

function listen(gameId) {
  if (stream) stream.close();
  const init = initData ? `&init=${encodeURIComponent(initData)}` : "";
  const move = state ? state.move : "";
  stream = new EventSource(`api/events?game=${gameId}&move=${move}${init}`);
  stream.onmessage = (event) => {
    newer(JSON.parse(event.data));
    document.body.classList.remove("offline");
  };
  stream.onopen = () => document.body.classList.remove("offline");
  stream.onerror = () => {
    if (!document.body.classList.contains("offline")) toast(T("webapp-offline"));
    document.body.classList.add("offline");
  };
}

// The stream and the answer to a play race each other: an older state never replaces a newer.
function newer(next) {
  if (!state || next.game !== state.game || next.move >= state.move) {
    turnFeedback(state, next);
    show(next);
  }
}

async function openGame(gameId) {
  state = null;
  choosing = null;
  show(await api(`api/state?game=${gameId}`));
  listen(gameId);
  presence = { game: gameId, visible: true }; // an open stream counts as a page in front
  reportPresence();
}

// -- presence: while this page is open and in front, the seat gets no private messages ----------
// The server counts the page while its stream is open; the page tells it when it goes to the
// background or comes back (Telegram's activated/deactivated, the document's visibility), and
// buzzes when the turn comes to the player, as a ping would have notified them.
let presence = { game: null, visible: null };

function reportPresence(active) {
  if (!state) return;
  const tgApp = window.Telegram && window.Telegram.WebApp;
  const inFront = active !== undefined ? active : !(tgApp && tgApp.isActive === false);
  const visible = inFront && document.visibilityState !== "hidden";
  if (presence.game === state.game && presence.visible === visible) return;
  presence = { game: state.game, visible };
  api("api/presence", { game: state.game, visible }).catch(() => {
    presence.visible = null; // said again at the next change
  });
}

function watchPresence() {
  document.addEventListener("visibilitychange", () => reportPresence());
  const tgApp = window.Telegram && window.Telegram.WebApp;
  if (tgApp && typeof tgApp.onEvent === "function") {
    tgApp.onEvent("activated", () => reportPresence(true));
    tgApp.onEvent("deactivated", () => reportPresence(false));
  }
}

function turnFeedback(before, next) {
  const mine = (st) => st && st.legal && st.legal.length > 0;
  if (mine(next) && !(before && before.game === next.game && mine(before)))
    postEvent("web_app_trigger_haptic_feedback", {
      type: "notification",
      notification_type: "success",
    });
}

async function send(action) {
  if (busy || !state) return;
  busy = true;
  choosing = null;
  dismissed = state.result ? state.result.move : dismissed;
  document.body.classList.add("busy");
  try {
    newer(await api("api/play", { game: state.game, move: state.move, action }));
  } catch (error) {
    toast(error.message);
    try {
      newer(await api(`api/state?game=${state.game}`));
    } catch (e) {
      /* the stream will bring it */
    }
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// -- cards ---------------------------------------------------------------------------------------
const COURT = "JQK";

function cardFace(code, st) {
  const r = code[0];
  const s = code[1];
  const symbol = `#${st.faces === "italian" ? "i" : "f"}${s}`;
  const rank = esc(st.ranks[r] || r);
  const red = st.faces === "french" ? (s === "H" || s === "D" ? " red" : "") : ` it-${s}`;
  const middle = COURT.includes(r)
    ? `<text x="30" y="55" class="court">${rank}</text><use href="${symbol}" x="21" y="60" width="18" height="18"/>`
    : `<use href="${symbol}" x="14" y="28" width="32" height="32"/>`;
  return (
    `<svg viewBox="0 0 60 88" class="face${red}" aria-hidden="true">` +
    `<rect x="1" y="1" width="58" height="86" rx="6" class="paper"/>` +
    `<text x="7" y="18" class="rank">${rank}</text>` +
    `<use href="${symbol}" x="4" y="21" width="13" height="13"/>` +
    `<g transform="rotate(180 30 44)"><text x="7" y="18" class="rank">${rank}</text>` +
    `<use href="${symbol}" x="4" y="21" width="13" height="13"/></g>${middle}</svg>`
  );
}

function cardLabel(code, st) {
  return `${st.ranks[code[0]] || code[0]} ${st.suits[code[1]]}`;
}

function card(code, st, extra) {
  return `<span class="card ${extra || ""}" title="${esc(cardLabel(code, st))}">${cardFace(code, st)}</span>`;
}

function backs(count) {
  let html = "";
  for (let i = 0; i < Math.min(count, 10); i++) html += '<span class="back"></span>';
  return `<span class="backs" aria-label="${count}">${html}</span>`;
}

// -- the table -----------------------------------------------------------------------------------
// Where each seat sits, seen from the player (at the bottom); play goes to the right.
function place(seat, st) {
  const me = st.seat === null ? 0 : st.seat;
  const rel = (seat - me + st.players) % st.players;
  if (rel === 0) return "bottom";
  if (st.players === 2) return "top";
  if (st.players === 3) return rel === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][rel];
}

function cardsOf(code) {
  return code.split(":")[0];
}

function seatTag(seat, st) {
  const v = st.view;
  const sizes = v.hand_sizes || [];
  const classes = ["tag"];
  if (v.current_seat === seat && !st.over) classes.push("acting");
  if (st.players === 4) classes.push(`team${seat % 2}`);
  const me = seat === st.seat;
  const name = me ? T("webapp-you") : st.names[seat] || "—";
  const dealer = v.dealer === seat ? `<b class="chip" title="${esc(T("webapp-dealer"))}">D</b>` : "";
  let extra = "";
  if (st.kind === "cirulla" && v.captured) {
    const side = st.players === 4 ? seat % 2 : seat;
    const scope = v.marks && v.marks.scope ? v.marks.scope[side] : 0;
    extra = `<small>${esc(T("webapp-cards"))} ${v.captured[side].length}${scope ? ` · ${"🧹".repeat(Math.min(scope, 5))}` : ""}</small>`;
  }
  const hidden = me ? "" : backs(sizes[seat] || 0);
  return `<div class="${classes.join(" ")}"><span class="name">${esc(name)}</span>${dealer}${extra}${hidden}</div>`;
}

// A trick just won stays on the felt a moment before it goes to the "last trick" line.
const HOLD_TRICK_MS = 1200;
let heldTrick = "";
let holdUntil = 0;

function trickCards(st) {
  const v = st.view;
  const played = {};
  for (const t of v.trick || []) played[t.seat] = t.card;
  const last = v.last_trick;
  if (last && v.trick && !v.trick.length) {
    const key = `${st.game}:${v.deal}:${(v.played || []).length}`;
    if (key !== heldTrick) {
      heldTrick = key;
      holdUntil = Date.now() + HOLD_TRICK_MS;
      setTimeout(() => state === st && show(st), HOLD_TRICK_MS + 20);
    }
    if (Date.now() < holdUntil)
      last.cards.forEach((c, i) => (played[(last.leader + i) % st.players] = c));
  }
  return played;
}

function centre(st) {
  const v = st.view;
  if (st.kind === "cirulla") {
    const table = v.table.length
      ? v.table.map((c) => card(c, st, "small")).join("")
      : `<span class="empty">${esc(T("webapp-table-empty"))}</span>`;
    return `<div class="pile">${table}</div>`;
  }
  let side = "";
  if (st.kind === "briscola") {
    const trump = v.briscola_card
      ? card(v.briscola_card, st, "small trump")
      : `<span class="suit big"><svg viewBox="0 0 100 100"><use href="#i${v.trump}"/></svg></span>`;
    side = `<div class="deck" title="${esc(T("webapp-trump"))}">${trump}${v.stock ? `<span class="stock" title="${esc(T("webapp-stock"))}"><span class="back"></span><b>${v.stock}</b></span>` : ""}</div>`;
  } else if (st.kind === "belota") {
    if (v.phase === "bidding") {
      side = `<div class="deck" title="${esc(T("webapp-turned"))}">${card(v.turned, st, "small")}</div>`;
    } else if (v.contract && v.contract.trump) {
      side = `<div class="deck" title="${esc(T("webapp-trump"))}"><span class="suit big"><svg viewBox="0 0 100 100"><use href="#f${v.contract.trump}"/></svg></span></div>`;
    }
  }
  return side;
}

function lastLine(st) {
  const v = st.view;
  if (st.kind === "cirulla") {
    const p = v.last_play;
    if (!p) return "";
    const taken = p.captured.length
      ? ` → ${p.captured.map((c) => card(c, st, "mini")).join("")}`
      : "";
    return `<div class="last"><span>${esc(T("webapp-last-play"))}: <b>${esc(st.names[p.seat])}</b></span>${card(p.card, st, "mini")}${taken}</div>`;
  }
  const t = v.last_trick;
  if (!t) return "";
  return `<div class="last"><span>${esc(T("webapp-last-trick"))}: <b>${esc(st.names[t.seat])}</b> +${t.points}</span>${t.cards.map((c) => card(c, st, "mini")).join("")}</div>`;
}

function legalCards(st) {
  const cards = new Set();
  for (const code of st.legal) if (code.length === 2 || code[2] === ":") cards.add(cardsOf(code));
  return cards;
}

function actionButtons(st) {
  const others = st.legal.filter((code) => code.length !== 2 && code[2] !== ":");
  let html = others
    .map(
      (code) =>
        `<button type="button" class="act" data-action="${esc(code)}">${esc(st.labels[code] || code)}</button>`,
    )
    .join("");
  if (choosing) {
    const options = st.legal.filter((code) => code.startsWith(`${choosing}:`) || code === choosing);
    html =
      `<p class="hint">${esc(T("webapp-choose-capture"))}</p>` +
      options
        .map((code) => {
          const taken = code.includes(":") ? code.split(":")[1].split("+") : [];
          const cards = taken.map((c) => card(c, st, "mini")).join("");
          return `<button type="button" class="act capture" data-action="${esc(code)}" aria-label="${esc(st.labels[code] || code)}">${card(choosing, st, "mini")}${taken.length ? " → " : ""}${cards}</button>`;
        })
        .join("") +
      `<button type="button" class="act quiet" id="cancel-choice">${esc(T("webapp-cancel"))}</button>`;
  }
  return html ? `<div class="actions">${html}</div>` : "";
}

// The hand is kept card by card: a card stays the same element from move to move, and only
// its classes, angle and state change (so legal cards rise with a transition).
function drawHand(part, st) {
  if (st.seat === null) return patch(part, "");
  let box = part.firstElementChild;
  if (!box || part._html !== undefined) {
    part.innerHTML = '<div class="hand"></div>';
    part._html = undefined;
    box = part.firstElementChild;
  }
  const cards = st.view.hand || [];
  const legal = legalCards(st);
  const tight = cards.length > 5 ? " tight" : "";
  const mode = st.legal.length ? " my-turn" : "";
  const className = `hand${tight}${mode}${legal.size ? " cards" : ""}`;
  if (box.className !== className) box.className = className;
  const old = new Map();
  for (const button of box.children) old.set(button.dataset.card, button);
  cards.forEach((code, i) => {
    let button = old.get(code);
    if (button) old.delete(code);
    else {
      button = document.createElement("button");
      button.type = "button";
      button.dataset.card = code;
      button.setAttribute("aria-label", cardLabel(code, st));
      button.innerHTML = cardFace(code, st);
    }
    const ok = legal.has(code);
    const name = `card-button${ok ? " legal" : ""}${choosing === code ? " chosen" : ""}`;
    if (button.className !== name) button.className = name;
    const turn = `${((i - (cards.length - 1) / 2) * 2.5).toFixed(1)}deg`;
    if (button.style.getPropertyValue("--r") !== turn) button.style.setProperty("--r", turn);
    if (button.disabled === ok) button.disabled = !ok;
    if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
  });
  for (const button of old.values()) button.remove();
}

function resultPanel(st) {
  const r = st.result;
  if (!r || (r.move <= dismissed && !st.over)) return "";
  const again = session.local && st.over ? `<button type="button" class="act main" id="again">${esc(T("webapp-again"))}</button>` : "";
  return `<div class="result" role="dialog"><div class="sheet">${r.lines.map((l) => `<p>${l}</p>`).join("")}<div class="row">${again}<button type="button" class="act quiet" id="close-result">${esc(T("webapp-close"))}</button></div></div></div>`;
}

// The page's parts: laid out once per game and seat, then each one redrawn only when its
// markup changes (a play usually changes a seat's tag, a trick card, the turn and the hand).
const PLACES = ["top", "left", "centre", "right", "bottom"];
let frame = null; // {key, root, parts}

function patch(part, html) {
  if (part._html !== html) {
    part.innerHTML = html;
    part._html = html;
  }
}

function layout(st) {
  const key = `${st.game}:${st.kind}:${st.players}:${st.seat}`;
  if (frame && frame.key === key && app.contains(frame.root)) return frame.parts;
  const seat = (where) =>
    where === "centre"
      ? '<div class="part" data-part="centre"></div>'
      : where === "bottom"
        ? '<div class="part" data-part="bottom-card"></div><div class="part" data-part="bottom-tag"></div>'
        : `<div class="part" data-part="${where}-tag"></div><div class="part" data-part="${where}-card"></div>`;
  app.innerHTML =
    '<div class="part" data-part="header"></div>' +
    `<section class="felt ${st.kind} p${st.players}">` +
    PLACES.map((where) => `<div class="${where}">${seat(where)}</div>`).join("") +
    "</section>" +
    ["last", "turn", "actions", "hand", "notes", "result"]
      .map((name) => `<div class="part" data-part="${name}"></div>`)
      .join("");
  const parts = {};
  for (const el of app.querySelectorAll("[data-part]")) parts[el.dataset.part] = el;
  frame = { key, root: app.firstElementChild, parts };
  return parts;
}

function show(st) {
  state = st;
  app.dataset.move = st.move;
  if (st.over) app.dataset.over = "1";
  else delete app.dataset.over;
  if (choosing && !legalCards(st).has(choosing)) choosing = null;
  const parts = layout(st);
  const played = trickCards(st);
  for (const where of PLACES) {
    if (where === "centre") continue;
    let tag = "";
    let inTrick = "";
    for (let seat = 0; seat < st.players; seat++) {
      if (place(seat, st) !== where) continue;
      tag = seatTag(seat, st);
      inTrick = played[seat] ? card(played[seat], st, "played") : "";
    }
    patch(parts[`${where}-tag`], tag);
    patch(parts[`${where}-card`], inTrick);
  }
  const score = st.score ? `<div class="score">${st.score}</div>` : "";
  const newGame = session.local ? `<button type="button" class="link" id="new-game">${esc(T("webapp-new-game"))}</button>` : "";
  patch(
    parts.header,
    `<header class="bar"><div><h1>${esc(st.title)}</h1>${score}</div>${newGame}<i class="dot"></i></header>`,
  );
  patch(parts.centre, centre(st));
  patch(parts.last, lastLine(st));
  patch(parts.turn, `<div class="turn${st.legal.length ? " mine" : ""}">${st.turn}</div>`);
  patch(parts.actions, actionButtons(st));
  drawHand(parts.hand, st);
  patch(parts.notes, st.notes.length ? `<div class="notes">${st.notes.map((l) => `<p>${l}</p>`).join("")}</div>` : "");
  patch(parts.result, resultPanel(st));
}

// -- local mode: choose a game -----------------------------------------------------------------
let picked = { game: 0, level: 1 };

async function chooser() {
  if (stream) stream.close();
  state = null;
  delete app.dataset.over;
  const options = await api("api/local/options");
  const draw = () => {
    const games = options.games
      .map(
        (g, i) =>
          `<button type="button" class="pick${i === picked.game ? " on" : ""}" data-kind="${g.kind}" data-players="${g.players}" data-index="${i}">${esc(g.title)}</button>`,
      )
      .join("");
    const levels = options.levels
      .map(
        (l, i) =>
          `<button type="button" class="pick${i === picked.level ? " on" : ""}" data-level="${l.level}" data-index="${i}">${esc(l.label)}</button>`,
      )
      .join("");
    app.innerHTML =
      `<header class="bar"><div><h1>${esc(T("webapp-title"))}</h1></div></header>` +
      `<section class="chooser"><h2>${esc(T("webapp-game"))}</h2><div class="picks">${games}</div>` +
      `<h2>${esc(T("webapp-level"))}</h2><div class="picks levels">${levels}</div>` +
      `<button type="button" class="act main" id="start">${esc(T("webapp-play"))}</button></section>`;
  };
  draw();
  chooser.options = options;
  chooser.draw = draw;
}

async function startLocal() {
  const game = chooser.options.games[picked.game];
  const level = chooser.options.levels[picked.level].level;
  const made = await api("api/local/new", { kind: game.kind, players: game.players, level });
  dismissed = -1;
  await openGame(made.game);
}

// -- clicks --------------------------------------------------------------------------------------
app.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || target.disabled) return;
  if (target.dataset.card && state) {
    const code = target.dataset.card;
    const options = state.legal.filter((c) => c === code || c.startsWith(`${code}:`));
    if (options.length === 1) send(options[0]);
    else if (options.length > 1) {
      choosing = choosing === code ? null : code;
      show(state);
    }
  } else if (target.dataset.action) {
    send(target.dataset.action);
  } else if (target.dataset.kind) {
    picked.game = Number(target.dataset.index);
    chooser.draw();
  } else if (target.dataset.level) {
    picked.level = Number(target.dataset.index);
    chooser.draw();
  } else if (target.id === "start") {
    startLocal().catch((e) => toast(e.message));
  } else if (target.id === "cancel-choice") {
    choosing = null;
    show(state);
  } else if (target.id === "close-result") {
    dismissed = state.result ? state.result.move : dismissed;
    show(state);
  } else if (target.id === "new-game" || target.id === "again") {
    chooser().catch((e) => toast(e.message));
  }
});

// -- start ---------------------------------------------------------------------------------------
async function main() {
  applyTheme();
  followTheme();
  watchPresence();
  postEvent("web_app_ready");
  postEvent("web_app_request_theme");
  postEvent("web_app_expand");
  try {
    session = await api("api/session");
  } catch (error) {
    app.innerHTML = `<p class="loading">${esc(error.message)}</p>`;
    return;
  }
  document.documentElement.lang = session.lang;
  document.title = T("webapp-title");
  const wanted = queryParams.get("game") || hashParams.get("tgWebAppStartParam") || session.start;
  const gameId = /^\d+$/.test(wanted || "") ? wanted : session.games[0];
  try {
    if (gameId) await openGame(gameId);
    else if (session.local) await chooser();
    else app.innerHTML = `<p class="loading">${esc(T("webapp-no-game"))}</p>`;
  } catch (error) {
    app.innerHTML = `<p class="loading">${esc(error.message)}</p>`;
  }
}

main();
