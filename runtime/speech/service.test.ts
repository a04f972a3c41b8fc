// The speech service: which engines it finds and in what order, the voice each screen language
// gets (or why it gets none), and readings rendered to WAV — with a fake runner for the platforms
// this machine is not, and with Debian's real espeak-ng (installed by .ci/run, never bundled).
import { describe, expect, it } from "vitest";
import type { PassengerLanguage } from "../kiosk/bridge.ts";
import type { SpeechCommand } from "./engines.ts";
import { createSpeechService, describeSpeechStatus, findProgram, openSpeechService, runCommand, type CommandOutcome } from "./service.ts";

const enc = new TextEncoder();
/** A tiny valid WAV (as eSpeak NG streams it: sizes unknown) with `text` as its "audio". */
function wavOf(text: string): Uint8Array {
  const audio = enc.encode(text);
  const out = new Uint8Array(44 + audio.length);
  const view = new DataView(out.buffer);
  out.set(enc.encode("RIFF"), 0);
  view.setUint32(4, 0x7ffff024, true);
  out.set(enc.encode("WAVEfmt "), 8);
  view.setUint32(16, 16, true);
  out.set(enc.encode("data"), 36);
  view.setUint32(40, 0x7ffff000, true);
  out.set(audio, 44);
  return out;
}

const ESPEAK_LIST = [
  "Pty Language       Age/Gender VoiceName          File                 Other Languages",
  " 5  ar              --/M      Arabic             sem/ar               ",
  " 5  cmn             --/M      Chinese_(Mandarin) sit/cmn              (zh-cmn 5)(zh 5)",
  " 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)",
  " 5  es-419          --/M      Spanish_(Latin_America) roa/es-419           (es-mx 6)(es 6)",
].join("\n");

interface Rig {
  programs: Record<string, string>;
  /** Voice listing per program, or an Error to throw. */
  listings?: Record<string, string | Error>;
  /** eSpeak voices that cannot read their script (Debian's cmn without its dictionary). */
  unreadable?: string[];
  /** What a render answers: default a WAV of the words. */
  render?: (command: SpeechCommand) => CommandOutcome | Promise<CommandOutcome>;
}

function rig(platform: string, options: Rig) {
  const ran: SpeechCommand[] = [];
  const looked: string[] = [];
  const logs: string[] = [];
  const ok = (stdout: string | Uint8Array): CommandOutcome => ({ code: 0, stdout: typeof stdout === "string" ? enc.encode(stdout) : stdout, stderr: "" });
  const run = async (command: SpeechCommand): Promise<CommandOutcome> => {
    ran.push(command);
    const program = Object.entries(options.programs).find(([, p]) => p === command.command)?.[0];
    const listing = program ? options.listings?.[program] : undefined;
    const isListing = command.args.includes("--voices") || command.args.includes("?") || command.args.includes("--version") || (program === "powershell.exe" && !command.env);
    if (isListing) {
      if (listing instanceof Error) throw listing;
      return ok(listing ?? "");
    }
    if (command.args.includes("-x")) {
      const voice = command.args.at(-1)!;
      return ok(options.unreadable?.includes(voice) ? "(en)teI55t'u:55(cmn)" : "b'ilete");
    }
    if (options.render) return options.render(command);
    return ok(command.wav === "stdout" ? wavOf(command.stdin ?? "") : "");
  };
  const find = (program: string): string | null => {
    looked.push(program);
    return options.programs[program] ?? null;
  };
  return { ran, looked, logs, open: (engine: Parameters<typeof openSpeechService>[0] = {}) => openSpeechService({ platform, find, run, log: (m) => logs.push(m), ...engine }) };
}

const voiceOf = (status: { voices: Record<PassengerLanguage, { voice: string | null; engine: string | null }> }) =>
  Object.fromEntries(Object.entries(status.voices).map(([l, v]) => [l, v.voice ? `${v.engine}:${v.voice}` : null]));

describe("finding the engines", () => {
  it("Linux: espeak-ng renders for the headset; Speech Dispatcher is listed as loudspeaker-only; Chinese without its dictionary has no voice, and says why", async () => {
    const r = rig("linux", { programs: { "espeak-ng": "/usr/bin/espeak-ng", "spd-say": "/usr/bin/spd-say" }, listings: { "espeak-ng": ESPEAK_LIST }, unreadable: ["cmn"] });
    const speech = await r.open();
    const status = speech.status();
    expect(status.engines).toEqual([
      { id: "espeak-ng", label: "eSpeak NG", output: "samples", voices: 4 },
      { id: "spd-say", label: "Speech Dispatcher (spd-say)", output: "loudspeaker", voices: 0 },
    ]);
    expect(voiceOf(status)).toEqual({ en: "espeak-ng:en-us", es: "espeak-ng:es-419", "zh-Hans": null, "zh-Hant": null, ar: "espeak-ng:ar" });
    expect(status.voices["zh-Hans"].note).toMatch(/voice cmn cannot read Chinese \(simplified\) text here/);
    expect(r.looked).toEqual(["espeak-ng", "spd-say"]);
    expect(r.logs.at(-1)).toBe(describeSpeechStatus(status));
    expect(r.logs.at(-1)).toMatch(/^speech: eSpeak NG, Speech Dispatcher \(spd-say\) \(loudspeaker only\); headset voices: en en-us, zh-Hans none, zh-Hant none, ar ar, es es-419$/);
    // Chinese: refused with the reason, and no engine is run for it.
    const before = r.ran.length;
    expect(await speech.speak({ text: "车站", language: "zh-Hans" })).toMatchObject({ spoken: false, reason: "no_voice" });
    expect(r.ran.length).toBe(before);
  });

  it("Linux with only Speech Dispatcher: headset mode has no engine, and the note says what to install", async () => {
    const r = rig("linux", { programs: { "spd-say": "/usr/bin/spd-say" } });
    const speech = await r.open();
    expect(speech.status().engines.map((e) => e.id)).toEqual(["spd-say"]);
    expect(voiceOf(speech.status())).toEqual({ en: null, es: null, "zh-Hans": null, "zh-Hant": null, ar: null });
    expect(speech.status().voices.en.note).toMatch(/install Debian's espeak-ng package/);
    expect(await speech.speak({ text: "Hello", language: "en" })).toMatchObject({ spoken: false, reason: "no_engine" });
  });

  it("macOS: say first; an installed espeak-ng fills in a language say has no voice for", async () => {
    const sayList = ["Samantha  en_US  # x", "Paulina  es_MX  # x", "Tingting  zh_CN  # x", "Mei-Jia  zh_TW  # x"].join("\n");
    const r = rig("darwin", { programs: { say: "/usr/bin/say", "espeak-ng": "/opt/homebrew/bin/espeak-ng" }, listings: { say: sayList, "espeak-ng": ESPEAK_LIST } });
    const speech = await r.open();
    expect(voiceOf(speech.status())).toEqual({ en: "say:Samantha", es: "say:Paulina", "zh-Hans": "say:Tingting", "zh-Hant": "say:Mei-Jia", ar: "espeak-ng:ar" });
    // say writes into a file of its own temporary folder; the service reads it back.
    const r2 = rig("darwin", {
      programs: { say: "/usr/bin/say" },
      listings: { say: sayList },
      render: async (command) => {
        const { writeFileSync } = await import("node:fs");
        writeFileSync((command.wav as { file: string }).file, wavOf(command.stdin ?? ""));
        return { code: 0, stdout: new Uint8Array(0), stderr: "" };
      },
    });
    const said = await (await r2.open()).speak({ text: "Hola", language: "es" });
    expect(said).toMatchObject({ spoken: true, engine: "say", voice: "Paulina" });
    const command = r2.ran.at(-1)!;
    expect(command.command).toBe("/usr/bin/say");
    expect(command.args.slice(0, 2)).toEqual(["-v", "Paulina"]);
    expect(command.stdin).toBe("Hola");
  });

  it("Windows: SAPI through PowerShell, the words in the environment", async () => {
    const r = rig("win32", {
      programs: { "powershell.exe": "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" },
      listings: { "powershell.exe": "Microsoft Zira Desktop\ten-US\r\nMicrosoft Huihui Desktop\tzh-CN\r\n" },
      render: async (command) => {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(command.env!.KIOSK_SPEECH_OUT!, wavOf(command.env!.KIOSK_SPEECH_TEXT!));
        return { code: 0, stdout: new Uint8Array(0), stderr: "" };
      },
    });
    const speech = await r.open();
    expect(voiceOf(speech.status())).toEqual({ en: "sapi:Microsoft Zira Desktop", es: null, "zh-Hans": "sapi:Microsoft Huihui Desktop", "zh-Hant": "sapi:Microsoft Huihui Desktop", ar: null });
    expect(speech.status().voices.ar.note).toBe("Windows SAPI (PowerShell) has no Arabic voice");
    const said = await speech.speak({ text: "Fare: $2.50", language: "en" });
    expect(said).toMatchObject({ spoken: true, engine: "sapi", voice: "Microsoft Zira Desktop" });
    expect(r.ran.at(-1)!.env).toMatchObject({ KIOSK_SPEECH_TEXT: "Fare: $2.50", KIOSK_SPEECH_VOICE: "Microsoft Zira Desktop" });
  });

  it("an engine that does not answer is left out (and logged); the next one is used", async () => {
    const r = rig("darwin", { programs: { say: "/usr/bin/say", "espeak-ng": "/usr/local/bin/espeak-ng" }, listings: { say: new Error("spawn EACCES"), "espeak-ng": ESPEAK_LIST } });
    const speech = await r.open();
    expect(speech.status().engines.map((e) => e.id)).toEqual(["espeak-ng"]);
    expect(voiceOf(speech.status()).en).toBe("espeak-ng:en-us");
    expect(r.logs[0]).toMatch(/macOS say at \/usr\/bin\/say did not answer \(spawn EACCES\); it is not used/);
  });

  it("'none' probes nothing; a named engine is the only one looked for", async () => {
    const none = rig("linux", { programs: { "espeak-ng": "/usr/bin/espeak-ng" }, listings: { "espeak-ng": ESPEAK_LIST } });
    const silent = await none.open({ engine: "none" });
    expect(none.looked).toEqual([]);
    expect(await silent.speak({ text: "Hello", language: "en" })).toMatchObject({ spoken: false, reason: "no_engine" });
    const one = rig("darwin", { programs: { say: "/usr/bin/say", "espeak-ng": "/usr/bin/espeak-ng" }, listings: { say: "Samantha  en_US  # x", "espeak-ng": ESPEAK_LIST } });
    await one.open({ engine: "espeak-ng" });
    expect(one.looked).toEqual(["espeak-ng"]);
  });
});

describe("probing in the background", () => {
  it("the kiosk does not wait for it: no status until it is done, then a change; a reading asked meanwhile waits", async () => {
    let release: () => void = () => undefined;
    const listed = new Promise<void>((resolve) => (release = resolve));
    const run = async (command: SpeechCommand): Promise<CommandOutcome> => {
      if (command.args.includes("--voices")) {
        await listed;
        return { code: 0, stdout: enc.encode(ESPEAK_LIST), stderr: "" };
      }
      if (command.args.includes("-x")) return { code: 0, stdout: enc.encode("h@l'oU"), stderr: "" };
      return { code: 0, stdout: wavOf(command.stdin ?? ""), stderr: "" };
    };
    const speech = createSpeechService({ platform: "linux", find: (p) => (p === "espeak-ng" ? "/usr/bin/espeak-ng" : null), run });
    let changes = 0;
    speech.onChange(() => changes++);
    expect(speech.status()).toBeNull();
    const early = speech.speak({ text: "Hello", language: "en" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toBe(0);
    release();
    expect(await early).toMatchObject({ spoken: true, voice: "en-us" });
    expect(changes).toBe(1);
    expect(speech.status()?.voices.en.voice).toBe("en-us");
  });

  it("a probe that ends after the kiosk closed tells no one (the kiosk's stores are gone by then)", async () => {
    const speech = createSpeechService({ platform: "linux", find: () => null });
    let told = 0;
    speech.onChange(() => told++);
    speech.close();
    await speech.ready;
    expect(told).toBe(0);
    // A failing listener is logged, never an unhandled rejection.
    const logs: string[] = [];
    const other = createSpeechService({ platform: "linux", find: () => null, log: (m) => logs.push(m) });
    other.onChange(() => {
      throw new Error("The database connection is not open");
    });
    await other.ready;
    expect(logs).toContain("speech: a listener failed: The database connection is not open");
  });

});

describe("rendering a reading", () => {
  const linux = (render?: Rig["render"]) => rig("linux", { programs: { "espeak-ng": "/usr/bin/espeak-ng" }, listings: { "espeak-ng": ESPEAK_LIST }, ...(render ? { render } : {}) });

  it("returns the WAV, its sizes completed, as base64", async () => {
    const r = linux();
    const said = await (await r.open()).speak({ text: "مرحبا", language: "ar" });
    expect(said).toMatchObject({ spoken: true, engine: "espeak-ng", voice: "ar" });
    const wav = Buffer.from((said as { audio: string }).audio, "base64");
    expect(wav.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect(wav.subarray(44).toString("utf8")).toBe("مرحبا");
    expect(r.ran.at(-1)).toMatchObject({ command: "/usr/bin/espeak-ng", stdin: "مرحبا", wav: "stdout" });
  });

  it("an engine that fails or writes no audio: `failed` with the engine's own words, logged", async () => {
    const failing = linux(() => ({ code: 1, stdout: new Uint8Array(0), stderr: "Error: voice not found\nmore" }));
    expect(await (await failing.open()).speak({ text: "Hello", language: "en" })).toEqual({
      spoken: false,
      reason: "failed",
      message: "eSpeak NG (en-us) could not read the text: exited with 1: Error: voice not found",
    });
    expect(failing.logs.at(-1)).toMatch(/^speech: eSpeak NG \(en-us\) could not read the text/);
    const empty = linux(() => ({ code: 0, stdout: new Uint8Array(0), stderr: "" }));
    expect(await (await empty.open()).speak({ text: "Hello", language: "en" })).toMatchObject({ spoken: false, reason: "failed", message: expect.stringMatching(/not a WAV/) });
  });

  it("renders one reading at a time and refuses a pile-up", async () => {
    let active = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const r = linux(async (command) => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => releases.push(resolve));
      active--;
      return { code: 0, stdout: wavOf(command.stdin ?? ""), stderr: "" };
    });
    const speech = await r.open();
    const asked = Array.from({ length: 6 }, (_, i) => speech.speak({ text: `reading ${i}`, language: "en" }));
    const refused = await Promise.race([Promise.all(asked.slice(4)), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 50))]);
    expect(refused).toEqual([
      { spoken: false, reason: "failed", message: "too many readings waiting" },
      { spoken: false, reason: "failed", message: "too many readings waiting" },
    ]);
    for (let i = 0; i < 4; i++) {
      while (releases.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()!();
    }
    const results = await Promise.all(asked.slice(0, 4));
    expect(results.every((x) => x.spoken)).toBe(true);
    expect(most).toBe(1);
  });
});

describe("the runner", () => {
  it("stops a program at its time limit and at its output cap", async () => {
    await expect(runCommand({ command: process.execPath, args: ["-e", "setTimeout(() => {}, 10000)"] }, { timeoutMs: 200, maxBytes: 1000 })).rejects.toThrow(/took longer than 0.2 s/);
    await expect(runCommand({ command: process.execPath, args: ["-e", "process.stdout.write('x'.repeat(5000))"] }, { timeoutMs: 5000, maxBytes: 1000 })).rejects.toThrow(/more than 1000 bytes/);
    const echo = await runCommand({ command: process.execPath, args: ["-e", "process.stdin.pipe(process.stdout)"], stdin: "车站 $(rm -rf /)" }, { timeoutMs: 5000, maxBytes: 1000 });
    expect(new TextDecoder().decode(echo.stdout)).toBe("车站 $(rm -rf /)");
  });

  it("finds programs on PATH only", () => {
    expect(findProgram("node", { PATH: `/nonexistent:${process.execPath.replace(/\/node$/, "")}` }, "linux")).toBe(process.execPath);
    expect(findProgram("espeak-ng", { PATH: "/nonexistent" }, "linux")).toBeNull();
  });
});

// Debian's espeak-ng, run for real: the kiosk's Linux engine (an operator installs it; .ci/run does here).
describe("with the real espeak-ng", () => {
  const installed = findProgram("espeak-ng");

  it("is installed on this machine (apt-get install -y espeak-ng)", () => {
    expect(installed, "espeak-ng not found on PATH: apt-get install -y espeak-ng").not.toBeNull();
  });

  it("renders speech to WAV; each language is spoken when the status names its voice, refused with the reason when not", async () => {
    const speech = await openSpeechService({ platform: "linux", engine: "espeak-ng" });
    const status = speech.status();
    expect(status.engines[0]).toMatchObject({ id: "espeak-ng", output: "samples" });
    for (const language of ["en", "es", "ar"] as const) {
      const said = await speech.speak({ text: { en: "Headset mode is on.", es: "El modo auriculares está activado.", ar: "وضع سماعة الرأس مفعّل." }[language], language });
      expect(said.spoken, JSON.stringify(said)).toBe(true);
      const wav = Buffer.from((said as { audio: string }).audio, "base64");
      expect(wav.subarray(0, 4).toString("latin1") + wav.subarray(8, 12).toString("latin1")).toBe("RIFFWAVE");
      expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
      // Over a second of 22 kHz 16-bit speech, and not silence: the samples' RMS is well above the noise floor.
      expect(wav.length).toBeGreaterThan(44_100);
      const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - (wav.length % 2)));
      const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length);
      expect(rms, language).toBeGreaterThan(500);
    }
    // Debian's `cmn` reads Chinese characters as code numbers; the probe passes it over for a voice that reads them.
    expect(status.voices["zh-Hans"].voice).not.toBe("cmn");
    for (const [language, text] of [["zh-Hans", "耳机模式已开启。"], ["zh-Hant", "耳機模式已開啟。"]] as const) {
      const said = await speech.speak({ text, language });
      expect(said.spoken).toBe(status.voices[language].voice !== null);
      if (!said.spoken) expect(status.voices[language].note).toMatch(/Chinese/);
    }
  }, 30_000);
});
