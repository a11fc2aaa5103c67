// Keeps the main thread's young generation at its initial size (1 MiB semi-spaces) instead of
// letting V8 double it up to 64 MiB: the main thread keeps long-lived bookkeeping while workers
// render, and a full build at M peaked at 353 MiB with V8's default, 224-255 MiB with this
// (docs/design/memory.md). `--max-semi-space-size` is read only when V8 starts (a shebang flag,
// which `node bin/build-api.js` and `npm start` skip); the growth factor is read each time the young
// generation would grow, so setting it here, before any work, holds however the CLI is started.
import v8 from "node:v8";

v8.setFlagsFromString("--semi-space-growth-factor=1");
