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
let stream = null; // the live stream ({close})
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
  else if (type === "back_button_pressed") goBack();
  else if (type === "visibility_changed" && data) reportPresence(data.is_visible !== false);
  else if (type === "safe_area_changed") setInsets("safe-area", data);
  else if (type === "content_safe_area_changed") setInsets("content-safe-area", data);
}

// Fullscreen: Telegram says where its own controls and the phone's notch are; the page keeps
// its content out of them (--tg-safe-area-inset-*, as Telegram's own script names them).
function setInsets(kind, data) {
  if (!data || typeof data !== "object") return;
  const root = document.documentElement.style;
  for (const side of ["top", "bottom", "left", "right"]) {
    const value = Number(data[side]);
    if (Number.isFinite(value) && value >= 0) root.setProperty(`--tg-${kind}-inset-${side}`, `${value}px`);
  }
}

// Telegram's own script, when a client injects it, does the same through its methods.
function webApp() {
  const tg = window.Telegram;
  return tg && tg.WebApp && typeof tg.WebApp.ready === "function" ? tg.WebApp : null;
}

// A tap felt in the hand: "impact" (a card played), "notification" (your turn, a trick won).
function haptic(kind, style) {
  const wa = webApp();
  try {
    if (wa && wa.HapticFeedback) {
      if (kind === "impact") wa.HapticFeedback.impactOccurred(style);
      else wa.HapticFeedback.notificationOccurred(style);
      return;
    }
  } catch (e) {
    /* an old client: the event below */
  }
  const data = kind === "impact" ? { type: "impact", impact_style: style } : { type: "notification", notification_type: style };
  postEvent("web_app_trigger_haptic_feedback", data);
}

// Telegram's Back button is shown while there is something to go back from (the result panel,
// a capture being chosen); closing the app mid-game asks first.
let backShown = false;
let confirmClose = false;
function telegramControls(st) {
  const back = Boolean(choosing || (st && resultOpen(st)));
  if (back !== backShown) {
    backShown = back;
    postEvent("web_app_setup_back_button", { is_visible: back });
  }
  const confirm = Boolean(st && !st.over && st.seat !== null);
  if (confirm !== confirmClose) {
    confirmClose = confirm;
    postEvent("web_app_setup_closing_behavior", { need_confirmation: confirm });
  }
}

function goBack() {
  if (choosing) {
    choosing = null;
    if (state) show(state);
  } else if (state && resultOpen(state)) closeResult();
}

function followTheme() {
  const tg = (window.Telegram = window.Telegram || {});
  if (tg.WebApp && typeof tg.WebApp.onEvent === "function") {
    tg.WebApp.onEvent("themeChanged", () => setTheme(tg.WebApp.themeParams));
    tg.WebApp.onEvent("backButtonClicked", goBack);
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
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error(T("webapp-server-down")); // the browser's own words ("Failed to fetch") are not the page's
  }
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

// The live stream: server-sent events read through fetch, so that the signed data goes in a
// header (an EventSource cannot send one, and an address ends up in proxies' logs). A refused
// or broken stream is tried again with back-off; a game that ended ends its stream.
const STREAM_RETRY = { first: 1000, max: 30000 };

function listen(gameId) {
  if (stream) stream.close();
  const aborted = new AbortController();
  let closed = false;
  stream = { close: () => ((closed = true), aborted.abort()) };
  const offline = () => {
    if (!document.body.classList.contains("offline")) toast(T("webapp-offline"));
    document.body.classList.add("offline");
  };
  (async () => {
    let wait = STREAM_RETRY.first;
    while (!closed) {
      try {
        const move = state && String(state.game) === String(gameId) ? state.move : "";
        const response = await fetch(`api/events?game=${gameId}&move=${move}`, {
          headers: { "X-Init-Data": initData },
          signal: aborted.signal,
          cache: "no-store",
        });
        if (response.ok) {
          document.body.classList.remove("offline");
          wait = STREAM_RETRY.first;
          await readEvents(response.body);
          if (state && state.over) return;
        } else if (response.status !== 429 && response.status < 500) {
          return; // refused for good (signed data, game): asking again would not help
        }
      } catch (e) {
        /* the connection broke: try again */
      }
      if (closed) return;
      offline();
      await new Promise((done) => setTimeout(done, wait * (1 + Math.random() / 2)));
      wait = Math.min(wait * 2, STREAM_RETRY.max);
    }
  })();
}

// Server-sent events: blocks split by a blank line, the state in their "data:" lines.
async function readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const data = block.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
      if (data.length) newer(JSON.parse(data.join("\n")));
    }
  }
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
    haptic("notification", "success");
}

async function send(action) {
  if (busy || !state) return;
  busy = true;
  choosing = null;
  dismissed = state.result ? state.result.move : dismissed;
  document.body.classList.add("busy");
  if (action.length === 2 || action[2] === ":") haptic("impact", "light");
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
// A court card is a figure in its frame, not a bare letter: a crown for the king (re), a
// tiara for the queen, a horseshoe for the cavallo, a plumed cap for the jack (fante).
const FIGURE = {
  K: '<path class="figure" d="M19 33 l3-10 5 6 3-8 3 8 5-6 3 10z"/>',
  Q: '<path class="figure" d="M21 33 l2-7 4 4 3-6 3 6 4-4 2 7z"/><circle class="figure" cx="30" cy="19" r="2"/>',
  J: '<path class="figure" d="M20 33 q10-14 20 0z"/><path class="figure" d="M37 26 q6-8 4-12 q-4 4-6 10z"/>',
  cavallo: '<path class="figure" d="M23 34 v-7 a7 7 0 0 1 14 0 v7 h-3 v-7 a4 4 0 0 0 -8 0 v7z"/>',
};

function cardFace(code, st) {
  const r = code[0];
  const s = code[1];
  const symbol = `#${st.faces === "italian" ? "i" : "f"}${s}`;
  const rank = esc(st.ranks[r] || r);
  const red = st.faces === "french" ? (s === "H" || s === "D" ? " red" : "") : ` it-${s}`;
  const middle = COURT.includes(r)
    ? `<rect x="18" y="12" width="24" height="64" rx="3" class="frame"/>${FIGURE[st.faces === "italian" && r === "Q" ? "cavallo" : r]}` +
      `<text x="30" y="56" class="court">${rank}</text><use href="${symbol}" x="22" y="59" width="16" height="16"/>`
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
  return `<span class="card ${extra || ""}" data-code="${code}" title="${esc(cardLabel(code, st))}">${cardFace(code, st)}</span>`;
}

function backs(count) {
  let html = "";
  for (let i = 0; i < Math.min(count, 10); i++) html += '<span class="back"></span>';
  return `<span class="backs" aria-label="${count}">${html}</span>`;
}

// -- the game's words ----------------------------------------------------------------------------
// The server's lines carry suits and marks as emoji; a phone without a colour emoji font draws
// empty boxes, so the ones that mean something are drawn here (the page's own symbols) and the
// ones that only decorate are left out.
const MARKS = {
  "🏆": "#iH", "🪙": "#iD", "🪵": "#iC", "🗡": "#iS",
  "♥": "#fH", "♦": "#fD", "♣": "#fC", "♠": "#fS",
  "🧹": "#mScopa", "💎": "#fD", "✊": "#mKnock",
};
const PICTOGRAPH = /\p{Extended_Pictographic}\uFE0F?\s?/gu;

// 🏆 is the coppe suit on Italian cards; on a French pack it can only be the winner's trophy.
function mark(emoji) {
  return emoji === "🏆" && state && state.faces === "french" ? "#mTrophy" : MARKS[emoji];
}

function glyphs(html) {
  return html
    .replace(/(🏆|🪙|🪵|🗡|♥|♦|♣|♠|🧹|💎|✊)\uFE0F?/gu, (m, e) => `<svg class="sym" aria-hidden="true"><use href="${mark(e)}"/></svg>`)
    .replace(PICTOGRAPH, "")
    .trim();
}

// The server's lines, with the page's symbols (the server tells each seat's lines to its
// player: "Tocca a te", "Hai vinto").
function words(html) {
  return glyphs(html);
}

function nameOf(seat, st) {
  return seat === st.seat ? T("webapp-you") : st.names[seat] || "—";
}

// -- the table -----------------------------------------------------------------------------------
// Where each seat sits, seen from the player (at the bottom), computed from the number of
// players: seats around an ellipse, play going to the right (three: the others in the top
// corners). Any table from 2 to 6 fits.
function spot(rel, players) {
  // Three: the two others in the top corners, leaving the felt's middle to the trick.
  if (players === 3 && rel) return { x: rel === 1 ? 1 : -1, y: -1 };
  const angle = (2 * Math.PI * rel) / players;
  return { x: Math.sin(angle), y: Math.cos(angle) };
}

// The places go to the style through the script: the page's security policy refuses style
// attributes written in its markup, not properties set on an element.
function placeIn(root) {
  for (const el of root.querySelectorAll("[data-sx]")) {
    el.style.setProperty("--sx", el.dataset.sx);
    el.style.setProperty("--sy", el.dataset.sy);
  }
}

function relative(seat, st) {
  const me = st.seat === null ? 0 : st.seat;
  return (seat - me + st.players) % st.players;
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
  const dealer = v.dealer === seat ? `<b class="chip">${esc(T("webapp-dealer"))}</b>` : "";
  let extra = "";
  if (st.kind === "cirulla" && v.captured) {
    const side = st.players === 4 ? seat % 2 : seat;
    const scope = v.marks && v.marks.scope ? v.marks.scope[side] : 0;
    const brooms = scope ? ` · <svg class="sym" aria-hidden="true"><use href="#mScopa"/></svg>×${scope}` : "";
    extra = `<small>${v.captured[side].length} ${esc(T("webapp-cards"))}${brooms}</small>`;
  }
  // Each for himself (Belòta for two and three): every seat shows its match score.
  if (st.kind === "belota" && st.players !== 4 && v.scores) extra = `<small class="pts">${v.scores[seat]}</small>`;
  const hidden = me ? "" : backs(sizes[seat] || 0);
  // What the seat said (Belòta: its bids while bidding, the contract, its declarations).
  const said = st.said && st.said[seat] ? `<span class="said">${words(esc(st.said[seat]))}</span>` : "";
  return `<div class="${classes.join(" ")}" data-seat="${seat}"><span class="name">${esc(nameOf(seat, st))}</span>${dealer}${extra}${hidden}${said}</div>`;
}

// A trick just won stays on the felt a moment (the next trick's cards wait), then flies to its
// winner. Only a trick seen being won is held: not the last one of a page just opened.
const HOLD_TRICK_MS = 900;
let heldKey = "";
let held = null; // {game, cards: {seat: card}, winner}

function trickCards(st, before) {
  const v = st.view;
  const last = v.last_trick;
  if (last) {
    const key = `${st.game}:${v.deal}:${last.leader}:${last.cards.join()}`;
    if (key !== heldKey) {
      heldKey = key;
      if (before && before.game === st.game) holdTrick(last, st);
    }
  }
  // The trick just won stays while the next one is empty; once the next lead is played (or
  // the next deal is dealt) it gives way at once, so that the table never asks to follow a
  // card it does not show.
  if (held && (held.game !== st.game || held.deal !== v.deal || (v.trick || []).length)) held = null;
  if (held && held.game === st.game) return held.cards;
  const played = {};
  for (const t of v.trick || []) played[t.seat] = t.card;
  return played;
}

function holdTrick(last, st) {
  const cards = {};
  last.cards.forEach((c, i) => (cards[(last.leader + i) % st.players] = c));
  const mine = (held = { game: st.game, deal: st.view.deal, cards, winner: last.seat });
  if (last.seat === st.seat) haptic("notification", "success");
  setTimeout(() => {
    if (held !== mine) return;
    flyTo(frame && frame.parts.trick, mine.winner, st);
    setTimeout(() => {
      if (held !== mine) return;
      held = null;
      if (state) show(state);
    }, reducedMotion() ? 0 : FLY_MS);
  }, HOLD_TRICK_MS);
}

// Where each seat's card of the trick lies, from the felt's middle, in card widths (--fc):
// towards its player, apart enough that no card covers another's top-left index (with those
// of the player and the next seat above the others), and clear of the seats' tags. For two,
// one column right of the deck; for three, the side cards low, under the side tags.
const TRICK = {
  2: [[0.8, 0.82], [0.8, -0.82]],
  3: [[0, 0.9], [0.68, -0.3], [-0.68, -0.3]],
  4: [[0, 0.82], [0.78, 0], [0, -0.82], [-0.78, 0]],
};

function trickSpot(rel, players) {
  const [x, y] = (TRICK[players] || [])[rel] || [spot(rel, players).x * 0.78, spot(rel, players).y * 0.82];
  return { x, y };
}

function trickPart(st, played) {
  let html = "";
  for (let seat = 0; seat < st.players; seat++) {
    if (!played[seat]) continue;
    const p = trickSpot(relative(seat, st), st.players);
    // The player's card and the next seat's lie above the others: with four the cards
    // overlap in a cross, and then no card covers another's top-left index.
    const rel = relative(seat, st);
    const over = rel <= 1 ? " over" : "";
    html += `<span class="slot${over}" data-sx="${p.x.toFixed(3)}" data-sy="${p.y.toFixed(3)}">${card(played[seat], st, "played")}</span>`;
  }
  return html;
}

// Cards that leave the felt fly to the seat that took them (Web Animations; none when the
// player asks for reduced motion).
const FLY_MS = 380;
function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function flyTo(part, seat, st, only) {
  if (!part || reducedMotion() || !frame) return;
  const target = frame.root.querySelector(`.tag[data-seat="${seat}"]`) || frame.parts.hand;
  if (!target) return;
  const to = target.getBoundingClientRect();
  for (const el of part.querySelectorAll(".card")) {
    if (only && !only.has(el.dataset.code)) continue;
    const from = el.getBoundingClientRect();
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    el.animate(
      [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0.2 }],
      { duration: FLY_MS, easing: "ease-in", fill: "forwards" },
    );
  }
}

// Cirulla: the cards a play captured fly from the table to the capturer before they go.
let flownPlay = "";
function captureFlight(st) {
  const p = st.kind === "cirulla" && st.view.last_play;
  if (!p || !p.captured.length || !frame) return;
  const key = `${st.game}:${st.move}`;
  if (key === flownPlay) return;
  flownPlay = key;
  const taken = new Set([...p.captured, p.card]);
  // The table is drawn without them: draw them once more where they were, and let them fly.
  const ghost = document.createElement("div");
  ghost.className = "pile ghost";
  ghost.innerHTML = [p.card, ...p.captured].map((c) => card(c, st, "small")).join("");
  frame.parts.centre.appendChild(ghost);
  flyTo(ghost, p.seat, st, taken);
  setTimeout(() => ghost.remove(), reducedMotion() ? 0 : FLY_MS + 20);
}

function caption(text) {
  return `<small class="caption">${esc(text)}</small>`;
}

function centre(st) {
  const v = st.view;
  if (st.kind === "cirulla") {
    const table = v.table.length
      ? v.table.map((c) => card(c, st, "small")).join("")
      : `<span class="empty">${esc(T("webapp-table-empty"))}</span>`;
    return `<div class="pile${v.table.length > 6 ? " many" : ""}">${table}</div>`;
  }
  let side = "";
  if (st.kind === "briscola") {
    const trump = v.briscola_card
      ? card(v.briscola_card, st, "small")
      : `<span class="suit big"><svg viewBox="0 0 100 100"><use href="#i${v.trump}"/></svg></span>`;
    const stock = v.stock ? `<span class="stock"><span class="back"></span><b>${v.stock}</b></span>` : "";
    side = `<div class="deck"><div class="stack">${trump}${stock}</div>${caption(T("webapp-trump"))}</div>`;
  } else if (st.kind === "belota") {
    if (v.phase === "bidding") {
      side = `<div class="deck">${card(v.turned, st, "small")}${caption(T("webapp-turned"))}</div>`;
    } else if (v.contract && v.contract.trump) {
      side = `<div class="deck"><span class="suit big"><svg viewBox="0 0 100 100"><use href="#f${v.contract.trump}"/></svg></span>${caption(T("webapp-atu"))}</div>`;
    } else if (v.contract) {
      side = `<div class="deck">${caption(T("webapp-no-trump"))}</div>`;
    }
    side += shownCards(st);
  }
  return side;
}

// Cards face up out of play (Belòta for two and three: the bergère, the turned card left on
// the table), each with its caption, as the server lists them.
function shownCards(st) {
  const shown = st.shown || [];
  if (!shown.length) return "";
  const cards = shown
    .map((s) => `<figure class="shown" title="${esc(s.title)}">${card(s.card, st, "small")}<figcaption>${words(esc(s.caption))}</figcaption></figure>`)
    .join("");
  return `<div class="out-of-play">${cards}</div>`;
}

function lastLine(st) {
  const v = st.view;
  if (st.kind === "cirulla") {
    const p = v.last_play;
    if (!p) return "";
    const taken = p.captured.length
      ? ` → ${p.captured.map((c) => card(c, st, "mini")).join("")}`
      : "";
    return `<div class="last"><span>${esc(T("webapp-last-play"))}: <b>${esc(nameOf(p.seat, st))}</b></span>${card(p.card, st, "mini")}${taken}</div>`;
  }
  const t = v.last_trick;
  if (!t) return "";
  return `<div class="last"><span>${esc(T("webapp-last-trick"))}: <b>${esc(nameOf(t.seat, st))}</b> +${t.points}</span>${t.cards.map((c) => card(c, st, "mini")).join("")}</div>`;
}

function legalCards(st) {
  const cards = new Set();
  for (const code of st.legal) if (code.length === 2 || code[2] === ":") cards.add(cardsOf(code));
  return cards;
}

// What a bid means, said on its button (a touch screen has no tooltips).
function bidHelp(code) {
  // "Atù cuori" says what it means: the three suits of the second round keep to one row.
  const text = ["pass", "take", "sensa", "contru", "declare", "knock"].includes(code)
    ? T(`webapp-help-${code}`)
    : "";
  return text ? `<small>${esc(text)}</small>` : "";
}

let confirming = null; // an action that asks a second tap (contru)
const CONFIRMED = new Set(["contru"]);

function actionButtons(st) {
  const others = st.legal.filter((code) => code.length !== 2 && code[2] !== ":");
  let html = others
    .map((code) => {
      // The second round's suits in short ("Atù ♠", the whole label for screen readers): the
      // three keep to one row on a small phone.
      const label = code.startsWith("trump:")
        ? `${esc(T("webapp-atu"))} ${glyphs(esc(st.suits[code[6]].replace(/^\S+\s*/, "")))}`
        : words(esc(st.labels[code] || code));
      if (confirming === code)
        return `<button type="button" class="act confirm" data-action="${esc(code)}" data-confirmed="1"><span>${esc(T("webapp-confirm"))} ${label}</span><small>${esc(T(`webapp-help-${code}`))}</small></button>`;
      const full = code.startsWith("trump:") ? ` aria-label="${esc(st.labels[code])}"` : "";
      return `<button type="button" class="act" data-action="${esc(code)}"${full}><span>${label}</span>${bidHelp(code)}</button>`;
    })
    .join("");
  if (confirming) html += `<button type="button" class="act quiet" id="cancel-confirm">${esc(T("webapp-cancel"))}</button>`;
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
  if (st.over && !resultOpen(st)) {
    if (st.result) html += `<button type="button" class="act quiet" id="open-result">${esc(T("webapp-result"))}</button>`;
    if (session.local) html += `<button type="button" class="act" id="again">${esc(T("webapp-again"))}</button>`;
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
  const mode = st.legal.length ? " my-turn" : "";
  const className = `hand${mode}${legal.size ? " cards" : ""}`;
  if (box.className !== className) box.className = className;
  const old = new Map();
  for (const button of box.children) old.set(button.dataset.card, button);
  const tilt = Math.min(2.5, 14 / Math.max(cards.length, 1));
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
    const turn = `${((i - (cards.length - 1) / 2) * tilt).toFixed(1)}deg`;
    if (button.style.getPropertyValue("--r") !== turn) button.style.setProperty("--r", turn);
    // Not disabled: a tap on a card that cannot be played says why.
    if (ok) button.removeAttribute("aria-disabled");
    else button.setAttribute("aria-disabled", "true");
    if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
  });
  for (const button of old.values()) button.remove();
  // How many cards share the width: the style fans them from it (app.css, .hand).
  if (box.style.getPropertyValue("--n") !== String(cards.length)) box.style.setProperty("--n", cards.length);
}

// The result: its outcome, the score and the buttons on top, always in sight; the details
// scroll under them. It covers the table until closed, so the next deal waits for the player.
function resultOpen(st) {
  return Boolean(askingNew || (st.result && st.result.move > dismissed));
}

function closeResult() {
  if (askingNew) askingNew = false;
  else if (state && state.result) dismissed = state.result.move;
  if (state) show(state);
}

// "Nuova partita" while a game is open asks first: starting another cancels this one.
let askingNew = false;

function askPanel() {
  return (
    `<div class="result" role="dialog" aria-modal="true"><div class="sheet"><div class="sheet-head">` +
    `<p class="outcome">${esc(T("webapp-new-game-ask"))}</p>` +
    `<div class="row"><button type="button" class="act quiet" id="new-game-confirm">${esc(T("webapp-new-game-other"))}</button>` +
    `<button type="button" class="act" id="close-result">${esc(T("webapp-back-to-game"))}</button></div></div></div></div>`
  );
}

function resultPanel(st) {
  if (askingNew) return askPanel();
  if (!resultOpen(st)) return "";
  const r = st.result;
  const again = session.local && st.over ? `<button type="button" class="act" id="again">${esc(T("webapp-again"))}</button>` : "";
  const outcome = (r.outcome || []).map((l) => `<p class="outcome">${words(l)}</p>`).join("");
  const score = st.score ? `<p class="total">${words(st.score)}</p>` : "";
  const details = (r.lines || []).map((l) => `<p>${words(l)}</p>`).join("");
  return (
    `<div class="result" role="dialog" aria-modal="true"><div class="sheet">` +
    `<div class="sheet-head">${outcome}${score}<div class="row">${again}<button type="button" class="act quiet" id="close-result">${esc(T("webapp-close"))}</button></div></div>` +
    `<div class="sheet-body">${details}</div></div></div>`
  );
}

// The page's parts: laid out once per game and seat, then each one redrawn only when its
// markup changes (a play usually changes a seat's tag, a trick card, the turn and the hand).
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
  let seats = "";
  for (let rel = 0; rel < st.players; rel++) {
    const p = spot(rel, st.players);
    const side = Math.abs(p.x) > 0.5 ? " side" : "";
    seats += `<div class="seat${side}" data-sx="${p.x.toFixed(3)}" data-sy="${p.y.toFixed(3)}"><div class="part" data-part="tag-${rel}"></div></div>`;
  }
  app.innerHTML =
    '<div class="screen"><div class="part" data-part="header"></div><div class="part" data-part="notes"></div>' +
    `<section class="felt ${st.kind} p${st.players}">${seats}` +
    '<div class="trick part" data-part="trick"></div><div class="centre"><div class="part" data-part="centre"></div></div></section>' +
    ["last", "turn", "actions", "hand"].map((name) => `<div class="part" data-part="${name}"></div>`).join("") +
    '</div><div class="part" data-part="result"></div>';
  const parts = {};
  for (const el of app.querySelectorAll("[data-part]")) parts[el.dataset.part] = el;
  frame = { key, root: app.firstElementChild, parts };
  placeIn(app);
  return parts;
}

let lastTurn = -1; // the move at which the player was last told it is their turn

function show(st) {
  const before = state;
  state = st;
  app.dataset.move = st.move;
  if (st.over) app.dataset.over = "1";
  else delete app.dataset.over;
  if (choosing && !legalCards(st).has(choosing)) choosing = null;
  if (confirming && !st.legal.includes(confirming)) confirming = null;
  const parts = layout(st);
  // While Belòta's bidding lasts no trick is on the felt: the turned card lies in its middle.
  frame.root.querySelector(".felt").classList.toggle("bidding", st.kind === "belota" && st.view.phase === "bidding");
  const played = trickCards(st, before);
  for (let seat = 0; seat < st.players; seat++) patch(parts[`tag-${relative(seat, st)}`], seatTag(seat, st));
  const trick = trickPart(st, played);
  if (parts.trick._html !== trick) {
    patch(parts.trick, trick);
    placeIn(parts.trick);
  }
  const level = st.level ? `${st.score ? " · " : ""}<span>${esc(T("webapp-level"))}: ${esc(st.level)}</span>` : "";
  const score = st.score || level ? `<div class="score">${st.score ? words(st.score) : ""}${level}</div>` : "";
  const newGame = session.local ? `<button type="button" class="link" id="new-game">${esc(T("webapp-new-game"))}</button>` : "";
  patch(
    parts.header,
    `<header class="bar"><h1>${esc(st.title)}</h1>${newGame}<i class="dot"></i>${score}</header>`,
  );
  patch(parts.centre, centre(st));
  captureFlight(st);
  patch(parts.last, lastLine(st));
  patch(parts.turn, `<div class="turn${st.legal.length ? " mine" : ""}">${words(st.turn)}</div>`);
  patch(parts.actions, actionButtons(st));
  drawHand(parts.hand, st);
  patch(parts.notes, st.notes.length ? `<div class="notes">${st.notes.map((l) => `<p>${words(l)}</p>`).join("")}</div>` : "");
  patch(parts.result, resultPanel(st));
  if (st.legal.length && lastTurn !== st.move) {
    lastTurn = st.move;
    haptic("impact", "medium");
  }
  telegramControls(st);
}

// -- local mode: choose a game -----------------------------------------------------------------
let picked = { game: 0, level: 1 };

let openGameId = null; // the unfinished game the chooser can go back to

async function chooser() {
  if (stream) stream.close();
  openGameId = state && !state.over && state.seat !== null ? state.game : null;
  askingNew = false;
  state = null;
  telegramControls(null);
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
      `<button type="button" class="act main" id="start">${esc(T("webapp-play"))}</button>` +
      (openGameId !== null ? `<button type="button" class="act main quiet" id="back-to-game">${esc(T("webapp-back-to-game"))}</button>` : "") +
      "</section>";
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
function tapCard(code) {
  const options = state.legal.filter((c) => c === code || c.startsWith(`${code}:`));
  if (options.length === 1) send(options[0]);
  else if (options.length > 1) {
    choosing = choosing === code ? null : code;
    show(state);
  } else {
    // A card that cannot be played: the engine's reason, in the game's words.
    const why = state.why || {};
    toast(why[code] || why["*"] || T("webapp-cannot-play"));
    haptic("notification", "error");
  }
}

app.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || target.disabled) return;
  if (target.dataset.card && state) {
    tapCard(target.dataset.card);
  } else if (target.dataset.action) {
    const code = target.dataset.action;
    if (CONFIRMED.has(code) && !target.dataset.confirmed) {
      confirming = code; // a bid that triples the stakes is asked twice
      show(state);
    } else {
      confirming = null;
      send(code);
    }
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
  } else if (target.id === "cancel-confirm") {
    confirming = null;
    show(state);
  } else if (target.id === "close-result") {
    closeResult();
  } else if (target.id === "open-result") {
    dismissed = -1;
    show(state);
  } else if (target.id === "new-game" && state && !state.over && state.seat !== null) {
    askingNew = true;
    show(state);
  } else if (target.id === "new-game" || target.id === "again" || target.id === "new-game-confirm") {
    chooser().catch((e) => toast(e.message));
  } else if (target.id === "back-to-game" && openGameId !== null) {
    openGame(openGameId).catch((e) => toast(e.message));
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
  postEvent("web_app_request_safe_area");
  postEvent("web_app_request_content_safe_area");
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
