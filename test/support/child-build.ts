// Runs one build in its own process so a test can SIGKILL it at a chosen step, or hold the lock.
// Usage: node child-build.ts <outDir> <variant> <killAtStep|-1> <holdMs>
// Prints "producing" once the lock is held and produce has started; exits with the BuildError code.
import { BuildError } from "../../src/shared/errors.ts";
import { publishSnapshot } from "../../src/publish/publish.ts";
import { sampleFiles } from "./sample-files.ts";

const [outDir, variant, killAt, holdMs] = process.argv.slice(2);
let stepIndex = 0;
try {
  await publishSnapshot(
    {
      outDir,
      onStep: () => {
        if (stepIndex++ === Number(killAt)) process.kill(process.pid, "SIGKILL");
      },
    },
    async (w) => {
      process.stdout.write("producing\n");
      for (const [p, data] of Object.entries(sampleFiles(Number(variant)))) w.write(p, data);
      if (Number(holdMs) > 0) await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
    },
  );
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(e instanceof BuildError ? e.exitCode : 1);
}
