// Importing this module registers every response schema in `contracts`.
export * from "./wire.ts";
export * from "./club.ts";
export * from "./public.ts";
export * from "./problem.ts";
export * from "./extensions.ts";
export * from "./teams.ts";
