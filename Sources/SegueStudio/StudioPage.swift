/// The studio's one page: inline style and script, nothing from anywhere else (the server's Content-Security-Policy
/// forbids it too).
///
/// How it works. The page opens a WebSocket to the studio (`/ws?token=…`) and speaks the daemon's JSON-RPC through
/// it, one request per message (`RelayPolicy` says which methods). Each animator on show is a *lane*: a manual-clock
/// scene of its own (`studio-…`) holding two view controllers in the container the case needs, with the transition
/// started in it. The playhead is that scene's clock: playing advances it (`clock.advance`), seeking back rebuilds
/// the lane and advances to the time, and each step draws `scene.tree {presentation: true}` as positioned boxes with
/// CSS transforms. Dragging the scrubber restarts the lanes as interactive transitions and sends
/// `transition.update`; releasing sends `transition.finish` (past half-way) or `transition.cancel` with the
/// completion speed and curve, and the clock plays the rest. With an interaction plugin chosen, the lanes start with
/// `interactive: NAME` and the scrubber is a pan gesture instead: the slider's fraction times the scene's width
/// (horizontal) or height (vertical) along the plugin's forward direction — found once per plugin, case and size the
/// way `seguectl check` finds it: a `changed` of 30 % of the scene right, left, down and up, keeping the one that moved
/// the percent furthest — is the translation, the slider's speed over the last 100 ms the velocity, sent as
/// `gesture.pan` `began` (at pointer-down), `changed` (as it moves) and `ended` (at release): the plugin's own
/// thresholds decide whether it finishes or cancels. The filmstrip, the curves and the event list come
/// from a second run of the same case played to its end (`render.filmstrip` / `render.timeline` of that
/// transition), with a playhead mark kept in step. Plugin events (`plugin.loaded`, `plugin.failed`) refresh the
/// list; a new version of the animator on show rebuilds the lanes and plays it, a failed one shows its error while
/// the last good version keeps playing. The studio's own `studio.daemon` notification says when the daemon went
/// away and came back; the page then builds everything again.
///
/// The Movie section makes the file `seguectl movie` makes of the same case (`GET /movie?format&fps&spec`, made by the
/// studio's `MovieEndpoint` off its event loop) and offers it: a download link and a preview.
///
/// For tests, `document.body.dataset` carries `animator`, `duration` (seconds, as the transition reports it),
/// `version` (the plugin's load generation), `state` (`playing`, `paused`, `scrubbing`, `completing`, `ended`,
/// `loading`), `time`, `percent`, `connected` and `completed` (after a scrub's release: `true` or `false`), and while
/// an interaction plugin drives the scrubber, `interaction` (its name) and `gesture` (its forward direction: `right`,
/// `left`, `down` or `up`), and after the Movie button `movie` (`making`, `ready`, `failed`) with `movieName` and
/// `movieBytes` once it is ready.
enum StudioPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>segued studio</title>
<style>
  :root { --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --accent: #0a84ff; --bad: #d70015; --bg: #f5f5f7; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
  header { display: flex; align-items: center; gap: 12px; padding: 8px 14px; background: #fff;
           border-bottom: 1px solid var(--line); }
  header h1 { font-size: 15px; margin: 0; }
  #status { font-size: 12px; color: var(--muted); }
  #status.down { color: var(--bad); font-weight: 600; }
  #banner { display: none; padding: 6px 14px; background: #fff4ce; border-bottom: 1px solid #e8d48b; }
  #banner.show { display: block; }
  /* minmax(0, 1fr): the right column may shrink below its widest control (a 1fr track's minimum is its content, so
     at 700 px the controls pushed the panels past the window's edge); under 760 px the plugin list goes on top. */
  main { display: grid; grid-template-columns: 270px minmax(0, 1fr); gap: 12px; padding: 12px; }
  @media (max-width: 760px) { main { grid-template-columns: minmax(0, 1fr); } }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; }
  h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 6px; }
  #plugins { list-style: none; margin: 0; padding: 0; }
  /* One plugin: its name and load on the first row, kind and status under them, an error below. */
  #plugins li { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 8px; align-items: baseline;
                padding: 4px 6px; border-radius: 5px; cursor: default; }
  #plugins li.animator { cursor: pointer; }
  #plugins li.current { background: #e8f1fe; }
  #plugins li .name { overflow-wrap: anywhere; }
  #plugins li .gen { grid-row: 1; grid-column: 2; color: var(--muted); font-size: 11px; white-space: nowrap; }
  #plugins li .kind { grid-column: 1 / -1; color: var(--muted); font-size: 11px; }
  #plugins li .err { grid-column: 1 / -1; color: var(--bad); font-size: 11px; white-space: pre-wrap;
                     overflow-wrap: anywhere; }
  #plugins li.failed .name { color: var(--bad); }
  .controls { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; margin-bottom: 8px; }
  .controls label { display: flex; gap: 4px; align-items: center; }
  input[type=number] { width: 58px; }
  #plugin-error { display: none; margin: 6px 0; padding: 6px 8px; border-radius: 6px; background: #fde7e9;
                  color: var(--bad); white-space: pre-wrap; font: 12px ui-monospace, monospace; }
  #plugin-error.show { display: block; }
  #stages { display: flex; gap: 16px; flex-wrap: wrap; }
  .lane { display: flex; flex-direction: column; gap: 4px; }
  .lane .title { font-weight: 600; }
  .lane .title span { font-weight: 400; color: var(--muted); }
  .stage { position: relative; overflow: hidden; background: #000; border-radius: 6px; }
  .stage .v { position: absolute; transform-origin: 50% 50%; }
  .stage .v > .label { position: absolute; left: 4px; top: 2px; font-size: 10px; color: rgba(255,255,255,.85);
                       text-shadow: 0 0 2px #000; pointer-events: none; }
  .player { display: flex; align-items: center; gap: 10px; margin: 8px 0; }
  #scrub { flex: 1; }
  #time { font: 12px ui-monospace, monospace; min-width: 150px; text-align: right; }
  button { font: inherit; padding: 3px 12px; border-radius: 6px; border: 1px solid var(--line); background: #fff; }
  button:hover { border-color: var(--accent); }
  #play { min-width: 70px; }
  .pictures { display: grid; grid-template-columns: 1fr; gap: 10px; margin-top: 10px; }
  .picture { position: relative; overflow-x: auto; }
  .picture img { display: block; max-width: 100%; }
  .picture .mark { position: absolute; border: 2px solid var(--accent); border-radius: 3px; pointer-events: none; }
  .picture .head { position: absolute; width: 2px; background: var(--accent); pointer-events: none; }
  #events { max-height: 220px; overflow: auto; margin: 0; padding: 0; list-style: none;
            font: 12px ui-monospace, monospace; }
  #events li { padding: 1px 4px; color: #aeaeb2; }
  #events li.past { color: var(--fg); }
  #events li .t { display: inline-block; width: 62px; color: var(--muted); }
  #movie-status { color: var(--muted); white-space: pre-wrap; }
  #movie-status.bad { color: var(--bad); }
  #movie-result img, #movie-result video { display: block; max-width: 100%; margin-top: 6px; border: 1px solid var(--line); }
</style>
</head>
<body data-state="loading" data-connected="false">
<header>
  <h1>segued studio</h1>
  <span id="status">connecting…</span>
</header>
<div id="banner"></div>
<main>
  <section>
    <h2>Plugins</h2>
    <ul id="plugins"></ul>
  </section>
  <div>
    <section>
      <div class="controls">
        <label>animator <select id="animator"></select></label>
        <label>compare with <select id="compare"><option value="">—</option></select></label>
        <label>case <select id="kind">
          <option value="select">select forward</option><option value="select-backward">select backward</option>
          <option value="push">push</option><option value="pop">pop</option>
          <option value="present">present</option><option value="dismiss">dismiss</option>
        </select></label>
        <label>style <select id="style">
          <option value="fullScreen">fullScreen</option><option value="overFullScreen">overFullScreen</option>
          <option value="custom">custom</option>
        </select></label>
        <label>presentation <select id="presentation"><option value="">—</option></select></label>
      </div>
      <div class="controls">
        <label>size <input id="w" type="number" min="40" max="2000" value="320">×<input id="h" type="number" min="40" max="2000" value="480"></label>
        <label>from <input id="from-color" type="color" value="#ff3b30"></label>
        <label>to <input id="to-color" type="color" value="#007aff"></label>
        <label>completion speed <input id="completion-speed" type="number" min="0.1" max="10" step="0.1" value="1"></label>
        <label title="an interaction plugin drives the scrubber with pan gestures (its thresholds decide); none: the studio finishes past half-way">interaction <select id="interaction"><option value="">—</option></select></label>
        <label>curve <select id="completion-curve">
          <option value="">as the animation</option><option>linear</option><option>ease_in</option>
          <option>ease_out</option><option>ease_in_out</option>
        </select></label>
      </div>
      <div id="plugin-error"></div>
      <div id="stages"></div>
      <div class="player">
        <button id="play">Pause</button>
        <label>speed <select id="speed">
          <option>0.1</option><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option>
        </select></label>
        <label><input id="loop" type="checkbox" checked> loop</label>
        <input id="scrub" type="range" min="0" max="1000" value="0" title="drag: the real interactive transition">
        <span id="time"></span>
      </div>
    </section>
    <div class="pictures">
      <section><h2>Filmstrip</h2><div id="filmstrips"></div></section>
      <section><h2>Curves</h2><div id="curves"></div></section>
      <section><h2>Events</h2><ul id="events"></ul></section>
      <section><h2>Movie</h2>
        <div class="controls">
          <label>format <select id="movie-format">
            <option value="gif">GIF</option><option value="webm">WebM (VP9)</option><option value="mp4">MP4 (H.264)</option>
          </select></label>
          <label>fps <input id="movie-fps" type="number" min="1" max="60" value="30"></label>
          <button id="movie" title="the file seguectl movie makes of this animator and case: rsvg-convert and ffmpeg on the studio's machine">Make movie</button>
          <span id="movie-status"></span>
        </div>
        <div id="movie-result"></div>
      </section>
    </div>
  </div>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const body = document.body;
const token = new URLSearchParams(location.search).get("token") || "";
const hashParams = new URLSearchParams(location.hash.slice(1));

// ---- The connection: JSON-RPC through the studio ----------------------------------------------------------
const rpc = { ws: null, next: 1, pending: new Map(), session: 0 };

function connect() {
  const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  rpc.ws = ws;
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.method === "event") return onEvent(msg.params);
    if (msg.method === "studio.daemon") return onDaemon(msg.params);
    const waiter = rpc.pending.get(msg.id);
    if (!waiter) return;
    rpc.pending.delete(msg.id);
    if (msg.error) waiter.reject(Object.assign(new Error(msg.error.message), { rpc: msg.error }));
    else waiter.resolve(msg.result);
  };
  ws.onclose = () => {
    setStatus("the studio closed the connection; retrying…", true);
    failPending("the studio connection closed");
    setTimeout(connect, 1000);
  };
}

function call(method, params) {
  return new Promise((resolve, reject) => {
    if (!rpc.ws || rpc.ws.readyState !== 1) return reject(new Error("not connected"));
    const id = rpc.next++;
    rpc.pending.set(id, { resolve, reject });
    rpc.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
}

function failPending(why) {
  for (const waiter of rpc.pending.values()) waiter.reject(new Error(why));
  rpc.pending.clear();
}

function setStatus(text, down) {
  $("status").textContent = text;
  $("status").classList.toggle("down", !!down);
}

let bannerTimer = 0;
// Shows a line under the header; a note that needs no action (`hideAfterMs`) goes away by itself.
function banner(text, hideAfterMs) {
  clearTimeout(bannerTimer);
  $("banner").textContent = text || "";
  $("banner").classList.toggle("show", !!text);
  if (text && hideAfterMs) bannerTimer = setTimeout(() => banner(""), hideAfterMs);
}

function onDaemon(p) {
  body.dataset.connected = String(p.connected);
  if (!p.connected) {
    setStatus(`no daemon answers at ${p.socket}; retrying…`, true);
    banner(p.session > 0
      ? "The daemon stopped or restarted: the studio is reconnecting. Everything is rebuilt when it is back."
      : `No daemon answers at ${p.socket}: start it (scripts/start). The studio connects as soon as it is up.`);
    failPending("the daemon went away");
    studio.lanes = [];
    return;
  }
  setStatus(`connected to ${p.socket}`);
  banner(p.session > 1 ? "The daemon restarted: reconnected, and the scenes were built again." : "", 8000);
  studio.epoch++;
  serial(start).catch(showFailure);
}

// ---- Work runs one piece at a time -------------------------------------------------------------------------
let chain = Promise.resolve();
function serial(fn) {
  const p = chain.then(fn);
  chain = p.catch(() => {});
  return p;
}

function showFailure(e) {
  if (e && /not connected|went away|closed/.test(e.message)) return;
  $("plugin-error").textContent = e && e.message ? e.message : String(e);
  $("plugin-error").classList.add("show");
}

// ---- State ----------------------------------------------------------------------------------------------------
const studio = {
  epoch: 0,            // grows with each daemon session
  plugins: [],
  lanes: [],
  playing: true,
  t: 0,                // the playhead, seconds from the transition's start
  end: 0,              // where playing stops or loops
  mode: "play",        // play | scrubbing | completing
  percent: 0,
  scrubTarget: null,
  samples: [],         // the slider's recent positions while scrubbing: {at (ms), fraction}
  gesture: null,       // while an interaction plugin drives the scrubber: {interaction, direction}
  pictureRun: 0,
  collect: null,       // {scene, list}: the picture run's events
};
let sceneCounter = 0;

function settings() {
  const kind = $("kind").value;
  return {
    kind: kind === "select-backward" ? "select" : kind,
    backward: kind === "select-backward",
    style: $("style").value,
    presentation: $("presentation").value || null,
    size: { w: clamp(+$("w").value || 320, 40, 2000), h: clamp(+$("h").value || 480, 40, 2000) },
    colors: [$("from-color").value, $("to-color").value],
    interaction: $("interaction").value || null,
  };
}

function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }

// ---- Plugins ----------------------------------------------------------------------------------------------
async function loadPlugins() {
  studio.plugins = await call("plugins.list", {});
  const list = $("plugins");
  list.textContent = "";
  for (const p of studio.plugins) {
    const li = document.createElement("li");
    li.className = `${p.kind} ${p.status}` + (p.name === $("animator").value ? " current" : "");
    li.dataset.plugin = p.name;
    li.innerHTML = `<span class="name"></span> <span class="kind"></span><span class="gen"></span>`;
    li.querySelector(".name").textContent = p.name;
    li.querySelector(".kind").textContent = `${p.kind} · ${p.status}`;
    li.querySelector(".gen").textContent = p.generation ? `v${p.version || "?"} · load ${p.generation}` : "";
    if (p.error) {
      const err = document.createElement("span");
      err.className = "err";
      const line = /:(\d+):/.exec(p.error);
      err.textContent = (line ? `line ${line[1]}: ` : "") + p.error;
      li.appendChild(err);
    }
    if (p.kind === "animator" && p.status === "loaded") {
      li.onclick = () => { $("animator").value = p.name; changed(); };
    }
    list.appendChild(li);
  }
  const animators = ["default-slide"].concat(
    studio.plugins.filter((p) => p.kind === "animator" && p.status === "loaded").map((p) => p.name));
  fillSelect($("animator"), animators, hashParams.get("animator") || "dt-slide");
  hashParams.delete("animator");
  for (const li of list.children) li.classList.toggle("current", li.dataset.plugin === $("animator").value);
  const compare = [""].concat(animators);
  const current = record($("animator").value);
  if (current && current.generation > 1) compare.push(current.name + "@previous");
  fillSelect($("compare"), compare, "");
  const presentations = [""].concat(studio.plugins.filter((p) => p.kind === "presentation" && p.status === "loaded")
    .map((p) => p.name));
  fillSelect($("presentation"), presentations, "");
  const interactions = [""].concat(studio.plugins.filter((p) => p.kind === "interaction" && p.status === "loaded")
    .map((p) => p.name));
  fillSelect($("interaction"), interactions, hashParams.get("interaction") || "");
  hashParams.delete("interaction");
  markCases();
  showPluginError();
}

/// Cases the animator does not declare in its `kinds` stay playable (to see what happens) but are marked.
function markCases() {
  const r = record($("animator").value);
  for (const option of $("kind").options) {
    const kind = option.value.replace("-backward", "");
    const declared = !r || !r.kinds || r.kinds.includes(kind);
    option.textContent = option.textContent.replace(/ \(not in its kinds\)$/, "") + (declared ? "" : " (not in its kinds)");
  }
}

function fillSelect(select, values, fallback) {
  const keep = select.value;
  select.textContent = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v || "—";
    select.appendChild(o);
  }
  select.value = values.includes(keep) && keep !== "" ? keep : (values.includes(fallback) ? fallback : values[0]);
}

function record(name) { return studio.plugins.find((p) => p.name === name); }

function showPluginError() {
  const r = record($("animator").value);
  const box = $("plugin-error");
  if (r && r.error) {
    const line = /:(\d+):/.exec(r.error);
    box.textContent = (line ? `line ${line[1]}: ` : "") + r.error + "\n(the last good version keeps playing)";
    box.classList.add("show");
  } else {
    box.textContent = "";
    box.classList.remove("show");
  }
  body.dataset.pluginError = r && r.error ? "true" : "false";
}

let reloadTimer = null;
const reloaded = new Set();   // plugins loaded again in the current burst of plugin events
function onEvent(e) {
  if (e.type && e.type.startsWith("plugin.")) {
    if (e.type === "plugin.loaded") reloaded.add(e.name);
    clearTimeout(reloadTimer);
    // One refresh for a burst (a file defines several plugins); a new version of what is on show plays at once.
    reloadTimer = setTimeout(() => serial(async () => {
      const names = [...reloaded];
      reloaded.clear();
      await loadPlugins();
      const onShow = studio.lanes.map((l) => l.animator.replace(/@previous$/, ""));
      if (names.some((n) => onShow.includes(n))) await rebuildAll(true);
      else showVersion();
    }).catch(showFailure), 20);
    return;
  }
  if (studio.collect && e.scene === studio.collect.scene) studio.collect.list.push(e);
  for (const lane of studio.lanes) {
    if (e.scene === lane.scene && e.type === "transition.completed" && e.transition === lane.transition) {
      lane.ended = true;
      lane.completed = e.completed;
    }
  }
}

function showVersion() {
  const r = record($("animator").value);
  body.dataset.version = r && r.generation ? String(r.generation) : "0";
}

// ---- Lanes: one scene per animator on show ----------------------------------------------------------------
function newSceneID() { return `studio-${Date.now().toString(36)}-${++sceneCounter}`; }

async function buildLane(animator, interactive, forPictures, sceneID) {
  const s = settings();
  const scene = sceneID || newSceneID();
  await call("scene.create", { id: scene, size: s.size, clock: "manual" });
  const sub = await call("events.subscribe", { scene, types: ["lifecycle", "transition", "log"] });
  await call("vc.create", { scene, id: "from", title: "From", color: s.colors[0] });
  await call("vc.create", { scene, id: "to", title: "To", color: s.colors[1] });
  // `interactive`: false, true (transition.update drives it) or an interaction plugin's name (gesture.pan does).
  const opts = { scene, animator, interactive: typeof interactive === "string" ? interactive : !!interactive };
  const modal = { style: s.style };
  if (s.style === "custom" && s.presentation) modal.presentation = s.presentation;
  let started;
  // Events before the transition's own start call are the set-up's: the event list leaves them out.
  const begin = (method, params) => {
    if (studio.collect && studio.collect.scene === scene) studio.collect.mark = studio.collect.list.length;
    return call(method, params);
  };
  switch (s.kind) {
    case "select":
      await call("container.create", { scene, id: "c", kind: "custom",
                                       children: s.backward ? ["to", "from"] : ["from", "to"] });
      await call("scene.set_root", { scene, vc: "c" });
      if (s.backward) await call("container.select", { scene, container: "c", index: 1, animated: false });
      started = await begin("container.select", Object.assign({ container: "c", index: s.backward ? 0 : 1 }, opts));
      break;
    case "push":
      await call("container.create", { scene, id: "nav", kind: "navigation", root: "from" });
      await call("scene.set_root", { scene, vc: "nav" });
      started = await begin("nav.push", Object.assign({ container: "nav", vc: "to" }, opts));
      break;
    case "pop":
      await call("container.create", { scene, id: "nav", kind: "navigation", children: ["to", "from"] });
      await call("scene.set_root", { scene, vc: "nav" });
      started = await begin("nav.pop", Object.assign({ container: "nav" }, opts));
      break;
    case "present":
      await call("scene.set_root", { scene, vc: "from" });
      started = await begin("modal.present", Object.assign({ presenting: "from", presented: "to" }, modal, opts));
      break;
    case "dismiss":
      await call("scene.set_root", { scene, vc: "to" });
      await call("modal.present", Object.assign({ scene, presenting: "to", presented: "from", animated: false }, modal));
      started = await begin("modal.dismiss", Object.assign({ presented: "from" }, opts));
      break;
  }
  return { animator, scene, subscription: sub.subscription, transition: started.transition,
           duration: started.duration, t: 0, interactive: !!interactive, ended: false, completed: null,
           forPictures: !!forPictures, gesture: typeof interactive === "string" ? interactive : null };
}

async function dropLane(lane) {
  if (!lane) return;
  try { await call("events.unsubscribe", { subscription: lane.subscription }); } catch (e) { }
  try { await call("scene.destroy", { scene: lane.scene }); } catch (e) { }
}

function lanesWanted() {
  const names = [$("animator").value];
  if ($("compare").value) names.push($("compare").value);
  return names;
}

/// Builds every lane again (new settings, a new plugin version): the playhead restarts at 0.
async function rebuildAll(play) {
  const old = studio.lanes;
  studio.lanes = [];
  for (const lane of old) await dropLane(lane);
  const lanes = [];
  try {
    for (const name of lanesWanted()) lanes.push(await buildLane(name, false));
  } catch (e) {
    for (const lane of lanes) await dropLane(lane);
    drawStages([]);
    throw e;
  }
  studio.lanes = lanes;
  studio.t = 0;
  studio.mode = "play";
  studio.end = Math.max(...lanes.map((l) => l.duration), 1 / 60);
  body.dataset.animator = lanes[0].animator;
  body.dataset.duration = String(lanes[0].duration);
  body.dataset.completed = "";
  showVersion();
  if (play !== undefined) studio.playing = play;
  $("play").textContent = studio.playing ? "Pause" : "Play";
  $("plugin-error").classList.toggle("show", !!(record(lanes[0].animator) || {}).error);
  await drawLanes();
  await drawPictures();
}

/// Moves every lane to time t: forward by advancing its clock, backward by building it again.
async function seek(t) {
  for (let i = 0; i < studio.lanes.length; i++) {
    let lane = studio.lanes[i];
    if (t < lane.t - 1e-9 || lane.interactive) {
      const fresh = await buildLane(lane.animator, false);
      await dropLane(lane);
      studio.lanes[i] = lane = fresh;
    }
    const ms = (t - lane.t) * 1000;
    if (ms > 0) await call("clock.advance", { scene: lane.scene, ms });
    lane.t = t;
  }
  studio.t = t;
  await drawLanes();
}

// ---- Drawing the live scene -----------------------------------------------------------------------------------
function drawStages(trees) {
  const stages = $("stages");
  const s = settings();
  const scale = Math.min(1, 340 / s.size.w, 420 / s.size.h);
  stages.textContent = "";
  trees.forEach((tree, i) => {
    const lane = studio.lanes[i];
    const box = document.createElement("div");
    box.className = "lane";
    const title = document.createElement("div");
    title.className = "title";
    title.textContent = lane.animator + " ";
    const info = document.createElement("span");
    const r = record(lane.animator.replace(/@previous$/, ""));
    // Only successful loads count, so the version before the loaded one is always one load earlier.
    const load = r && r.generation ? r.generation - (/@previous$/.test(lane.animator) ? 1 : 0) : 0;
    info.textContent = `${lane.duration} s` + (load ? ` · load ${load}` : "");
    title.appendChild(info);
    const stage = document.createElement("div");
    stage.className = "stage";
    stage.style.width = `${s.size.w * scale}px`;
    stage.style.height = `${s.size.h * scale}px`;
    const inner = document.createElement("div");
    inner.style.cssText = `position:absolute;left:0;top:0;width:${s.size.w}px;height:${s.size.h}px;`
      + `transform:scale(${scale});transform-origin:0 0;`;
    studioMasks = {};
    for (const m of (tree && tree.masks) || []) studioMasks[m.id] = m;
    if (tree) inner.appendChild(viewElement(tree.views, { x: 0, y: 0 }));
    stage.appendChild(inner);
    box.appendChild(title);
    box.appendChild(stage);
    stages.appendChild(box);
  });
}

function viewElement(node, parentBounds, parent) {
  // What is on screen now: the presentation values (the model's when the view is not animating).
  const v = node.presentation || node;
  const el = document.createElement("div");
  el.className = "v";
  el.dataset.view = node.id;
  const b = v.bounds, c = v.center;
  const ap = v.anchor_point || { x: 0.5, y: 0.5 };
  el.style.left = `${c.x - b.w * ap.x - parentBounds.x}px`;
  el.style.top = `${c.y - b.h * ap.y - parentBounds.y}px`;
  el.style.width = `${b.w}px`;
  el.style.height = `${b.h}px`;
  el.style.opacity = String(clamp(v.alpha, 0, 1));
  el.style.background = v.color || "transparent";
  if (v.corner_radius) el.style.borderRadius = `${v.corner_radius}px`;
  if (v.colors) el.style.backgroundImage = gradientCSS(v);
  layerLook(el, v);
  if (node.mask) maskLook(el, v, studioMasks[node.mask]);
  if (v.hidden) el.style.display = "none";
  const t = v.transform || {};
  const layered = layerMatrix(v, parent);
  if (layered) {
    // Core Animation's geometry (anchor point, the superview's sublayer transform): the whole 4×4 from the box's
    // top-left corner, CA's row-major entries being CSS matrix3d's column-major ones.
    el.style.left = `${-parentBounds.x}px`;
    el.style.top = `${-parentBounds.y}px`;
    el.style.transformOrigin = "0 0";
    el.style.transform = `matrix3d(${layered.join(",")})`;
  } else if (t.m) el.style.transform = `matrix3d(${t.m.join(",")})`;
  else if ("a" in t) el.style.transform = `matrix(${t.a},${t.b},${t.c},${t.d},${t.tx},${t.ty})`;
  if (v.double_sided === false) el.style.backfaceVisibility = "hidden";
  if (/^(from|to)\.view$/.test(node.id)) {
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = node.id.replace(".view", "");
    el.appendChild(label);
  }
  const subviews = (node.subviews || []).map((s, i) => [s, i]).sort((p, q) => (p[0].z - q[0].z) || (p[1] - q[1]));
  for (const [s] of subviews) el.appendChild(viewElement(s, b, v));
  return el;
}

// CA's layer matrix of a view in its superview's box, or null when CSS's own placement is the same (anchor point at
// the centre, no sublayer transform above): T(bounds origin − anchor)·transform·T(position, z), then the
// superview's sublayer transform about its anchor point, then T(−superview's bounds origin). Row vectors, as CA.
function layerMatrix(v, parent) {
  const ap = v.anchor_point || { x: 0.5, y: 0.5 };
  const s = parent && parent.sublayer_transform;
  const sm = s && (s.m || ("a" in s ? [s.a, s.b, 0, 0, s.c, s.d, 0, 0, 0, 0, 1, 0, s.tx, s.ty, 0, 1] : null));
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const hasSublayer = sm && sm.some((x, i) => x !== identity[i]);
  if (ap.x === 0.5 && ap.y === 0.5 && !hasSublayer) return null;
  const t = v.transform || {};
  const tm = t.m || ("a" in t ? [t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1] : identity);
  const mul = (p, q) => {
    const r = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
      let x = 0;
      for (let k = 0; k < 4; k++) x += p[i * 4 + k] * q[k * 4 + j];
      r.push(x);
    }
    return r;
  };
  const move = (x, y, z) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
  const b = v.bounds;
  let m = mul(move(-b.w * ap.x, -b.h * ap.y, 0), tm);
  m = mul(m, move(v.center.x, v.center.y, v.z || 0));
  if (hasSublayer) {
    const pb = parent.bounds, pa = parent.anchor_point || { x: 0.5, y: 0.5 };
    const px = pb.x + pb.w * pa.x, py = pb.y + pb.h * pa.y;
    m = mul(mul(mul(m, move(-px, -py, 0)), sm), move(px, py, 0));
  }
  return m;
}

// The layer's look (scene.tree leaves each out at CALayer's default): the border an outline inset by its width
// (drawn over the subviews, inside the bounds, as CALayer's), the shadow a box-shadow whose blur is the shadow radius
// (CSS blurs with σ = blur / 2, as the filmstrip's feGaussianBlur), none when clips_to_bounds (masksToBounds clips
// it), and clips_to_bounds overflow: hidden.
function layerLook(el, v) {
  const bw = Math.max(v.border_width || 0, 0);
  if (bw > 0) {
    el.style.outline = `${bw}px solid ${v.border_color || "#000000"}`;
    el.style.outlineOffset = `${-bw}px`;
  }
  const opacity = clamp(v.shadow_opacity || 0, 0, 1);
  if (v.clips_to_bounds) el.style.overflow = "hidden";
  else if (opacity > 0) {
    const o = v.shadow_offset || { w: 0, h: -3 };
    const radius = v.shadow_radius === undefined ? 3 : Math.max(v.shadow_radius, 0);
    const hex = (v.shadow_color || "#000000").slice(1);
    const rgb = [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
    const a = (hex.length === 8 ? parseInt(hex.slice(6, 8), 16) / 255 : 1) * opacity;
    el.style.boxShadow = `${o.w}px ${o.h}px ${radius}px rgba(${rgb.join(",")},${a})`;
  }
}

// A gradient view's CAGradientLayer (scene.tree's colors, locations, start_point, end_point, type) as a CSS gradient
// over its background colour, in the element's box (its bounds): axial as linear-gradient at the angle from the start
// point to the end point, the stops placed on CSS's gradient line (which runs through the box's centre, corner to
// corner) where CA's lie on the line between the two points; radial as radial-gradient, CA's ellipse centred at
// start_point with semi-axes |end − start|; conic as conic-gradient from the angle towards end_point, clockwise (CSS's
// 0deg is up). CSS interpolates premultiplied, CA per component: where two stops' alphas differ, intermediate stops
// computed per component keep the two within 1/8 of the step (the filmstrip does the same).
function gradientCSS(v) {
  const w = v.bounds.w, h = v.bounds.h, colors = v.colors || [];
  if (!colors.length || !(w > 0) || !(h > 0)) return "";
  const n = colors.length;
  const given = v.locations && v.locations.length ? v.locations.slice(0, n) : null;
  const rgba = (hex) => { const x = hex.slice(1); return [0, 2, 4].map((k) => parseInt(x.slice(k, k + 2), 16) / 255)
    .concat([x.length === 8 ? parseInt(x.slice(6, 8), 16) / 255 : 1]); };
  let stops = [];
  let last = 0;
  for (let i = 0; i < (given ? given.length : n); i++) {
    const l = given ? Math.max(last, clamp(given[i], 0, 1)) : (n > 1 ? i / (n - 1) : 0);
    stops.push([l, rgba(colors[i])]);
    last = l;
  }
  const dense = [];
  stops.forEach((st, i) => {
    const prev = stops[i - 1];
    if (prev && prev[1][3] !== st[1][3] && st[0] > prev[0]) {
      for (let j = 1; j < 8; j++) {
        const f = j / 8;
        dense.push([prev[0] + (st[0] - prev[0]) * f, prev[1].map((c, k) => c + (st[1][k] - c) * f)]);
      }
    }
    dense.push(st);
  });
  const css = (c) => `rgba(${c.slice(0, 3).map((x) => Math.round(x * 255)).join(",")},${c[3]})`;
  const list = (at) => dense.map(([l, c]) => `${css(c)} ${at(l)}`).join(", ");
  const s = v.start_point || { x: 0.5, y: 0 }, e = v.end_point || { x: 0.5, y: 1 };
  const sx = s.x * w, sy = s.y * h, ex = e.x * w, ey = e.y * h;
  const end = css(dense[dense.length - 1][1]);
  const solid = `linear-gradient(${end}, ${end})`;
  if (dense.length === 1) return `linear-gradient(${css(dense[0][1])}, ${css(dense[0][1])})`;
  if (v.type === "radial") {
    const rx = Math.abs(ex - sx), ry = Math.abs(ey - sy);
    if (rx < 1e-9 || ry < 1e-9) return solid;
    return `radial-gradient(${rx}px ${ry}px at ${sx}px ${sy}px, ${list((l) => `${l * 100}%`)})`;
  }
  if (v.type === "conic") {
    const deg = Math.atan2(ex - sx, -(ey - sy)) * 180 / Math.PI;
    return `conic-gradient(from ${deg}deg at ${sx}px ${sy}px, ${list((l) => `${l * 360}deg`)})`;
  }
  const dx = ex - sx, dy = ey - sy, len = Math.hypot(dx, dy);
  if (len < 1e-9) return solid;
  const ux = dx / len, uy = dy / len;
  const deg = Math.atan2(ux, -uy) * 180 / Math.PI;
  const line = Math.abs(w * ux) + Math.abs(h * uy);
  const offset = (w / 2 - sx) * ux + (h / 2 - sy) * uy;
  return `linear-gradient(${deg}deg, ${list((l) => `${50 + (l * len - offset) / line * 100}%`)})`;
}

// CALayer.mask as a CSS mask-image: an SVG of the mask view's rounded rect in the view's bounds (the tree's `masks`
// carry the mask views), placed as Core Animation places a mask layer — about its anchor point, through its own
// transform (a 3-D one projected, clipped at the eye plane), at its position in the view's bounds; the view's
// sublayer transform is not applied, a mask being no sublayer — white at its alpha × its colour's alpha, used as
// an alpha mask over the element's box. Closer than a clip-path (it keeps partial alpha); a hidden mask view hides
// the view, as a transparent mask layer does.
let studioMasks = {};
function maskLook(el, v, m) {
  const b = v.bounds;
  let shape = "";
  const mv = m && (m.presentation || m);
  if (mv && !mv.hidden) {
    const hex = (mv.color || "#00000000").slice(1);
    const a = clamp(mv.alpha, 0, 1) * (hex.length === 8 ? parseInt(hex.slice(6, 8), 16) / 255 : 1);
    shape = maskShape(mv, b, ` fill='white' fill-opacity='${a}'`);
  }
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='${b.w}' height='${b.h}'>${shape}</svg>`;
  const url = `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
  for (const p of ["maskImage", "webkitMaskImage"]) el.style[p] = url;
  for (const p of ["maskRepeat", "webkitMaskRepeat"]) el.style[p] = "no-repeat";
  for (const p of ["maskSize", "webkitMaskSize"]) el.style[p] = `${b.w}px ${b.h}px`;
  el.style.maskMode = "alpha";
}

// The mask view's rounded rect in the masked view's box (origin at its bounds origin `b`): a point p of the mask's
// bounds goes to [p − anchor, 0, 1]·transform = [X, Y, Z, W], drawn at (X / W, Y / W) + position − b. An affine map
// is an SVG rect under matrix(…); a perspective one the outline's points projected, the part with W ≤ 1e-6 (at or
// behind the eye) clipped away as the filmstrip clips it.
function maskShape(mv, b, paint) {
  const mb = mv.bounds, ap = mv.anchor_point || { x: 0.5, y: 0.5 };
  const r = Math.min(Math.max(mv.corner_radius || 0, 0), mb.w / 2, mb.h / 2);
  const t = mv.transform || {};
  const m = t.m || ("a" in t ? [t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1]
                             : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const ax = mb.x + mb.w * ap.x, ay = mb.y + mb.h * ap.y;
  const ox = mv.center.x - b.x, oy = mv.center.y - b.y;
  if (m[3] === 0 && m[7] === 0 && m[15] > 0) {
    const w = m[15];
    const e = (-ax * m[0] - ay * m[4] + m[12]) / w + ox, f = (-ax * m[1] - ay * m[5] + m[13]) / w + oy;
    const matrix = [m[0] / w, m[1] / w, m[4] / w, m[5] / w, e, f].join(" ");
    return `<rect x='${mb.x}' y='${mb.y}' width='${mb.w}' height='${mb.h}' rx='${r}' transform='matrix(${matrix})'${paint}/>`;
  }
  const wOf = (p) => (p[0] - ax) * m[3] + (p[1] - ay) * m[7] + m[15];
  let points = [];
  const outline = [];
  const corners = r > 0 ? [[mb.x + mb.w - r, mb.y + r, -Math.PI / 2], [mb.x + mb.w - r, mb.y + mb.h - r, 0],
                           [mb.x + r, mb.y + mb.h - r, Math.PI / 2], [mb.x + r, mb.y + r, Math.PI]] : [];
  for (const [cx, cy, a0] of corners) {
    for (let k = 0; k <= 7; k++) {
      const angle = a0 + k / 7 * Math.PI / 2;
      outline.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
    }
  }
  if (!corners.length) outline.push([mb.x, mb.y], [mb.x + mb.w, mb.y], [mb.x + mb.w, mb.y + mb.h], [mb.x, mb.y + mb.h]);
  // Sutherland–Hodgman against the plane W = 2e-6 (W is linear in the point).
  const eye = 2e-6;
  for (let k = 0; k < outline.length; k++) {
    const p = outline[k], q = outline[(k + 1) % outline.length];
    const wp = wOf(p), wq = wOf(q);
    if (wp > eye) points.push(p);
    if ((wp > eye) !== (wq > eye)) {
      const s = (eye - wp) / (wq - wp);
      points.push([p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s]);
    }
  }
  points = points.map((p) => {
    const x = p[0] - ax, y = p[1] - ay, w = wOf(p);
    return [(x * m[0] + y * m[4] + m[12]) / w + ox, (x * m[1] + y * m[5] + m[13]) / w + oy];
  });
  if (points.length < 3) return "";
  return `<path d='${points.map((p, k) => (k ? "L" : "M") + p[0] + " " + p[1]).join("")}Z'${paint}/>`;
}

async function drawLanes() {
  const trees = [];
  for (const lane of studio.lanes) trees.push(await call("scene.tree", { scene: lane.scene, presentation: true }));
  drawStages(trees);
  showPlayhead();
}

function showPlayhead() {
  const end = Math.max(studio.end, 1e-6);
  if (studio.mode !== "scrubbing") $("scrub").value = String(Math.round(clamp(studio.t / end, 0, 1) * 1000));
  const pct = studio.mode === "play" ? clamp(studio.t / Math.max(studio.lanes[0] ? studio.lanes[0].duration : 1, 1e-6), 0, 1)
                                     : studio.percent;
  // Side by side, the percent is the first lane's (the lanes may last differently): say whose it is.
  const whose = studio.lanes.length > 1 ? `${studio.lanes[0].animator} ` : "";
  $("time").textContent = `${studio.t.toFixed(3)} s / ${end.toFixed(3)} s · ${whose}${(pct * 100).toFixed(0)} %`;
  body.dataset.time = studio.t.toFixed(4);
  body.dataset.percent = pct.toFixed(4);
  body.dataset.state = studio.mode === "play" ? (studio.playing ? "playing" : "paused") : studio.mode;
  // The filmstrip frame at or before the playhead (while scrubbing, the nearer of the two around it: the slider
  // stands between frames), the curves' now-line, the events so far.
  for (const strip of document.querySelectorAll(".picture.strip")) {
    const frames = JSON.parse(strip.dataset.frames);
    const img = strip.querySelector("img");
    const k = img.clientWidth / (+strip.dataset.width || 1);
    let pick = frames[0];
    if (studio.mode === "scrubbing") {
      for (const f of frames) if (Math.abs(f.time - studio.t) < Math.abs(pick.time - studio.t) - 1e-9) pick = f;
    } else {
      for (const f of frames) if (f.time <= studio.t + 1e-6) pick = f;
    }
    const mark = strip.querySelector(".mark");
    if (pick && mark) {
      mark.style.left = `${img.offsetLeft + pick.x * k}px`; mark.style.top = `${img.offsetTop + pick.y * k}px`;
      mark.style.width = `${pick.w * k}px`; mark.style.height = `${pick.h * k}px`;
    }
  }
  for (const chart of document.querySelectorAll(".picture.chart")) {
    const img = chart.querySelector("img");
    const xMax = +chart.dataset.xmax || 1;
    // The chart's frame (SegueRender's TimelineChart.Frame): 760 wide, the plot from x 78 to 740, the panels from
    // y 62 (under the title) to 10 above the bottom; the now-line spans the panels, not the title.
    const k = img.clientWidth / 760;
    const x = (78 + clamp(studio.t, 0, xMax) / xMax * 662) * k;
    const head = chart.querySelector(".head");
    head.style.left = `${img.offsetLeft + x}px`;
    head.style.top = `${img.offsetTop + 62 * k}px`;
    head.style.height = `${Math.max(img.offsetHeight - 72 * k, 0)}px`;
  }
  for (const li of $("events").children) li.classList.toggle("past", +li.dataset.time <= studio.t + 1e-6);
}

// ---- Pictures: the same case run to its end, then drawn by the daemon ------------------------------------
async function drawPictures() {
  const run = ++studio.pictureRun;
  const strips = [], charts = [], events = [];
  for (const name of lanesWanted()) {
    // The events of the first lane's run are kept for the list (they arrive before each response).
    const collected = [];
    const sceneID = newSceneID();
    studio.collect = strips.length === 0 ? { scene: sceneID, list: collected } : null;
    const lane = await buildLane(name, false, true, sceneID);
    try {      for (let i = 0; i < 20; i++) {
        await call("clock.advance", { scene: lane.scene, ms: Math.max(lane.duration * 1000, 16) + 50 });
        const got = await call("transition.get", { scene: lane.scene, transition: lane.transition });
        if (got.state === "completed" || got.state === "cancelled" || got.state === "failed") break;
      }
      const strip = await call("render.filmstrip", { scene: lane.scene, transition: lane.transition, frames: 8 });
      const chart = await call("render.timeline", { scene: lane.scene, transition: lane.transition });
      strips.push({ name, strip });
      const last = strip.frames.length ? strip.frames[strip.frames.length - 1].time : 0;
      charts.push({ name, chart, xMax: Math.max(last, lane.duration, 1e-3) });
      if (studio.collect) events.push(...collected.slice(studio.collect.mark || 0));
    } finally {
      studio.collect = null;
      await dropLane(lane);
    }
  }
  if (run !== studio.pictureRun) return;
  $("filmstrips").textContent = "";
  for (const { name, strip } of strips) {
    const div = picture("strip", name, strip.svg);
    div.dataset.frames = JSON.stringify(strip.frames);
    div.dataset.width = String(strip.width);
    div.appendChild(Object.assign(document.createElement("div"), { className: "mark" }));
    $("filmstrips").appendChild(div);
  }
  $("curves").textContent = "";
  for (const { name, chart, xMax } of charts) {
    const div = picture("chart", name, chart.svg);
    div.dataset.xmax = String(xMax);
    div.appendChild(Object.assign(document.createElement("div"), { className: "head" }));
    $("curves").appendChild(div);
  }
  showEvents(events);
  showPlayhead();
}

function picture(kind, name, svg) {
  const div = document.createElement("div");
  div.className = `picture ${kind}`;
  const caption = document.createElement("div");
  caption.textContent = name;
  const img = document.createElement("img");
  img.alt = `${kind} of ${name}`;
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  img.onload = showPlayhead;
  div.appendChild(caption);
  div.appendChild(img);
  return div;
}

function showEvents(list) {
  const ul = $("events");
  ul.textContent = "";
  for (const e of list) {
    const li = document.createElement("li");
    li.dataset.time = String(e.time || 0);
    const t = document.createElement("span");
    t.className = "t";
    t.textContent = `${(e.time || 0).toFixed(3)}`;
    li.appendChild(t);
    const rest = Object.assign({}, e);
    for (const k of ["seq", "scene", "time", "type"]) delete rest[k];
    li.appendChild(document.createTextNode(`${e.type} ${JSON.stringify(rest)}`));
    ul.appendChild(li);
  }
}

// ---- The playhead loop ------------------------------------------------------------------------------------------
let busy = false, lastFrame = null;
function tick(now) {
  requestAnimationFrame(tick);
  const dt = lastFrame === null ? 0 : Math.min((now - lastFrame) / 1000, 0.1);
  lastFrame = now;
  if (busy || studio.lanes.length === 0) return;
  if (studio.mode === "scrubbing") {
    if (studio.scrubTarget === null) return;
    const percent = studio.scrubTarget;
    studio.scrubTarget = null;
    busy = true;
    serial(() => scrubTo(percent)).catch(showFailure).finally(() => { busy = false; });
    return;
  }
  if (studio.mode === "completing") {
    busy = true;
    serial(() => complete(dt * +$("speed").value)).catch(showFailure).finally(() => { busy = false; });
    return;
  }
  if (!studio.playing) return;
  let t = studio.t + dt * +$("speed").value;
  if (studio.t >= studio.end) {
    if (!$("loop").checked) { studio.playing = false; $("play").textContent = "Play"; showPlayhead(); return; }
    t = 0;
  }
  t = Math.min(t, studio.end);
  busy = true;
  serial(() => seek(t)).catch(showFailure).finally(() => { busy = false; });
}

// ---- Scrubbing: the real interactive transition ---------------------------------------------------------
// Without an interaction plugin the slider's fraction is the percent (`transition.update`) and the release finishes
// past half-way. With one, the slider is a pan gesture (`gesture.pan`) and the plugin decides: the fraction times
// the scene's extent along the plugin's forward direction is the translation, the slider's speed the velocity.
const directions = {
  right: { axis: "x", sign: 1 }, left: { axis: "x", sign: -1 }, down: { axis: "y", sign: 1 }, up: { axis: "y", sign: -1 },
};
const forwardCache = new Map();

/// The interaction plugin's forward direction for the case on show, as `seguectl check` finds it: in a lane of its
/// own, `began`, then a `changed` of 30 % of the scene to the right, left, down and up; the one that moved the
/// percent furthest (right when none did: the page says so).
async function forwardDirection(interaction, animator) {
  const s = settings();
  const r = record(interaction);
  const key = [interaction, r ? r.generation : 0, animator, $("kind").value, s.style, s.presentation,
               s.size.w, s.size.h].join("|");
  if (forwardCache.has(key)) return forwardCache.get(key);
  const probe = await buildLane(animator, interaction);
  let best = null, furthest = 0;
  try {
    await call("gesture.pan", { scene: probe.scene, transition: probe.transition, phase: "began" });
    for (const name of ["right", "left", "down", "up"]) {
      const d = directions[name];
      const translation = { x: 0, y: 0 };
      translation[d.axis] = d.sign * 0.3 * (d.axis === "x" ? s.size.w : s.size.h);
      const got = await call("gesture.pan", { scene: probe.scene, transition: probe.transition, phase: "changed",
                                              translation });
      if (got.percent > furthest + 1e-9) { furthest = got.percent; best = name; }
    }
  } finally {
    await dropLane(probe);
  }
  if (!best) banner(`${interaction} moved the percent in no direction (30 % of the scene right, left, down, up): `
                    + "the scrubber pans to the right.", 8000);
  const found = best || "right";
  forwardCache.set(key, found);
  return found;
}

/// The pan for a slider fraction: the translation along the forward direction and the velocity from the slider's
/// motion over the last 100 ms (points per second; 0 when it stood still).
function panFor(fraction) {
  const s = settings();
  const d = directions[studio.gesture.direction];
  const extent = d.axis === "x" ? s.size.w : s.size.h;
  const now = performance.now();
  const recent = (studio.samples || []).filter((p) => now - p.at <= 100);
  let speed = 0;
  if (recent.length >= 2) {
    const a = recent[0], b = recent[recent.length - 1];
    if (b.at > a.at) speed = (b.fraction - a.fraction) / ((b.at - a.at) / 1000);
  }
  const translation = { x: 0, y: 0 }, velocity = { x: 0, y: 0 };
  translation[d.axis] = d.sign * fraction * extent;
  velocity[d.axis] = d.sign * speed * extent;
  return { translation, velocity };
}

async function beginScrub() {
  studio.mode = "scrubbing";
  studio.playing = false;
  $("play").textContent = "Play";
  body.dataset.completed = "";
  const interaction = settings().interaction;
  studio.gesture = null;
  body.dataset.interaction = interaction || "";
  body.dataset.gesture = "";
  if (interaction && studio.lanes[0]) {
    const direction = await forwardDirection(interaction, studio.lanes[0].animator);
    studio.gesture = { interaction, direction };
    body.dataset.gesture = direction;
  }
  for (let i = 0; i < studio.lanes.length; i++) {
    const old = studio.lanes[i];
    studio.lanes[i] = await buildLane(old.animator, interaction || true);
    await dropLane(old);
    if (studio.lanes[i].gesture) {
      const lane = studio.lanes[i];
      await call("gesture.pan", { scene: lane.scene, transition: lane.transition, phase: "began" });
    }
  }
  showPlayhead();
}

async function scrubTo(fraction) {
  let percent = fraction;
  for (const lane of studio.lanes) {
    if (!lane.interactive || lane.ended) continue;
    if (lane.gesture) {
      const got = await call("gesture.pan", Object.assign({ scene: lane.scene, transition: lane.transition,
                                                            phase: "changed" }, panFor(fraction)));
      if (lane === studio.lanes[0]) percent = got.percent;
    } else {
      await call("transition.update", { scene: lane.scene, transition: lane.transition, percent: fraction });
    }
  }
  studio.percent = percent;
  studio.t = percent * (studio.lanes[0] ? studio.lanes[0].duration : 0);
  await drawLanes();
}

async function release(fraction) {
  await scrubTo(fraction);
  const finish = fraction >= 0.5;
  const params = {};
  const speed = +$("completion-speed").value;
  if (speed > 0) params.speed = speed;
  if ($("completion-curve").value) params.curve = $("completion-curve").value;
  for (const lane of studio.lanes) {
    if (lane.ended) continue;
    if (lane.gesture) {
      // The plugin's `ended` decides, and its completion_speed/curve apply.
      await call("gesture.pan", Object.assign({ scene: lane.scene, transition: lane.transition, phase: "ended" },
                                              panFor(fraction)));
    } else {
      await call(finish ? "transition.finish" : "transition.cancel",
                 Object.assign({ scene: lane.scene, transition: lane.transition }, params));
    }
  }
  studio.mode = "completing";
  showPlayhead();
}

/// Plays a released scrub to its end on the clock, following the transition's percent.
async function complete(dt) {
  let done = true;
  for (const lane of studio.lanes) {
    if (lane.ended) continue;
    await call("clock.advance", { scene: lane.scene, ms: Math.max(dt * 1000, 1) });
    const got = await call("transition.get", { scene: lane.scene, transition: lane.transition });
    if (lane === studio.lanes[0]) studio.percent = got.percent;
    if (got.state === "completed" || got.state === "cancelled" || got.state === "failed") {
      lane.ended = true;
      lane.completed = got.state === "completed";
    } else {
      done = false;
    }
  }
  studio.t = studio.percent * (studio.lanes[0] ? studio.lanes[0].duration : 0);
  if (done) {
    studio.mode = "play";
    studio.playing = false;
    body.dataset.completed = String(studio.lanes[0].completed);
    // The lanes stay where the interaction left them; Play starts again from the start.
    studio.t = studio.lanes[0].completed ? studio.end : 0;
    for (const lane of studio.lanes) lane.t = Infinity;
  }
  await drawLanes();
}

// ---- Controls ------------------------------------------------------------------------------------------------
function changed() {
  serial(async () => {
    await loadPlugins();
    await rebuildAll(true);
  }).catch(showFailure);
}

for (const id of ["animator", "compare", "kind", "style", "presentation", "w", "h", "from-color", "to-color",
                  "interaction"]) {
  $(id).addEventListener("change", changed);
}

$("play").onclick = () => {
  if (studio.mode !== "play") return;
  studio.playing = !studio.playing;
  if (studio.playing && studio.t >= studio.end) studio.t = studio.end;  // loops to 0 on the next frame
  if (studio.playing && !isFinite(studio.lanes[0] ? studio.lanes[0].t : 0)) {
    serial(() => seek(0)).catch(showFailure);
  }
  $("play").textContent = studio.playing ? "Pause" : "Play";
  showPlayhead();
};

const scrub = $("scrub");
scrub.addEventListener("pointerdown", () => {
  if (studio.mode === "scrubbing") return;
  studio.scrubTarget = null;
  studio.samples = [];
  serial(beginScrub).catch(showFailure);
  studio.mode = "scrubbing";
});
scrub.addEventListener("input", () => {
  if (studio.mode !== "scrubbing") return;
  studio.scrubTarget = +scrub.value / 1000;
  // The slider's motion, for a gesture's velocity (kept for the last 100 ms).
  const now = performance.now();
  studio.samples = (studio.samples || []).filter((p) => now - p.at <= 100);
  studio.samples.push({ at: now, fraction: studio.scrubTarget });
});
scrub.addEventListener("change", () => {
  if (studio.mode !== "scrubbing") return;
  const percent = +scrub.value / 1000;
  studio.scrubTarget = null;
  serial(() => release(percent)).catch(showFailure);
});

// ---- Movie: the file `seguectl movie` makes of the same animator and case, made by the studio (GET /movie) ----
/// The case as render.frames' spec (the same scene the lanes build: colors, size, direction, style, presentation).
function movieSpec() {
  const s = settings();
  const spec = { animator: $("animator").value, kind: s.kind, size: s.size, colors: s.colors };
  if (s.backward) spec.direction = "backward";
  if (s.kind === "present" || s.kind === "dismiss") {
    spec.style = s.style;
    if (s.style === "custom" && s.presentation) spec.presentation = s.presentation;
  }
  return spec;
}

let movieURL = null;
$("movie").onclick = async () => {
  const format = $("movie-format").value;
  const fps = clamp(Math.round(+$("movie-fps").value || 30), 1, format === "gif" ? 50 : 60);
  $("movie-fps").value = String(fps);
  const query = new URLSearchParams({ token, format, fps: String(fps), spec: JSON.stringify(movieSpec()) });
  $("movie").disabled = true;
  $("movie-status").classList.remove("bad");
  $("movie-status").textContent = "making…";
  body.dataset.movie = "making";
  try {
    const response = await fetch(`/movie?${query}`);
    if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
    const blob = await response.blob();
    if (movieURL) URL.revokeObjectURL(movieURL);
    movieURL = URL.createObjectURL(blob);
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const name = named ? named[1] : `movie.${format}`;
    const result = $("movie-result");
    result.textContent = "";
    result.appendChild(Object.assign(document.createElement("a"),
                                     { href: movieURL, download: name, textContent: `Download ${name}` }));
    result.appendChild(format === "gif"
      ? Object.assign(document.createElement("img"), { src: movieURL, alt: `movie of ${name}` })
      : Object.assign(document.createElement("video"), { src: movieURL, controls: true, loop: true, muted: true }));
    $("movie-status").textContent = `${Math.max(1, Math.round(blob.size / 1024))} KB`;
    Object.assign(body.dataset, { movie: "ready", movieName: name, movieBytes: String(blob.size) });
  } catch (e) {
    $("movie-status").classList.add("bad");
    $("movie-status").textContent = e && e.message ? e.message : String(e);
    body.dataset.movie = "failed";
  } finally {
    $("movie").disabled = false;
  }
};

// ---- Start -------------------------------------------------------------------------------------------------------
async function start() {
  studio.lanes = [];
  await call("events.subscribe", { types: ["plugin"] });
  await loadPlugins();
  if (hashParams.get("kind")) $("kind").value = hashParams.get("kind");
  await rebuildAll();
}

connect();
requestAnimationFrame(tick);
</script>
</body>
</html>
"""#
}
