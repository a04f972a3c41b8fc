// The models directory: pull (download with resume and integrity checks, failing fast when
// offline), list and inspect GGUF files.
//
// Directory: --models-dir, else $METRO_MODELS_DIR, else ./models/cache (gitignored).
// Downloads use node-llama-cpp's downloader (ipull): the partial file is kept on failure or cancel
// and the next pull resumes it; afterwards the size must match the server's and the GGUF must parse
// with all its tensor data present. Before downloading, the host is probed (DNS + one HTTPS request
// with a short timeout) so that an offline machine gets a clear error in seconds, not a retry loop.
import { lookup } from "node:dns/promises";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { ModelDownloader } from "node-llama-cpp";
import { catalogEntry, catalogEntryForFile, DEFAULT_MODEL_ID, type CatalogModel } from "./catalog.ts";
import { ModelDownloadError, ModelNotFoundError, ModelOfflineError, ModelSpecError } from "./errors.ts";
import { estimateFit, inspectGgufFile, type FitEstimate, type GgufInspection } from "./gguf.ts";
import { llamaCpp } from "./llama-cpp.ts";
import type { Llama } from "node-llama-cpp";
import { errorCode } from "../tools/util/errors.ts";

export const MODELS_DIR_ENV = "METRO_MODELS_DIR";
export const DEFAULT_MODELS_DIR = "models/cache";
const HF_ENDPOINT = "https://huggingface.co";

export function resolveModelsDir(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  return path.resolve(cwd, options.flag ?? env[MODELS_DIR_ENV] ?? DEFAULT_MODELS_DIR);
}

export interface ResolvedSpec {
  kind: "catalog" | "hf" | "url";
  /** What createModelDownloader gets (hf: URI or URL). */
  source: string;
  /** The downloaded URL (for the reachability probe). */
  url: string;
  fileName: string;
  catalog?: CatalogModel;
}

/** "4b" (catalog), "hf:owner/repo/file.gguf", or an http(s) URL of a .gguf file. */
export function resolveModelSpec(spec: string = DEFAULT_MODEL_ID): ResolvedSpec {
  const trimmed = spec.trim();
  const entry = catalogEntry(trimmed);
  if (entry) return { kind: "catalog", source: entry.uri, url: `${HF_ENDPOINT}/${entry.repo}/resolve/main/${entry.file}`, fileName: entry.file, catalog: entry };
  if (trimmed.startsWith("hf:")) {
    const m = /^hf:([^/\s]+)\/([^/\s]+)\/(.+?\.gguf)(?:#(.+))?$/i.exec(trimmed);
    if (!m) throw new ModelSpecError(`Unsupported Hugging Face spec '${spec}': use hf:<owner>/<repo>/<file>.gguf`);
    const [, owner, repo, file, branch] = m as unknown as [string, string, string, string, string | undefined];
    return { kind: "hf", source: trimmed, url: `${HF_ENDPOINT}/${owner}/${repo}/resolve/${branch ?? "main"}/${file}`, fileName: path.posix.basename(file), catalog: catalogEntryForFile(path.posix.basename(file)) };
  }
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new ModelSpecError(`Not a valid URL: '${spec}'`);
    }
    const fileName = decodeURIComponent(path.posix.basename(url.pathname));
    if (!fileName.toLowerCase().endsWith(".gguf")) throw new ModelSpecError(`The URL must name a .gguf file: '${spec}'`);
    return { kind: "url", source: url.toString(), url: url.toString(), fileName, catalog: catalogEntryForFile(fileName) };
  }
  throw new ModelSpecError(`Unknown model '${spec}'. Use one of 2b, 4b, 9b, 27b, hf:<owner>/<repo>/<file>.gguf, or an https URL`);
}

export interface PullProgress {
  downloadedBytes: number;
  totalBytes: number;
  bytesPerSecond: number;
  /** Seconds, Infinity when unknown. */
  etaSeconds: number;
}

export interface PullOptions {
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
  /** Timeout of the reachability probe (DNS + one request). Default 5000 ms. */
  probeTimeoutMs?: number;
  /** Extra request headers (e.g. Authorization for a gated repository). */
  headers?: Record<string, string>;
  parallelDownloads?: number;
}

export interface PulledModel {
  path: string;
  bytes: number;
  spec: ResolvedSpec;
  /** The file was already complete; nothing was downloaded. */
  alreadyPresent: boolean;
  /** A partial download was found and continued. */
  resumed: boolean;
  inspection: GgufInspection;
}

export interface LocalModel {
  fileName: string;
  path: string;
  bytes: number;
  catalogId?: string;
  /** An unfinished download (resumable by `pull`). */
  partial: boolean;
  modified: Date;
}

const OFFLINE_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET", "CERT_HAS_EXPIRED"]);


function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: "ETIMEDOUT" })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Can we reach the host at all? Throws ModelOfflineError within `timeoutMs`. */
export async function probeHost(url: string, timeoutMs = 5000, signal?: AbortSignal): Promise<void> {
  const { hostname, origin } = new URL(url);
  const isIp = /^[\d.]+$/.test(hostname) || hostname.includes(":");
  if (!isIp && hostname !== "localhost") {
    try {
      await withTimeout(lookup(hostname), timeoutMs, `DNS lookup of ${hostname}`);
    } catch (err) {
      throw new ModelOfflineError(hostname, `DNS lookup failed: ${errorCode(err) ?? (err as Error).message}`);
    }
  }
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    await fetch(origin, { method: "HEAD", redirect: "manual", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    if (signal?.aborted) throw err;
    const code = errorCode(err) ?? ((err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (err as Error).message);
    throw new ModelOfflineError(hostname, `connection failed: ${code}`);
  }
}

export class ModelManager {
  readonly modelsDir: string;

  constructor(options: { modelsDir?: string } = {}) {
    this.modelsDir = options.modelsDir ?? resolveModelsDir();
  }

  /** Local path of a spec ("4b", a file name in the directory, or a path). */
  locate(specOrPath: string): string {
    if (existsSync(specOrPath) && statSync(specOrPath).isFile()) return path.resolve(specOrPath);
    const entry = catalogEntry(specOrPath);
    const candidate = path.join(this.modelsDir, entry ? entry.file : specOrPath);
    if (existsSync(candidate)) return candidate;
    throw new ModelNotFoundError(candidate, entry ? `Pull it with \`kiosk model pull ${entry.id}\`` : undefined);
  }

  /** GGUF files in the models directory (partial downloads flagged). */
  list(): LocalModel[] {
    if (!existsSync(this.modelsDir)) return [];
    const names = readdirSync(this.modelsDir);
    const out: LocalModel[] = [];
    for (const name of names) {
      const full = path.join(this.modelsDir, name);
      const isPartial = /\.gguf\.ipull$/i.test(name);
      if (!/\.gguf$/i.test(name) && !isPartial) continue;
      const stat = statSync(full);
      if (!stat.isFile()) continue;
      const fileName = isPartial ? name.replace(/\.ipull$/i, "") : name;
      if (isPartial && names.includes(fileName)) continue;
      const entry = catalogEntryForFile(fileName);
      out.push({ fileName, path: full, bytes: stat.size, partial: isPartial, modified: stat.mtime, ...(entry ? { catalogId: entry.id } : {}) });
    }
    return out.sort((a, b) => a.fileName.localeCompare(b.fileName));
  }

  /** Header, metadata and integrity of a GGUF, plus whether it fits this machine. */
  async inspect(file: string, options: { contextSize?: number; llama?: Llama } = {}): Promise<{ inspection: GgufInspection; fit: FitEstimate }> {
    const info = await inspectGgufFile(file);
    const contextSize = options.contextSize ?? catalogEntryForFile(path.basename(file))?.defaultContextSize ?? Math.min(16384, info.inspection.contextLength ?? 16384);
    return { inspection: info.inspection, fit: await estimateFit(info, contextSize, options.llama) };
  }

  /** Download a model into the directory (resumable; verified). */
  async pull(spec: string = DEFAULT_MODEL_ID, options: PullOptions = {}): Promise<PulledModel> {
    const resolved = resolveModelSpec(spec);
    mkdirSync(this.modelsDir, { recursive: true });
    const target = path.join(this.modelsDir, resolved.fileName);
    const temp = `${target}.ipull`;
    if (existsSync(target) && !existsSync(temp)) {
      try {
        const { inspection } = await inspectGgufFile(target);
        return { path: target, bytes: inspection.fileSize, spec: resolved, alreadyPresent: true, resumed: false, inspection };
      } catch {
        rmSync(target, { force: true }); // damaged copy: download again
      }
    }
    const resumed = existsSync(temp);
    await probeHost(resolved.url, options.probeTimeoutMs ?? 5000, options.signal);

    const { createModelDownloader } = await llamaCpp();
    let downloader: ModelDownloader;
    try {
      downloader = await withTimeout(
        createModelDownloader({
          ...(resolved.kind === "url" ? { modelUrl: resolved.source } : { modelUri: resolved.source }),
          dirPath: this.modelsDir,
          fileName: resolved.fileName,
          headers: options.headers,
          skipExisting: false,
          deleteTempFileOnCancel: false,
          parallelDownloads: options.parallelDownloads ?? 4,
          showCliProgress: false,
          onProgress: (s) =>
            options.onProgress?.({ downloadedBytes: s.downloadedSize, totalBytes: s.totalSize, bytesPerSecond: s.averageSpeed, etaSeconds: s.estimatedTimeLeft }),
        }),
        Math.max(30_000, options.probeTimeoutMs ?? 5000),
        `Contacting ${new URL(resolved.url).host}`,
      );
    } catch (err) {
      if (OFFLINE_CODES.has(errorCode(err) ?? "")) throw new ModelOfflineError(new URL(resolved.url).host, errorCode(err) as string);
      throw new ModelDownloadError(`Could not start the download of ${resolved.url}: ${(err as Error).message}`, { cause: err });
    }
    try {
      await downloader.download({ signal: options.signal });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new ModelDownloadError(`Download of ${resolved.url} failed (${(err as Error).message}); run the pull again to resume`, { cause: err });
    }
    // ipull resolves (instead of rejecting) when cancelled: the partial file stays for a resume.
    if (options.signal?.aborted) throw options.signal.reason;
    const finalPath = downloader.entrypointFilePath;
    if (!existsSync(finalPath)) throw new ModelDownloadError(`Download of ${resolved.url} did not complete; run the pull again to resume`);
    const bytes = statSync(finalPath).size;
    const expected = resolved.catalog?.exactBytes ?? downloader.totalSize;
    if (expected > 0 && bytes !== expected) {
      throw new ModelDownloadError(`Downloaded ${bytes} bytes but expected ${expected} from ${resolved.url}; run the pull again to resume`);
    }
    const { inspection } = await inspectGgufFile(finalPath);
    return { path: finalPath, bytes, spec: resolved, alreadyPresent: false, resumed, inspection };
  }
}
