// build-api's version, read from its package.json (in the repository or where it is installed).
import { readFileSync } from "node:fs";

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
