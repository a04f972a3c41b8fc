import { describe, expect, it } from "vitest";
import { ar } from "./ar.ts";
import type { Catalog } from "./catalog.ts";
import { en } from "./en.ts";
import { CATALOGS, createKioskI18n, directionOf } from "./index.ts";
import { es } from "./es.ts";
import { zh } from "./zh.ts";
import { zhHant } from "./zhHant.ts";

function flatten(value: object, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === "string") out.set(prefix + key, inner);
    else for (const [k, v] of flatten(inner as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string): string[] => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]!).sort();
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe("translation catalogs", () => {
  const english = flatten(en);

  it.each([["zh-Hans", zh], ["zh-Hant", zhHant], ["ar", ar], ["es", es]] as const)("%s has every English key and no stray ones", (name, catalog) => {
    const keys = flatten(catalog);
    // Spanish covers the passenger screens; the staff tools fall back to English.
    for (const key of english.keys()) if (name !== "es" || !key.startsWith("operator.")) expect(keys.has(key), key).toBe(true);
    for (const key of keys.keys()) {
      const base = key.replace(PLURAL, "_other");
      expect(english.has(key) || english.has(base), key).toBe(true);
    }
  });

  it.each([["zh-Hans", zh], ["zh-Hant", zhHant], ["ar", ar], ["es", es]] as const)("%s keeps the interpolation placeholders", (_name, catalog) => {
    for (const [key, text] of flatten(catalog)) {
      const source = english.get(key) ?? english.get(key.replace(PLURAL, "_other"))!;
      if (PLURAL.test(key)) expect(placeholders(source), key).toEqual(expect.arrayContaining(placeholders(text)));
      else expect(placeholders(text), key).toEqual(placeholders(source));
    }
  });

  it("gives Arabic all six plural forms wherever English has a plural", () => {
    const arabic = flatten(ar);
    for (const key of english.keys()) {
      if (!key.endsWith("_other")) continue;
      for (const form of ["zero", "one", "two", "few", "many", "other"]) {
        expect(arabic.has(key.replace(/_other$/, `_${form}`)), `${key} ${form}`).toBe(true);
      }
    }
  });

  it("resolves typed keys and plurals per language", () => {
    expect(createKioskI18n("en").t("route.stops", { count: 1 })).toBe("1 stop");
    expect(createKioskI18n("en").t("route.stops", { count: 7 })).toBe("7 stops");
    expect(createKioskI18n("zh-Hans").t("journey.from")).toBe("出发站");
    const arabic = createKioskI18n("ar");
    expect(arabic.t("route.stops", { count: 2 })).toBe("محطتان");
    expect(arabic.t("route.stops", { count: 5 })).toBe("5 محطات");
    expect(arabic.t("route.stops", { count: 11 })).toBe("11 محطة");
    expect(createKioskI18n("zh-Hant").t("journey.from")).toBe("出發站");
    expect(createKioskI18n("es").t("route.stops", { count: 2 })).toBe("2 paradas");
    expect(createKioskI18n("es").t("operator.title")).toBe(en.operator.title);
    expect(directionOf("ar")).toBe("rtl");
    expect(directionOf("zh-Hans")).toBe("ltr");
    expect(Object.keys(CATALOGS)).toEqual(["en", "zh-Hans", "zh-Hant", "ar", "es"]);
  });

  it("rejects incomplete catalogs at compile time", () => {
    // @ts-expect-error a catalog section without all of English's keys does not type-check
    const partial: Catalog["journey"] = { title: "x" };
    // @ts-expect-error nor does a misspelt key
    const misspelt: Catalog["reset"] = { titel: "x" };
    expect([partial, misspelt]).toHaveLength(2);
  });
});
