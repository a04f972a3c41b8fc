// @vitest-environment happy-dom
// Why headset mode is silent, in the passenger's language, as an announced alert.
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "../test/render.tsx";
import { HeadsetProblemNotice } from "./OutOfServiceNotice.tsx";

afterEach(cleanup);

describe("the headset notice", () => {
  it("says which problem it is: no headset, no voice for the screen language, no engine, a failed reading", () => {
    const cases = [
      ["no_headset", /No headset found/],
      ["no_voice", /no voice to read English on the headset/],
      ["no_engine", /cannot read aloud on the headset/],
      ["failed", /could not be played on the headset/],
    ] as const;
    for (const [problem, text] of cases) {
      renderWithProviders(<HeadsetProblemNotice problem={problem} />);
      const alert = screen.getByRole("alert");
      expect(alert.textContent, problem).toMatch(text);
      expect(alert.hasAttribute("data-announce")).toBe(true);
      expect(alert.getAttribute("data-headset-problem")).toBe(problem);
      cleanup();
    }
  });

  it("names the screen language in that language", () => {
    renderWithProviders(<HeadsetProblemNotice problem="no_voice" />, { language: "zh-Hant" });
    expect(screen.getByRole("alert").textContent).toContain("本機沒有可在耳機中朗讀繁體中文的語音");
    cleanup();
    renderWithProviders(<HeadsetProblemNotice problem="no_voice" />, { language: "ar" });
    expect(screen.getByRole("alert").textContent).toContain("العربية");
  });
});
