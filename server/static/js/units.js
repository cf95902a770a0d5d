// Positions in the units a person reads and types them in, from the encounter's geometry (GET
// /encounters/{id}, and the state's `geometry`): its `unit` is what one step of a position is, "hex"
// or, on a plane, "0.01in" (a position [300, 0] is 3 inches along x).

const INCH = new Set(["in", "inch", "inches", '"', "″"]);

// {step, plane, mark, words}: one step of a position in the unit shown (0.01 for "0.01in"), the mark
// written after a number shown ("″"), and the unit's name for a label ("inches").
export function positionUnit(geometry) {
  const g = geometry || {};
  const plane = g.kind === "plane";
  const m = /^\s*(\d*\.?\d+(?:e-?\d+)?)?\s*([A-Za-z"″]+)\s*$/.exec(String(g.unit || ""));
  const step = m && m[1] && Number(m[1]) > 0 ? Number(m[1]) : 1;
  const name = m ? m[2].toLowerCase() : "";
  if (!plane) return { step: 1, plane, mark: "", words: name || "hex" };
  if (INCH.has(name)) return { step, plane, mark: "″", words: "inches" };
  return { step, plane, mark: name ? ` ${name}` : "", words: name || "units" };
}

const decimals = (step) => Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));

// A number of steps in the unit shown: 300 -> "3", 250 -> "2.5" (no trailing zeros).
export function unitsText(steps, geometry) {
  const { step } = positionUnit(geometry);
  return String(Number((Number(steps) * step).toFixed(decimals(step))));
}

// A position as a person reads it: a hex "2,-1" as before; a plane's [300, 0] "3″, 0″".
export function positionText(position, geometry) {
  if (!Array.isArray(position)) return "";
  const u = positionUnit(geometry);
  if (!u.plane) return position.join(",");
  return position.map((v) => `${unitsText(v, geometry)}${u.mark}`).join(", ");
}

// What a person typed in the unit shown, as steps of a position (3 inches -> 300).
export function toSteps(value, geometry) {
  return Math.round(Number(value) / positionUnit(geometry).step);
}
