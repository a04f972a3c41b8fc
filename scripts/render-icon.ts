// Render build/icon.svg to build/icon.png (1024×1024) in headless Chromium — electron-builder makes
// the platform icons (icns, ico, the Linux sizes) from that PNG.
//   npx tsx scripts/render-icon.ts [--chromium /usr/bin/chromium]
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { chromium: { type: "string", default: process.env.KIOSK_E2E_CHROMIUM ?? "/usr/bin/chromium" } } });

const svg = readFileSync(path.join(ROOT, "build", "icon.svg"), "utf8");
const browser = await chromium.launch({ executablePath: values.chromium, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 1024 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator("svg").screenshot({ path: path.join(ROOT, "build", "icon.png"), omitBackground: true });
  console.error("wrote build/icon.png");
} finally {
  await browser.close();
}
