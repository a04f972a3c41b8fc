// Errors that name the file, the place inside it and what was expected, so an operator can fix
// a data pack or framebook without reading code.

export interface SourceLocation {
  /** 1-based line and column, when the text could be located. */
  line?: number;
  column?: number;
  /** JSON path / YAML key path, e.g. ["framebook", "currency_symbol"] or [3, "events", 0, "type"]. */
  path?: ReadonlyArray<string | number>;
}

export interface DataIssue extends SourceLocation {
  message: string;
}

export function formatPath(path: ReadonlyArray<string | number> | undefined): string {
  if (!path || path.length === 0) return "(root)";
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");
}

function formatIssue(file: string, issue: DataIssue): string {
  const where = issue.line !== undefined ? `${file}:${issue.line}:${issue.column ?? 1}` : file;
  const path = issue.path && issue.path.length > 0 ? ` at ${formatPath(issue.path)}` : "";
  return `${where}${path}: ${issue.message}`;
}

/** A data file that cannot be used. `issues` lists every problem found (at most a handful shown). */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    readonly issues: readonly DataIssue[],
  ) {
    const shown = issues.slice(0, 8).map((issue) => formatIssue(file, issue));
    const more = issues.length > 8 ? `\n… and ${issues.length - 8} more problems` : "";
    super(shown.join("\n") + more);
    this.name = "DataFileError";
  }
}

/** The data pack itself cannot be found. */
export class DataPackNotFoundError extends Error {
  constructor(readonly searched: readonly { dir: string; source: string }[]) {
    const lines = searched.map((s) => `  - ${s.dir} (${s.source})`).join("\n");
    super(
      `MetroLLM-Bench data pack not found. Looked in:\n${lines}\n` +
        "Get it with `kiosk data fetch` (downloads the pinned upstream commit into ./data/metrollm-bench), " +
        "or point to an existing copy with --data DIR or METRO_DATA_DIR.",
    );
    this.name = "DataPackNotFoundError";
  }
}
