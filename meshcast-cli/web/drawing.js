// The drawing of the plan shown, in the vocabulary of `meshcast route --svg`: the network, the
// node symbols, tree links with their hop times, worms in one colour each, unicasts as curved
// arrows by step, and the axes. Each drawn element carries its time (`data-t`) for the
// animation (player.js); each node is a focusable button.

import {
  BESIDE, BOW, BOW_MAX, BOW_MIN, CELL, DROP_LABEL, DROP_RING_R, GRID, HEAD_GAP, INK, LINK_W,
  MUTED, NODE_R, PALETTE, STUB, STUB_LABEL, TAIL_GAP, TREE, UNICAST_W, Z_BADGE_SHIFT,
  Z_BADGE_STACK, Z_TINT,
} from "./vocabulary.js";
import { classify, makeLayout, STEP } from "./layout.js";
import { $, key, origin, state, view } from "./state.js";
import {
  add, badge, circle, colour, curve, esc, f1, line, markers, REACHED, symbol, text, unit, zBadge,
} from "./svg.js";

export const ROLE_NAMES = {
  source: "the source", replicate: "a replicate node", "replicate-dest": "a replicate node and a destination",
  passerby: "on the way, not a destination", dest: "a destination", off: "not on the plan",
};

/** What every node is: from the report when there is one, else from the request. */
export function roles() {
  const out = new Map();
  const dests = new Set(state.dests);
  const current = view.current;
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

/** One hop from `from` to `to` as `look` has it: its time `t`, its colour `stroke` and arrowhead
 * `marker`, the `label` on its line (or null), how far `beside` the link's centre line it runs,
 * and the number `zLabel` and `zFill` of its badges if it is a hop along z; `zCount` counts the
 * z badges already beside each node. */
function hopMarkup(L, from, to, look, zCount) {
  const { t, stroke, marker, label, beside, zLabel, zFill } = look;
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
      const where = { x: at.x + side * Z_BADGE_SHIFT, y: at.y - Z_BADGE_SHIFT - Z_BADGE_STACK * n };
      labels += zBadge(where, sign, String(zLabel), stroke, zFill, t);
    }
    return { lines, labels };
  }
  if (wrap) {
    const u = STEP[dim];
    const s = { x: u.x * sign, y: u.y * sign };
    const n = { x: s.y * beside, y: -s.x * beside };
    lines += line(add(add(p, s, TAIL_GAP), n, 1), add(add(p, s, STUB), n, 1), stroke, LINK_W, style);
    lines += line(add(add(q, s, -STUB), n, 1), add(add(q, s, -HEAD_GAP), n, 1), stroke, LINK_W, style);
    if (label !== null) {
      const out = STUB + STUB_LABEL;
      labels += badge(add(p, s, out), String(label), stroke, t) + badge(add(q, s, -out), String(label), stroke, t);
    }
  } else {
    const u = unit(p, q);
    const n = { x: u.y * beside, y: -u.x * beside };
    lines += line(add(add(p, u, TAIL_GAP), n, 1), add(add(q, u, -HEAD_GAP), n, 1), stroke, LINK_W, style);
    if (label !== null) labels += badge({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 }, String(label), stroke, t);
  }
  return { lines: `<g class="anim" data-t="${t}">${lines}</g>`, labels };
}

/** A tree: every link at its time in the model shown, labelled with it. */
function treeMarkup(L, current, zCount) {
  let lines = "";
  let labels = "";
  for (const l of current.links) {
    const t = view.plan.linkTime(l);
    const look = { t, stroke: TREE, marker: "arrow", label: t, beside: 0, zLabel: t, zFill: Z_TINT };
    const h = hopMarkup(L, l.from, l.to, look, zCount);
    lines += h.lines; labels += h.labels;
  }
  return { lines, labels };
}

/** Worms: a worm's header reaches the node j hops down its route start-up + j cycles after it
 * leaves; the destination holds the whole message L cycles later (its green ring). */
function wormMarkup(L, current, zCount) {
  let lines = "";
  let labels = "";
  const startup = current.wormhole.startup;
  current.sends.forEach((s, i) => {
    let at = s.from;
    s.route.forEach((to, j) => {
      const t = s.start + startup + j + 1;
      const look = {
        t, stroke: colour(i), marker: `arrow-${i % PALETTE.length}`, label: null, beside: BESIDE,
        zLabel: j + 1, zFill: "white",
      };
      const h = hopMarkup(L, at, to, look, zCount);
      lines += h.lines; labels += h.labels;
      if (s.drops.some((d) => key(d) === key(to))) {
        const q = L.pos(to);
        labels += `<g class="anim" data-t="${t}">${circle(q, DROP_RING_R, "none", colour(i), ` stroke-width="${LINK_W}"`)}</g>` +
          badge({ x: q.x + DROP_LABEL, y: q.y + DROP_LABEL }, String(j + 1), colour(i), t);
      }
      at = to;
    });
  });
  return { lines, labels };
}

/** Unicasts: a curve from sender to receiver, bowing left of the direction of travel. */
function unicastMarkup(L, current) {
  let lines = "";
  let labels = "";
  current.sends.forEach((s) => {
    const a = L.pos(s.from);
    const b = L.pos(s.route[s.route.length - 1]);
    const i = s.step - 1;
    const u = unit(a, b);
    const bow = Math.min(BOW_MAX, Math.max(BOW_MIN, Math.hypot(b.x - a.x, b.y - a.y) * BOW));
    const c = { x: (a.x + b.x) / 2 + u.y * bow, y: (a.y + b.y) / 2 - u.x * bow };
    const start = add(a, unit(a, c), TAIL_GAP);
    const end = add(b, unit(b, c), HEAD_GAP);
    lines += `<g class="anim" data-t="${s.step}">${curve(start, c, end, colour(i), UNICAST_W, ` marker-end="url(#arrow-${i % PALETTE.length})"`)}</g>`;
    labels += badge({ x: (start.x + end.x) / 4 + c.x / 2, y: (start.y + end.y) / 4 + c.y / 2 }, String(s.step), colour(i), s.step);
  });
  return { lines, labels };
}

/** The plan: tree links, worms or unicasts, each element tagged with its time. */
function planMarkup(L) {
  const current = view.current;
  if (!current) return { lines: "", labels: "" };
  if (current.kind === "tree") return treeMarkup(L, current, new Map());
  if (current.kind === "path") return wormMarkup(L, current, new Map());
  return unicastMarkup(L, current);
}

/** The network: thin grey links inside each layer, dashed stubs for wraparound links. */
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

/** Coordinates along the axes, and the z-layer names. */
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

/** Draw the network, the plan shown and its arrival rings; keep the grid's tab stop. */
export function draw() {
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
    const arrival = view.plan ? view.plan.arrival(k) : undefined;
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
  if (!view.focusKey || !svg.querySelector(`.node[data-c="${view.focusKey}"]`)) view.focusKey = origin();
  const holder = svg.querySelector(`.node[data-c="${view.focusKey}"]`);
  if (holder) holder.setAttribute("tabindex", "0");
}
