// @vitest-environment happy-dom
// Issue 13, part 1: the screen explains every interlock block code in every screen language, and
// shows the one confirmation summary (from, to, riders, total) before payment.
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INTERLOCK_CODES, type InterlockCode } from "../../runtime/kiosk/bridge.ts";
import { DEMO_BEIJING, DEMO_MARTA } from "../bridge/demoSystems.ts";
import { LANGUAGES, type Catalog } from "../i18n/catalog.ts";
import { en } from "../i18n/en.ts";
import { CATALOGS } from "../i18n/index.ts";
import { es } from "../i18n/es.ts";
import { zhHant } from "../i18n/zhHant.ts";
import { ResultView } from "../screens/ResultScreen.tsx";
import { askResult, readyState } from "../test/fixtures.ts";
import { renderWithProviders } from "../test/render.tsx";
import { FramebookWarnings } from "../operator/FramebookWarnings.tsx";
import { PurchaseSummary } from "./PurchaseSummary.tsx";

afterEach(cleanup);

/** Every text of a `safety` section, by key ("codes.<code>" for the block reasons). */
function texts(section: typeof en.safety | Catalog["safety"]): Map<string, string> {
  const { codes, ...rest } = section;
  return new Map([...Object.entries(rest), ...Object.entries(codes).map(([code, text]): [string, string] => [`codes.${code}`, text])]);
}
const placeholders = (text: string): string[] => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]!).sort();

describe("block reasons", () => {
  it("every interlock code has an explanation in every screen language", () => {
    for (const language of LANGUAGES) {
      const codes = CATALOGS[language].safety.codes as Record<InterlockCode, string>;
      for (const code of INTERLOCK_CODES) expect(codes[code]?.trim(), `${language} ${code}`).toBeTruthy();
      expect(Object.keys(codes).sort()).toEqual([...INTERLOCK_CODES].sort());
    }
  });

  it.each([["es", es.safety], ["zh-Hant", zhHant.safety]] as const)("the %s safety texts cover every key and keep the placeholders", (_name, section) => {
    const english = texts(en.safety);
    const translated = texts(section);
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of translated) {
      expect(text.trim(), key).toBeTruthy();
      expect(placeholders(text), key).toEqual(placeholders(english.get(key)!));
    }
    expect(Object.keys(section.codes).sort()).toEqual([...INTERLOCK_CODES].sort());
  });

  it("the Traditional Chinese safety texts use no Simplified-only characters", () => {
    const simplified = /[这为么没选择线网运时车确认击价额币围规则与终点发开关闭无阶营经设输让项单买卖费钱门]/u;
    for (const [key, text] of texts(zhHant.safety)) expect(text.match(simplified)?.[0], key).toBeUndefined();
  });

  it.each(LANGUAGES)("a blocked offer lists its reasons (%s)", (language) => {
    const result = askResult(readyState(), { purchasable: false, interlock: { ok: false, problems: ["track_closed: x", "riders_differ_from_text: y"], codes: ["track_closed", "riders_differ_from_text"] } });
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn() };
    const { container } = renderWithProviders(<ResultView system={DEMO_MARTA} result={result} {...handlers} />, { language });
    const items = [...container.querySelectorAll(".block-reasons li")].map((li) => [li.getAttribute("data-code"), li.textContent]);
    expect(items).toEqual([
      ["track_closed", CATALOGS[language].safety.codes.track_closed],
      ["riders_differ_from_text", CATALOGS[language].safety.codes.riders_differ_from_text],
    ]);
    expect(screen.getByRole("heading", { name: CATALOGS[language].safety.blockedTitle })).toBeTruthy();
  });

  it("a purchasable answer shows no block reasons", () => {
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn() };
    const { container } = renderWithProviders(<ResultView system={DEMO_MARTA} result={askResult(readyState())} {...handlers} />);
    expect(container.querySelector(".block-reasons")).toBeNull();
  });
});

describe("purchase confirmation summary", () => {
  it("shows from, to, travellers and total as the kiosk confirmed them", () => {
    const { container } = renderWithProviders(
      <PurchaseSummary system={DEMO_MARTA} confirmation={{ id: "c1", from: "Airport", to: "Five Points", fromId: "M-AP", toId: "M-FP", riders: { adults: 3, children: 2, seniors: 0, disabled: 0 }, total: 7.5, currency: "USD" }} />,
    );
    const row = (field: string): string | null | undefined => container.querySelector(`[data-field="${field}"] dd`)?.textContent;
    expect([row("from"), row("to"), row("riders"), row("total")]).toEqual(["Airport", "Five Points", "3 adults and 2 children", "$7.50"]);
    expect(screen.getByRole("heading", { name: en.safety.confirmTitle })).toBeTruthy();
  });

  it("names the stations in the screen's language (a Chinese screen: Chinese names, not the pack's Latin ones)", () => {
    const { container } = renderWithProviders(
      <PurchaseSummary system={DEMO_BEIJING} confirmation={{ id: "c2", from: "Xizhimen", to: "Dongzhimen", fromId: "B-XZM", toId: "B-DZM", riders: { adults: 1, children: 0, seniors: 0, disabled: 0 }, total: 4, currency: "CNY" }} />,
      { language: "zh-Hans" },
    );
    const row = (field: string): string | null | undefined => container.querySelector(`[data-field="${field}"] dd`)?.textContent;
    expect([row("from"), row("to")]).toEqual(["西直门", "东直门"]);
  });
});

describe("operator framebook warnings (findings 10, 11)", () => {
  it("says when the operator's file is not in force and which audit lines were skipped", () => {
    const status = { system: "marta" as const, source: "data-pack" as const, version: "abc", text: "", previousVersions: [], audit: [], problem: "The operator framebook x.yaml is invalid.", auditProblems: ["audit.jsonl line 2: not JSON (skipped)"] };
    const { container } = renderWithProviders(<FramebookWarnings status={status} />);
    expect(container.querySelector('[data-warning="not-in-force"]')?.textContent).toContain("Not in force: The operator framebook x.yaml is invalid.");
    expect(container.querySelector('[data-warning="audit-skipped"]')?.textContent).toContain("audit.jsonl line 2");
    cleanup();
    const quiet = renderWithProviders(<FramebookWarnings status={{ ...status, problem: null, auditProblems: [] }} />);
    expect(quiet.container.textContent).toBe("");
  });
});
