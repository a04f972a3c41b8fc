// The report of texts others wrote, as the issue's targets read it: of the due sales, how many were
// sold right at once and how many after one question the passenger answered by tapping, how many
// correct offers the interlock refused, and every wrong purchasable offer. Pure data + renderer.
import { pyRound } from "../../tools/py/index.ts";
import { renderTable } from "../report/table.ts";
import type { Half } from "./corpus.ts";
import type { OthersOutcome } from "./run.ts";

export interface OthersRow {
  key: string;
  /** Sales due. */
  due: number;
  sold: number;
  askedSold: number;
  /** Due sales sold right, at once or after a question, in % of due. */
  rightPct: number;
  /** Correct offers the interlock refused, in % of due. */
  refusedPct: number;
  refused: number;
  missed: number;
  /** Texts where no sale was due (no sale, refer, ask) and what the kiosk did. */
  noSale: number;
  noSaleRight: number;
  wrongOffers: number;
}

export interface OthersSummary {
  half: Half;
  n: number;
  rows: OthersRow[];
  overall: OthersRow;
  wrong: { id: string; text: string; problems: string[] }[];
}

const pct = (part: number, whole: number): number => (whole > 0 ? pyRound((100 * part) / whole, 1) : 0);

function row(key: string, list: readonly OthersOutcome[]): OthersRow {
  const due = list.filter((o) => o.expect === "sale");
  const count = (r: OthersOutcome["result"], from = list): number => from.filter((o) => o.result === r).length;
  const sold = count("sold", due);
  const askedSold = count("asked_sold", due);
  const refused = count("refused", due);
  const noSale = list.filter((o) => o.expect !== "sale");
  return {
    key,
    due: due.length,
    sold,
    askedSold,
    rightPct: pct(sold + askedSold, due.length),
    refused,
    refusedPct: pct(refused, due.length),
    missed: count("missed", due),
    noSale: noSale.length,
    noSaleRight: count("right", noSale),
    wrongOffers: count("wrong_offer"),
  };
}

export function summarizeOthers(half: Half, outcomes: readonly OthersOutcome[]): OthersSummary {
  const list = outcomes.filter((o) => o.half === half);
  return {
    half,
    n: list.length,
    rows: [row("passenger requests", list.filter((o) => o.corpus === "passengers")), row("operator notices", list.filter((o) => o.corpus === "operators"))],
    overall: row("overall", list),
    wrong: list.filter((o) => o.result === "wrong_offer").map((o) => ({ id: o.id, text: o.text, problems: o.problems })),
  };
}

const f = (x: number): string => x.toFixed(1);

export function renderOthersTable(s: OthersSummary): string {
  const header = ["texts others wrote", "due sales", "sold at once", "sold after a question", "right %", "interlock refused", "refused %", "missed", "no sale due", "no sale right", "wrong offers"];
  const line = (r: OthersRow): string[] => [r.key, String(r.due), String(r.sold), String(r.askedSold), f(r.rightPct), String(r.refused), f(r.refusedPct), String(r.missed), String(r.noSale), String(r.noSaleRight), String(r.wrongOffers)];
  const cols = header.map((_, i) => ({ align: i === 0 ? ("l" as const) : ("r" as const) }));
  return [
    `${s.half} half of the texts others wrote: ${s.n} texts${s.half === "report" ? " (graded once, never tuned on)" : " (tuned on)"}`,
    renderTable(cols, header, [...s.rows.map(line), line(s.overall)]),
    `wrong purchasable offers: ${s.wrong.length}${s.wrong.length > 0 ? `\n${s.wrong.map((w) => `  ${w.id} "${w.text.slice(0, 120)}": ${w.problems.join("; ")}`).join("\n")}` : ""}`,
    "",
  ].join("\n");
}
