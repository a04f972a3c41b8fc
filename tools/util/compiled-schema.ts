// zod's ahead-of-time compiled fast path (z.compile) for schemas checked on hot paths: the bench
// validates the 955 case files and every submission at each start, mostly in cold code. A compiled
// schema gives the same answers and the same issues (on invalid input it falls back to the
// original parser). Compiled on first use, not at import: modules that define these schemas are
// also bundled into the renderer, whose CSP forbids the `new Function` the compiler needs.
import { z } from "zod";
import { compileFn, INVALID } from "zod/v4/core";

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with zod's compiled fast path (compiled once per schema). */
export function compiledSchema<S extends z.ZodType>(schema: S): S {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) compiledSchemas.set(schema, (compiled = z.compile(schema)));
  return compiled as S;
}

const compiledValidators = new WeakMap<z.ZodType, (data: unknown) => boolean>();

/**
 * Whether `data` passes `schema`, by zod's compiled validator alone (compiled once per schema):
 * for a schema that is only ever asked yes or no, such as a data file's. z.compile builds both a
 * parser and this validator; the case files' schema costs 17–20 ms to compile as a validator
 * against 28–31 ms for both. It answers as `schema.safeParse(data).success` does: where the
 * validator cannot tell (a refinement it does not model), the schema itself decides.
 */
export function compiledValidator(schema: z.ZodType): (data: unknown) => boolean {
  let validator = compiledValidators.get(schema);
  if (!validator) {
    let fast: ReturnType<typeof compileFn> | undefined;
    try {
      fast = compileFn(schema, { assertOnly: true });
    } catch {
      // A schema the compiler refuses (async refinements, reference cycles) keeps the parser.
    }
    validator = (data) => {
      if (fast !== undefined) {
        if (fast(data) !== INVALID) return true;
        if (fast.definite === true) return false;
      }
      return schema.safeParse(data).success;
    };
    compiledValidators.set(schema, validator);
  }
  return validator;
}
