// SVG markup for the drawing: lines, circles, text, labels and the node symbols of seed 001
// Figure 3.1.3. Every size and colour comes from /vocabulary.js, which the server writes from
// the renderer of `meshcast route --svg` (meshcast-cli/src/draw/), so both draw alike.

import {
  GRID, INK, INNER_R, LABEL_CHAR_W, LABEL_FONT, LABEL_H, LABEL_PAD, NODE_R, OFF_R, PALETTE,
  SMALL_R, SOURCE_RING_R, SOURCE_SIDE, SYMBOL_STROKE, TREE, Z_ARROW_FLAT, Z_ARROW_HALF,
  Z_ARROW_TIP, Z_BADGE_H, Z_BADGE_W, Z_DIGIT_W, Z_FONT, Z_NUMBER_X,
} from "./vocabulary.js";

/** The ring that marks a destination holding the message: the page's own, for the animation. */
export const REACHED = "#009e73";

export const colour = (i) => PALETTE[i % PALETTE.length];
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const f1 = (v) => Math.round(v * 10) / 10;

export const line = (a, b, stroke, width, extra = "") =>
  `<line x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}" stroke="${stroke}" stroke-width="${width}"${extra}/>`;
export const circle = (at, r, fill, stroke, extra = "") =>
  `<circle cx="${f1(at.x)}" cy="${f1(at.y)}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="${SYMBOL_STROKE}"${extra}/>`;
export const text = (at, s, size, anchor, fill, extra = "") =>
  `<text x="${f1(at.x)}" y="${f1(at.y + size / 3)}" font-size="${size}" text-anchor="${anchor}" fill="${fill}"${extra}>${esc(s)}</text>`;
/** A curve from `a` through the control point `c` to `b`. */
export const curve = (a, c, b, stroke, width, extra = "") =>
  `<path d="M${f1(a.x)},${f1(a.y)} Q${f1(c.x)},${f1(c.y)} ${f1(b.x)},${f1(b.y)}" fill="none" stroke="${stroke}" stroke-width="${width}"${extra}/>`;
export const unit = (a, b) => {
  const dx = b.x - a.x; const dy = b.y - a.y; const len = Math.hypot(dx, dy) || 1;
  return { x: dx / len, y: dy / len };
};
export const add = (a, u, s) => ({ x: a.x + u.x * s, y: a.y + u.y * s });

/** The symbol of a node with `role` (seed 001 Figure 3.1.3). */
export function symbol(at, role) {
  switch (role) {
    case "source": {
      const side = SOURCE_SIDE;
      return `<rect x="${f1(at.x - side / 2)}" y="${f1(at.y - side / 2)}" width="${side}" height="${side}" fill="${INK}"/>` +
        circle(at, SOURCE_RING_R, "none", "white") + circle(at, INNER_R, "none", "white");
    }
    case "replicate": return circle(at, NODE_R, "white", INK) + circle(at, INNER_R, "white", INK);
    case "replicate-dest": return circle(at, NODE_R, INK, INK) + circle(at, INNER_R, "none", "white");
    case "passerby": return circle(at, SMALL_R, "white", INK);
    case "dest": return circle(at, SMALL_R, INK, INK);
    default: return circle(at, OFF_R, GRID, "none", ` stroke-width="0"`);
  }
}

/** The rounded box of a label, `w` × `h`, centred on `at`. */
const box = (at, w, h, fill, stroke) =>
  `<rect x="${f1(at.x - w / 2)}" y="${f1(at.y - h / 2)}" width="${f1(w)}" height="${h}" rx="3" fill="${fill}" stroke="${stroke}" stroke-width="0.8"/>`;

/** `label` in a small white box centred on `at`, shown from time `t`. */
export function badge(at, label, stroke, t) {
  const w = LABEL_PAD + LABEL_CHAR_W * label.length;
  return `<g class="anim" data-t="${t}">${box(at, w, LABEL_H, "white", stroke)}` +
    text(at, label, LABEL_FONT, "middle", stroke, ` font-weight="bold"`) + "</g>";
}

/** A z-layer hop badge centred on `at`, shown from time `t`: a triangle pointing to the next
 * layer (`sign` > 0, right) or the previous one (left), and `label`, in `stroke` on `fill`. */
export function zBadge(at, sign, label, stroke, fill, t) {
  const w = Z_BADGE_W + Z_DIGIT_W * label.length;
  const left = at.x - w / 2;
  const [tip, base] = sign > 0 ? [left + Z_ARROW_TIP, left + Z_ARROW_FLAT] : [left + Z_ARROW_FLAT, left + Z_ARROW_TIP];
  const points = `${f1(base)},${f1(at.y - Z_ARROW_HALF)} ${f1(base)},${f1(at.y + Z_ARROW_HALF)} ${f1(tip)},${f1(at.y)}`;
  return `<g class="anim" data-t="${t}">${box(at, w, Z_BADGE_H, fill, stroke)}<polygon points="${points}" fill="${stroke}"/>` +
    text({ x: left + Z_NUMBER_X, y: at.y }, label, Z_FONT, "start", stroke, ` font-weight="bold"`) + "</g>";
}

/** The arrowheads: `arrow` for tree links, `arrow-i` in palette colour i. */
export function markers() {
  const head = (id, fill) => `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${fill}"/></marker>`;
  return `<defs>${head("arrow", TREE)}${PALETTE.map((c, i) => head(`arrow-${i}`, c)).join("")}</defs>`;
}
