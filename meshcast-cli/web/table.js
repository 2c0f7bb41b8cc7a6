// The numbers: the metrics of the algorithm shown, the comparison of every applicable algorithm
// (the best of each column in bold green) and the exact optima rows under it. Every number is
// a field of the server's reports, shown as it is.

import { $, state, topology, view } from "./state.js";
import { esc } from "./svg.js";

const show = (v) => (v === null || v === undefined ? "–" : String(v));

/** Stepwise and depth contention (seed 002 Definitions 3–4) as "stepwise/depth". */
const contention = (m) => (m.contention ? `${m.contention.stepwise}/${m.contention.depth}` : null);

const COLUMNS = [
  ["traffic", (m) => m.traffic], ["additional", (m) => m.additional_traffic],
  ["one-port", (m) => m.one_port_time], ["all-port", (m) => m.all_port_time],
  ["optimal", (m) => m.optimal_one_port_time], ["wormhole", (m) => m.wormhole_latency],
  ["steps", (m) => m.steps], ["contention", (m) => contention(m)],
];

// The rows of the exact optima under the comparison: baseline, name, and the columns its value
// goes in (the least one-port time bounds both the paper-order and the optimal-order column).
const OPTIMA = [
  ["omt", "OMT", ["traffic"]], ["mst", "MST", ["traffic"]], ["omp", "OMP", ["traffic"]],
  ["opt-time", "opt-time", ["one-port", "optimal"]],
];

/** The metrics above the drawing and its title. */
export function showMetrics() {
  const current = view.current;
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

/** The comparison; a row's button calls `onShow(algorithm)`. */
export function showTable(onShow) {
  const reports = view.reports;
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
    const chosen = view.current && r.algorithm === view.current.algorithm;
    return `<tr data-algo="${esc(r.algorithm)}"${chosen ? ` class="selected" aria-current="true"` : ""}>` +
      `<td><button type="button" data-show="${esc(r.algorithm)}" aria-label="Show ${esc(r.algorithm)}">${esc(r.algorithm)}</button></td>` +
      `<td>${esc(r.kind)}</td>${cells}</tr>`;
  }).join("") || `<tr><td colspan="${COLUMNS.length + 2}">No plan yet.</td></tr>`;
  for (const b of $("comparison").querySelectorAll("button[data-show]")) {
    b.addEventListener("click", () => onShow(b.dataset.show));
  }
}

/** The optima rows of `optima` (`{ optima: […] }`, `{ error }`, or null while computed):
 * always the same four, so the page does not move when they arrive. */
export function showOptima(optima) {
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
