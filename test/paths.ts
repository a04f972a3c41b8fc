// Where tests find the shared, read-only reference material (never copied into the repo).
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SHARED_DIR = process.env.METRO_SHARED_DIR ?? path.resolve(REPO_ROOT, "../shared");
export const SHARED_DATA_DIR = process.env.METRO_DATA_DIR ?? path.join(SHARED_DIR, "metrollm-bench");
export const ORACLE_DIR = path.join(SHARED_DIR, "oracle");
export const PROTOCOL_DIR = path.join(SHARED_DIR, "bench", "protocol-fixtures");
