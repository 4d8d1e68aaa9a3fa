// moxzid's console: the state and the past as the page came (its first-state element), then the state
// from /console/state (every few seconds), live log and loss from /events.
"use strict";

const STATE_SECONDS = 2;
const MAX_LOG = 500;
const MAX_POINTS = 4000; // per curve; past it every other point goes
const SMOOTHING = 0.9; // exponential moving average of the loss
const PLOT_HEIGHT = 260;

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k in node) node[k] = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};
const bytes = (n) => n >= 2 ** 30 ? (n / 2 ** 30).toFixed(1) + " GiB" : n >= 2 ** 20 ? (n / 2 ** 20).toFixed(1) + " MiB"
  : n >= 1024 ? (n / 1024).toFixed(1) + " KiB" : n + " B";
// A usage read-out names a few of an actor's optimizers or readers (Device.usage) and counts them all.
const named = (names, count) => (names.join(", ") || "—") + (count > names.length ? ` (+${count - names.length} more)` : "");

// --- actors and device tables ---------------------------------------------------------------
function renderActors(actors) {
  const body = $("#actors tbody");
  body.replaceChildren(...actors.map((a) => el("tr", { "data-actor": a.name },
    el("td", {}, a.name), el("td", {}, a.principal), el("td", {}, a.mode),
    el("td", { class: "num" }, bytes(a.memory.heap)), el("td", { class: "num" }, bytes(a.memory.stable)),
    el("td", { class: "num" }, a.cycles ? String(a.cycles.balance) : "—"),
    el("td", { class: "num" }, a.cycles ? String(a.cycles.spent) : "—"),
    el("td", { class: "num messages" }, String(a.messages)), el("td", { class: "num" }, String(a.traps)))));
  const held = actors.filter((a) => a.device);
  $("#device-table tbody").replaceChildren(...held.map((a) => el("tr", {},
    el("td", {}, a.name), el("td", { class: "num" }, String(a.device.params)),
    el("td", {}, named(a.device.optimizers, a.device.optimizer_count)), el("td", { class: "num" }, String(a.device.stored)),
    el("td", { class: "num" }, String(a.device.publications)), el("td", {}, named(a.device.readers, a.device.reader_count)),
    el("td", { class: "num" }, bytes(a.device.bytes)),
    el("td", {}, Object.entries(a.device.steps).map(([o, n]) => `${o}: ${n}`).join(", ") || "—"),
    // The http gateway's admin route: open on a loopback address, else it asks for the admin token.
    el("td", {}, a.device.params ? el("a", { class: "weights", href: `/weights/${encodeURIComponent(a.name)}`,
      download: `${a.name}.safetensors` }, "safetensors") : "—"))));
  $("#device-total").textContent = bytes(held.reduce((sum, a) => sum + a.device.bytes, 0));
}

// Device copies (checkpoints) taken since moxzid started, and the last one.
function renderCheckpoints(checkpoints) {
  const last = checkpoints.last;
  $("#checkpoints").textContent = last ? `Device copies: ${checkpoints.count}; the last took ` +
    `${last.seconds.toFixed(2)} s for ${bytes(last.bytes)}.` : "No device copies yet.";
}

// Live exports (seconds: until they expire) and fetches downloading (seconds: since they started).
function renderTransfers(transfers) {
  const rows = transfers ? [
    ...transfers.exports.map((e) => ["export", e.actor, e.url, bytes(e.bytes), String(e.uses_left), e.expires_in]),
    ...transfers.fetches.map((f) => ["fetch", f.actor, f.url,
      f.size === null ? bytes(f.received) : `${bytes(f.received)} of ${bytes(f.size)}`, "—", f.seconds])] : [];
  $("#transfers tbody").replaceChildren(...(rows.length ? rows.map(([kind, actor, url, size, uses, seconds]) =>
    el("tr", {}, el("td", {}, actor), el("td", {}, kind), el("td", {}, url), el("td", { class: "num" }, size),
      el("td", { class: "num" }, uses), el("td", { class: "num" }, seconds.toFixed(0))))
    : [el("tr", {}, el("td", { colSpan: 6, class: "empty" }, "No exports or fetches in flight."))]));
}

// --- method forms, from the Candid types as JSON trees (routes.py type_tree) --------------------
function input(node) {
  switch (node.t) {
    case "bool": { const box = el("input", { type: "checkbox" }); return { node: box, value: () => box.checked }; }
    case "null": case "reserved": return { node: el("span", { class: "empty" }, "null"), value: () => null };
    case "text": case "principal": case "blob": {
      const box = el("input", { type: "text", placeholder: node.t === "blob" ? "base64" : node.t });
      return { node: box, value: () => box.value };
    }
    case "float32": case "float64": {
      const box = el("input", { type: "text", placeholder: node.t, value: "0" });
      return { node: box, value: () => Number(box.value) };
    }
    case "opt": {
      const present = el("input", { type: "checkbox" });
      const inner = input(node.of);
      const wrap = el("span", {}, present, " some ", inner.node);
      return { node: wrap, value: () => present.checked ? (node.wrap ? [inner.value()] : inner.value()) : (node.wrap ? [] : null) };
    }
    case "vec": {
      const items = [];
      const list = el("div");
      const add = el("button", { type: "button", textContent: "+ item" });
      add.onclick = () => {
        const item = input(node.of);
        const row = el("div", {}, item.node);
        const remove = el("button", { type: "button", textContent: "−" });
        remove.onclick = () => { items.splice(items.indexOf(item), 1); row.remove(); };
        row.append(remove); items.push(item); list.append(row);
      };
      return { node: el("fieldset", {}, el("legend", {}, node.text), list, add), value: () => items.map((i) => i.value()) };
    }
    case "record": case "tuple": {
      const fields = node.fields.map((f) => ({ key: f.key, field: input(f.type) }));
      const set = el("fieldset", {}, ...fields.map((f) => el("div", {}, el("label", { class: "field" }, f.key + ": "), f.field.node)));
      return { node: set, value: () => node.t === "tuple" ? fields.map((f) => f.field.value())
        : Object.fromEntries(fields.map((f) => [f.key, f.field.value()])) };
    }
    case "variant": {
      const choose = el("select", {}, ...node.fields.map((f) => el("option", { value: f.key, textContent: f.key })));
      const slot = el("span");
      let current;
      const pick = () => { current = input(node.fields[choose.selectedIndex].type); slot.replaceChildren(current.node); };
      choose.onchange = pick; pick();
      return { node: el("span", {}, choose, " ", slot), value: () => ({ [choose.value]: current.value() }) };
    }
    case "json": {
      const box = el("textarea", { rows: 1, cols: 30, placeholder: `${node.text} as JSON` });
      return { node: box, value: () => JSON.parse(box.value) };
    }
    default: { // the integer types: JSON integers
      const box = el("input", { type: "text", placeholder: node.t, value: "0" });
      return { node: box, value: () => JSON.parse(box.value) };
    }
  }
}

function methodForm(actor, name, method) {
  const args = method.args.map(input);
  const reply = el("pre", { class: "reply", hidden: true });
  const query = method.modes.includes("query");
  const form = el("form", { class: "method", "data-method": name },
    el("div", { class: "sig" }, `${name} : (${method.args.map((a) => a.text).join(", ")}) -> (${method.results.map((r) => r.text).join(", ")})${query ? " query" : ""}`),
    ...args.map((a) => el("div", {}, a.node)),
    el("button", { type: "submit", textContent: query ? "Query" : "Call" }), reply);
  form.onsubmit = async (e) => {
    e.preventDefault();
    reply.hidden = false; reply.className = "reply"; reply.textContent = "…";
    try {
      const body = JSON.stringify(args.map((a) => a.value()));
      const answer = await fetch(`/${query ? "query" : "call"}-json/${encodeURIComponent(actor)}/${encodeURIComponent(name)}`,
        { method: "POST", body, headers: { "Content-Type": "application/json" } });
      const result = await answer.json();
      reply.className = answer.ok ? "reply ok" : "reply error";
      reply.textContent = answer.ok ? JSON.stringify(result, null, 1) : result.error;
    } catch (err) {
      reply.className = "reply error"; reply.textContent = String(err);
    }
  };
  return form;
}

const forms = new Set();
function renderMethods(actors) {
  for (const a of actors) {
    const key = a.name + " " + JSON.stringify(a.methods);
    if (forms.has(key)) continue; // keep what was typed; rebuilt only after an upgrade changes the interface
    forms.add(key);
    const old = document.querySelector(`details.actor[data-actor="${CSS.escape(a.name)}"]`);
    // Folded: six actors' forms unfolded make a page thousands of pixels tall. One rebuilt after an
    // upgrade keeps its place and whether it was open.
    const count = Object.keys(a.methods).length;
    const box = el("details", { class: "actor", "data-actor": a.name, open: old ? old.open : false },
      el("summary", {}, a.name, " ", el("span", { class: "count" }, `${count} method${count === 1 ? "" : "s"}`)),
      ...Object.entries(a.methods).map(([name, m]) => methodForm(a.name, name, m)), canisterLog(a.name));
    box.ontoggle = () => readCanisterLogs().catch(() => {});
    if (old) old.replaceWith(box); else $("#methods").append(box);
  }
}

// --- an open actor's canister log: its prints and traps (the http gateway's GET /logs/ACTOR) ----
const canisterLogs = new Map(); // actor -> {node, since: the next record's index}
function canisterLog(actor) {
  const node = el("pre", { class: "canister-log" });
  canisterLogs.set(actor, { node, since: 0 });
  return el("div", {}, el("div", { class: "sig" }, "canister log (Debug.print, traps)"), node);
}

async function readCanisterLogs() {
  for (const box of document.querySelectorAll("details.actor[open]")) {
    const entry = canisterLogs.get(box.dataset.actor);
    const answer = await fetch(`/logs/${encodeURIComponent(box.dataset.actor)}?since=${entry.since}`);
    const result = await answer.json();
    if (!answer.ok) { // its log_visibility hides it (off a loopback address, without a signature)
      entry.node.className = "canister-log error"; entry.node.textContent = result.error;
      continue;
    }
    entry.node.className = "canister-log";
    for (const r of result) {
      entry.node.append(`[${r.idx}. ${new Date(r.timestamp_nanos / 1e6).toISOString()}]: ${r.content}\n`);
      entry.since = r.idx + 1;
    }
  }
}

// --- log ----------------------------------------------------------------------------------
function addLog(e) {
  const log = $("#log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  const time = new Date(e.time * 1000).toTimeString().slice(0, 8);
  log.append(el("div", { class: e.actor ? "print" : e.level }, `${time} ${e.logger}: ${e.message}`));
  while (log.childElementCount > MAX_LOG) log.firstChild.remove();
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// --- loss curves ----------------------------------------------------------------------------
const curves = new Map(); // "actor optimizer" -> {steps, losses, plot, stride}

function smoothed(losses) {
  let ema = null;
  return losses.map((v) => (ema = ema === null ? v : SMOOTHING * ema + (1 - SMOOTHING) * v));
}

function plotOptions(title, width) {
  const logScale = $("#log-scale").checked;
  return {
    title, width, height: PLOT_HEIGHT,
    scales: { x: { time: false }, y: logScale ? { distr: 3 } : {} },
    axes: [{ label: "step" }, { label: "loss" }],
    series: [{ label: "step" }, { label: "loss", stroke: "#9db4d6", width: 1 },
      { label: "smoothed", stroke: "#1a5fb4", width: 2 }],
  };
}

function curve(actor, optimizer) {
  const key = `${actor} ${optimizer}`;
  let c = curves.get(key);
  if (!c) {
    $("#curves .empty")?.remove();
    const box = el("div", { class: "curve", "data-actor": actor, "data-optimizer": optimizer });
    $("#curves").append(box);
    c = { key, box, steps: [], losses: [], stride: 1, plot: null, dirty: true };
    curves.set(key, c);
    orderCurves();
    // The plot takes its column's width, and follows it when the window changes.
    new ResizeObserver(() => c.plot?.setSize({ width: box.clientWidth, height: PLOT_HEIGHT })).observe(box);
  }
  return c;
}

function addPoint(c, step, loss) {
  if (step % c.stride) return;
  c.steps.push(step); c.losses.push(loss);
  if (c.steps.length > MAX_POINTS) {
    c.stride *= 2;
    const keep = c.steps.map((s, i) => s % c.stride === 0 ? i : -1).filter((i) => i >= 0);
    c.steps = keep.map((i) => c.steps[i]); c.losses = keep.map((i) => c.losses[i]);
  }
  c.dirty = true;
}

function drawCurves(rebuild = false) {
  for (const c of curves.values()) {
    if (!c.dirty && !rebuild) continue;
    c.dirty = false;
    const data = [c.steps, c.losses, smoothed(c.losses)];
    if (rebuild && c.plot) { c.plot.destroy(); c.plot = null; }
    if (!c.plot) c.plot = new uPlot(plotOptions(c.key, c.box.clientWidth), data, c.box);
    else c.plot.setData(data);
    c.box.dataset.points = String(c.steps.length);
  }
}

// Curves in the actors' order (the manifest's), whatever order their first steps came in.
let actorOrder = [];
function orderCurves() {
  const rank = (box) => { const i = actorOrder.indexOf(box.dataset.actor); return i < 0 ? actorOrder.length : i; };
  const boxes = [...document.querySelectorAll("#curves .curve")];
  const sorted = [...boxes].sort((a, b) => rank(a) - rank(b) || a.dataset.optimizer.localeCompare(b.dataset.optimizer));
  if (sorted.some((box, i) => box !== boxes[i])) $("#curves").append(...sorted);
}

// --- wiring ---------------------------------------------------------------------------------
function paint(state) {
  actorOrder = state.actors.map((a) => a.name);
  orderCurves();
  $("#device").textContent = state.device ? `device ${state.device}` : "no device";
  $("#store").textContent = state.store.bytes === null ? "" : `state ${bytes(state.store.bytes)}`;
  $("#store").title = state.store.description;
  // While moxzid starts, what it restores (the actors listed are those back so far); gone once ready.
  $("#starting").textContent = state.starting ?? "";
  $("#starting").hidden = !state.starting;
  renderActors(state.actors);
  renderTransfers(state.transfers);
  renderCheckpoints(state.checkpoints);
  renderMethods(state.actors);
  readCanisterLogs().catch(() => {});
}

function paintHistory(history) {
  history.log.forEach(addLog);
  for (const cur of history.curves) {
    const c = curve(cur.actor, cur.optimizer);
    c.stride = cur.stride;
    for (const [step, loss] of cur.points) addPoint(c, step, loss);
  }
  drawCurves();
}

async function refresh() {
  paint(await (await fetch("/console/state")).json());
}

function listen() {
  const stream = new EventSource("/events");
  stream.addEventListener("hello", () => { $("#live").className = "on"; $("#live").textContent = "live"; });
  stream.addEventListener("log", (m) => addLog(JSON.parse(m.data)));
  stream.addEventListener("train", (m) => {
    const e = JSON.parse(m.data);
    addPoint(curve(e.actor, e.optimizer), e.step, e.loss);
  });
  stream.onerror = () => { $("#live").className = "off"; $("#live").textContent = "reconnecting…"; };
}

$("#log-scale").onchange = () => drawCurves(true);
setInterval(() => drawCurves(), 500);
const first = JSON.parse($("#first-state").textContent);
paint(first.state);
paintHistory(first.history);
listen();
setInterval(() => refresh().catch(() => {}), STATE_SECONDS * 1000);
