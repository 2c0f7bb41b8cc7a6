// The animation: when each drawn element and each destination happens in the model shown (all
// from the report: tree links carry their one-port `hop` and all-port `all_port_hop` times),
// the time slider, the step buttons and Play.

import { $, key, state, view } from "./state.js";

let timer = null;

/** When each drawn element and each destination happens, in the model chosen. */
export function timing(r) {
  const arrivals = new Map(r.arrivals.map((a) => [key(a.node), a]));
  if (r.kind === "path") {
    return { unit: "cycle", arrival: (n) => arrivals.get(n)?.wormhole, end: r.metrics.wormhole_latency };
  }
  if (r.kind === "unicast") {
    return { unit: "step", arrival: (n) => arrivals.get(n)?.step, end: r.metrics.steps };
  }
  // Store-and-forward trees have one- and all-port models; d ports are timed all-port.
  const onePort = state.port === "one";
  return {
    unit: "hop",
    arrival: (n) => (onePort ? arrivals.get(n)?.one_port : arrivals.get(n)?.all_port),
    end: onePort ? r.metrics.one_port_time : r.metrics.all_port_time,
    linkTime: onePort ? (l) => l.hop : (l) => l.all_port_hop,
  };
}

/** Show the plan at time `t` (clamped to its span): later elements faint, reached rings shown. */
export function setTime(t) {
  const plan = view.plan;
  const end = plan ? plan.end : 0;
  view.time = Math.max(0, Math.min(end, t));
  $("time").value = String(view.time);
  $("time-out").textContent = plan ? `${view.time} / ${end} ${plan.unit}${end === 1 ? "" : "s"}` : "–";
  for (const el of $("drawing").querySelectorAll(".anim")) {
    el.classList.toggle("future", Number(el.dataset.t) > view.time);
  }
  for (const el of $("drawing").querySelectorAll(".ring")) {
    el.style.display = Number(el.dataset.t) <= view.time ? "" : "none";
  }
}

export function togglePlay() {
  if (timer) { stop(); return; }
  const plan = view.plan;
  if (!plan) return;
  if (view.time >= plan.end) setTime(0);
  const pace = Math.max(40, Math.min(500, 5000 / Math.max(1, plan.end)));
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-label", "Pause the animation");
  timer = setInterval(() => {
    setTime(view.time + 1);
    if (view.time >= plan.end) stop();
  }, pace);
}

export function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-label", "Play the animation");
}

/** One step back or forward, stopping the animation. */
export function step(by) {
  stop();
  setTime(view.time + by);
}
