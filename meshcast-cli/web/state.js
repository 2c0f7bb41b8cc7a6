// The request the page shows (its controls and the URL hash) and what the server answered for
// it. Every module reads and changes the same two objects: `state` (the request, as the flags of
// `meshcast route` name its fields) and `view` (the answers and what the page is showing).

/** The most nodes a topology may have: the server's limit. */
const MAX_NODES = 4096;

export const $ = (id) => document.getElementById(id);

/** The request: what the URL hash encodes and `POST /api/route` is asked. */
export const state = {
  kind: "mesh", dims: [8, 8], source: "0,0", dests: [], algo: "diag",
  schedule: "paper", port: "one", length: 20, startup: 0, k: 10, seed: 1,
};

/** The answers and what is shown of them. */
export const view = {
  registry: [],     // GET /api/algos
  examples: [],     // GET /api/examples
  reports: [],      // POST /api/route with all: the applicable algorithms on this request
  current: null,    // the report of the algorithm shown
  plan: null,       // what the drawing animates: { unit, end, arrival(node), linkTime(link) }
  time: 0,          // the time the drawing shows
  focusKey: null,   // the node that holds the grid's one tab stop
};

export const topology = () => `${state.kind}:${state.dims.join("x")}`;
export const key = (coords) => coords.join(",");
/** The origin of the network shown, where every worked example has its source. */
export const origin = () => key(state.dims.map(() => 0));

/** Coordinates of a node written as "3,4" (spaces allowed), or null. */
function coordsOf(text) {
  const parts = text.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** A node as the page writes it: "3,4". Unparsable text is kept, for the server to name. */
export function normal(text) {
  const c = coordsOf(text);
  return c ? key(c) : text.trim();
}

export function splitNodes(text) {
  return text.split(/[\s;]+/).filter((s) => s !== "").map(normal);
}

/** The sizes typed in the Size field, or an error message. */
export function parseDims(text) {
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
export function routeBody(extra) {
  return {
    topology: topology(), source: state.source, dests: state.dests.join(" "),
    schedule: state.schedule, length: state.length, startup: state.startup, port: state.port,
    ...extra,
  };
}

export function writeHash() {
  const p = new URLSearchParams({
    topology: topology(), source: state.source, dests: state.dests.join(" "), algo: state.algo,
    schedule: state.schedule, port: state.port, length: state.length, startup: state.startup,
    k: state.k, seed: state.seed,
  });
  history.replaceState(null, "", `#${p.toString()}`);
}

/** The request in the URL hash, if there is one; true when it set the state. */
export function readHash() {
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

/** The line under the drawing: progress, or (`error`) what went wrong. */
export function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

/** POST `body` as JSON to `path`; throws the server's one-line error when it refuses. */
export async function post(path, body, signal) {
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
