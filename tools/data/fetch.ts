// `kiosk data fetch`: download the pinned upstream commit of the benchmark data pack, extract the
// files the runtime reads, and verify each against the SHA-256 manifest shipped with the kiosk.
// It needs the internet and fails fast (with the reason) when there is none.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const ManifestSchema = z.object({
  upstream: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  profile_files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type PackManifest = z.infer<typeof ManifestSchema>;

export function packManifest(): PackManifest {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "pack-manifest.json");
  return ManifestSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

export function archiveUrl(manifest: PackManifest): string {
  return `https://codeload.github.com/${manifest.upstream}/tar.gz/${manifest.commit}`;
}

export class DataFetchError extends Error {
  override name = "DataFetchError";
}

export interface FetchProgress {
  receivedBytes: number;
  totalBytes: number | undefined;
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Check a directory against the manifest; returns the problems (empty = verified). */
export function verifyPack(dir: string, manifest: PackManifest, options: { includeProfile: boolean }): string[] {
  const problems: string[] = [];
  const expected = { ...manifest.files, ...(options.includeProfile ? manifest.profile_files : {}) };
  for (const [relative, hash] of Object.entries(expected)) {
    const file = path.join(dir, relative);
    if (!existsSync(file)) problems.push(`${relative}: missing`);
    else if (sha256(file) !== hash) problems.push(`${relative}: checksum mismatch`);
  }
  return problems;
}

function explainNetworkError(err: unknown, url: string): DataFetchError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { name?: string }).name;
  const reason =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? "the host name could not be resolved (no internet connection or DNS?)"
      : code === "ECONNREFUSED" || code === "ECONNRESET" || code === "ENETUNREACH" || code === "EHOSTUNREACH"
        ? "the connection was refused or the network is unreachable"
        : code === "TimeoutError" || code === "AbortError"
          ? "no answer within the time limit"
          : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
  return new DataFetchError(
    `Could not download the data pack from ${url}: ${reason}. ` +
      "This command needs internet access. On an offline kiosk, copy an existing data pack and point to it with --data DIR or METRO_DATA_DIR.",
  );
}

/** Download `url` to `file`, reporting progress; fails fast when the host cannot be reached. */
export async function download(url: string, file: string, onProgress?: (p: FetchProgress) => void, connectTimeoutMs = 15_000): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(connectTimeoutMs), redirect: "follow" });
  } catch (err) {
    throw explainNetworkError(err, url);
  }
  if (!response.ok || !response.body) throw new DataFetchError(`Download of ${url} failed: HTTP ${response.status} ${response.statusText}`);
  const total = Number(response.headers.get("content-length")) || undefined;
  const out = createWriteStream(file);
  let received = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      onProgress?.({ receivedBytes: received, totalBytes: total });
    }
  } catch (err) {
    throw explainNetworkError(err, url);
  } finally {
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
}

export interface FetchOptions {
  target: string;
  url?: string;
  /** Use an already-downloaded archive instead of the network. */
  archive?: string;
  /** Copy the prompt profile (not part of the upstream repository) from this existing pack. */
  profileFrom?: string;
  onProgress?: (p: FetchProgress) => void;
  connectTimeoutMs?: number;
}

export interface FetchResult {
  target: string;
  files: number;
  profile: "copied" | "missing";
}

/**
 * Fetch, extract and verify into `target`. Files are extracted to a temporary directory first and
 * moved into place only after every checksum matched, so a failed fetch never leaves a half pack.
 */
export async function fetchDataPack(options: FetchOptions): Promise<FetchResult> {
  const manifest = packManifest();
  const url = options.url ?? archiveUrl(manifest);
  // Stage next to the target so the final move is a rename on the same file system.
  mkdirSync(path.dirname(path.resolve(options.target)), { recursive: true });
  const work = mkdtempSync(path.join(path.dirname(path.resolve(options.target)), ".metro-pack-"));
  try {
    const archive = options.archive ?? path.join(work, "pack.tar.gz");
    if (!options.archive) await download(url, archive, options.onProgress, options.connectTimeoutMs);
    const extracted = path.join(work, "x");
    mkdirSync(extracted);
    const tar = spawnSync("tar", ["-xzf", archive, "-C", extracted, "--strip-components=1"], { encoding: "utf8" });
    if (tar.status !== 0) throw new DataFetchError(`Could not extract ${archive}: ${tar.stderr || tar.error?.message || "tar failed"}`);
    const staged = path.join(work, "pack");
    for (const relative of Object.keys(manifest.files)) {
      const from = path.join(extracted, relative);
      if (!existsSync(from)) continue;
      mkdirSync(path.dirname(path.join(staged, relative)), { recursive: true });
      copyFileSync(from, path.join(staged, relative));
    }
    let profile: FetchResult["profile"] = "missing";
    if (options.profileFrom) {
      for (const relative of Object.keys(manifest.profile_files)) {
        mkdirSync(path.dirname(path.join(staged, relative)), { recursive: true });
        copyFileSync(path.join(options.profileFrom, relative), path.join(staged, relative));
      }
      profile = "copied";
    }
    const problems = verifyPack(staged, manifest, { includeProfile: profile === "copied" });
    if (problems.length > 0) {
      throw new DataFetchError(`The downloaded data pack does not match the pinned commit ${manifest.commit}:\n  ${problems.slice(0, 10).join("\n  ")}`);
    }
    writeFileSync(path.join(staged, "UPSTREAM_COMMIT"), `${manifest.commit}\n`);
    if (existsSync(options.target)) rmSync(options.target, { recursive: true, force: true });
    renameSync(staged, options.target);
    return { target: options.target, files: Object.keys(manifest.files).length, profile };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
