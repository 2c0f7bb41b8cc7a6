// End-to-end test of the explorer in real headless Chromium (Debian's /usr/bin/chromium, driven
// by playwright-core): start `meshcast serve --port 0`, open the page, toggle destinations with
// the mouse and the keyboard, and check that every number the page shows (the exact optima
// too) equals what `meshcast route --all --optima --json` prints for the same request, that
// tree links carry the report's all-port times, and that the page draws with the renderer's
// constants (/vocabulary.js). Writes target/e2e/explorer.png, cube.png and torus.png.
//
// Run from the repository root after `cargo build -p meshcast-cli`:
//   (cd meshcast-cli/web/e2e && npm ci && npm test)
// MESHCAST_BIN names another binary; CHROMIUM another browser.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = process.env.MESHCAST_BIN || resolve(root, "target/debug/meshcast");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const artifacts = resolve(root, "target/e2e");
const TOPOLOGY = "mesh:8x8";

/** What `meshcast route --json` prints for the page's request (the page's defaults). */
function cli(dests, extra, topology = TOPOLOGY, port = "one") {
  const source = topology.split("x").map(() => "0").join(",");
  const args = ["route", "--topology", topology, "--source", source, "--dests", dests,
    "--schedule", "paper", "--length", "20", "--startup", "0", "--port", port, "--json", ...extra];
  return JSON.parse(execFileSync(bin, args, { encoding: "utf8" }));
}

/** Start the server on a free port; resolves to [process, base URL] once it prints its address. */
function serve() {
  const server = spawn(bin, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((ok, fail) => {
    server.on("error", fail);
    server.on("exit", (code) => fail(new Error(`meshcast serve exited with ${code}`)));
    createInterface({ input: server.stdout }).once("line", (line) => {
      const url = line.match(/http:\/\/\S+/);
      if (url) ok([server, url[0]]); else fail(new Error(`unexpected first line: ${line}`));
    });
  });
}

/** Wait until the page shows the plan for exactly `dests`. */
async function routed(page, dests) {
  await page.waitForFunction((d) => document.body.dataset.routed === d, dests, { timeout: 30000 });
}

/** The numbers the page shows: the metrics of the algorithm shown, every table row, and the
 * optima rows (their filled cells, with the explanation each carries). */
async function shown(page) {
  return page.evaluate(() => {
    const cell = (id) => document.getElementById(id).textContent;
    const metrics = {
      traffic: cell("m-traffic"), additional: cell("m-additional"), "one-port": cell("m-one-port"),
      "all-port": cell("m-all-port"), optimal: cell("m-optimal"), wormhole: cell("m-wormhole"),
      steps: cell("m-steps"), contention: cell("m-contention"),
    };
    const rows = {};
    for (const tr of document.querySelectorAll("#comparison tbody tr[data-algo]")) {
      rows[tr.dataset.algo] = Object.fromEntries(
        [...tr.querySelectorAll("td[data-m]")].map((td) => [td.dataset.m, td.textContent]));
    }
    const optima = {};
    const why = {};
    for (const tr of document.querySelectorAll("#optima tr[data-optimum]")) {
      const filled = [...tr.querySelectorAll("td[data-m]")].filter((td) => td.textContent !== "");
      optima[tr.dataset.optimum] = Object.fromEntries(filled.map((td) => [td.dataset.m, td.textContent]));
      why[tr.dataset.optimum] = filled.map((td) => td.title);
    }
    return { metrics, rows, optima, why, title: document.getElementById("plan-title").textContent };
  });
}

/** The optima of `meshcast route --optima --json` as the page's optima rows show them. */
function expectedOptima(o) {
  const columns = { traffic: ["traffic"], one_port_time: ["one-port", "optimal"] };
  return Object.fromEntries(o.optima.map((x) => [x.baseline,
    Object.fromEntries(columns[x.metric].map((c) => [c, x.value === null ? "–" : String(x.value)]))]));
}

/** A report's metrics as the page writes them. */
function expected(m) {
  const s = (v) => (v === null || v === undefined ? "–" : String(v));
  return {
    traffic: s(m.traffic), additional: s(m.additional_traffic), "one-port": s(m.one_port_time),
    "all-port": s(m.all_port_time), optimal: s(m.optimal_one_port_time),
    wormhole: s(m.wormhole_latency), steps: s(m.steps),
    contention: m.contention ? `${m.contention.stepwise}/${m.contention.depth}` : "–",
  };
}

/** Every number on the page equals the CLI's for `dests`, the algorithm shown being `algo`;
 * resolves to the CLI's optima. */
async function assertMatchesCli(page, dests, algo, topology = TOPOLOGY, port = "one") {
  const { reports: all, optima } = cli(dests, ["--all", "--optima"], topology, port);
  await page.waitForFunction((d) => document.body.dataset.optima === d, dests, { timeout: 60000 });
  const got = await shown(page);
  assert.deepEqual(Object.keys(got.rows), all.map((r) => r.algorithm), "the table lists every applicable algorithm");
  for (const r of all) assert.deepEqual(got.rows[r.algorithm], expected(r.metrics), `row ${r.algorithm}`);
  assert.deepEqual(got.optima, expectedOptima(optima), "the exact optima");
  assert.deepEqual(got.metrics, expected(cli(dests, ["--algo", algo], topology, port).metrics), `metrics of ${algo}`);
  assert.match(got.title, new RegExp(`^${algo} `));
  return { optima, why: got.why };
}

const [server, base] = await serve();
const browser = await chromium.launch({
  executablePath: browserPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  // The bad request below is answered 400 on purpose; the browser logs that as an error.
  const expected400 = /status of 400 \(Bad Request\)/;
  page.on("console", (m) => {
    if (m.type() === "error" && !expected400.test(m.text())) problems.push(m.text());
  });

  // Opens on seed 001 Example 3.2.1.1: DIAG on an 8x8 mesh, traffic 21, time 12 (published).
  // Under the server's content security policy: a violation would be a console error above.
  const opened = await page.goto(base);
  assert.match(opened.headers()["content-security-policy"], /^default-src 'none'; script-src 'self';/);
  const example = "4,6 6,6 0,2 4,0 3,0 7,4";
  await routed(page, example);
  await assertMatchesCli(page, example, "diag");
  assert.equal((await shown(page)).metrics.traffic, "21");
  assert.equal((await shown(page)).metrics["one-port"], "12");

  // A 3D worked example from the list: drawn as z-layers, the same numbers as the CLI.
  const examples = await (await fetch(`${base}api/examples`)).json();
  const cube = examples.findIndex((w) => w.topology === "mesh:5x5x5");
  await page.selectOption("#example", String(cube));
  await routed(page, examples[cube].dests);
  await assertMatchesCli(page, examples[cube].dests, examples[cube].algo, "mesh:5x5x5");
  assert.equal(await page.inputValue("#source"), "0,0,0");
  assert.equal(await page.locator("#drawing .node").count(), 125);
  mkdirSync(artifacts, { recursive: true });
  await page.locator("#view").screenshot({ path: resolve(artifacts, "cube.png") });
  const diagExample = examples.findIndex((w) => w.figure === "seed 001 Example 3.2.1.1");
  await page.selectOption("#example", String(diagExample));
  await routed(page, example);

  // Toggle with the mouse: add (2,5) and (7,7), remove (0,2).
  await page.click('.node[data-c="2,5"]');
  await page.click('.node[data-c="7,7"]');
  await page.click('.node[data-c="0,2"]');
  await routed(page, "4,6 6,6 4,0 3,0 7,4 2,5 7,7");
  // ... and with the keyboard: Tab from the time slider into the drawing lands on the node
  // clicked last, (0,2); the arrows move to (1,1), Enter toggles it.
  await page.focus("#time");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.c), "0,2");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const toggled = "4,6 6,6 4,0 3,0 7,4 2,5 7,7 1,1";
  await routed(page, toggled);
  assert.equal(await page.inputValue("#dests"), toggled);
  await assertMatchesCli(page, toggled, "diag");

  // Another algorithm from the table; its arrival times on hover.
  await page.click('#comparison button[data-show="dds"]');
  await assertMatchesCli(page, toggled, "dds");
  const dds = cli(toggled, ["--algo", "dds"]);
  const far = dds.arrivals.find((a) => a.node.join(",") === "7,7");
  await page.hover('.node[data-c="7,7"]');
  const info = await page.textContent("#node-info");
  assert.match(info, new RegExp(`one-port arrival${far.one_port} hops`));
  assert.match(info, new RegExp(`all-port arrival${far.all_port} hops`));

  // The URL encodes the request: a fresh page on it shows the same plan.
  const shared = page.url();
  const again = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await again.goto(shared);
  await routed(again, toggled);
  await assertMatchesCli(again, toggled, "dds");
  await again.close();

  // Bad input is named on the page, not thrown.
  await page.fill("#source", "9,9");
  await page.press("#source", "Tab");
  await page.waitForFunction(() => document.getElementById("status").classList.contains("error"));
  assert.match(await page.textContent("#status"), /9,9/);
  await page.fill("#source", "0,0");
  await page.press("#source", "Tab");
  await routed(page, toggled);

  // The exports are the CLI's own output for the algorithm shown.
  const downloaded = async (button) => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
    return readFileSync(await file.path(), "utf8");
  };
  const routeArgs = ["route", "--topology", TOPOLOGY, "--source", "0,0", "--dests", toggled,
    "--algo", "dds", "--port", "one"];
  assert.equal(await downloaded("#export-json"), execFileSync(bin, [...routeArgs, "--json"], { encoding: "utf8" }));
  const svgFile = resolve(artifacts, "dds.svg");
  mkdirSync(artifacts, { recursive: true });
  execFileSync(bin, [...routeArgs, "--svg", svgFile]);
  assert.equal(await downloaded("#export-svg"), readFileSync(svgFile, "utf8"));

  // K random destinations from a seed: the same set every time.
  await page.fill("#k", "5");
  await page.press("#k", "Tab");
  await page.fill("#seed", "7");
  await page.press("#seed", "Tab");
  await page.click("#random");
  await page.waitForFunction(() => document.body.dataset.routed.split(" ").length === 5);
  const drawn = await page.inputValue("#dests");
  await assertMatchesCli(page, drawn, "dds");
  await page.click("#clear");
  await routed(page, "");
  await page.click("#random");
  await routed(page, drawn);

  // Seed 002's d ports: the multiport plan, its steps and contention follow the port count.
  await page.selectOption("#port", "2");
  await page.selectOption("#algo", "multiport");
  await page.fill("#dests", toggled);
  await page.press("#dests", "Tab");
  await routed(page, toggled);
  await assertMatchesCli(page, toggled, "multiport", TOPOLOGY, "2");
  const two = cli(toggled, ["--algo", "multiport"], TOPOLOGY, "2").metrics;
  assert.notEqual(two.steps, cli(toggled, ["--algo", "multiport"], TOPOLOGY, "one").metrics.steps);
  assert.equal((await shown(page)).metrics.steps, String(two.steps));

  // 17 destinations are beyond the subset programs: "–", and the page says why.
  const many = "1,1 2,2 3,3 4,4 5,5 6,6 7,7 1,2 1,3 1,4 1,5 1,6 1,7 2,1 3,1 4,1 5,1";
  await page.fill("#dests", many);
  await page.press("#dests", "Tab");
  await routed(page, many);
  const refused = await assertMatchesCli(page, many, "multiport", TOPOLOGY, "2");
  assert.equal(refused.optima.optima.find((o) => o.baseline === "omt").value, null);
  assert.match(refused.why.omt[0], /at most 16 destinations/);
  assert.match(await page.textContent("#optima-note"), /OMT: .*at most 16 destinations/);
  mkdirSync(artifacts, { recursive: true });
  await page.locator("#compare").screenshot({ path: resolve(artifacts, "optima-refused.png") });
  await page.selectOption("#port", "one");
  await page.selectOption("#algo", "dds");

  // Back to the toggled request, two hops before the end of the animation, for the screenshot.
  await page.fill("#dests", toggled);
  await page.press("#dests", "Tab");
  await routed(page, toggled);
  const end = cli(toggled, ["--algo", "dds"]).metrics.one_port_time;
  await page.click("#step-back");
  await page.click("#step-back");
  assert.equal(await page.textContent("#time-out"), `${end - 2} / ${end} hops`);
  const faint = await page.locator("#drawing .anim.future").count();
  assert.ok(faint > 0, "links after the time shown are faint");
  await page.hover('.node[data-c="7,7"]');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: resolve(artifacts, "explorer.png"), fullPage: true });

  // All-port: tree links are animated and labelled with the report's all-port times
  // (links[].all_port_hop), not with times the page works out itself.
  await page.selectOption("#port", "all");
  await assertMatchesCli(page, toggled, "dds", TOPOLOGY, "all");
  const allPort = cli(toggled, ["--algo", "dds"], TOPOLOGY, "all");
  const linkTimes = () => page.evaluate(() =>
    [...document.querySelectorAll("#drawing > g:nth-of-type(2) > g.anim")].map((g) => Number(g.dataset.t)));
  assert.deepEqual(await linkTimes(), allPort.links.map((l) => l.all_port_hop), "all-port link times");
  assert.ok(allPort.links.some((l) => l.hop !== l.all_port_hop), "the request tells the models apart");
  assert.equal(await page.textContent("#time-out"),
    `${allPort.metrics.all_port_time} / ${allPort.metrics.all_port_time} hops`);

  // One drawing vocabulary: the page's wraparound stubs are as long as route --svg's, the
  // length /vocabulary.js (written from meshcast-cli/src/draw/) gives.
  const torusDests = "5,4 0,3 3,0";
  const torusPage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  torusPage.on("pageerror", (e) => problems.push(e.message));
  await torusPage.goto(`${base}#topology=torus:6x5&source=0,0&dests=${torusDests}&algo=vh&port=one`);
  await routed(torusPage, torusDests);
  await assertMatchesCli(torusPage, torusDests, "vh", "torus:6x5");
  const vocabulary = await (await fetch(`${base}vocabulary.js`)).text();
  const stub = Number(vocabulary.match(/^export const STUB = (\d+(?:\.\d+)?);$/m)[1]);
  const pageStubs = await torusPage.evaluate(() => [...document.querySelectorAll("#drawing line[stroke-dasharray]")]
    .map((l) => Math.hypot(l.x2.baseVal.value - l.x1.baseVal.value, l.y2.baseVal.value - l.y1.baseVal.value)));
  const torusSvg = resolve(artifacts, "torus.svg");
  execFileSync(bin, ["route", "-t", "torus:6x5", "-d", torusDests, "-a", "vh", "--svg", torusSvg]);
  const cliStubs = [...readFileSync(torusSvg, "utf8").matchAll(/<line [^>]*stroke-dasharray[^>]*>/g)].map(([l]) => {
    const v = (name) => Number(l.match(new RegExp(` ${name}="([-\\d.]+)"`))[1]);
    return Math.hypot(v("x2") - v("x1"), v("y2") - v("y1"));
  });
  // (route --svg has one more dashed line: the wraparound sample of its legend.)
  assert.ok(pageStubs.length > 0, "a stub at each edge node");
  for (const length of pageStubs) assert.equal(length, stub, "the page's stub length");
  assert.equal(cliStubs.filter((length) => length === stub).length, pageStubs.length, "route --svg's stubs");
  await torusPage.screenshot({ path: resolve(artifacts, "torus.png"), fullPage: true });
  await torusPage.close();

  assert.deepEqual(problems, [], "no script errors on the page");
  console.log(`e2e ok: page numbers equal the CLI's; screenshot ${resolve(artifacts, "explorer.png")}`);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
