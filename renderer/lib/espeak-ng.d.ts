// The espeak-ng package (Emscripten build of the eSpeak NG command line) ships no types.
declare module "espeak-ng" {
  interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array };
  }
  /** Runs `espeak-ng` with `arguments` once; its in-memory file system holds what it wrote. */
  export default function ESpeakNg(options: { arguments: string[]; print?: (line: string) => void; printErr?: (line: string) => void }): Promise<ESpeakNgModule>;
}
