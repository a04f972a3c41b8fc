// Test support: a minimal JSON Schema check for the kiosk tool schemas (type, enum, required,
// properties without extras, items, minItems/maxItems). Returns the problems found.
import type { JsonSchema } from "../tools.ts";

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

export function checkJsonSchema(value: unknown, schema: JsonSchema, path = "$"): string[] {
  const problems: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value as never)) problems.push(`${path}: ${JSON.stringify(value)} not in enum`);
  const type = schema.type as string | undefined;
  const actual = typeOf(value);
  if (type && !(type === actual || (type === "number" && actual === "integer"))) {
    problems.push(`${path}: expected ${type}, got ${actual}`);
    return problems;
  }
  if (actual === "object" && schema.properties) {
    const props = schema.properties as Record<string, JsonSchema>;
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) if (!(key in obj)) problems.push(`${path}: missing ${key}`);
    for (const [key, v] of Object.entries(obj)) {
      const sub = props[key];
      if (!sub) problems.push(`${path}: unknown key ${key}`);
      else problems.push(...checkJsonSchema(v, sub, `${path}.${key}`));
    }
  }
  if (actual === "array") {
    const arr = value as unknown[];
    if (typeof schema.minItems === "number" && arr.length < schema.minItems) problems.push(`${path}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && arr.length > schema.maxItems) problems.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items) arr.forEach((item, i) => problems.push(...checkJsonSchema(item, schema.items as JsonSchema, `${path}[${i}]`)));
  }
  return problems;
}
