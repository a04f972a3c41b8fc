// zod's ahead-of-time compiled fast path (z.compile) for schemas checked on hot paths: the bench
// validates the 955 case files and every submission at each start, mostly in cold code. A compiled
// schema gives the same answers and the same issues (on invalid input it falls back to the
// original parser). Compiled on first use, not at import: modules that define these schemas are
// also bundled into the renderer, whose CSP forbids the `new Function` the compiler needs.
import { z } from "zod";

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with zod's compiled fast path (compiled once per schema). */
export function compiledSchema<S extends z.ZodType>(schema: S): S {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) compiledSchemas.set(schema, (compiled = z.compile(schema)));
  return compiled as S;
}
