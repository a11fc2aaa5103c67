// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist",
      "lib/",
      "dist/",
      ".dist.*/",
      ".wrangler/",
      ".netlify/",
      "scripts/hosts/node_modules/",
      "scripts/openapi-lint/node_modules/",
      "node_modules/",
      "coverage/",
      ".tmp/",
      "schema/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // The domain is pure: no file system, no database, no clock.
    files: ["src/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["node:*", "fs", "path", "better-sqlite3", "../store/*", "../publish/*"] },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: "The domain takes the time as a value.",
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: "The domain takes the time as a value.",
        },
      ],
    },
  },
);
