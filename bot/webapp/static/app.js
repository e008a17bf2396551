// The game's page inside Telegram (a Mini App): the board and one's hand as pictures with tappable spots.
// A move is made of taps (the server lists each legal move's taps: bot/messages/page.py); the page offers
// the taps that can come next, and a confirm button once the taps chosen make a whole move.
// Needs nothing from Telegram's own script: the launch data and theme come in the address's fragment.
"use strict";

const launch = readLaunch();
const api = (path) => new URL("api/" + path, document.baseURI);
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const ZOOMS = [1, 1.5, 2, 3];

let game = null; // the server's page content (bot/messages/page.py)
let chosen = []; // tap ids chosen so far
let sending = false;
let zoom = 0;
const pictures = new Map(); // "<version>|<kind>|<prefix>" -> object URL

// --- Launch data, theme and Telegram's events --------------------------------------------------------------

function readLaunch() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const initData = fragment.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  const query = new URLSearchParams(location.search);
  let theme = {};
  try {
    theme = JSON.parse(fragment.get("tgWebAppThemeParams") || "{}");
  } catch (error) {
    theme = {};
  }
  return { initData, payload: fields.get("start_param") || query.get("p") || "", theme };
}

function applyTheme(theme) {
  const names = {
    bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link",
    button_color: "--button", button_text_color: "--button-text", secondary_bg_color: "--second-bg",
    accent_text_color: "--accent", destructive_text_color: "--danger",
  };
  for (const [key, variable] of Object.entries(names)) {
    if (typeof theme[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(theme[key])) {
      document.documentElement.style.setProperty(variable, theme[key]);
    }
  }
}

function tellTelegram(eventType, eventData = {}) {
  // https://core.telegram.org/api/web-events: the mobile and desktop apps' proxy, else the web apps' parent
  const data = JSON.stringify(eventData);
  try {
    if (window.TelegramWebviewProxy) {
      window.TelegramWebviewProxy.postEvent(eventType, data);
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType, eventData }));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
    }
  } catch (error) {
    // outside Telegram (a browser, the sandbox's test): nothing to tell
  }
}

// --- Talking to the bot ----------------------------------------------------------------------------------

async function call(path, params = {}, options = {}) {
  const url = api(path);
  url.searchParams.set("p", launch.payload);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const headers = { "X-Telegram-Init-Data": launch.initData, ...(options.headers || {}) };
  return fetch(url, { ...options, headers });
}

async function load() {
  const response = await call("game");
  if (!response.ok) {
    fail(await response.text());
    return;
  }
  show(await response.json());
}

async function list() {
  // opened from the private chat's menu button: the player's running games, each opened here
  const response = await call("games");
  if (!response.ok) {
    fail(await response.text());
    return;
  }
  const body = await response.json();
  const nav = $("games");
  nav.replaceChildren();
  for (const item of body.games) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = item.waiting ? "waiting" : "";
    const title = document.createElement("b");
    title.textContent = item.title;
    const line = document.createElement("small");
    line.textContent = item.line;
    button.append(title, line);
    button.addEventListener("click", () => open(item.p));
    nav.append(button);
  }
  if (!body.games.length) fail(body.none);
  nav.hidden = false;
}

function open(payload) {
  launch.payload = payload;
  $("games").hidden = true;
  $("to-list").hidden = false;
  game = null;
  load().then(follow);
}

function fail(words) {
  $("notice").textContent = words;
  $("notice").hidden = false;
  $("bar").hidden = true;
}

function toast(words) {
  const box = $("toast");
  box.textContent = words;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 3500);
}

async function picture(kind, prefix) {
  const key = `${game.version}|${kind}|${prefix}`;
  if (!pictures.has(key)) {
    const promise = call("picture", { v: game.version, kind, prefix })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => (blob ? URL.createObjectURL(blob) : null));
    pictures.set(key, promise);
  }
  return pictures.get(key);
}

function forgetPictures(version) {
  for (const [key, promise] of pictures) {
    if (!key.startsWith(version + "|")) {
      pictures.delete(key);
      promise.then((url) => url && URL.revokeObjectURL(url));
    }
  }
}

async function send(code) {
  if (sending) return;
  sending = true;
  $("confirm").disabled = true;
  try {
    const response = await call("move", {}, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ version: game.version, code }),
    });
    const body = await response.json().catch(() => ({}));
    if (body.error) toast(body.error);
    if (body.game) show(body.game);
    else if (!response.ok) await load();
  } catch (error) {
    toast("اتصال برقرار نشد؛ دوباره امتحان کنید.");
  } finally {
    sending = false;
    drawChoices();
  }
}

function follow() {
  // server-sent events: the version of the game each time it is saved (bot/handlers/page.py)
  const url = api("events");
  url.searchParams.set("p", launch.payload);
  url.searchParams.set("init", launch.initData);
  if (follow.source) follow.source.close();
  const source = (follow.source = new EventSource(url));
  source.addEventListener("version", (event) => {
    $("live").classList.remove("off");
    if (game && Number(event.data) > game.version && !sending) load();
  });
  source.onerror = () => $("live").classList.add("off");
}

// --- Drawing ---------------------------------------------------------------------------------------------

function show(content) {
  const moved = !game || content.version !== game.version;
  game = content;
  if (moved) {
    chosen = [];
    forgetPictures(content.version);
  }
  document.title = content.title;
  $("title").textContent = `${content.emoji} ${content.title}`;
  $("notice").hidden = true;
  $("caption").innerHTML = content.caption; // the bot's own HTML (names escaped), as in the group's caption
  $("hand-text").hidden = !content.hand;
  $("hand-text").innerHTML = (content.hand || []).join("\n");
  $("board-box").hidden = false;
  $("hand-box").hidden = !content.pictures.includes("hand");
  $("zoom").hidden = !content.zoom;
  drawPictures();
  drawChoices();
}

async function drawPictures() {
  // body[data-drawing] counts the pictures on their way (tests and benchmarks wait for none)
  const drawing = (change) => (document.body.dataset.drawing = Number(document.body.dataset.drawing || 0) + change);
  drawing(1);
  try {
    const version = game.version;
    const prefix = game.previews ? commonPrefix() : "";
    await showPicture("board", await picture("board", prefix), version);
    if (game.pictures.includes("hand")) await showPicture("hand", await picture("hand", ""), version);
  } finally {
    drawing(-1);
  }
}

async function showPicture(kind, url, version) {
  const image = $(kind);
  if (!url || game.version !== version || image.src === url) return;
  const loaded = new Promise((resolve) => {
    image.addEventListener("load", resolve, { once: true });
    image.addEventListener("error", resolve, { once: true });
  });
  image.dataset.pending = version; // shown once loaded
  image.src = url;
  await loaded;
}

function setZoom(step) {
  zoom = Math.max(0, Math.min(ZOOMS.length - 1, zoom + step));
  $("board-sheet").style.width = ZOOMS[zoom] * 100 + "%";
}

// --- Choosing a move from taps ---------------------------------------------------------------------------

function counts(ids) {
  const found = new Map();
  for (const id of ids) found.set(id, (found.get(id) || 0) + 1);
  return found;
}

function fits(move, taps) {
  if (!move.unordered) return taps.every((tap, i) => move.taps[i] === tap);
  const have = counts(move.taps);
  for (const [tap, n] of counts(taps)) if ((have.get(tap) || 0) < n) return false;
  return true;
}

function consistent(taps = chosen) {
  return game.moves.filter((move) => fits(move, taps));
}

function nextTaps(taps = chosen) {
  const next = [];
  for (const move of consistent(taps)) {
    if (move.unordered) {
      const left = counts(move.taps);
      for (const tap of taps) left.set(tap, left.get(tap) - 1);
      for (const [tap, n] of left) if (n > 0 && !next.includes(tap)) next.push(tap);
    } else if (move.taps.length > taps.length) {
      const tap = move.taps[taps.length];
      if (!next.includes(tap)) next.push(tap);
    }
  }
  return next;
}

function complete() {
  return consistent().filter((move) => move.taps.length === chosen.length);
}

function commonPrefix() {
  if (!chosen.length) return "";
  const codes = consistent().map((move) => move.code.split("."));
  if (!codes.length) return "";
  let length = 0;
  while (codes.every((parts) => parts.length > length && parts[length] === codes[0][length])) length += 1;
  return codes[0].slice(0, length).join(".");
}

function turnsNow() {
  // the turns of one thing (a tile's rotations) are offered one at a time: the first is taken at once
  const next = nextTaps();
  if (next.length && next.every((tap) => game.taps[tap].turn)) {
    chosen.push(next[0]);
    return true;
  }
  return false;
}

function take(tap) {
  if (sending) return;
  const next = nextTaps();
  const at = chosen.indexOf(tap);
  if (next.includes(tap)) {
    chosen.push(tap);
    while (turnsNow());
  } else if (at >= 0 && chosen.length && game.taps[chosen[chosen.length - 1]].turn && at === chosen.length - 2) {
    turn(); // tapping the piece being turned turns it again
    return;
  } else if (at >= 0) {
    const sameMoves = game.moves.some((move) => move.unordered && fits(move, chosen));
    if (sameMoves) chosen.splice(chosen.lastIndexOf(tap), 1);
    else chosen = chosen.slice(0, at);
  } else {
    return;
  }
  drawPictures();
  drawChoices();
}

function turnOptions() {
  if (!chosen.length || !game.taps[chosen[chosen.length - 1]].turn) return [];
  return nextTaps(chosen.slice(0, -1)).filter((tap) => game.taps[tap].turn);
}

function turn() {
  const options = turnOptions();
  if (options.length < 2) return;
  const at = options.indexOf(chosen[chosen.length - 1]);
  chosen[chosen.length - 1] = options[(at + 1) % options.length];
  drawPictures();
  drawChoices();
}

function undo() {
  chosen.pop();
  if (chosen.length && game.taps[chosen[chosen.length - 1]].turn && turnOptions().length) {
    chosen.pop(); // an automatic turn goes with the tap that brought it
  }
  drawPictures();
  drawChoices();
}

function drawChoices() {
  if (!game) return;
  const acting = game.moves.length > 0;
  $("bar").hidden = !acting;
  const next = acting ? nextTaps() : [];
  for (const kind of ["board", "hand"]) drawSpots(kind, next);
  const choices = $("choices");
  choices.replaceChildren();
  for (const tap of next) {
    const info = game.taps[tap];
    if (info.spot || info.turn) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = info.label;
    button.dataset.tap = tap;
    button.addEventListener("click", () => take(tap));
    choices.append(button);
  }
  $("chosen").textContent = chosen.map((tap) => game.taps[tap].label).join(" ← ") || (acting ? "نوبت شماست: روی صفحه انتخاب کنید." : "");
  $("undo").disabled = !chosen.length || sending;
  $("turn").hidden = turnOptions().length < 2;
  const done = complete();
  $("confirm").disabled = done.length !== 1 || sending;
  $("confirm").dataset.code = done.length === 1 ? done[0].code : "";
}

function drawSpots(kind, next) {
  const layer = $(kind + "-spots");
  const image = $(kind);
  layer.replaceChildren();
  if (!image.naturalWidth) return;
  layer.setAttribute("viewBox", `0 0 ${image.naturalWidth} ${image.naturalHeight}`);
  const shown = [...new Set([...next, ...chosen])].filter((tap) => game.taps[tap]?.spot?.on === kind);
  shown.sort((a, b) => game.taps[a].spot.z - game.taps[b].spot.z); // the page's order: later spots on top
  for (const tap of shown) {
    const info = game.taps[tap];
    const shape = spotShape(info.spot);
    shape.classList.add("spot");
    if (chosen.includes(tap)) shape.classList.add("chosen");
    shape.dataset.tap = tap;
    const title = document.createElementNS(SVG, "title");
    title.textContent = info.label;
    shape.append(title);
    shape.addEventListener("click", () => take(tap));
    layer.append(shape);
  }
}

function spotShape(spot) {
  const p = spot.points;
  let shape;
  if (spot.shape === "rect") {
    shape = document.createElementNS(SVG, "rect");
    Object.entries({ x: p[0], y: p[1], width: p[2], height: p[3], rx: 6 }).forEach(([k, v]) => shape.setAttribute(k, v));
  } else if (spot.shape === "circle") {
    shape = document.createElementNS(SVG, "circle");
    Object.entries({ cx: p[0], cy: p[1], r: p[2] }).forEach(([k, v]) => shape.setAttribute(k, v));
  } else {
    shape = document.createElementNS(SVG, "polygon");
    const corners = [];
    for (let i = 0; i < p.length; i += 2) corners.push(`${p[i]},${p[i + 1]}`);
    shape.setAttribute("points", corners.join(" "));
  }
  return shape;
}

// --- Start -----------------------------------------------------------------------------------------------

applyTheme(launch.theme);
for (const kind of ["board", "hand"]) {
  $(kind).addEventListener("load", () => {
    $(kind).dataset.version = $(kind).dataset.pending;
    drawChoices();
  });
}
$("zoom-in").addEventListener("click", () => setZoom(1));
$("zoom-out").addEventListener("click", () => setZoom(-1));
$("undo").addEventListener("click", undo);
$("turn").addEventListener("click", turn);
$("confirm").addEventListener("click", () => $("confirm").dataset.code && send($("confirm").dataset.code));
tellTelegram("web_app_ready");
tellTelegram("web_app_expand");
$("to-list").addEventListener("click", () => {
  if (follow.source) follow.source.close();
  for (const id of ["board-box", "hand-box", "bar", "hand-text", "to-list"]) $(id).hidden = true;
  $("caption").replaceChildren();
  game = null;
  list();
});
const offline = () => fail("اتصال برقرار نشد؛ صفحه را دوباره باز کنید.");
if (!launch.initData) {
  fail("این صفحه را از دکمهٔ «صفحهٔ بازی» در تلگرام باز کنید.");
} else if (!launch.payload) {
  list().catch(offline);
} else {
  load().then(follow, offline);
}
