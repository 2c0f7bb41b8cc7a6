// meshcast explorer: the page served by `meshcast serve`, as ES modules with no build step.
//
// Every number shown comes from the server's JSON API, which answers what `meshcast route --json`
// prints, and every size and colour of the drawing from /vocabulary.js, which the server writes
// from the renderer of `meshcast route --svg`. This module routes the request and shows the
// answer; state.js keeps the request, drawing.js draws the plan (with svg.js and layout.js),
// player.js animates it, table.js shows the numbers, details.js the node and the legend, and
// controls.js listens to the user.

import { bindControls, fillSelects, loadExample, showAlgorithm, showState } from "./controls.js";
import { showLegend } from "./details.js";
import { draw } from "./drawing.js";
import { setTime, stop, timing } from "./player.js";
import { $, post, readHash, routeBody, state, status, topology, view, writeHash } from "./state.js";
import { showMetrics, showOptima, showTable } from "./table.js";

// The example the page opens with when the URL names no request.
const DEFAULT_EXAMPLE = "seed 001 Example 3.2.1.1";

let generation = 0;     // drops answers to requests that a newer one replaced
let optima = null;      // POST /api/optima for this request: { optima: […] }, { error }, or null while computed
let optimaCall = null;  // aborts the optima request a newer request replaced

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
    view.reports = [];
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
    view.reports = answer;
    status(`${view.reports.length} algorithms apply to ${topology()}; the table compares them.`);
  } catch (e) {
    if (mine !== generation) return;
    view.reports = [];
    status(e.message, true);
  }
  select();
  // The destinations whose plan the page now shows, or "error": what scripts (and the browser
  // test) wait for.
  document.body.dataset.routed = view.current ? routeBody({}).dests : "error";
  if (view.current) loadOptima(mine); else { optima = { optima: [] }; showOptima(optima); }
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
  showOptima(optima);
  document.body.dataset.optima = optima.error ? "error" : body.dests;
}

/** Show the report of `state.algo` (or the first applicable one): drawing, numbers, table. */
function select() {
  const reports = view.reports;
  const names = new Set(reports.map((r) => r.algorithm));
  for (const option of $("algo").options) {
    const off = reports.length > 0 && !names.has(option.value);
    option.disabled = off;
    option.textContent = option.textContent.replace(/ — not on this topology$/, "") +
      (off ? " — not on this topology" : "");
  }
  view.current = reports.find((r) => r.algorithm === state.algo) || reports[0] || null;
  if (view.current && view.current.algorithm !== state.algo) {
    state.algo = view.current.algorithm;
    showState();
  }
  writeHash();
  view.plan = view.current ? timing(view.current) : null;
  showMetrics();
  showTable(showAlgorithm);
  showOptima(optima);
  draw();
  showLegend();
  const end = view.plan ? view.plan.end : 0;
  $("time").max = String(end);
  setTime(end);
}

async function init() {
  try {
    [view.registry, view.examples] = await Promise.all([
      fetch("/api/algos").then((r) => r.json()),
      fetch("/api/examples").then((r) => r.json()),
    ]);
  } catch (e) {
    status(`Cannot reach the server: ${e.message}`, true);
    return;
  }
  fillSelects();
  if (!readHash()) {
    const i = view.examples.findIndex((w) => w.figure === DEFAULT_EXAMPLE);
    loadExample(i);
    $("example").value = String(i);
  }
  showState();
  bindControls(refresh, select);
  await refresh();
  document.body.dataset.ready = "true";
}

init();
