// The running Node, checked before anything else loads: build-api's native SQLite addon and its
// TypeScript scripts need Node 22 or newer (an older Node crashes in the addon, or cannot read the
// .ts scripts of `npm start`). Plain JavaScript that any Node parses. Imported first by
// bin/build-api.js; `node bin/check-node.js` runs it alone (npm's prestart and pretest).

/** The oldest major version supported, and the ones tested (LTS). */
export const MINIMUM_MAJOR = 22;
/** Node 22 strips TypeScript types by default from 22.18 on (the scripts run .ts files). */
export const MINIMUM_FOR_SCRIPTS = [22, 18];
export const TESTED = "22 and 24";
/** Exit code of a usage or environment error (EXIT.usage in src/shared/errors.ts). */
export const EXIT_USAGE = 2;

/** Null when `version` ("v24.1.0") is supported, else the message to print. */
export function nodeVersionProblem(version, { scripts = false } = {}) {
  const m = /^v?(\d+)\.(\d+)\./.exec(version);
  const major = m ? Number(m[1]) : 0;
  const minor = m ? Number(m[2]) : 0;
  const tooOld =
    major < MINIMUM_MAJOR || (scripts && major === MINIMUM_FOR_SCRIPTS[0] && minor < MINIMUM_FOR_SCRIPTS[1]);
  if (!tooOld) return null;
  const needed = scripts ? `${MINIMUM_FOR_SCRIPTS[0]}.${MINIMUM_FOR_SCRIPTS[1]}` : `${MINIMUM_MAJOR}`;
  return (
    `build-api: Node ${version} is not supported; it needs Node ${needed} or newer (tested on ${TESTED}).\n` +
    "fix: install Node 24 and run the command again with it, e.g. `nvm install 24 && nvm use 24`"
  );
}

const problem = nodeVersionProblem(process.version, {
  scripts:
    process.argv[1] !== undefined &&
    /check-node\.js$/.test(process.argv[1]) &&
    process.argv.includes("--scripts"),
});
if (problem !== null) {
  console.error(problem);
  process.exit(EXIT_USAGE);
}
