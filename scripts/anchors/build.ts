// `npm run anchors:build`: builds llama.cpp's `llama-bench` and `llama-server` offline from the source
// node-llama-cpp ships, cached outside the repository (models/anchors/llama-cpp.ts). By default a
// portable build compiled like node-llama-cpp's prebuilt binary (GGML_NATIVE=OFF, no OpenMP, CPU
// variants picked at run time): it runs on any CPU of the architecture and is the fair comparison
// for the kiosk's engine. --native compiles for this CPU only (it dies with SIGILL on another);
// --openmp turns OpenMP on. Each flavour has its own folder. Minutes on 2 cores the first time
// (the portable build compiles every CPU variant); afterwards it only reports where the binaries are.
//
//   npx tsx scripts/anchors/build.ts [--native] [--openmp] [--jobs N] [--force] [--only llama-bench|llama-server]
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { ANCHOR_TARGETS, anchorFlavourName, buildAnchors, describeAnchorBuild, llamaCppSource, type AnchorTarget } from "../../models/anchors/llama-cpp.ts";

const { values } = parseArgs({
  options: {
    native: { type: "boolean", default: false },
    openmp: { type: "boolean", default: false },
    jobs: { type: "string", default: String(availableParallelism()) },
    force: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const targets = values.only ? [values.only as AnchorTarget] : [...ANCHOR_TARGETS];
for (const t of targets) if (!(ANCHOR_TARGETS as readonly string[]).includes(t)) throw new Error(`--only must be one of ${ANCHOR_TARGETS.join(", ")}, got '${t}'`);
const flavour = { native: values.native, openmp: values.openmp };

const source = llamaCppSource();
const tty = process.stderr.isTTY === true;
let lastPercent = "";
const onLine = (line: string): void => {
  const m = /^\[\s*(\d+)%\]/.exec(line);
  if (m) {
    if (m[1] === lastPercent) return;
    lastPercent = m[1] as string;
    if (tty) process.stderr.write(`\r\x1b[Kbuilding ${targets.join(" + ")}: ${lastPercent}%`);
    else if (Number(lastPercent) % 10 === 0) process.stderr.write(`building ${targets.join(" + ")}: ${lastPercent}%\n`);
  } else if (/error|warning: unused|OpenMP not found|^--.*(Found|Configuring done|Generating done)/i.test(line) && !tty) {
    process.stderr.write(`${line}\n`);
  }
};
process.stderr.write(`llama.cpp ${source.tag} (bundled with node-llama-cpp ${source.nodeLlamaCppVersion}), ${anchorFlavourName(flavour)} build, ${values.jobs} jobs\n`);
const t0 = performance.now();
const { paths, info, skipped } = await buildAnchors({ targets, flavour, jobs: Number(values.jobs), force: values.force, onLine });
if (tty) process.stderr.write("\r\x1b[K");
if (skipped) process.stdout.write(`already built (${info.builtAt}, build ${info.buildSeconds} s): ${paths.bin}\n`);
else process.stdout.write(`built in ${((performance.now() - t0) / 1000).toFixed(0)} s (configure ${info.configureSeconds} s, compile ${info.buildSeconds} s with ${info.jobs} jobs): ${paths.bin}\n`);
process.stdout.write(`  ${describeAnchorBuild(info)}\n`);
for (const t of targets) process.stdout.write(`  ${t}: ${paths.bin}/${t}\n`);
