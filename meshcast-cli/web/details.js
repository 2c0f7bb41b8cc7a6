// The side panel: what a node is on the plan and when it receives the message (hover or focus),
// and the legend of the symbols the drawing uses for the plan shown.

import { LINK_W, PALETTE, TREE, Z_TINT } from "./vocabulary.js";
import { ROLE_NAMES, roles } from "./drawing.js";
import { $, key, state, view } from "./state.js";
import { circle, colour, esc, line, REACHED, symbol, zBadge } from "./svg.js";

/** The details of node `k`: what it is on the plan and when it receives the message. */
export function showNode(k) {
  const r = roles().get(k) || "off";
  let html = `<strong>(${esc(k)})</strong>: ${esc(ROLE_NAMES[r])}`;
  const a = view.current && view.current.arrivals.find((x) => key(x.node) === k);
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

/** The legend of the plan shown. */
export function showLegend() {
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
  const current = view.current;
  const kind = current ? current.kind : "tree";
  const arrow = (stroke) => line({ x: -15, y: 0 }, { x: 8, y: 0 }, stroke, LINK_W) +
    `<path d="M6,-5 L16,0 L6,5 z" fill="${stroke}"/>`;
  if (kind === "tree") {
    // Store-and-forward trees have one- and all-port models; d ports are timed all-port.
    items.push([arrow(TREE), `tree link, labelled with its ${state.port === "one" ? "one" : "all"}-port hop time`]);
  } else {
    const n = Math.min(kind === "path" ? current.sends.length : current.metrics.steps, PALETTE.length);
    const what = kind === "path" ? "worm" : "message-passing step";
    for (let i = 0; i < n; i++) items.push([arrow(colour(i)), `${what} ${i + 1}`]);
  }
  if (state.dims.length === 3) {
    items.push([zBadge(at, 1, "3", TREE, Z_TINT, 0), "hop to the next z-layer (▶) or the previous one (◀), on both its nodes"]);
  }
  $("legend").innerHTML = items.map(([g, label]) => `<li>${icon(g)}<span>${esc(label)}</span></li>`).join("");
}
