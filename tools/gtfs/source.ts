// Reads a GTFS feed's files from a folder or a .zip into the name → text map readGtfsFeed takes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";

/** The feed could not be read at all (no such path, not a folder or zip, a broken zip, not UTF-8). */
export class GtfsSourceError extends Error {
  constructor(
    readonly sourcePath: string,
    message: string,
  ) {
    super(message);
    this.name = "GtfsSourceError";
  }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** UTF-8 text without its byte-order mark (TextDecoder drops it unless told not to). */
function decode(bytes: Uint8Array, sourcePath: string, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new GtfsSourceError(sourcePath, `${file} in ${sourcePath} is not UTF-8 text (GTFS files must be UTF-8)`);
  }
}

const isTxt = (name: string): boolean => name.toLowerCase().endsWith(".txt");

/**
 * Every `*.txt` of a folder (not its sub-folders), or of a .zip — where the files may also sit in
 * one sub-folder, as when a folder was zipped rather than its contents — keyed by file name
 * ("stops.txt"), in name order.
 */
export function readFeedSource(pathToFolderOrZip: string): ReadonlyMap<string, string> {
  let stats;
  try {
    stats = statSync(pathToFolderOrZip);
  } catch (error) {
    const missing = (error as { code?: unknown }).code === "ENOENT";
    throw new GtfsSourceError(pathToFolderOrZip, missing ? `GTFS feed not found: ${pathToFolderOrZip} does not exist` : `cannot read GTFS feed ${pathToFolderOrZip}: ${errorText(error)}`);
  }
  if (stats.isDirectory()) return readFolder(pathToFolderOrZip);
  if (stats.isFile()) {
    const bytes = readFileSync(pathToFolderOrZip);
    if (isZip(bytes) || pathToFolderOrZip.toLowerCase().endsWith(".zip")) return readZip(pathToFolderOrZip, bytes);
  }
  throw new GtfsSourceError(pathToFolderOrZip, `${pathToFolderOrZip} is neither a folder nor a .zip file: a GTFS feed is one of the two`);
}

function readFolder(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw new GtfsSourceError(folder, `cannot list the GTFS folder ${folder}: ${errorText(error)}`);
  }
  for (const entry of entries.filter((e) => e.isFile() && isTxt(e.name)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    let bytes;
    try {
      bytes = readFileSync(path.join(folder, entry.name));
    } catch (error) {
      throw new GtfsSourceError(folder, `cannot read ${entry.name} in ${folder}: ${errorText(error)}`);
    }
    files.set(entry.name, decode(bytes, folder, entry.name));
  }
  return files;
}

/** A local file header, or the end record of an empty archive. */
function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/** A feed file in the zip: no folders, no macOS resource forks or other hidden files. */
function isFeedEntry(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return isTxt(base) && !base.startsWith(".") && !name.startsWith("__MACOSX/");
}

function readZip(zipPath: string, bytes: Uint8Array): Map<string, string> {
  let entries;
  try {
    entries = unzipSync(bytes, { filter: (file) => isFeedEntry(file.name) });
  } catch (error) {
    throw new GtfsSourceError(zipPath, `cannot read the zip ${zipPath}: ${errorText(error)}`);
  }
  const byFolder = new Map<string, Map<string, Uint8Array>>();
  for (const [name, data] of Object.entries(entries)) {
    const slash = name.lastIndexOf("/");
    const folder = slash < 0 ? "" : name.slice(0, slash);
    let files = byFolder.get(folder);
    if (files === undefined) byFolder.set(folder, (files = new Map()));
    files.set(name.slice(slash + 1), data);
  }
  // Files at the top win; otherwise they must all be in one folder, or which feed is meant is unclear.
  const folders = [...byFolder.keys()].sort();
  const chosen = byFolder.get("") ?? (folders.length === 1 ? byFolder.get(folders[0]!) : undefined);
  if (chosen === undefined && folders.length > 1) {
    throw new GtfsSourceError(zipPath, `the zip ${zipPath} holds .txt files in several folders (${folders.join(", ")}): a GTFS zip holds one feed, at the top or in one folder`);
  }
  const files = new Map<string, string>();
  for (const name of [...(chosen?.keys() ?? [])].sort()) {
    const where = folders.length === 1 && folders[0] !== "" ? `${folders[0]}/${name}` : name;
    files.set(name, decode(chosen!.get(name)!, zipPath, where));
  }
  return files;
}
