// The platform speech engines the kiosk can use, and how to call each one: command lines, the
// parsers of their voice lists, and which voice reads which screen language. Nothing here runs a
// command (runtime/speech/service.ts does).
//
// No engine is linked into or shipped with the kiosk: macOS `say` and Windows SAPI come with the
// platform, and eSpeak NG (GPL-3.0-or-later) is a separate program an operator installs (Debian's
// `espeak-ng` package) that the kiosk only runs. The passenger's words reach an engine on standard
// input or in an environment variable, never as command-line arguments or script text.
import type { PassengerLanguage } from "../kiosk/bridge.ts";

export const SPEECH_ENGINE_IDS = ["say", "sapi", "espeak-ng", "spd-say"] as const;
export type SpeechEngineId = (typeof SPEECH_ENGINE_IDS)[number];

export interface SpeechEngineSpec {
  label: string;
  /** The program looked for on PATH. */
  program: string;
  /**
   * "samples": renders audio the screen can play on any output (the headset). "loudspeaker": can
   * only speak on the default output itself — never used in headset mode.
   */
  output: "samples" | "loudspeaker";
}

export const SPEECH_ENGINES: Readonly<Record<SpeechEngineId, SpeechEngineSpec>> = {
  say: { label: "macOS say", program: "say", output: "samples" },
  sapi: { label: "Windows SAPI (PowerShell)", program: "powershell.exe", output: "samples" },
  "espeak-ng": { label: "eSpeak NG", program: "espeak-ng", output: "samples" },
  // Speech Dispatcher writes no audio file: it speaks on the loudspeaker only. The browser's
  // speechSynthesis reaches it on Linux (the Electron shell switches that on).
  "spd-say": { label: "Speech Dispatcher (spd-say)", program: "spd-say", output: "loudspeaker" },
};

/** "auto": the platform's engines in order; "none": no engine (headset mode says so); or exactly one engine. */
export type SpeechEngineChoice = "auto" | "none" | SpeechEngineId;
export const SPEECH_ENGINE_CHOICES: readonly SpeechEngineChoice[] = ["auto", "none", ...SPEECH_ENGINE_IDS];

export function parseSpeechEngineChoice(text: string): SpeechEngineChoice | null {
  return (SPEECH_ENGINE_CHOICES as readonly string[]).includes(text) ? (text as SpeechEngineChoice) : null;
}

/** The engines tried on a platform, in order: its own first, then eSpeak NG where an operator installed it. */
export function speechEngineOrder(platform: string): SpeechEngineId[] {
  switch (platform) {
    case "darwin":
      return ["say", "espeak-ng"];
    case "win32":
      return ["sapi", "espeak-ng"];
    default:
      return ["espeak-ng", "spd-say"];
  }
}

/** One installed voice: the name the engine selects it by, and the language tag it reads (lower case, "-"). */
export interface SpeechVoice {
  name: string;
  tag: string;
}

/** A program run: what to start, what it reads on stdin, and where its WAV comes out. */
export interface SpeechCommand {
  command: string;
  args: string[];
  /** Extra environment variables (the words themselves, for PowerShell). */
  env?: Record<string, string>;
  stdin?: string;
  /** "stdout": the WAV is the program's output; a path: the program writes the WAV there. */
  wav?: "stdout" | { file: string };
}

/** Language tags in the order a screen language prefers them; then any tag of the same base language. */
const VOICE_PREFERENCE: Readonly<Record<PassengerLanguage, readonly string[]>> = {
  en: ["en-us", "en-gb", "en"],
  es: ["es-419", "es-us", "es-mx", "es-es", "es"],
  "zh-Hans": ["zh-cn", "zh-hans", "cmn", "zh-cmn", "zh", "zh-tw"],
  // Taipei's Mandarin; a mainland Mandarin voice reads traditional characters too. Never Cantonese (zh-hk, yue).
  "zh-Hant": ["zh-tw", "zh-hant", "cmn", "zh-cmn", "zh", "zh-cn"],
  ar: ["ar-001", "ar-sa", "ar-qa", "ar-ae", "ar-eg", "ar"],
};
const BASE: Readonly<Record<PassengerLanguage, string>> = { en: "en", es: "es", "zh-Hans": "zh", "zh-Hant": "zh", ar: "ar" };
const NOT_FOR: Readonly<Partial<Record<PassengerLanguage, RegExp>>> = { "zh-Hans": /^(zh-hk|zh-yue|yue)/, "zh-Hant": /^(zh-hk|zh-yue|yue)/ };

/** A language tag as compared here: lower case, "_" → "-" (macOS writes en_US). */
export function normalTag(tag: string): string {
  return tag.trim().toLowerCase().replaceAll("_", "-");
}

/**
 * The voices that read `language`, best first, each once: those with a preferred tag in the order
 * of preference, then any of the same base language.
 */
export function voicesFor(language: PassengerLanguage, voices: readonly SpeechVoice[]): SpeechVoice[] {
  const usable = voices.filter((v) => !NOT_FOR[language]?.test(v.tag));
  const ranked = [...VOICE_PREFERENCE[language].flatMap((tag) => usable.filter((v) => v.tag === tag)), ...usable.filter((v) => v.tag.startsWith(`${BASE[language]}-`))];
  return ranked.filter((v, i) => ranked.findIndex((w) => w.name === v.name) === i);
}

/** The voice that reads `language` best, if any. */
export function pickVoice(language: PassengerLanguage, voices: readonly SpeechVoice[]): SpeechVoice | undefined {
  return voicesFor(language, voices)[0];
}

/**
 * A short text in each language's script: eSpeak NG lists voices whose dictionary is not installed
 * (Debian's `cmn` reads Chinese characters out as their code numbers in English), so a voice is
 * checked by reading this and looking for a switch to another language.
 */
export const SCRIPT_SAMPLE: Readonly<Record<PassengerLanguage, string>> = {
  en: "Ticket to the station",
  es: "Billete a la estación",
  "zh-Hans": "车站",
  "zh-Hant": "車站",
  ar: "محطة",
};

// ---- macOS say ------------------------------------------------------------------------------

/** `say -v '?'`: "Alex   en_US    # Most people…", newer systems "Eddy (English (US))   en_US   # …". */
export function parseSayVoices(listing: string): SpeechVoice[] {
  const voices: SpeechVoice[] = [];
  for (const line of listing.split(/\r?\n/)) {
    const m = /^(.+?)\s+([a-z]{2,3}[_-][A-Za-z0-9]{2,4})\s+#/.exec(line);
    if (m) voices.push({ name: m[1]!.trim(), tag: normalTag(m[2]!) });
  }
  return voices;
}

export const SAY_VOICES: SpeechCommand = { command: "say", args: ["-v", "?"] };

/** 16-bit 22.05 kHz WAV into `file`; the words on stdin (say reads stdin when given no message). */
export function sayCommand(voice: string, text: string, file: string): SpeechCommand {
  return { command: "say", args: ["-v", voice, "-o", file, "--file-format=WAVE", "--data-format=LEI16@22050"], stdin: text, wav: { file } };
}

// ---- Windows SAPI through PowerShell --------------------------------------------------------

/** PowerShell's -EncodedCommand: the script as base64 of UTF-16LE (no quoting of any kind). */
export function encodePowerShell(script: string): string {
  return Buffer.from(script, "utf16le").toString("base64");
}

function powerShell(script: string, env?: Record<string, string>, wav?: SpeechCommand["wav"]): SpeechCommand {
  return {
    command: "powershell.exe",
    args: ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand", encodePowerShell(script)],
    ...(env ? { env } : {}),
    ...(wav ? { wav } : {}),
  };
}

const SAPI_LOAD = "$ErrorActionPreference = 'Stop'; Add-Type -AssemblyName System.Speech; $s = New-Object System.Speech.Synthesis.SpeechSynthesizer;";

/** One line per enabled voice: "Microsoft Zira Desktop<TAB>en-US". */
export const SAPI_VOICES: SpeechCommand = powerShell(
  `${SAPI_LOAD} foreach ($v in $s.GetInstalledVoices()) { if ($v.Enabled) { [Console]::Out.WriteLine($v.VoiceInfo.Name + [char]9 + $v.VoiceInfo.Culture.Name) } }; $s.Dispose()`,
);

export function parseSapiVoices(listing: string): SpeechVoice[] {
  return listing
    .split(/\r?\n/)
    .map((line) => line.split("\t"))
    .filter((parts): parts is [string, string] => parts.length === 2 && parts[0]!.trim() !== "" && parts[1]!.trim() !== "")
    .map(([name, culture]) => ({ name: name.trim(), tag: normalTag(culture) }));
}

/** The words, the voice and the file travel in environment variables: the script itself never changes. */
export function sapiCommand(voice: string, text: string, file: string): SpeechCommand {
  return powerShell(
    `${SAPI_LOAD} try { $s.SelectVoice($env:KIOSK_SPEECH_VOICE); $s.SetOutputToWaveFile($env:KIOSK_SPEECH_OUT); $s.Speak($env:KIOSK_SPEECH_TEXT) } finally { $s.Dispose() }`,
    { KIOSK_SPEECH_TEXT: text, KIOSK_SPEECH_VOICE: voice, KIOSK_SPEECH_OUT: file },
    { file },
  );
}

// ---- eSpeak NG ------------------------------------------------------------------------------

export const ESPEAK_VOICES: SpeechCommand = { command: "espeak-ng", args: ["--voices"] };

/**
 * `espeak-ng --voices`: "Pty Language Age/Gender VoiceName File Other Languages", e.g.
 * " 5  cmn  --/M  Chinese_(Mandarin,_latin_as_English)  sit/cmn  (zh-cmn 5)(zh 5)". A voice is
 * selected by its language code; the other languages it answers to count as its tags too.
 */
export function parseEspeakVoices(listing: string): SpeechVoice[] {
  const voices: SpeechVoice[] = [];
  for (const line of listing.split(/\r?\n/)) {
    const m = /^\s*\d+\s+(\S+)\s+\S+\s+\S+\s+\S+(.*)$/.exec(line);
    if (!m) continue;
    const name = m[1]!;
    voices.push({ name, tag: normalTag(name) });
    for (const other of m[2]!.matchAll(/\(([^\s)]+)\s+\d+\)/g)) voices.push({ name, tag: normalTag(other[1]!) });
  }
  return voices;
}

/** WAV on stdout, UTF-8 words on stdin (plain text: no SSML is read). */
export function espeakCommand(voice: string, text: string): SpeechCommand {
  return { command: "espeak-ng", args: ["--stdout", "-b", "1", "-s", "160", "-v", voice], stdin: text, wav: "stdout" };
}

/** Phonemes only, no audio: to check that a voice reads its language's script. */
export function espeakPhonemesCommand(voice: string, text: string): SpeechCommand {
  return { command: "espeak-ng", args: ["-q", "-x", "-b", "1", "-v", voice], stdin: text };
}

/** eSpeak NG marks a switch to another language's rules as "(en)": the voice could not read the text itself. */
export function espeakSwitchedLanguage(phonemes: string): boolean {
  return /\([a-z]{2,3}(-[a-z0-9]+)*\)/i.test(phonemes);
}

// ---- Speech Dispatcher ----------------------------------------------------------------------

export const SPD_VERSION: SpeechCommand = { command: "spd-say", args: ["--version"] };

// ---- WAV ------------------------------------------------------------------------------------

/**
 * A RIFF/WAVE file as the screen receives it. eSpeak NG streaming to stdout cannot go back to
 * write the sizes, so its header says ~2 GB: the RIFF and data sizes are set from the bytes.
 * Throws when the bytes are not a WAV with audio in it.
 */
export function completeWav(bytes: Uint8Array): Uint8Array {
  const ascii = (from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 12 || ascii(0, 4) !== "RIFF" || ascii(8, 12) !== "WAVE") throw new Error("the engine's output is not a WAV file");
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(4, out.length - 8, true);
  let offset = 12;
  while (offset + 8 <= out.length) {
    const id = ascii(offset, offset + 4);
    const size = view.getUint32(offset + 4, true);
    if (id === "data") {
      const audio = out.length - offset - 8;
      if (audio <= 0) throw new Error("the engine's WAV holds no audio");
      if (size > audio) view.setUint32(offset + 4, audio, true);
      return out;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("the engine's WAV has no data chunk");
}
