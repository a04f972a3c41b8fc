// The speech engines' command lines, voice-list parsers and voice choice, without running anything.
import { describe, expect, it } from "vitest";
import {
  completeWav,
  encodePowerShell,
  espeakCommand,
  espeakPhonemesCommand,
  espeakSwitchedLanguage,
  parseEspeakVoices,
  parseSapiVoices,
  parseSayVoices,
  parseSpeechEngineChoice,
  pickVoice,
  sapiCommand,
  SAPI_VOICES,
  sayCommand,
  speechEngineOrder,
} from "./engines.ts";

/** The script PowerShell runs for an -EncodedCommand argument. */
function decodePowerShell(args: readonly string[]): string {
  const encoded = args[args.indexOf("-EncodedCommand") + 1]!;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  return new TextDecoder("utf-16le").decode(bytes);
}

const HOSTILE = `"; Remove-Item C:\\ -Recurse; $(calc) \`n -v en --help 'x'`;

describe("the order engines are tried in", () => {
  it("is the platform's own engine first, then an installed espeak-ng; Speech Dispatcher last on Linux", () => {
    expect(speechEngineOrder("darwin")).toEqual(["say", "espeak-ng"]);
    expect(speechEngineOrder("win32")).toEqual(["sapi", "espeak-ng"]);
    expect(speechEngineOrder("linux")).toEqual(["espeak-ng", "spd-say"]);
    expect(speechEngineOrder("freebsd")).toEqual(["espeak-ng", "spd-say"]);
  });

  it("reads the operator's choice, and nothing else", () => {
    expect(["auto", "none", "say", "sapi", "espeak-ng", "spd-say"].map(parseSpeechEngineChoice)).toEqual(["auto", "none", "say", "sapi", "espeak-ng", "spd-say"]);
    expect(parseSpeechEngineChoice("espeak")).toBeNull();
    expect(parseSpeechEngineChoice("")).toBeNull();
  });
});

describe("macOS say", () => {
  it("renders 16-bit WAV into a file, the words on stdin, never as an argument", () => {
    const command = sayCommand("Samantha", HOSTILE, "/tmp/s/speech.wav");
    expect(command).toEqual({
      command: "say",
      args: ["-v", "Samantha", "-o", "/tmp/s/speech.wav", "--file-format=WAVE", "--data-format=LEI16@22050"],
      stdin: HOSTILE,
      wav: { file: "/tmp/s/speech.wav" },
    });
  });

  it("parses `say -v ?` in its old and new forms", () => {
    const listing = [
      "Alex                en_US    # Most people recognize me by my voice.",
      "Eddy (English (US)) en_US    # Hello! My name is Eddy.",
      "Majed               ar_001   # مرحبًا! اسمي ماجد.",
      "Mei-Jia             zh_TW    # 您好，我叫美佳。",
      "Sinji               zh_HK    # 您好，我叫善怡。",
      "Tingting            zh_CN    # 你好，我叫婷婷。",
      "Paulina             es_MX    # Hola, me llamo Paulina.",
      "",
      "garbage line",
    ].join("\n");
    expect(parseSayVoices(listing)).toEqual([
      { name: "Alex", tag: "en-us" },
      { name: "Eddy (English (US))", tag: "en-us" },
      { name: "Majed", tag: "ar-001" },
      { name: "Mei-Jia", tag: "zh-tw" },
      { name: "Sinji", tag: "zh-hk" },
      { name: "Tingting", tag: "zh-cn" },
      { name: "Paulina", tag: "es-mx" },
    ]);
  });
});

describe("Windows SAPI through PowerShell", () => {
  it("passes the words, voice and file in environment variables: the script is the same whatever is said", () => {
    const a = sapiCommand("Microsoft Zira Desktop", HOSTILE, "C:\\Temp\\s\\speech.wav");
    const b = sapiCommand("Microsoft Helena Desktop", "hola", "C:\\Temp\\t\\speech.wav");
    expect(a.command).toBe("powershell.exe");
    expect(a.args.slice(0, 5)).toEqual(["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand"]);
    expect(a.args).toEqual(b.args);
    expect(a.env).toEqual({ KIOSK_SPEECH_TEXT: HOSTILE, KIOSK_SPEECH_VOICE: "Microsoft Zira Desktop", KIOSK_SPEECH_OUT: "C:\\Temp\\s\\speech.wav" });
    expect(a.wav).toEqual({ file: "C:\\Temp\\s\\speech.wav" });
    const script = decodePowerShell(a.args);
    expect(script).toContain("Add-Type -AssemblyName System.Speech");
    expect(script).toContain("$s.SelectVoice($env:KIOSK_SPEECH_VOICE)");
    expect(script).toContain("$s.SetOutputToWaveFile($env:KIOSK_SPEECH_OUT)");
    expect(script).toContain("$s.Speak($env:KIOSK_SPEECH_TEXT)");
    expect(script).not.toContain("Zira");
  });

  it("lists the enabled voices with their culture, and parses that list", () => {
    expect(decodePowerShell(SAPI_VOICES.args)).toContain("GetInstalledVoices()");
    expect(encodePowerShell("é")).toBe(btoa("\u00e9\u0000"));
    expect(parseSapiVoices("Microsoft David Desktop\ten-US\r\nMicrosoft Huihui Desktop\tzh-CN\r\n\r\nbroken line\r\n")).toEqual([
      { name: "Microsoft David Desktop", tag: "en-us" },
      { name: "Microsoft Huihui Desktop", tag: "zh-cn" },
    ]);
  });
});

describe("eSpeak NG", () => {
  it("writes the WAV to stdout and reads UTF-8 words from stdin", () => {
    expect(espeakCommand("es-419", HOSTILE)).toEqual({ command: "espeak-ng", args: ["--stdout", "-b", "1", "-s", "160", "-v", "es-419"], stdin: HOSTILE, wav: "stdout" });
    expect(espeakPhonemesCommand("cmn", "车站")).toEqual({ command: "espeak-ng", args: ["-q", "-x", "-b", "1", "-v", "cmn"], stdin: "车站" });
  });

  it("parses `espeak-ng --voices`, the other languages a voice answers to included", () => {
    const listing = [
      "Pty Language       Age/Gender VoiceName          File                 Other Languages",
      " 5  ar              --/M      Arabic             sem/ar               ",
      " 5  cmn             --/M      Chinese_(Mandarin,_latin_as_English) sit/cmn              (zh-cmn 5)(zh 5)",
      " 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)",
      " 5  es-419          --/M      Spanish_(Latin_America) roa/es-419           (es-mx 6)(es 6)",
      " 5  yue             --/M      Chinese_(Cantonese) sit/yue              (zh-yue 5)(zh 8)",
    ].join("\n");
    expect(parseEspeakVoices(listing)).toEqual([
      { name: "ar", tag: "ar" },
      { name: "cmn", tag: "cmn" },
      { name: "cmn", tag: "zh-cmn" },
      { name: "cmn", tag: "zh" },
      { name: "en-us", tag: "en-us" },
      { name: "en-us", tag: "en" },
      { name: "es-419", tag: "es-419" },
      { name: "es-419", tag: "es-mx" },
      { name: "es-419", tag: "es" },
      { name: "yue", tag: "yue" },
      { name: "yue", tag: "zh-yue" },
      { name: "yue", tag: "zh" },
    ]);
  });

  it("sees a voice switching to another language's rules (a script it cannot read)", () => {
    expect(espeakSwitchedLanguage("(en)teI55t'u:55_| beI55Tr'i:55_|(cmn)")).toBe(true);
    expect(espeakSwitchedLanguage("mRHb'a: b'akam")).toBe(false);
    expect(espeakSwitchedLanguage("'ola ,estasj'on")).toBe(false);
  });
});

describe("the voice of each screen language", () => {
  const mac = parseSayVoices(
    ["Samantha  en_US  # x", "Daniel  en_GB  # x", "Majed  ar_001  # x", "Sinji  zh_HK  # x", "Mei-Jia  zh_TW  # x", "Tingting  zh_CN  # x", "Monica  es_ES  # x", "Paulina  es_MX  # x"].join("\n"),
  );

  it("takes the preferred tag first, then any voice of the same language", () => {
    expect(pickVoice("en", mac)?.name).toBe("Samantha");
    expect(pickVoice("es", mac)?.name).toBe("Paulina");
    expect(pickVoice("zh-Hans", mac)?.name).toBe("Tingting");
    expect(pickVoice("zh-Hant", mac)?.name).toBe("Mei-Jia");
    expect(pickVoice("ar", mac)?.name).toBe("Majed");
    expect(pickVoice("en", [{ name: "Karen", tag: "en-au" }])?.name).toBe("Karen");
  });

  it("never reads Mandarin text with a Cantonese voice, and finds nothing rather than a wrong language", () => {
    expect(pickVoice("zh-Hant", [{ name: "Sinji", tag: "zh-hk" }])).toBeUndefined();
    expect(pickVoice("zh-Hans", [{ name: "yue", tag: "zh-yue" }, { name: "yue", tag: "yue" }])).toBeUndefined();
    expect(pickVoice("ar", mac.filter((v) => !v.tag.startsWith("ar")))).toBeUndefined();
  });
});

describe("the WAV handed to the screen", () => {
  /** A 16-bit mono WAV header as eSpeak NG streams it (sizes unknown: 0x7ffff000-ish) and `samples` bytes of audio. */
  function streamedWav(samples: number): Uint8Array {
    const out = new Uint8Array(44 + samples);
    const view = new DataView(out.buffer);
    out.set(new TextEncoder().encode("RIFF"), 0);
    view.setUint32(4, 0x7ffff024, true);
    out.set(new TextEncoder().encode("WAVEfmt "), 8);
    view.setUint32(16, 16, true);
    view.setUint16(20, 1, true);
    view.setUint16(22, 1, true);
    view.setUint32(24, 22050, true);
    view.setUint32(28, 44100, true);
    view.setUint16(32, 2, true);
    view.setUint16(34, 16, true);
    out.set(new TextEncoder().encode("data"), 36);
    view.setUint32(40, 0x7ffff000, true);
    return out;
  }

  it("gets its RIFF and data sizes from the bytes", () => {
    const wav = completeWav(streamedWav(1000));
    const view = new DataView(wav.buffer, wav.byteOffset);
    expect(view.getUint32(4, true)).toBe(1036);
    expect(view.getUint32(40, true)).toBe(1000);
  });

  it("refuses what is not a WAV with audio in it", () => {
    expect(() => completeWav(new Uint8Array(0))).toThrow(/not a WAV/);
    expect(() => completeWav(new TextEncoder().encode("Error: The specified espeak-ng voice does not exist."))).toThrow(/not a WAV/);
    expect(() => completeWav(streamedWav(0))).toThrow(/no audio/);
    expect(() => completeWav(streamedWav(10).subarray(0, 36))).toThrow(/no data chunk/);
  });
});
