// The page's JavaScript (solver/site/web) and its Node tests: `npm run lint`, run by CI (tests/across/test_lint.py).
// ES modules with explicit imports (web/src: core/ is pure, page/ the DOM layer, tabs/<tab>/), bundled by esbuild
// into web/page.js, worker.js and scanner.js (generated: not linted); the service worker is a classic script.
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["solver/site/web/page.js", "solver/site/web/worker.js", "solver/site/web/scanner.js"] },
  js.configs.recommended,
  {
    files: ["solver/site/web/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }], eqeqeq: "error", "no-var": "error",
             "prefer-const": "error" },
  },
  { files: ["solver/site/web/src/core/**/*.js"], languageOptions: { globals: { atob: "readonly", Blob: "readonly",
    DecompressionStream: "readonly", Response: "readonly", TextDecoder: "readonly", Intl: "readonly" } } },
  { files: ["solver/site/web/sw.js"], languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } } },
  { files: ["tests/js/**/*.mjs"], languageOptions: { sourceType: "module", globals: { ...globals.node } } },
  { files: ["tests/js/**/*.js", "eslint.config.js"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node } } },
  // a browser driven from Node: Node's globals, and the page's inside the functions it evaluates there
  { files: ["tests/engines/**/*.js"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node, ...globals.browser } } },
];
