// The kiosk's speech service: finds the platform's speech engines (speechEngineOrder), learns which
// voice reads each screen language, and renders words into a WAV that the screen plays on the
// headset output. Runs the engines as separate programs with a time limit and a size cap, one
// reading at a time.
import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PASSENGER_LANGUAGES, type PassengerLanguage, type SpeakRequest, type SpeechResult, type SpeechStatus, type SpeechVoiceStatus } from "../kiosk/bridge.ts";
import {
  completeWav,
  ESPEAK_VOICES,
  espeakCommand,
  espeakPhonemesCommand,
  espeakSwitchedLanguage,
  parseEspeakVoices,
  parseSapiVoices,
  parseSayVoices,
  SAPI_VOICES,
  sapiCommand,
  SAY_VOICES,
  sayCommand,
  SCRIPT_SAMPLE,
  SPEECH_ENGINES,
  SPD_VERSION,
  speechEngineOrder,
  type SpeechCommand,
  type SpeechEngineChoice,
  type SpeechEngineId,
  type SpeechVoice,
  voicesFor,
} from "./engines.ts";

export interface CommandOutcome {
  code: number | null;
  stdout: Uint8Array;
  stderr: string;
}

export interface CommandLimits {
  timeoutMs: number;
  /** Standard output beyond this many bytes stops the program. */
  maxBytes: number;
}

export type CommandRunner = (command: SpeechCommand, limits: CommandLimits) => Promise<CommandOutcome>;

export interface SpeechService {
  /** The engines and voices found; null while they are still being probed. */
  status(): SpeechStatus | null;
  /** Called once the probe is done (the status changed). */
  onChange(listener: () => void): () => void;
  speak(request: SpeakRequest): Promise<SpeechResult>;
}

export interface SpeechServiceOptions {
  engine?: SpeechEngineChoice;
  platform?: string;
  /** A program's path on PATH, or null (tests: a fake). */
  find?: (program: string) => string | null;
  run?: CommandRunner;
  log?: (message: string) => void;
}

const PROBE_LIMITS: CommandLimits = { timeoutMs: 15_000, maxBytes: 1 << 20 };
/** About twelve minutes of 22 kHz 16-bit audio: far more than MAX_SPOKEN_CHARS produces. */
const RENDER_LIMITS: CommandLimits = { timeoutMs: 30_000, maxBytes: 32 << 20 };
/** Readings waiting beyond this are refused: the screen only ever wants the latest one. */
const MAX_WAITING = 4;

const LANGUAGE_NAMES: Readonly<Record<PassengerLanguage, string>> = {
  en: "English",
  es: "Spanish",
  "zh-Hans": "Chinese (simplified)",
  "zh-Hant": "Chinese (traditional)",
  ar: "Arabic",
};

/** A program on PATH (with Windows' PATHEXT), or null. */
export function findProgram(program: string, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string | null {
  const dirs = (env.PATH ?? env.Path ?? "").split(path.delimiter).filter(Boolean);
  const extensions = platform === "win32" && !path.extname(program) ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const candidate = path.join(dir, program + ext);
      try {
        accessSync(candidate, platform === "win32" ? constants.F_OK : constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Runs a program: its stdin written and closed, stdout collected up to the cap, killed at the time limit. */
export const runCommand: CommandRunner = (command, limits) =>
  new Promise((resolve, reject) => {
    const child = spawn(command.command, command.args, { env: { ...process.env, ...command.env }, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = "";
    let problem: Error | null = null;
    const stop = (why: string): void => {
      problem ??= new Error(why);
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop(`${path.basename(command.command)} took longer than ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) stop(`${path.basename(command.command)} wrote more than ${limits.maxBytes} bytes`);
      else chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (problem) reject(problem);
      else resolve({ code, stdout: new Uint8Array(Buffer.concat(chunks)), stderr });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(command.stdin ?? "");
  });

interface FoundEngine {
  id: SpeechEngineId;
  path: string;
  voices: SpeechVoice[];
}

interface Choice {
  engine: FoundEngine;
  voice: string;
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function withPath(command: SpeechCommand, program: string): SpeechCommand {
  return { ...command, command: program };
}

/** The voices an engine lists (Speech Dispatcher lists none here: it only speaks on the loudspeaker). */
async function listVoices(id: SpeechEngineId, program: string, run: CommandRunner): Promise<SpeechVoice[]> {
  switch (id) {
    case "say":
      return parseSayVoices(text((await run(withPath(SAY_VOICES, program), PROBE_LIMITS)).stdout));
    case "sapi":
      return parseSapiVoices(text((await run(withPath(SAPI_VOICES, program), PROBE_LIMITS)).stdout));
    case "espeak-ng":
      return parseEspeakVoices(text((await run(withPath(ESPEAK_VOICES, program), PROBE_LIMITS)).stdout));
    case "spd-say":
      await run(withPath(SPD_VERSION, program), PROBE_LIMITS);
      return [];
  }
}

/** The program run for a reading; `wavFile` gives a file to write to, for engines that cannot write to stdout. */
function renderCommand(engine: FoundEngine, voice: string, words: string, wavFile: () => string): SpeechCommand {
  switch (engine.id) {
    case "say":
      return withPath(sayCommand(voice, words, wavFile()), engine.path);
    case "sapi":
      return withPath(sapiCommand(voice, words, wavFile()), engine.path);
    case "espeak-ng":
      return withPath(espeakCommand(voice, words), engine.path);
    case "spd-say":
      throw new Error("Speech Dispatcher cannot render audio");
  }
}

interface Probe {
  status: SpeechStatus;
  chosen: Partial<Record<PassengerLanguage, Choice>>;
  notes: Partial<Record<PassengerLanguage, string>>;
  renders: boolean;
}

/** Find the engines in order, list their voices, and pick (and check) each screen language's voice. */
async function probe(order: readonly SpeechEngineId[], platform: string, find: (program: string) => string | null, run: CommandRunner, log: (message: string) => void): Promise<Probe> {
  const found: FoundEngine[] = [];
  for (const id of order) {
    const program = find(SPEECH_ENGINES[id].program);
    if (!program) continue;
    try {
      found.push({ id, path: program, voices: await listVoices(id, program, run) });
    } catch (err) {
      log(`speech: ${SPEECH_ENGINES[id].label} at ${program} did not answer (${(err as Error).message}); it is not used`);
    }
  }

  const chosen: Partial<Record<PassengerLanguage, Choice>> = {};
  const notes: Partial<Record<PassengerLanguage, string>> = {};
  const renderers = found.filter((e) => SPEECH_ENGINES[e.id].output === "samples");
  for (const language of PASSENGER_LANGUAGES) {
    const why: string[] = [];
    for (const engine of renderers) {
      const label = SPEECH_ENGINES[engine.id].label;
      const voices = voicesFor(language, engine.voices);
      if (voices.length === 0) why.push(`${label} has no ${LANGUAGE_NAMES[language]} voice`);
      for (const voice of voices) {
        if (engine.id === "espeak-ng" && !(await espeakReads(engine, voice.name, language, run))) {
          why.push(`${label}'s voice ${voice.name} cannot read ${LANGUAGE_NAMES[language]} text here (its dictionary for that script is not installed)`);
          continue;
        }
        chosen[language] = { engine, voice: voice.name };
        break;
      }
      if (chosen[language]) break;
    }
    if (!chosen[language]) {
      notes[language] =
        renderers.length === 0
          ? `no speech engine that renders audio is installed (${platform === "linux" ? "install Debian's espeak-ng package" : platform === "darwin" ? "macOS say was not found" : platform === "win32" ? "Windows PowerShell was not found" : "install espeak-ng"})`
          : why.join("; ");
    }
  }

  const status: SpeechStatus = {
    engines: found.map((e) => ({ id: e.id, label: SPEECH_ENGINES[e.id].label, output: SPEECH_ENGINES[e.id].output, voices: new Set(e.voices.map((v) => v.name)).size })),
    voices: Object.fromEntries(
      PASSENGER_LANGUAGES.map((language): [PassengerLanguage, SpeechVoiceStatus] => {
        const c = chosen[language];
        return [language, c ? { engine: c.engine.id, voice: c.voice, note: null } : { engine: null, voice: null, note: notes[language] ?? null }];
      }),
    ) as Record<PassengerLanguage, SpeechVoiceStatus>,
  };
  log(describeSpeechStatus(status));
  return { status, chosen, notes, renders: renderers.length > 0 };
}

/**
 * The speech service, probing the engines in the background (PowerShell alone can take seconds to
 * start): the kiosk starts at once, its status has no speech part until the probe is done
 * (`onChange` says when), and a reading asked for meanwhile waits for it. `close` stops the
 * announcements (a probe ending after the kiosk closed tells no one).
 */
export function createSpeechService(options: SpeechServiceOptions = {}): SpeechService & { ready: Promise<void>; close(): void } {
  const choice = options.engine ?? "auto";
  const platform = options.platform ?? process.platform;
  const run = options.run ?? runCommand;
  const log = options.log ?? (() => undefined);
  const order: SpeechEngineId[] = choice === "none" ? [] : choice === "auto" ? speechEngineOrder(platform) : [choice];
  const listeners = new Set<() => void>();
  let probed: Probe | null = null;
  const probing = probe(order, platform, options.find ?? ((program: string) => findProgram(program)), run, log).then((result) => {
    probed = result;
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log(`speech: a listener failed: ${(err as Error).message}`);
      }
    }
    return result;
  });

  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  const render = async (c: Choice, words: string): Promise<SpeechResult> => {
    // A temporary folder only for the engines that write a file (eSpeak NG writes to stdout).
    let dir: string | null = null;
    const wavFile = (): string => {
      dir = mkdtempSync(path.join(tmpdir(), "kiosk-speech-"));
      return path.join(dir, "speech.wav");
    };
    try {
      const command = renderCommand(c.engine, c.voice, words, wavFile);
      const outcome = await run(command, RENDER_LIMITS);
      if (outcome.code !== 0) throw new Error(`exited with ${outcome.code}${outcome.stderr.trim() ? `: ${outcome.stderr.trim().split("\n")[0]}` : ""}`);
      const wav = completeWav(typeof command.wav === "object" ? new Uint8Array(readFileSync(command.wav.file)) : outcome.stdout);
      return { spoken: true, audio: Buffer.from(wav).toString("base64"), engine: c.engine.id, voice: c.voice };
    } catch (err) {
      const message = `${SPEECH_ENGINES[c.engine.id].label} (${c.voice}) could not read the text: ${(err as Error).message}`;
      log(`speech: ${message}`);
      return { spoken: false, reason: "failed", message };
    } finally {
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
    }
  };

  return {
    ready: probing.then(() => undefined),
    status: () => probed?.status ?? null,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
    },
    async speak({ text: words, language }) {
      const found = probed ?? (await probing);
      const c = found.chosen[language];
      if (!c) return { spoken: false, reason: found.renders ? "no_voice" : "no_engine", message: found.notes[language] ?? "no voice" };
      if (waiting >= MAX_WAITING) return { spoken: false, reason: "failed", message: "too many readings waiting" };
      waiting++;
      const result = queue.then(() => render(c, words));
      queue = result.catch(() => undefined);
      try {
        return await result;
      } finally {
        waiting--;
      }
    },
  };
}

/** The speech service once its engines are probed (tests, and whoever needs the status at once). */
export async function openSpeechService(options: SpeechServiceOptions = {}): Promise<Omit<SpeechService, "status"> & { status(): SpeechStatus }> {
  const service = createSpeechService(options);
  await service.ready;
  return { ...service, status: () => service.status() as SpeechStatus };
}

/** Whether eSpeak NG's `voice` reads the language's own script (no switch to another language's rules). */
async function espeakReads(engine: FoundEngine, voice: string, language: PassengerLanguage, run: CommandRunner): Promise<boolean> {
  try {
    const outcome = await run(withPath(espeakPhonemesCommand(voice, SCRIPT_SAMPLE[language]), engine.path), PROBE_LIMITS);
    const phonemes = text(outcome.stdout);
    return outcome.code === 0 && phonemes.trim() !== "" && !espeakSwitchedLanguage(phonemes);
  } catch {
    return false;
  }
}

/** One line for the log and `kiosk speech`: the engines and each language's headset voice. */
export function describeSpeechStatus(status: SpeechStatus): string {
  const engines = status.engines.length === 0 ? "no engine found" : status.engines.map((e) => `${e.label}${e.output === "loudspeaker" ? " (loudspeaker only)" : ""}`).join(", ");
  const voices = PASSENGER_LANGUAGES.map((l) => {
    const v = status.voices[l];
    return v.voice ? `${l} ${v.voice}` : `${l} none`;
  }).join(", ");
  return `speech: ${engines}; headset voices: ${voices}`;
}
