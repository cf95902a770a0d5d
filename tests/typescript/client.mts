// The README's first TFT turn, typed by the types openapi-typescript generates from /openapi.json with
// its default settings (api.d.ts, written by the test), sent with openapi-fetch.
// Usage: node build/client.mjs BASE_URL
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Command = components["schemas"]["Command"];

// No @types/node: the one thing it reads of Node.
declare const process: { argv: string[] };
const base = process.argv[2];
const anyone = createClient<paths>({ baseUrl: base });

function check<T>(what: string, answer: { data?: T; error?: unknown }): T {
  if (answer.data === undefined) throw new Error(`${what}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const created = check(
  "create",
  await anyone.POST("/encounters", { body: { name: "Troll bridge", ruleset: "tft" } }),
);
const id = created.id;
const gm = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${created.gm_token}` } });

async function send(client: typeof gm, body: Command): Promise<components["schemas"]["CommandAppended"]> {
  return check(body.type, await client.POST("/encounters/{id}/commands", { params: { path: { id } }, body }));
}

await send(gm, {
  type: "add_combatants",
  combatants: [
    {
      id: "simeth", name: "Simeth", side: "heroes", position: [0, 0], facing: 0,
      stats: { st: 12, dx: 12, iq: 10, adj_dx: 12, ma: 12 },
    },
    {
      id: "troll", name: "Troll", side: "monsters", position: [1, 0], facing: 3,
      stats: { st: 30, dx: 11, iq: 7, adj_dx: 11, ma: 10 },
    },
  ],
});
const seat = check(
  "seat",
  await gm.POST("/encounters/{id}/seats", { params: { path: { id } }, body: { name: "Alice", combatants: ["simeth"] } }),
);
const alice = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${seat.token}` } });
await send(gm, { type: "start_turn", turn: 1 });
await send(gm, { type: "start_phase", phase: "movement" });
await send(gm, { type: "start_phase", phase: "action" });
const me = check("me", await alice.GET("/encounters/{id}/me", { params: { path: { id } } }));
const entered = await send(alice, {
  type: "tft.enter_hth", combatant: "simeth", target: "troll", command_id: "alice-0001", entropy: "k3J9vQ2mXz81LpTa",
});
const state = check("state", await gm.GET("/encounters/{id}/state", { params: { path: { id } } }));
const log = await gm.GET("/encounters/{id}/log", {
  params: { path: { id }, query: { format: "markdown" } },
  parseAs: "text",
});
const refused = await gm.POST("/encounters/{id}/commands", {
  params: { path: { id } },
  body: { type: "tft.pin", combatant: "simeth", target: "nobody" },
});
console.log(
  JSON.stringify({
    your_turn: me.your_turn,
    events: entered.events.map((e) => e.type),
    seq: state.seq,
    combatants: Object.keys(state.combatants).sort(),
    log: log.data,
    refused: refused.error?.error.code ?? null,
  }),
);
