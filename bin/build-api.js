#!/usr/bin/env node
// Runs the TypeScript sources directly: tsx is a runtime dependency, so there is no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
