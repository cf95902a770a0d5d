// The map as SVG, from the encounter's geometry: axial hexes (pointy top, direction 0 = +q) or a
// table-top plane in hundredths of an inch (facing in degrees, counter-clockwise, 0 = +x).

import { el, svg } from "./api.js";
import { positionText, positionUnit } from "./units.js";

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

// A hex choice's options as the hexes they end on (a path's last step, or the hex itself).
function destinations(act) {
  if (!act || act.kind !== "hex") return [];
  return (act.options || []).map((o) => {
    const path = o.path || o.value;
    const end = Array.isArray(path) && Array.isArray(path[0]) ? path[path.length - 1] : path;
    return { hex: end, option: o };
  }).filter((d) => Array.isArray(d.hex) && d.hex.length === 2);
}

// Enter and Space work a focusable SVG element as a button.
function asButton(node, label, onPick) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", (ev) => { ev.stopPropagation(); onPick(); });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); onPick(); }
  });
}

// `act`: the choice open now (offers.js activeChoice) — hexes to go to, figures to pick, a region;
// `mine`: the figures this reader plays, and `onFigure(id)` what clicking one of them does.
export function drawMap(state, act = null, mine = [], onFigure = null) {
  const geometry = state.geometry || { kind: "hex_axial" };
  const hex = geometry.kind !== "plane";
  const figures = Object.values(state.combatants || {}).filter((c) => Array.isArray(c.position));
  const sides = [...new Set(Object.values(state.combatants || {}).map((c) => c.side))];
  const colour = (side) => SIDE_COLOURS[Math.max(0, sides.indexOf(side)) % SIDE_COLOURS.length];
  const scale = hex ? 1 : 30 * positionUnit(geometry).step; // a plane: 1" (100 steps of 0.01in) = 30 px
  const place = (p) => (hex ? hexCentre(p) : [p[0] * scale, -p[1] * scale]);

  // Figures sharing a spot (every HTH fight in TFT shares one hex) are a ring of small numbered tokens
  // around it, named in the legend under the map, so no two names are printed over each other.
  const byspot = new Map();
  for (const c of figures) {
    const key = c.position.join(",");
    byspot.set(key, [...(byspot.get(key) || []), c]);
  }
  const at = new Map();
  const stacked = new Map(); // combatant id -> its number in its stack
  const stacks = [];
  for (const group of byspot.values()) {
    group.forEach((c, i) => {
      const [x, y] = place(c.position);
      const off = group.length > 1 ? 12 : 0;
      const a = -Math.PI / 2 + (2 * Math.PI * i) / group.length;
      at.set(c.id, [x + off * Math.cos(a), y + off * Math.sin(a)]);
      if (group.length > 1) stacked.set(c.id, i + 1);
    });
    if (group.length > 1) stacks.push(group);
  }
  const dests = destinations(act);
  const points = [...at.values(), ...dests.map((d) => hexCentre(d.hex))];
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = hex ? HEX * 3.5 : 40;
  const minX = Math.min(0, ...xs) - pad, maxX = Math.max(0, ...xs) + pad;
  const minY = Math.min(0, ...ys) - pad, maxY = Math.max(0, ...ys) + pad;
  const root = svg("svg", { viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${(maxX - minX).toFixed(0)} ${(maxY - minY).toFixed(0)}`,
    role: "img", "aria-label": `Map: ${figures.map((c) => `${c.name} at ${positionText(c.position, geometry)}`).join("; ") || "no figures placed"}`,
    class: "map", width: ((maxX - minX) * (hex ? 1.6 : 1.2)).toFixed(0) });
  root.append(svg("title", {}, "The map"));

  if (hex) {
    const grid = svg("g", { class: "grid" });
    // A hex choice that lists no hexes (a ruleset without movement rules, freeform's move): any hex.
    const anyHex = act && act.kind === "hex" && !(act.options || []).length;
    const qs = [...figures.map((c) => c.position[0]), ...dests.map((d) => d.hex[0])];
    const rs = [...figures.map((c) => c.position[1]), ...dests.map((d) => d.hex[1])];
    const q0 = Math.min(0, ...qs) - 3, q1 = Math.max(0, ...qs) + 3, r0 = Math.min(0, ...rs) - 2, r1 = Math.max(0, ...rs) + 2;
    for (let r = r0; r <= r1; r++) {
      for (let q = q0; q <= q1; q++) {
        const [x, y] = hexCentre([q, r]);
        if (x - HEX < minX || x + HEX > maxX || y - HEX < minY || y + HEX > maxY) continue; // whole hexes: no label clipped
        const poly = svg("polygon", { points: hexCorners([x, y]) });
        if (anyHex) {
          poly.classList.add("dest", "any");
          poly.dataset.hex = `${q},${r}`;
          asButton(poly, `${act.title}: to ${q},${r}`, () => act.pick([q, r], `to ${q},${r}`));
        }
        grid.append(poly,
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

  // Where the open choice may go: each destination a focusable hex; on the plane, the region.
  if (dests.length) {
    const layer = svg("g", { class: "destinations" });
    for (const d of dests) {
      const poly = svg("polygon", { points: hexCorners(hexCentre(d.hex)), class: "dest", "data-hex": d.hex.join(",") }, svg("title", {}, d.option.title));
      asButton(poly, `${act.title}: ${d.option.title}`, () => act.pick(d.option.value, d.option.title));
      layer.append(poly);
    }
    root.append(layer);
  }
  if (act && act.kind === "point" && act.region && !hex) {
    const { centre, radius, forbidden } = act.region;
    const [cx, cy] = place(centre);
    const area = svg("circle", { cx, cy, r: radius * scale, class: "region" }, svg("title", {}, act.title));
    const layer = svg("g", { class: "destinations" }, area, (forbidden || []).map((f) => {
      const [fx, fy] = place(f.centre);
      return svg("circle", { cx: fx, cy: fy, r: f.radius * scale, class: "forbidden" });
    }));
    area.addEventListener("click", (ev) => {
      const pt = root.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      const at_ = pt.matrixTransform(root.getScreenCTM().inverse());
      const value = [Math.round(at_.x / scale), Math.round(-at_.y / scale)];
      const outside = (forbidden || []).some((f) => Math.hypot(value[0] - f.centre[0], value[1] - f.centre[1]) < f.radius);
      if (Math.hypot(value[0] - centre[0], value[1] - centre[1]) <= radius && !outside) {
        act.pick(value, `to (${positionText(value, geometry)})`);
      }
    });
    root.append(layer);
  }
  const targets = act && act.kind === "combatant" ? new Map((act.options || []).map((o) => [o.value, o])) : new Map();

  for (const c of figures) {
    const [x, y] = at.get(c.id);
    const g = svg("g", { class: `figure posture-${c.posture || "standing"}`, "data-combatant": c.id });
    g.append(svg("title", {}, `${c.name} (${c.side}) at ${positionText(c.position, geometry)}, ${c.posture || "standing"}`));
    let angle = null;
    if (typeof c.facing === "number") {
      if (hex && HEX_DIRS[c.facing]) {
        const [dx, dy] = hexCentre(HEX_DIRS[c.facing]);
        angle = Math.atan2(dy, dx);
      } else if (!hex) angle = (-c.facing * Math.PI) / 180;
    }
    const n = stacked.get(c.id);
    const r = n ? 7 : 9;
    if (angle !== null) {
      g.append(svg("line", { x1: x, y1: y, x2: (x + 16 * Math.cos(angle)).toFixed(1), y2: (y + 16 * Math.sin(angle)).toFixed(1), class: "facing" }));
    }
    g.append(svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r, fill: colour(c.side),
      class: (c.conditions || []).length ? "marked" : null }));
    if (n) g.append(svg("text", { x: x.toFixed(1), y: (y + 3.5).toFixed(1), class: "stack-number" }, String(n)));
    else g.append(svg("text", { x: x.toFixed(1), y: (y - r - 3).toFixed(1), class: "name" }, c.name));
    const shown = n ? `${n} ${c.name}` : c.name; // a button's name starts with what it shows
    if (targets.has(c.id)) {
      g.classList.add("target");
      asButton(g, `${shown}: ${act.title} — ${targets.get(c.id).title}`, () => act.pick(c.id, targets.get(c.id).title));
    } else if (!act && onFigure && mine.includes(c.id)) {
      g.classList.add("mine");
      asButton(g, `${shown}: show where it may go`, () => onFigure(c.id));
    } else if (dests.length) {
      // Drawn over the hexes it may go to: a tap on a foe's hex (entering it, in close combat) must reach the hex.
      g.classList.add("passive");
    }
    root.append(g);
  }
  // With buttons inside it the map is a group, not an image (an image holds nothing one can press).
  if (root.querySelector("[role=button]") || root.querySelector(".region")) root.setAttribute("role", "group");
  return { svg: root, stacks, geometry, box: [minX, minY, maxX - minX, maxY - minY] };
}

// The legend of the stacks: "At 1,0: 1 Simeth, 2 Troll" (on a plane "At 3″, 0″: ...").
function legend(stacks, geometry) {
  if (!stacks.length) return null;
  return el("ul", { class: "map-legend", "aria-label": "Figures sharing a spot" }, stacks.map((group) => el("li", {},
    `At ${positionText(group[0].position, geometry)}: `, group.map((c, i) => [i ? ", " : "", el("span", { class: "stack-number-key" }, String(i + 1)), ` ${c.name}`]))));
}

// Zoom and pan survive the map's redraws (every event redraws it).
const view = { zoom: 1, dx: 0, dy: 0 };

function applyView(root, box) {
  const [x, y, w, h] = box;
  const vw = w / view.zoom, vh = h / view.zoom;
  const cx = x + w / 2 + view.dx * w, cy = y + h / 2 + view.dy * h;
  root.setAttribute("viewBox", `${(cx - vw / 2).toFixed(1)} ${(cy - vh / 2).toFixed(1)} ${vw.toFixed(1)} ${vh.toFixed(1)}`);
}

// The map with its zoom and pan buttons (and the keys + - and the arrows on the map), and its legend.
export function mapPanel(state, act = null, mine = [], onFigure = null) {
  const { svg: root, stacks, geometry, box } = drawMap(state, act, mine, onFigure);
  applyView(root, box);
  const viewing = (f) => () => { f(); applyView(root, box); };
  const step = () => 0.15 / view.zoom;
  const controls = [
    ["Zoom in", "+", () => { view.zoom = Math.min(view.zoom * 1.5, 8); }],
    ["Zoom out", "−", () => { view.zoom = Math.max(view.zoom / 1.5, 0.5); }],
    ["Pan left", "←", () => { view.dx -= step(); }], ["Pan right", "→", () => { view.dx += step(); }],
    ["Pan up", "↑", () => { view.dy -= step(); }], ["Pan down", "↓", () => { view.dy += step(); }],
    ["Reset the map view", "Reset", () => { Object.assign(view, { zoom: 1, dx: 0, dy: 0 }); }],
  ];
  const bar = el("div", { class: "map-controls", role: "toolbar", "aria-label": "Map zoom and pan" },
    controls.map(([label, text, f]) => el("button", { type: "button", class: "small", "aria-label": label, title: label, onclick: viewing(f) }, text)));
  const keys = { "+": 0, "=": 0, "-": 1, ArrowLeft: 2, ArrowRight: 3, ArrowUp: 4, ArrowDown: 5, "0": 6 };
  const frame = el("div", { class: "map-frame" }, root);
  frame.addEventListener("keydown", (ev) => {
    if (ev.target !== frame || !(ev.key in keys)) return;
    ev.preventDefault();
    viewing(controls[keys[ev.key]][2])();
  });
  // Dragging pans; the wheel zooms (only with Ctrl, so a page scrolled over the map still scrolls).
  let drag = null;
  root.addEventListener("pointerdown", (ev) => { if (ev.target === root || ev.target.closest(".grid")) drag = [ev.clientX, ev.clientY]; });
  root.addEventListener("pointerup", () => { drag = null; });
  root.addEventListener("pointerleave", () => { drag = null; });
  root.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const rect = root.getBoundingClientRect();
    view.dx -= (ev.clientX - drag[0]) / rect.width / view.zoom;
    view.dy -= (ev.clientY - drag[1]) / rect.height / view.zoom;
    drag = [ev.clientX, ev.clientY];
    applyView(root, box);
  });
  root.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    view.zoom = Math.min(8, Math.max(0.5, view.zoom * (ev.deltaY < 0 ? 1.2 : 1 / 1.2)));
    applyView(root, box);
  }, { passive: false });
  frame.tabIndex = 0;
  frame.setAttribute("role", "group");
  frame.setAttribute("aria-label", "Map (keys: + and - zoom, arrows pan, 0 resets)");
  return el("div", { class: "map-panel" }, bar, frame, legend(stacks, geometry));
}
