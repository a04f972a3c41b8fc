// Issue 13, finding 16: in kiosk mode no menu and no window close; a packaged build ignores the
// renderer and app-root overrides; kiosk:// serves no source maps.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rendererFileFor } from "./app-protocol.ts";
import { appRootOf, shellConfig } from "./config.ts";
import { lockKioskWindow, removeApplicationMenu } from "./kiosk-lock.ts";

function fakeWindow(): { on(event: "close", fn: (e: { preventDefault(): void }) => void): void; close(): boolean; menuRemoved: boolean; removeMenu(): void } {
  const listeners: ((e: { preventDefault(): void }) => void)[] = [];
  return {
    menuRemoved: false,
    on: (_event, fn) => listeners.push(fn),
    removeMenu() {
      this.menuRemoved = true;
    },
    /** Whether the window would close. */
    close: () => {
      let prevented = false;
      for (const fn of listeners) fn({ preventDefault: () => (prevented = true) });
      return !prevented;
    },
  };
}

describe("kiosk lock", () => {
  it("removes the application menu", () => {
    const calls: unknown[] = [];
    removeApplicationMenu({ setApplicationMenu: (m) => calls.push(m) });
    expect(calls).toEqual([null]);
  });

  it("refuses a window close in kiosk mode unless the app is quitting; allows it outside kiosk mode", () => {
    let quitting = false;
    const win = fakeWindow();
    expect(lockKioskWindow(win, { kiosk: true, quitting: () => quitting })).toBe(true);
    expect(win.menuRemoved).toBe(true);
    expect(win.close()).toBe(false);
    quitting = true;
    expect(win.close()).toBe(true);
    const dev = fakeWindow();
    expect(lockKioskWindow(dev, { kiosk: false, quitting: () => false })).toBe(false);
    expect(dev.close()).toBe(true);
  });

  it("a packaged build ignores --renderer, KIOSK_RENDERER_DIR and KIOSK_APP_ROOT", () => {
    const env = { KIOSK_RENDERER_DIR: "/tmp/evil", KIOSK_APP_ROOT: "/tmp/evil-root" };
    const argv = ["electron", "main.cjs", "--renderer", "/tmp/evil2"];
    const packaged = shellConfig(argv, env, { appRoot: "/opt/kiosk/app", userData: "/home/k/.config/kiosk", resourcesDir: "/opt/kiosk/resources", packaged: true });
    expect(packaged.rendererDir).toBe(path.join("/opt/kiosk/app", "renderer", "dist"));
    expect(appRootOf(env, "/opt/kiosk/app/dist/electron", true)).toBe("/opt/kiosk/app");
    // In development they still work.
    expect(shellConfig(argv, env, { appRoot: "/src", userData: "/u" }).rendererDir).toBe("/tmp/evil2");
    expect(appRootOf(env, "/src/dist/electron", false)).toBe("/tmp/evil-root");
  });

  it("kiosk:// never serves a source map", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-lock-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "x");
    writeFileSync(path.join(dir, "assets", "app.js"), "x");
    writeFileSync(path.join(dir, "assets", "app.js.map"), "{}");
    expect(rendererFileFor(dir, "kiosk://app/assets/app.js")).toBe(path.join(dir, "assets", "app.js"));
    expect(rendererFileFor(dir, "kiosk://app/assets/app.js.map")).toBeNull();
  });
});
