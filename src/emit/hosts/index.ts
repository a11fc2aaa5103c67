// Every host configuration file of the snapshot, rendered from the one rule list.
import { hostRules } from "../rules.ts";
import { renderServeJson } from "./serve-json.ts";

export function hostFiles(): Map<string, string> {
  const rules = hostRules();
  return new Map([["serve.json", renderServeJson(rules)]]);
}
