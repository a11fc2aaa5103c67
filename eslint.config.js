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
      "src/hosting/hosts/*/runtime/generated/",
      "node_modules/",
      "coverage/",
      ".tmp/",
      "schema/",
      "src/output/generated/",
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
);
