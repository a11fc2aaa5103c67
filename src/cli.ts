// The program's entry (bin/build-api.js runs its compiled lib/cli.js): everything else lives in
// the stage folders; the command-line wiring is in cli/.
import { run } from "./cli/program.ts";

await run(process.argv);
