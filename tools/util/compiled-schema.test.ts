import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CasesFileSchema } from "../data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { compiledSchema, compiledValidator } from "./compiled-schema.ts";

const Stop = z.object({ station_id: z.string().min(1), name: z.string() });
const Sample = z.object({
  outcome: z.enum(["ok", "refer"]),
  stops: z.array(Stop).optional(),
  fare: z.number().nonnegative().transform((n) => Math.round(n * 100) / 100),
  banners: z.array(z.object({ level: z.literal("warn"), text: z.string() })).default([]),
  note: z.string().refine((s) => !s.includes("TODO"), "no placeholders"),
});

const INPUTS: unknown[] = [
  { outcome: "ok", fare: 2.345, note: "" },
  { outcome: "ok", stops: [{ station_id: "A1", name: "Airport" }], fare: 0, banners: [{ level: "warn", text: "x" }], note: "fine", extra: 1 },
  { outcome: "refer", stops: ["Airport"], fare: 1, note: "" },
  { outcome: "nope", fare: -1, note: "TODO" },
  { outcome: "ok", fare: "2", note: "" },
  { outcome: "ok", stops: [{ station_id: "", name: 3 }], fare: 1, note: "" },
  null,
  [],
  "text",
];

describe("compiledSchema (zod's compiled fast path)", () => {
  it("compiles a schema once and hands back the compiled clone, not the schema itself", () => {
    const compiled = compiledSchema(Sample);
    expect(compiled).not.toBe(Sample);
    expect(compiledSchema(Sample)).toBe(compiled);
    expect(typeof compiled._zod.bag.validator).toBe("function");
    expect(Sample._zod.bag.validator).toBeUndefined();
  });

  it.each(INPUTS.map((input, i) => [i, input]))("answers input %i exactly as the schema does: result, data and issues", (_i, input) => {
    const compiled = compiledSchema(Sample);
    expect(compiled.validate(input)).toBe(Sample.safeParse(input).success);
    expect(compiled.safeParse(input)).toEqual(Sample.safeParse(input));
  });

  it("keeps a schema the compiler refuses (an async refinement) working on the ordinary parser", async () => {
    const asyncSchema = z.object({ a: z.string().refine(async (s) => s.length > 1) });
    const compiled = compiledSchema(asyncSchema);
    expect(await compiled.safeParseAsync({ a: "xy" })).toEqual(await asyncSchema.safeParseAsync({ a: "xy" }));
    expect((await compiled.safeParseAsync({ a: "x" })).success).toBe(false);
  });

  it("accepts every case file of the data pack, and refuses one with a broken case as the schema does", () => {
    const compiled = compiledSchema(CasesFileSchema);
    for (const system of ["marta", "doha", "bart", "taipei", "cta", "beijing"]) {
      const cases = JSON.parse(readFileSync(path.join(SHARED_DATA_DIR, "cases", `${system}_cases.json`), "utf8")) as Record<string, unknown>[];
      expect(compiled.validate(cases), system).toBe(true);
      const broken = cases.map((c, i) => (i === 3 ? { ...c, id: 42 } : c));
      expect(compiled.validate(broken), system).toBe(false);
      expect(CasesFileSchema.safeParse(broken).error?.issues[0]?.path).toEqual([3, "id"]);
    }
  });
});

describe("compiledValidator (zod's compiled validator alone, for yes-or-no checks)", () => {
  it.each(INPUTS.map((input, i) => [i, input]))("answers input %i as the schema does", (_i, input) => {
    expect(compiledValidator(Sample)(input)).toBe(Sample.safeParse(input).success);
  });

  it("is made once per schema", () => {
    expect(compiledValidator(Sample)).toBe(compiledValidator(Sample));
  });

  it("keeps a schema the compiler refuses (a reference cycle) answering through the schema", () => {
    interface Node {
      name: string;
      next?: Node;
    }
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), next: NodeSchema.optional() }));
    const valid = compiledValidator(NodeSchema);
    expect(valid({ name: "a", next: { name: "b" } })).toBe(true);
    expect(valid({ name: "a", next: { name: 2 } })).toBe(false);
  });

  it("accepts every case file of the data pack, and refuses one with a broken case", () => {
    const valid = compiledValidator(CasesFileSchema);
    for (const system of ["marta", "doha", "bart", "taipei", "cta", "beijing"]) {
      const cases = JSON.parse(readFileSync(path.join(SHARED_DATA_DIR, "cases", `${system}_cases.json`), "utf8")) as Record<string, unknown>[];
      expect(valid(cases), system).toBe(true);
      expect(valid(cases.map((c, i) => (i === 3 ? { ...c, id: 42 } : c))), system).toBe(false);
    }
  });
});
