// Where the page puts the nodes: x to the right, y upward, a 3D network as a block of z-layers
// (rows of them, unlike `route --svg`'s single row, so a large cube fits the page). The spacing
// and the stubs' length are the renderer's (/vocabulary.js); the margins leave room for the
// stubs, their hop labels and the axis labels beyond them.

import { CELL, STUB } from "./vocabulary.js";

/** The screen direction of one step along x and along y. */
export const STEP = [{ x: 1, y: 0 }, { x: 0, y: -1 }];

/** Node positions of a network of sizes `dims`. */
export function makeLayout(dims) {
  const [kx, ky = 1, kz = 1] = dims;
  const perRow = dims.length === 3 ? Math.ceil(Math.sqrt(kz)) : 1;
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

/** How a link is drawn: its dimension, its direction, whether it wraps around. */
export function classify(from, to) {
  let dim = 0;
  while (dim < from.length && from[dim] === to[dim]) dim++;
  const diff = to[dim] - from[dim];
  return Math.abs(diff) === 1 ? { dim, sign: diff, wrap: false } : { dim, sign: -Math.sign(diff), wrap: true };
}
