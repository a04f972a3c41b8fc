import { DataPack } from "./tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "./test/paths.ts";
import { loadSuite } from "./bench/robustness/suite.ts";
import { runSuite } from "./bench/robustness/run.ts";
import { rulePolicy } from "./runtime/policies/rule/index.ts";
const pack = new DataPack(SHARED_DATA_DIR);
const entries = loadSuite(pack, ["tune"]);
const out = await runSuite(pack, entries, rulePolicy);
for (const o of out) {
  if (!o.variant.strict.pass) {
    const e: any = o.entry;
    console.log(e.id, JSON.stringify(e.variant?.texts ?? e.variant?.text ?? e.variant?.disruption ?? ""), "| orig pass", o.original.strict.pass, "|", o.variant.strict.problems.join("; ").slice(0, 300), "|", o.variant.record.kiosk.state.outcome, o.variant.record.kiosk.state.kiosk_action.reason_code);
  }
}
