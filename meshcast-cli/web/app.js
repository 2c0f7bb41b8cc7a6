// meshcast explorer: the page served by `meshcast serve`.
//
// Plain JavaScript, no build step. Every number shown comes from the server's JSON API, which
// answers what `meshcast route --json` prints; this script only keeps the request (controls,
// URL hash), draws the plan with the node symbols of seed 001 Figure 3.1.3 (as the CLI's SVG
// drawings do), animates it and lays out the comparison.
"use strict";

// Drawing vocabulary, as meshcast-cli/src/draw/shapes.rs has it.
const CELL = 64;
const NODE_R = 9;
const STUB = 30;
const TREE = "#1f4e9c";
const INK = "#222222";
const GRID = "#c4c4c4";
const MUTED = "#555555";
const REACHED = "#009e73";
const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7b3294",
  "#8c510a", "#b2182b", "#4d4d4d"];
// The example the page opens with when the URL names no request.
const DEFAULT_EXAMPLE = "seed 001 Example 3.2.1.1";
const MAX_NODES = 4096;

const $ = (id) => document.getElementById(id);
const colour = (i) => PALETTE[i % PALETTE.length];

const state = {
  kind: "mesh", dims: [8, 8], source: "0,0", dests: [], algo: "diag",
  schedule: "paper", port: "one", length: 20, startup: 0, k: 10, seed: 1,
};
let registry = [];      // GET /api/algos
let examples = [];      // GET /api/examples
let reports = [];       // POST /api/route with all: the applicable algorithms on this request
let current = null;     // the report of the algorithm shown
let plan = null;        // what the drawing animates: { unit, end, arrival(node) }
let time = 0;
let timer = null;
let generation = 0;     // drops answers to requests that a newer one replaced
let optima = null;      // POST /api/optima for this request: { optima: […] }, { error }, or null while computed
let optimaCall = null;  // aborts the optima request a newer request replaced
let focusKey = null;    // the node that holds the grid's one tab stop

// ---------------------------------------------------------------- the request

const topology = () => `${state.kind}:${state.dims.join("x")}`;
const key = (coords) => coords.join(",");
/** The origin of the network shown, where every worked example has its source. */
const origin = () => key(state.dims.map(() => 0));

/** Coordinates of a node written as "3,4" (spaces allowed), or null. */
function coordsOf(text) {
  const parts = text.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** A node as the page writes it: "3,4". Unparsable text is kept, for the server to name. */
function normal(text) {
  const c = coordsOf(text);
  return c ? key(c) : text.trim();
}

function splitNodes(text) {
  return text.split(/[\s;]+/).filter((s) => s !== "").map(normal);
}

/** The sizes typed in the Size field, or an error message. */
function parseDims(text) {
  const parts = text.trim().toLowerCase().split("x");
  if (parts.some((p) => !/^\d+$/.test(p.trim()))) {
    return { error: `Size '${text}': write the sizes of the dimensions joined by x, e.g. 8x8 or 4x4x4` };
  }
  const dims = parts.map(Number);
  if (dims.length > 3) return { error: `Size '${text}': the page draws 1 to 3 dimensions` };
  if (dims.some((k) => k < 2)) return { error: `Size '${text}': every dimension needs at least 2 nodes` };
  const nodes = dims.reduce((a, b) => a * b, 1);
  if (nodes > MAX_NODES) return { error: `Size '${text}': ${nodes} nodes, the explorer draws at most ${MAX_NODES}` };
  return { dims };
}

/** The body of POST /api/route (and /api/svg): the flags of `meshcast route`. */
function routeBody(extra) {
  return {
    topology: topology(), source: state.source, dests: state.dests.join(" "),
    schedule: state.schedule, length: state.length, startup: state.startup, port: state.port,
    ...extra,
  };
}

async function post(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal,
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error; } catch (_) { /* keep the status line */ }
    throw new Error(message);
  }
  return response;
}

// ---------------------------------------------------------------- URL hash

function writeHash() {
  const p = new URLSearchParams({
    topology: topology(), source: state.source, dests: state.dests.join(" "), algo: state.algo,
    schedule: state.schedule, port: state.port, length: state.length, startup: state.startup,
    k: state.k, seed: state.seed,
  });
  history.replaceState(null, "", `#${p.toString()}`);
}

/** The request in the URL hash, if there is one; true when it set the state. */
function readHash() {
  if (location.hash.length < 2) return false;
  const p = new URLSearchParams(location.hash.slice(1));
  const [kind, size] = (p.get("topology") || "").split(":");
  if (kind === "mesh" || kind === "torus") state.kind = kind;
  const dims = parseDims(size || "");
  if (dims.dims) state.dims = dims.dims;
  state.source = p.has("source") ? normal(p.get("source")) : origin();
  if (p.has("dests")) state.dests = splitNodes(p.get("dests"));
  for (const f of ["algo", "schedule", "port"]) if (p.has(f)) state[f] = p.get(f);
  for (const f of ["length", "startup", "k", "seed"]) {
    const v = Number(p.get(f));
    if (p.has(f) && Number.isInteger(v) && v >= 0) state[f] = v;
  }
  return true;
}

// ---------------------------------------------------------------- controls

function showState() {
  $("kind").value = state.kind;
  $("dims").value = state.dims.join("x");
  $("source").value = state.source;
  $("dests").value = state.dests.join(" ");
  // A port count from a shared URL that the list lacks (say 6) gets its own option.
  if (![...$("port").options].some((o) => o.value === state.port)) {
    $("port").add(new Option(`${state.port}-port`, state.port), $("port").options.length - 1);
  }
  for (const f of ["schedule", "port", "length", "startup", "k", "seed"]) $(f).value = state[f];
  $("algo").value = state.algo;
  const matches = (w) => w && w.topology === topology() && w.algo === state.algo &&
    state.source === origin() && splitNodes(w.dests).join(" ") === state.dests.join(" ");
  // Several examples share a request (seed 000 and seed 001 both draw Example 1 with DIAG):
  // keep the one chosen while it still matches.
  const chosen = Number($("example").value);
  $("example").value = String(matches(examples[chosen]) ? chosen : examples.findIndex(matches));
}

function fillSelects() {
  $("example").innerHTML = `<option value="-1">(your own request)</option>` + examples.map((w, i) =>
    `<option value="${i}">${esc(w.figure)}: ${esc(w.algo)} on ${esc(w.topology)}</option>`).join("");
  $("algo").innerHTML = registry.map((a) =>
    `<option value="${esc(a.name)}">${esc(a.name)} (${esc(a.family)})</option>`).join("");
}

function loadExample(i) {
  const w = examples[i];
  if (!w) return;
  const [kind, size] = w.topology.split(":");
  state.kind = kind;
  state.dims = parseDims(size).dims;
  state.source = origin();
  state.dests = splitNodes(w.dests);
  state.algo = w.algo;
}

function bindControls() {
  const changed = () => { showState(); refresh(); };
  $("example").addEventListener("change", (e) => { loadExample(Number(e.target.value)); changed(); });
  $("kind").addEventListener("change", (e) => { state.kind = e.target.value; changed(); });
  $("dims").addEventListener("change", (e) => {
    const d = parseDims(e.target.value);
    if (d.error) { status(d.error, true); return; }
    state.dims = d.dims;
    state.source = origin();
    state.dests = [];
    changed();
  });
  $("source").addEventListener("change", (e) => { state.source = normal(e.target.value); changed(); });
  $("dests").addEventListener("change", (e) => { state.dests = splitNodes(e.target.value); changed(); });
  $("algo").addEventListener("change", (e) => { state.algo = e.target.value; showState(); select(); });
  for (const f of ["schedule", "port"]) {
    $(f).addEventListener("change", (e) => { state[f] = e.target.value; changed(); });
  }
  for (const f of ["length", "startup", "k", "seed"]) {
    $(f).addEventListener("change", (e) => {
      const v = Number(e.target.value);
      if (!Number.isInteger(v) || v < 0) { status(`${f} '${e.target.value}': a whole number, please`, true); return; }
      state[f] = v;
      if (f === "length" || f === "startup") changed(); else writeHash();
    });
  }
  $("random").addEventListener("click", drawRandom);
  $("clear").addEventListener("click", () => { state.dests = []; changed(); });
  $("copy-link").addEventListener("click", copyLink);
  $("export-svg").addEventListener("click", () => exportPlan("svg"));
  $("export-json").addEventListener("click", () => exportPlan("json"));
  $("play").addEventListener("click", togglePlay);
  $("step-back").addEventListener("click", () => { stop(); setTime(time - 1); });
  $("step-fwd").addEventListener("click", () => { stop(); setTime(time + 1); });
  $("time").addEventListener("input", (e) => { stop(); setTime(Number(e.target.value)); });
  const svg = $("drawing");
  svg.addEventListener("click", (e) => {
    const node = e.target.closest(".node");
    if (node) nodeAction(node.dataset.c, e.shiftKey);
  });
  svg.addEventListener("keydown", nodeKey);
  svg.addEventListener("mouseover", (e) => { const n = e.target.closest(".node"); if (n) showNode(n.dataset.c); });
  svg.addEventListener("focusin", (e) => { const n = e.target.closest(".node"); if (n) showNode(n.dataset.c); });
}

async function drawRandom() {
  try {
    const body = { topology: topology(), source: state.source, k: state.k, seed: state.seed };
    const answer = await (await post("/api/random", body)).json();
    state.dests = splitNodes(answer.dests);
    showState();
    refresh();
  } catch (e) {
    status(e.message, true);
  }
}

async function copyLink() {
  writeHash();
  try {
    await navigator.clipboard.writeText(location.href);
    status("Link copied: it opens this request.");
  } catch (_) {
    status(`Link: ${location.href}`);
  }
}

/** Download the CLI's own output for the algorithm shown: `route --svg` or `route --json`. */
async function exportPlan(format) {
  if (!current) { status("Nothing to export yet: choose destinations first.", true); return; }
  try {
    const body = routeBody({ algo: current.algorithm });
    const response = await post(format === "svg" ? "/api/svg" : "/api/route", body);
    const blob = new Blob([await response.text()],
      { type: format === "svg" ? "image/svg+xml" : "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `meshcast-${current.algorithm}-${state.kind}-${state.dims.join("x")}.${format}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    status(e.message, true);
  }
}

function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

// ---------------------------------------------------------------- routing

/** Route the request with every applicable algorithm, then show the chosen one. */
async function refresh() {
  writeHash();
  const mine = ++generation;
  stop();
  if (optimaCall) optimaCall.abort();
  optimaCall = null;
  optima = null;
  document.body.dataset.optima = "computing";
  if (state.dests.length === 0) {
    reports = [];
    optima = { optima: [] };
    select();
    document.body.dataset.optima = "";
    status("Click nodes (or type coordinates) to choose destinations.");
    document.body.dataset.routed = "";
    return;
  }
  status("Routing…");
  try {
    const answer = await (await post("/api/route", routeBody({ all: true }))).json();
    if (mine !== generation) return;
    reports = answer;
    status(`${reports.length} algorithms apply to ${topology()}; the table compares them.`);
  } catch (e) {
    if (mine !== generation) return;
    reports = [];
    status(e.message, true);
  }
  select();
  // The destinations whose plan the page now shows, or "error": what scripts (and the browser
  // test) wait for.
  document.body.dataset.routed = current ? routeBody({}).dests : "error";
  if (current) loadOptima(mine); else { optima = { optima: [] }; showOptima(); }
}

/** Ask for the exact optima of the request shown, after its plans: they may take seconds. */
async function loadOptima(mine) {
  optimaCall = new AbortController();
  const body = { topology: topology(), source: state.source, dests: state.dests.join(" ") };
  try {
    const answer = await (await post("/api/optima", body, optimaCall.signal)).json();
    if (mine !== generation) return;
    optima = answer;
  } catch (e) {
    if (mine !== generation) return;
    optima = { error: e.message, optima: [] };
  }
  showOptima();
  document.body.dataset.optima = optima.error ? "error" : body.dests;
}

/** Show the report of `state.algo` (or the first applicable one): drawing, numbers, table. */
function select() {
  const names = new Set(reports.map((r) => r.algorithm));
  for (const option of $("algo").options) {
    const off = reports.length > 0 && !names.has(option.value);
    option.disabled = off;
    option.textContent = option.textContent.replace(/ — not on this topology$/, "") +
      (off ? " — not on this topology" : "");
  }
  current = reports.find((r) => r.algorithm === state.algo) || reports[0] || null;
  if (current && current.algorithm !== state.algo) {
    state.algo = current.algorithm;
    showState();
  }
  writeHash();
  plan = current ? timing(current) : null;
  showMetrics();
  showTable();
  showOptima();
  draw();
  showLegend();
  const end = plan ? plan.end : 0;
  $("time").max = String(end);
  setTime(end);
}

/** When each drawn element and each destination happens, in the model chosen. */
function timing(r) {
  const arrivals = new Map(r.arrivals.map((a) => [key(a.node), a]));
  if (r.kind === "path") {
    return { unit: "cycle", arrival: (n) => arrivals.get(n)?.wormhole, end: r.metrics.wormhole_latency };
  }
  if (r.kind === "unicast") {
    return { unit: "step", arrival: (n) => arrivals.get(n)?.step, end: r.metrics.steps };
  }
  const onePort = state.port === "one";
  return {
    unit: "hop",
    arrival: (n) => (onePort ? arrivals.get(n)?.one_port : arrivals.get(n)?.all_port),
    end: onePort ? r.metrics.one_port_time : r.metrics.all_port_time,
    linkTime: onePort ? (l) => l.hop : allPortTimes(r),
  };
}

/** A tree link's all-port time: the depth of its head (every node sends on all ports at once). */
function allPortTimes(r) {
  const parent = new Map(r.links.map((l) => [key(l.to), key(l.from)]));
  const depth = new Map([[key(r.source), 0]]);
  const of = (n) => {
    if (!depth.has(n)) depth.set(n, of(parent.get(n)) + 1);
    return depth.get(n);
  };
  return (l) => of(key(l.to));
}

// ---------------------------------------------------------------- numbers

const show = (v) => (v === null || v === undefined ? "–" : String(v));

function showMetrics() {
  const m = current ? current.metrics : {};
  $("m-traffic").textContent = show(m.traffic);
  $("m-additional").textContent = show(m.additional_traffic);
  $("m-one-port").textContent = show(m.one_port_time);
  $("m-all-port").textContent = show(m.all_port_time);
  $("m-optimal").textContent = show(m.optimal_one_port_time);
  $("m-wormhole").textContent = show(m.wormhole_latency);
  $("m-steps").textContent = show(m.steps);
  $("m-contention").textContent = show(current ? contention(m) : null);
  const n = state.dests.length;
  $("plan-title").textContent = current
    ? `${current.algorithm} (${current.kind}) on ${current.topology}: source (${current.source}), ${n} destination${n === 1 ? "" : "s"}, ${current.schedule} port order`
    : `${topology()}: source (${state.source}), ${n} destination${n === 1 ? "" : "s"}`;
}

const COLUMNS = [
  ["traffic", (m) => m.traffic], ["additional", (m) => m.additional_traffic],
  ["one-port", (m) => m.one_port_time], ["all-port", (m) => m.all_port_time],
  ["optimal", (m) => m.optimal_one_port_time], ["wormhole", (m) => m.wormhole_latency],
  ["steps", (m) => m.steps], ["contention", (m) => contention(m)],
];

/** Stepwise and depth contention (seed 002 Definitions 3–4) as "stepwise/depth". */
const contention = (m) => (m.contention ? `${m.contention.stepwise}/${m.contention.depth}` : null);

// The rows of the exact optima under the comparison: baseline, name, and the columns its value
// goes in (the least one-port time bounds both the paper-order and the optimal-order column).
const OPTIMA = [
  ["omt", "OMT", ["traffic"]], ["mst", "MST", ["traffic"]], ["omp", "OMP", ["traffic"]],
  ["opt-time", "opt-time", ["one-port", "optimal"]],
];

function showTable() {
  const best = COLUMNS.map(([, f]) => {
    const values = reports.map((r) => f(r.metrics)).filter((v) => typeof v === "number");
    return values.length > 1 ? Math.min(...values) : null;
  });
  $("comparison").tBodies[0].innerHTML = reports.map((r) => {
    const cells = COLUMNS.map(([name, f], i) => {
      const v = f(r.metrics);
      const cls = v !== null && v === best[i] ? ` class="best"` : "";
      return `<td data-m="${name}"${cls}>${show(v)}</td>`;
    }).join("");
    const chosen = current && r.algorithm === current.algorithm;
    return `<tr data-algo="${esc(r.algorithm)}"${chosen ? ` class="selected" aria-current="true"` : ""}>` +
      `<td><button type="button" data-show="${esc(r.algorithm)}" aria-label="Show ${esc(r.algorithm)}">${esc(r.algorithm)}</button></td>` +
      `<td>${esc(r.kind)}</td>${cells}</tr>`;
  }).join("") || `<tr><td colspan="${COLUMNS.length + 2}">No plan yet.</td></tr>`;
  for (const b of $("comparison").querySelectorAll("button[data-show]")) {
    b.addEventListener("click", () => { state.algo = b.dataset.show; showState(); select(); });
  }
}

/** The optima rows: always the same four, so the page does not move when they arrive. */
function showOptima() {
  const found = new Map(((optima && optima.optima) || []).map((o) => [o.baseline, o]));
  const pending = optima === null;
  const refusals = [];
  $("optima").innerHTML = OPTIMA.map(([name, label, columns], row) => {
    const o = found.get(name);
    if (o && o.refused) refusals.push(`${label}: ${o.refused}`);
    const why = pending ? "computing…" : optima.error || (o ? (o.refused ? `refused: ${o.refused}` : o.meaning) : "");
    const value = pending ? "…" : o ? show(o.value) : optima.error ? "–" : "";
    const cells = COLUMNS.map(([m]) => (columns.includes(m)
      ? `<td data-m="${m}" title="${esc(why)}">${value}</td>` : `<td data-m="${m}"></td>`)).join("");
    const title = o ? o.meaning : why;
    return `<tr data-optimum="${name}" class="optimum${row === 0 ? " first" : ""}">` +
      `<th scope="row" title="${esc(title)}">${esc(label)}</th><td>optimum</td>${cells}</tr>`;
  }).join("");
  if (optima && optima.error) refusals.push(`Exact optima: ${optima.error}`);
  $("optima-note").textContent = refusals.join(" · ");
}

// ---------------------------------------------------------------- drawing

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const f1 = (v) => Math.round(v * 10) / 10;

/** Node positions: x to the right, y upward, 3D as a block of z-layers. */
function makeLayout(dims) {
  const [kx, ky = 1, kz = 1] = dims;
  const perRow = dims.length === 3 ? Math.ceil(Math.sqrt(kz)) : 1;
  // Room for the wraparound stubs, their hop labels, and the axis labels beyond them.
  const margin = STUB + 56;
  const layerW = (kx - 1) * CELL;
  const layerH = (ky - 1) * CELL;
  const gapX = 2 * (STUB + 50);
  const gapY = 2 * (STUB + 56);
  const rows = Math.ceil(kz / perRow);
  return {
    kx, ky, kz, rank: dims.length,
    width: 2 * margin + perRow * layerW + (perRow - 1) * gapX,
    height: 2 * margin + rows * layerH + (rows - 1) * gapY + (dims.length === 3 ? 20 : 0),
    pos(c) {
      const z = c[2] || 0;
      const col = z % perRow;
      const row = Math.floor(z / perRow);
      return {
        x: margin + col * (layerW + gapX) + c[0] * CELL,
        y: margin + (dims.length === 3 ? 20 : 0) + row * (layerH + gapY) + (ky - 1 - (c[1] || 0)) * CELL,
      };
    },
    *nodes() {
      for (let z = 0; z < kz; z++) for (let y = 0; y < ky; y++) for (let x = 0; x < kx; x++) {
        yield [x, y, z].slice(0, dims.length);
      }
    },
  };
}

const line = (a, b, stroke, width, extra = "") =>
  `<line x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}" stroke="${stroke}" stroke-width="${width}"${extra}/>`;
const circle = (at, r, fill, stroke, extra = "") =>
  `<circle cx="${f1(at.x)}" cy="${f1(at.y)}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="1.6"${extra}/>`;
const text = (at, s, size, anchor, fill, extra = "") =>
  `<text x="${f1(at.x)}" y="${f1(at.y + size / 3)}" font-size="${size}" text-anchor="${anchor}" fill="${fill}"${extra}>${esc(s)}</text>`;
const unit = (a, b) => {
  const dx = b.x - a.x; const dy = b.y - a.y; const len = Math.hypot(dx, dy) || 1;
  return { x: dx / len, y: dy / len };
};
const add = (a, u, s) => ({ x: a.x + u.x * s, y: a.y + u.y * s });

/** The symbol of a node with `role` (seed 001 Figure 3.1.3). */
function symbol(at, role) {
  const inner = NODE_R * 0.55;
  switch (role) {
    case "source": {
      const side = 2 * NODE_R + 4;
      return `<rect x="${f1(at.x - side / 2)}" y="${f1(at.y - side / 2)}" width="${side}" height="${side}" fill="${INK}"/>` +
        circle(at, NODE_R - 1, "none", "white") + circle(at, inner, "none", "white");
    }
    case "replicate": return circle(at, NODE_R, "white", INK) + circle(at, inner, "white", INK);
    case "replicate-dest": return circle(at, NODE_R, INK, INK) + circle(at, inner, "none", "white");
    case "passerby": return circle(at, NODE_R * 0.8, "white", INK);
    case "dest": return circle(at, NODE_R * 0.8, INK, INK);
    default: return circle(at, 2.5, GRID, "none", ` stroke-width="0"`);
  }
}

const ROLE_NAMES = {
  source: "the source", replicate: "a replicate node", "replicate-dest": "a replicate node and a destination",
  passerby: "on the way, not a destination", dest: "a destination", off: "not on the plan",
};

/** What every node is: from the report when there is one, else from the request. */
function roles() {
  const out = new Map();
  const dests = new Set(state.dests);
  if (!current) {
    for (const d of dests) out.set(d, "dest");
    out.set(state.source, "source");
    return out;
  }
  if (current.kind === "tree") {
    const fanout = new Map();
    for (const l of current.links) {
      fanout.set(key(l.from), (fanout.get(key(l.from)) || 0) + 1);
      if (!fanout.has(key(l.to))) fanout.set(key(l.to), 0);
    }
    for (const [n, k] of fanout) {
      out.set(n, k > 1 ? (dests.has(n) ? "replicate-dest" : "replicate") : dests.has(n) ? "dest" : "passerby");
    }
  } else if (current.kind === "path") {
    for (const s of current.sends) for (const c of s.route) out.set(key(c), "passerby");
  }
  for (const d of dests) if (out.get(d) !== "replicate-dest") out.set(d, "dest");
  out.set(key(current.source), "source");
  return out;
}

/** How a link is drawn: its dimension, its direction, whether it wraps around. */
function classify(from, to) {
  let dim = 0;
  while (dim < from.length && from[dim] === to[dim]) dim++;
  const diff = to[dim] - from[dim];
  return Math.abs(diff) === 1 ? { dim, sign: diff, wrap: false } : { dim, sign: -Math.sign(diff), wrap: true };
}

const STEP = [{ x: 1, y: 0 }, { x: 0, y: -1 }];

/** A small box with `label` centred on `at`. */
function badge(at, label, stroke, t, z) {
  const w = 6 + 7 * label.length + (z ? 8 : 0);
  const h = 14;
  const arrow = z ? (z > 0 ? "▸" : "◂") : "";
  return `<g class="anim" data-t="${t}"><rect x="${f1(at.x - w / 2)}" y="${f1(at.y - h / 2)}" width="${w}" height="${h}" rx="3" fill="white" stroke="${stroke}" stroke-width="0.8"/>` +
    text(at, arrow + label, 11, "middle", stroke, ` font-weight="bold"`) + "</g>";
}

/** One hop from `from` to `to` at time `t`, in `stroke`, with `label` (or none). */
function hopMarkup(L, from, to, t, stroke, marker, label, beside, zCount) {
  const p = L.pos(from);
  const q = L.pos(to);
  const { dim, sign, wrap } = classify(from, to);
  const style = ` stroke-linecap="round" marker-end="url(#${marker})"`;
  let lines = "";
  let labels = "";
  if (dim === 2) {
    for (const [node, at, side] of [[from, p, sign], [to, q, -sign]]) {
      const k = `${key(node)}/${side}`;
      const n = zCount.get(k) || 0;
      zCount.set(k, n + 1);
      labels += badge({ x: at.x + side * 20, y: at.y - 19 - 15 * n }, `z ${label ?? ""}`.trim(), stroke, t, sign);
    }
    return { lines, labels };
  }
  if (wrap) {
    const u = STEP[dim];
    const s = { x: u.x * sign, y: u.y * sign };
    const n = { x: s.y * beside, y: -s.x * beside };
    lines += line(add(add(p, s, NODE_R + 3), n, 1), add(add(p, s, STUB), n, 1), stroke, 2.5, style);
    lines += line(add(add(q, s, -STUB), n, 1), add(add(q, s, -(NODE_R + 4)), n, 1), stroke, 2.5, style);
    if (label !== null) {
      labels += badge(add(p, s, STUB + 12), String(label), stroke, t) + badge(add(q, s, -(STUB + 12)), String(label), stroke, t);
    }
  } else {
    const u = unit(p, q);
    const n = { x: u.y * beside, y: -u.x * beside };
    lines += line(add(add(p, u, NODE_R + 3), n, 1), add(add(q, u, -(NODE_R + 4)), n, 1), stroke, 2.5, style);
    if (label !== null) labels += badge({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 }, String(label), stroke, t);
  }
  return { lines: `<g class="anim" data-t="${t}">${lines}</g>`, labels };
}

/** The plan: tree links, worms or unicasts, each element tagged with its time. */
function planMarkup(L) {
  let lines = "";
  let labels = "";
  if (!current) return { lines, labels };
  const zCount = new Map();
  if (current.kind === "tree") {
    for (const l of current.links) {
      const t = plan.linkTime(l);
      const h = hopMarkup(L, l.from, l.to, t, TREE, "arrow", t, 0, zCount);
      lines += h.lines; labels += h.labels;
    }
  } else if (current.kind === "path") {
    // A worm's header reaches the node j hops down its route start-up + j cycles after it
    // leaves; the destination holds the whole message L cycles later (its green ring).
    const startup = current.wormhole.startup;
    current.sends.forEach((s, i) => {
      let at = s.from;
      s.route.forEach((to, j) => {
        const t = s.start + startup + j + 1;
        const h = hopMarkup(L, at, to, t, colour(i), `arrow-${i % PALETTE.length}`, null, 3, zCount);
        lines += h.lines; labels += h.labels;
        if (s.drops.some((d) => key(d) === key(to))) {
          const q = L.pos(to);
          labels += `<g class="anim" data-t="${t}">${circle(q, NODE_R + 4.5, "none", colour(i), ` stroke-width="2.5"`)}</g>` +
            badge({ x: q.x + 16, y: q.y + 16 }, String(j + 1), colour(i), t);
        }
        at = to;
      });
    });
  } else {
    current.sends.forEach((s) => {
      const to = s.route[s.route.length - 1];
      const a = L.pos(s.from);
      const b = L.pos(to);
      const i = s.step - 1;
      const u = unit(a, b);
      const bow = Math.min(60, Math.max(10, Math.hypot(b.x - a.x, b.y - a.y) * 0.18));
      const c = { x: (a.x + b.x) / 2 + u.y * bow, y: (a.y + b.y) / 2 - u.x * bow };
      const start = add(a, unit(a, c), NODE_R + 3);
      const end = add(b, unit(b, c), NODE_R + 4);
      lines += `<g class="anim" data-t="${s.step}"><path d="M${f1(start.x)},${f1(start.y)} Q${f1(c.x)},${f1(c.y)} ${f1(end.x)},${f1(end.y)}" fill="none" stroke="${colour(i)}" stroke-width="2.2" marker-end="url(#arrow-${i % PALETTE.length})"/></g>`;
      labels += badge({ x: (start.x + end.x) / 4 + c.x / 2, y: (start.y + end.y) / 4 + c.y / 2 }, String(s.step), colour(i), s.step);
    });
  }
  return { lines, labels };
}

function markers() {
  const head = (id, fill) => `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${fill}"/></marker>`;
  return `<defs>${head("arrow", TREE)}${PALETTE.map((c, i) => head(`arrow-${i}`, c)).join("")}</defs>`;
}

function gridMarkup(L) {
  let out = "";
  const wraps = state.kind === "torus";
  for (const c of L.nodes()) {
    const at = L.pos(c);
    for (let dim = 0; dim < Math.min(2, L.rank); dim++) {
      const k = dim === 0 ? L.kx : L.ky;
      if (c[dim] + 1 < k) {
        const next = c.slice(); next[dim] += 1;
        out += line(at, L.pos(next), GRID, 1);
      }
      if (wraps && (c[dim] === 0 || c[dim] === k - 1)) {
        const sign = c[dim] === 0 ? -1 : 1;
        out += line(at, add(at, STEP[dim], sign * STUB), GRID, 1, ` stroke-dasharray="3 3"`);
      }
    }
  }
  return out;
}

function axesMarkup(L) {
  let out = "";
  for (let z = 0; z < L.kz; z++) {
    const corner = L.pos([0, 0, z].slice(0, L.rank));
    for (let x = 0; x < L.kx; x++) {
      out += text({ x: corner.x + x * CELL, y: corner.y + STUB + 32 }, String(x), 12, "middle", MUTED);
    }
    if (L.rank >= 2) {
      for (let y = 0; y < L.ky; y++) {
        out += text({ x: corner.x - STUB - 26, y: corner.y - y * CELL }, String(y), 12, "end", MUTED);
      }
    }
    if (L.rank === 3) {
      const top = L.pos([0, L.ky - 1, z]);
      out += text({ x: top.x + ((L.kx - 1) * CELL) / 2, y: top.y - STUB - 32 }, `z = ${z}`, 14, "middle", INK, ` font-weight="bold"`);
    }
  }
  return out;
}

function draw() {
  const svg = $("drawing");
  const L = makeLayout(state.dims);
  const role = roles();
  const p = planMarkup(L);
  const arrivalRings = [];
  let nodes = "";
  const small = L.kx * L.ky * L.kz <= 256;
  for (const c of L.nodes()) {
    const k = key(c);
    const at = L.pos(c);
    const r = role.get(k) || "off";
    const arrival = plan ? plan.arrival(k) : undefined;
    if (arrival !== undefined && arrival !== null) {
      arrivalRings.push(`<g class="ring" data-t="${arrival}">${circle(at, NODE_R + 9, "none", REACHED, ` stroke-width="3"`)}</g>`);
    }
    const label = `node ${k}: ${ROLE_NAMES[r]}`;
    nodes += `<g class="node" data-c="${k}" tabindex="-1" role="button" aria-label="${esc(label)}" aria-pressed="${state.dests.includes(k)}">` +
      `<rect class="hit" x="${f1(at.x - CELL / 2 + 2)}" y="${f1(at.y - CELL / 2 + 2)}" width="${CELL - 4}" height="${CELL - 4}" rx="6"/>` +
      symbol(at, r) +
      circle(at, NODE_R + 5, "none", "none", ` class="focus-ring"`) + "</g>";
  }
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  // On large networks the labels shrink below legibility: hover a node for its times instead.
  const labels = small ? p.labels : "";
  svg.innerHTML = markers() + `<g>${gridMarkup(L)}</g><g>${p.lines}</g><g>${arrivalRings.join("")}</g>` +
    `<g>${nodes}</g><g>${labels}</g><g>${axesMarkup(L)}</g>`;
  if (!focusKey || !svg.querySelector(`.node[data-c="${focusKey}"]`)) focusKey = origin();
  const holder = svg.querySelector(`.node[data-c="${focusKey}"]`);
  if (holder) holder.setAttribute("tabindex", "0");
}

function setTime(t) {
  const end = plan ? plan.end : 0;
  time = Math.max(0, Math.min(end, t));
  $("time").value = String(time);
  $("time-out").textContent = plan ? `${time} / ${end} ${plan.unit}${end === 1 ? "" : "s"}` : "–";
  for (const el of $("drawing").querySelectorAll(".anim")) {
    el.classList.toggle("future", Number(el.dataset.t) > time);
  }
  for (const el of $("drawing").querySelectorAll(".ring")) {
    el.style.display = Number(el.dataset.t) <= time ? "" : "none";
  }
}

function togglePlay() {
  if (timer) { stop(); return; }
  if (!plan) return;
  if (time >= plan.end) setTime(0);
  const pace = Math.max(40, Math.min(500, 5000 / Math.max(1, plan.end)));
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-label", "Pause the animation");
  timer = setInterval(() => {
    setTime(time + 1);
    if (time >= plan.end) stop();
  }, pace);
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-label", "Play the animation");
}

// ---------------------------------------------------------------- nodes

function nodeAction(k, setSource) {
  if (setSource) {
    state.source = k;
    state.dests = state.dests.filter((d) => d !== k);
  } else if (k !== state.source) {
    state.dests = state.dests.includes(k) ? state.dests.filter((d) => d !== k) : [...state.dests, k];
  } else {
    status("That is the source: Shift+click another node to move it.");
    return;
  }
  focusKey = k;
  // Redrawing replaces the node elements: give the focus back to the node that had it.
  const hadFocus = document.activeElement instanceof Element && document.activeElement.closest("#drawing");
  showState();
  refresh().then(() => {
    const n = $("drawing").querySelector(`.node[data-c="${k}"]`);
    if (n && hadFocus) n.focus();
  });
}

/** Arrow keys move between nodes (PageUp/PageDown between z-layers); Enter or Space toggles. */
function nodeKey(e) {
  const node = e.target.closest(".node");
  if (!node) return;
  const c = node.dataset.c.split(",").map(Number);
  const moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowUp: [1, 1], ArrowDown: [1, -1], PageUp: [2, 1], PageDown: [2, -1] };
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    nodeAction(node.dataset.c, e.shiftKey);
    return;
  }
  const m = moves[e.key];
  if (!m || m[0] >= c.length) return;
  e.preventDefault();
  const next = c.slice();
  next[m[0]] = Math.max(0, Math.min(state.dims[m[0]] - 1, next[m[0]] + m[1]));
  const target = $("drawing").querySelector(`.node[data-c="${key(next)}"]`);
  if (!target) return;
  node.setAttribute("tabindex", "-1");
  target.setAttribute("tabindex", "0");
  focusKey = key(next);
  target.focus();
}

/** The details of node `k`: what it is on the plan and when it receives the message. */
function showNode(k) {
  const r = roles().get(k) || "off";
  let html = `<strong>(${esc(k)})</strong>: ${esc(ROLE_NAMES[r])}`;
  const a = current && current.arrivals.find((x) => key(x.node) === k);
  if (a) {
    const rows = [["one-port arrival", a.one_port, "hops"], ["all-port arrival", a.all_port, "hops"],
      ["wormhole arrival", a.wormhole, "cycles"], ["step", a.step, ""]]
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([name, v, u]) => `<tr><td>${name}</td><td>${v} ${u}</td></tr>`).join("");
    html += `<table aria-label="arrival times">${rows}</table>`;
  } else if (state.dests.includes(k)) {
    html += "<br>No plan yet.";
  } else {
    html += "<br>Click (or press Enter) to make it a destination.";
  }
  $("node-info").innerHTML = html;
  $("node-info").dataset.node = k;
}

// ---------------------------------------------------------------- legend

function showLegend() {
  const icon = (inner) => `<svg width="34" height="26" viewBox="-17 -13 34 26" aria-hidden="true">${inner}</svg>`;
  const at = { x: 0, y: 0 };
  const items = [
    [symbol(at, "source"), "source"],
    [symbol(at, "replicate"), "replicate node (forwards to 2 or more)"],
    [symbol(at, "replicate-dest"), "replicate node and destination"],
    [symbol(at, "passerby"), "on the way, forwards to one"],
    [symbol(at, "dest"), "destination"],
    [symbol(at, "off"), "not on the plan"],
    [circle(at, 11, "none", REACHED, ` stroke-width="3"`), "has the message at the time shown"],
  ];
  const kind = current ? current.kind : "tree";
  const arrow = (stroke) => line({ x: -15, y: 0 }, { x: 8, y: 0 }, stroke, 2.5) +
    `<path d="M6,-5 L16,0 L6,5 z" fill="${stroke}"/>`;
  if (kind === "tree") {
    // Store-and-forward trees have one- and all-port models; d ports are timed all-port.
    items.push([arrow(TREE), `tree link, labelled with its ${state.port === "one" ? "one" : "all"}-port hop time`]);
  } else {
    const n = Math.min(kind === "path" ? current.sends.length : current.metrics.steps, PALETTE.length);
    const what = kind === "path" ? "worm" : "message-passing step";
    for (let i = 0; i < n; i++) items.push([arrow(colour(i)), `${what} ${i + 1}`]);
  }
  if (state.dims.length === 3) items.push([badge({ x: 0, y: 0 }, "z 3", TREE, 0, 1), "hop to the next z-layer (◂ previous)"]);
  $("legend").innerHTML = items.map(([g, label]) => `<li>${icon(g)}<span>${esc(label)}</span></li>`).join("");
}

// ---------------------------------------------------------------- start

async function init() {
  try {
    [registry, examples] = await Promise.all([
      fetch("/api/algos").then((r) => r.json()),
      fetch("/api/examples").then((r) => r.json()),
    ]);
  } catch (e) {
    status(`Cannot reach the server: ${e.message}`, true);
    return;
  }
  fillSelects();
  if (!readHash()) {
    const i = examples.findIndex((w) => w.figure === DEFAULT_EXAMPLE);
    loadExample(i);
    $("example").value = String(i);
  }
  showState();
  bindControls();
  await refresh();
  document.body.dataset.ready = "true";
}

init();
