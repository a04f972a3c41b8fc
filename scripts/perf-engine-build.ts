// node-llama-cpp's prebuilt CPU binary against a source build of its bundled llama.cpp for this CPU
// (GGML_NATIVE), on the same model and threads (issue 15, item 5). Prints prefill and decode tok/s of
// both and records the faster one in ~/.cache/metro-kiosk/engine-build.json, which the engine reads
// (models/llama.ts): the source build is used only when it was measured faster here.
//
//   npm run perf:engine-build -- [--build] [--model FILE] [--threads N] [--prompt 128] [--decode 32] [--reps 3]
//
// --build compiles the source build first when it is missing (offline, ~5–7 min on 2 idle cores;
// `npm run engine:build` does only that). Without a source build the script reports the prebuilt
// figures and says how to build. Default model: the 4B-shaped qwen35 (random Q4_K_M weights).
// Each build is measured in its own child process (one native binding per process), alternating.
import { execFile } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs, promisify } from "node:util";
import { buildSourceEngine, loadEngineBuild, sourceBuildPresent, writeEngineBuildChoice, type EngineBuild } from "../models/engine-build.ts";
import { dataPackCorpus, ensureSynthetic4b } from "../models/synthetic-gguf.ts";
import { measureThreads } from "../models/threads.ts";
import { DataPack } from "../tools/data/datapack.ts";

const { values } = parseArgs({
  options: {
    build: { type: "boolean", default: false },
    "build-only": { type: "boolean", default: false },
    only: { type: "string" },
    model: { type: "string" },
    threads: { type: "string", default: String(availableParallelism()) },
    prompt: { type: "string", default: "128" },
    decode: { type: "string", default: "32" },
    reps: { type: "string", default: "3" },
  },
});
const threads = Number(values.threads);
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Figures {
  prefillTokS: number;
  decodeTokS: number;
}

if (values.only) {
  // Child: one measurement of one build, as JSON on stdout.
  const llama = await loadEngineBuild(values.only as EngineBuild);
  const table = await measureThreads(values.model as string, { llama, candidates: [threads], promptTokens: Number(values.prompt), decodeTokens: Number(values.decode) });
  const r = table.results[0]!;
  out(JSON.stringify({ prefillTokS: r.prefillTokS, decodeTokS: r.decodeTokS } satisfies Figures));
  await llama.dispose();
} else {
  if (values["build-only"] || (values.build && !(await sourceBuildPresent()))) {
    log("building node-llama-cpp from its bundled llama.cpp source (GGML_NATIVE) …");
    const built = await buildSourceEngine();
    log(`source build: ${built.buildType} in ${built.seconds} s`);
    if (values["build-only"]) process.exit(0);
  }
  const pack = DataPack.locate();
  const model = values.model ?? ensureSynthetic4b({ chatTemplate: pack.chatTemplate(), corpus: dataPackCorpus(pack) }).file;
  const builds: EngineBuild[] = (await sourceBuildPresent()) ? ["prebuilt", "source"] : ["prebuilt"];
  const runOnce = promisify(execFile);
  const figures: Record<EngineBuild, Figures[]> = { prebuilt: [], source: [] };
  for (let rep = 0; rep < Number(values.reps); rep++) {
    for (const build of builds) {
      log(`${build}, repetition ${rep + 1} …`);
      const args = ["tsx", "scripts/perf-engine-build.ts", "--only", build, "--model", model, "--threads", String(threads), "--prompt", String(values.prompt), "--decode", String(values.decode)];
      const { stdout } = await runOnce("npx", args, { maxBuffer: 1 << 20 });
      figures[build].push(JSON.parse(stdout.trim().split("\n").at(-1)!) as Figures);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const summary = (build: EngineBuild): Figures => ({ prefillTokS: median(figures[build].map((f) => f.prefillTokS)), decodeTokS: median(figures[build].map((f) => f.decodeTokS)) });
  out(`engine build, ${model}, ${threads} threads, prompt ${values.prompt} / decode ${values.decode} tokens, median of ${values.reps} (load average ${loadavg()[0]!.toFixed(2)})`);
  out("build                          prefill tok/s   decode tok/s");
  for (const build of builds) {
    const s = summary(build);
    out(`${(build === "prebuilt" ? "prebuilt (node-llama-cpp 3.21.1)" : "source build (GGML_NATIVE)").padEnd(32)} ${s.prefillTokS.toFixed(2).padStart(12)}   ${s.decodeTokS.toFixed(2).padStart(12)}`);
  }
  if (builds.length === 1) {
    out("no source build: run `npm run engine:build` (minutes on idle cores, much longer on a loaded machine), then this script again to compare");
  } else {
    const prebuilt = summary("prebuilt");
    const source = summary("source");
    // Only a clear win (3 % on decode, the kiosk's bottleneck) switches the kiosk to the source build.
    const choice: EngineBuild = source.decodeTokS >= prebuilt.decodeTokS * 1.03 ? "source" : "prebuilt";
    writeEngineBuildChoice({ choice, measuredAt: new Date().toISOString(), model, threads, figures: { prebuilt, source } });
    out(`chosen: ${choice} (decode ${((source.decodeTokS / prebuilt.decodeTokS) * 100).toFixed(1)} % of prebuilt for the source build)`);
  }
}
