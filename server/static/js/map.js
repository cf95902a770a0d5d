// The map as SVG, from the encounter's geometry: axial hexes (pointy top, direction 0 = +q) or a
// table-top plane in hundredths of an inch (facing in degrees, counter-clockwise, 0 = +x).

import { svg } from "./api.js";

const HEX = 28; // px from a hex's centre to a corner
const SQRT3 = Math.sqrt(3);
const SIDE_COLOURS = ["#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1", "#2c7a7b"];

function hexCentre([q, r]) {
  return [HEX * SQRT3 * (q + r / 2), HEX * 1.5 * r];
}

function hexCorners([x, y]) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + HEX * Math.cos(a)).toFixed(1)},${(y + HEX * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

const HEX_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

export function drawMap(state) {
  const geometry = state.geometry || { kind: "hex_axial" };
  const hex = geometry.kind !== "plane";
  const figures = Object.values(state.combatants || {}).filter((c) => Array.isArray(c.position));
  const sides = [...new Set(Object.values(state.combatants || {}).map((c) => c.side))];
  const colour = (side) => SIDE_COLOURS[Math.max(0, sides.indexOf(side)) % SIDE_COLOURS.length];
  const scale = hex ? 1 : 0.3; // a plane: 1" (100 units) = 30 px
  const place = (p) => (hex ? hexCentre(p) : [p[0] * scale, -p[1] * scale]);

  // Figures sharing a spot (TFT's HTH shares one hex) are set a little apart around it.
  const byspot = new Map();
  for (const c of figures) {
    const key = c.position.join(",");
    byspot.set(key, [...(byspot.get(key) || []), c]);
  }
  const at = new Map();
  for (const group of byspot.values()) {
    group.forEach((c, i) => {
      const [x, y] = place(c.position);
      const off = group.length > 1 ? 10 : 0;
      const a = (2 * Math.PI * i) / group.length;
      at.set(c.id, [x + off * Math.cos(a), y + off * Math.sin(a)]);
    });
  }
  const points = [...at.values()];
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = hex ? HEX * 2.5 : 40;
  const minX = Math.min(0, ...xs) - pad, maxX = Math.max(0, ...xs) + pad;
  const minY = Math.min(0, ...ys) - pad, maxY = Math.max(0, ...ys) + pad;
  const root = svg("svg", { viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${(maxX - minX).toFixed(0)} ${(maxY - minY).toFixed(0)}`,
    role: "img", "aria-label": `Map: ${figures.map((c) => `${c.name} at ${c.position.join(",")}`).join("; ") || "no figures placed"}`,
    class: "map", width: ((maxX - minX) * (hex ? 1.6 : 1.2)).toFixed(0) });
  root.append(svg("title", {}, "The map"));

  if (hex) {
    const grid = svg("g", { class: "grid" });
    const qs = figures.map((c) => c.position[0]), rs = figures.map((c) => c.position[1]);
    const q0 = Math.min(0, ...qs) - 3, q1 = Math.max(0, ...qs) + 3, r0 = Math.min(0, ...rs) - 2, r1 = Math.max(0, ...rs) + 2;
    for (let r = r0; r <= r1; r++) {
      for (let q = q0; q <= q1; q++) {
        const [x, y] = hexCentre([q, r]);
        if (x < minX - HEX || x > maxX + HEX || y < minY - HEX || y > maxY + HEX) continue;
        grid.append(svg("polygon", { points: hexCorners([x, y]) }),
          svg("text", { x: x.toFixed(1), y: (y + HEX * 0.75).toFixed(1), class: "coord" }, `${q},${r}`));
      }
    }
    root.append(grid);
  } else {
    const grid = svg("g", { class: "grid" });
    for (let x = Math.floor(minX / 30) * 30; x <= maxX; x += 30) grid.append(svg("line", { x1: x, y1: minY, x2: x, y2: maxY }));
    for (let y = Math.floor(minY / 30) * 30; y <= maxY; y += 30) grid.append(svg("line", { x1: minX, y1: y, x2: maxX, y2: y }));
    root.append(grid);
  }

  // HTH groups: a line between every two members; pins: a dashed arrow from holder to pinned.
  const links = svg("g", { class: "links" });
  for (const [gid, g] of Object.entries(state.groups || {})) {
    const members = (g.combatants || []).filter((m) => at.has(m));
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const [a, b] = [at.get(members[i]), at.get(members[j])];
        links.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "hth" }, svg("title", {}, `HTH group ${gid}`)));
      }
    }
  }
  for (const p of state.pins || []) {
    if (at.has(p.holder) && at.has(p.pinned)) {
      const [a, b] = [at.get(p.holder), at.get(p.pinned)];
      links.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "pin" }, svg("title", {}, "pin")));
    }
  }
  root.append(links);

  for (const c of figures) {
    const [x, y] = at.get(c.id);
    const g = svg("g", { class: `figure posture-${c.posture || "standing"}`, "data-combatant": c.id });
    g.append(svg("title", {}, `${c.name} (${c.side}) at ${c.position.join(",")}, ${c.posture || "standing"}`));
    let angle = null;
    if (typeof c.facing === "number") {
      if (hex && HEX_DIRS[c.facing]) {
        const [dx, dy] = hexCentre(HEX_DIRS[c.facing]);
        angle = Math.atan2(dy, dx);
      } else if (!hex) angle = (-c.facing * Math.PI) / 180;
    }
    const r = 9;
    if (angle !== null) {
      g.append(svg("line", { x1: x, y1: y, x2: (x + 16 * Math.cos(angle)).toFixed(1), y2: (y + 16 * Math.sin(angle)).toFixed(1), class: "facing" }));
    }
    g.append(svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r, fill: colour(c.side),
      class: (c.conditions || []).length ? "marked" : null }));
    g.append(svg("text", { x: x.toFixed(1), y: (y - r - 3).toFixed(1), class: "name" }, c.name));
    root.append(g);
  }
  return root;
}
