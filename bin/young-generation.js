// Keeps the main thread's heap small while a build runs, set before any work:
// - the young generation at its initial size (1 MiB semi-spaces) instead of letting V8 double it up
//   to 64 MiB: the main thread keeps long-lived bookkeeping while workers render, and a full build
//   at M peaked at 353 MiB with V8's default, 224-255 MiB with this (docs/design/memory.md);
// - the old generation's limit at 1.3 times what survived the last full collection, not up to 4
//   times: with so small a young generation much garbage is promoted, and at 20,000 tournaments
//   the main heap reached 155 MiB at the end of `produce` (docs/design/memory.md).
// Flags such as `--max-semi-space-size` are read only when V8 starts (a shebang flag, which
// `node bin/build-api.js` and `npm start` skip); these two are read each time V8 sizes a
// generation, so setting them here holds however the CLI is started.
import v8 from "node:v8";

v8.setFlagsFromString("--semi-space-growth-factor=1");
v8.setFlagsFromString("--heap-growing-percent=30");
