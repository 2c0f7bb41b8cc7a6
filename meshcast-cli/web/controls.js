// The controls of the request: the form (network, destinations, algorithm and model, share and
// export), the player's buttons, and the drawing's nodes (click, Shift+click, arrow keys, Enter).
// They change `state` and ask app.js to route it again (`refresh`) or to show another of the
// answers (`select`).

import { showNode } from "./details.js";
import {
  $, key, normal, origin, parseDims, post, routeBody, splitNodes, state, status, topology, view,
  writeHash,
} from "./state.js";
import { setTime, step, stop, togglePlay } from "./player.js";
import { esc } from "./svg.js";

/** What app.js does on a change, set by `bindControls`: `refresh()` routes the request again,
 * `select()` shows the plan of `state.algo`. */
let actions;

/** The controls as `state` has them. */
export function showState() {
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
  const examples = view.examples;
  const matches = (w) => w && w.topology === topology() && w.algo === state.algo &&
    state.source === origin() && splitNodes(w.dests).join(" ") === state.dests.join(" ");
  // Several examples share a request (seed 000 and seed 001 both draw Example 1 with DIAG):
  // keep the one chosen while it still matches.
  const chosen = Number($("example").value);
  $("example").value = String(matches(examples[chosen]) ? chosen : examples.findIndex(matches));
}

/** The worked examples and the algorithms, as the server lists them. */
export function fillSelects() {
  $("example").innerHTML = `<option value="-1">(your own request)</option>` + view.examples.map((w, i) =>
    `<option value="${i}">${esc(w.figure)}: ${esc(w.algo)} on ${esc(w.topology)}</option>`).join("");
  $("algo").innerHTML = view.registry.map((a) =>
    `<option value="${esc(a.name)}">${esc(a.name)} (${esc(a.family)})</option>`).join("");
}

/** Make worked example `i` the request. */
export function loadExample(i) {
  const w = view.examples[i];
  if (!w) return;
  const [kind, size] = w.topology.split(":");
  state.kind = kind;
  state.dims = parseDims(size).dims;
  state.source = origin();
  state.dests = splitNodes(w.dests);
  state.algo = w.algo;
}

/** Show `name`'s plan of the request routed already. */
export function showAlgorithm(name) {
  state.algo = name;
  showState();
  actions.select();
}

/** Listen to every control; `refresh` and `select` are app.js's. */
export function bindControls(refresh, select) {
  actions = { refresh, select };
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
  $("algo").addEventListener("change", (e) => showAlgorithm(e.target.value));
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
  $("step-back").addEventListener("click", () => step(-1));
  $("step-fwd").addEventListener("click", () => step(1));
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
    actions.refresh();
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
  const current = view.current;
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

/** Toggle destination `k`, or (`setSource`) move the source there. */
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
  view.focusKey = k;
  // Redrawing replaces the node elements: give the focus back to the node that had it.
  const hadFocus = document.activeElement instanceof Element && document.activeElement.closest("#drawing");
  showState();
  actions.refresh().then(() => {
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
  view.focusKey = key(next);
  target.focus();
}
