// /asyncapi.json as @asyncapi/parser reads it: its errors, and the schemas a generator would have to call
// AnonymousSchema_N (objects, enums and unions with no id of their own). Usage: node asyncapi_check.mjs FILE
import { Parser } from "@asyncapi/parser";
import { readFileSync } from "node:fs";

const { document, diagnostics } = await new Parser().parse(readFileSync(process.argv[2], "utf8"));
const anonymous = [];
for (const schema of document ? document.allSchemas() : []) {
  const json = schema.json();
  const model = json.type === "object" || json.enum || json.oneOf || json.anyOf;
  if (model && String(schema.id()).startsWith("<anonymous")) anonymous.push(JSON.stringify(json).slice(0, 200));
}
console.log(JSON.stringify({
  parsed: Boolean(document),
  errors: diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join("/")}: ${d.message}`),
  anonymous,
  schemas: document ? document.allSchemas().length : 0,
  messages: document ? document.allMessages().length : 0,
}));
