// Ed25519 signature verification (RFC 8032 §5.1.7), for the server's signed receipts (docs/verifying.md
// "Signed receipts"). Our own few lines over BigInt and the vendored SHA-512: WebCrypto's Ed25519 exists
// only in secure contexts, and a table's server is often plain http on a LAN address. Verification only
// (no secret is ever handled here, so constant time does not matter); the check is cofactorless,
// [S]B - [k]A encoded must equal R byte for byte, as OpenSSL (Python's `cryptography`) checks it.

import { sha512 } from "../vendor/noble-hashes/sha2.js";

const P = (1n << 255n) - 19n;
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const mod = (a, m = P) => { const r = a % m; return r >= 0n ? r : r + m; };

function pow(b, e) {
  let r = 1n;
  b = mod(b);
  for (; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
  return r;
}

const inv = (a) => pow(a, P - 2n);
const D = mod(-121665n * inv(121666n));
const SQRT_M1 = pow(2n, (P - 1n) / 4n);
const B = [15112221349535400772501151409588531511454012693041857206046113283949847762202n,
  46316835694926478169428394003475163141307993866256225615783033603165251855960n];
const ZERO = [0n, 1n, 1n, 0n];

function littleEndian(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

// Extended coordinates (X, Y, Z, T), a = -1: one complete formula for adding and doubling.
function add([x1, y1, z1, t1], [x2, y2, z2, t2]) {
  const a = mod((y1 - x1) * (y2 - x2)), b = mod((y1 + x1) * (y2 + x2));
  const c = mod(2n * D * t1 * t2), d = mod(2n * z1 * z2);
  const e = b - a, f = d - c, g = d + c, h = b + a;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}

function times(point, n) {
  let r = ZERO;
  for (let q = point; n > 0n; n >>= 1n, q = add(q, q)) if (n & 1n) r = add(r, q);
  return r;
}

function encode([x, y, z]) {
  const zi = inv(z);
  let n = mod(y * zi) | (mod(x * zi) & 1n) << 255n;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 255n);
  return out;
}

// The point 32 bytes encode, or null when they encode none (RFC 8032 §5.1.3).
function decode(bytes) {
  const sign = bytes[31] >> 7;
  const y = littleEndian(bytes) & ((1n << 255n) - 1n);
  if (y >= P) return null;
  const u = mod(y * y - 1n), v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 === mod(-u)) x = mod(x * SQRT_M1);
  else if (vx2 !== u) return null;
  if (x === 0n && sign) return null;
  if (Number(x & 1n) !== sign) x = P - x;
  return [x, y, 1n, mod(x * y)];
}

export function verifyEd25519(publicKey, message, signature) {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const a = decode(publicKey);
  const s = littleEndian(signature.subarray(32));
  if (!a || s >= L) return false;
  const k = mod(littleEndian(sha512(new Uint8Array([...signature.subarray(0, 32), ...publicKey, ...message]))), L);
  const minusA = [mod(-a[0]), a[1], a[2], mod(-a[3])];
  const r = encode(add(times([B[0], B[1], 1n, mod(B[0] * B[1])], s), times(minusA, k)));
  return r.every((b, i) => b === signature[i]);
}
