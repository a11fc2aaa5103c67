// The path-segment patterns live in src/segments.ts, a module of no layer that the store (which
// checks values) and emit (which writes host rules) both import; this re-export keeps the store's
// own imports short.
export * from "../segments.ts";
