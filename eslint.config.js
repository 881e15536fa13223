// The page's JavaScript (solver/play/web) and its Node tests: `npm run lint`, run by CI (tests/test_lint.py).
// Classic scripts, no modules: the core (core.js) is pure; the UI's modules share one object, GonutsUI.
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  js.configs.recommended,
  {
    files: ["solver/play/web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, GonutsCore: "readonly", module: "readonly" },
    },
    rules: { "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }], eqeqeq: "error", "no-var": "error",
             "prefer-const": "error" },
  },
  { files: ["solver/play/web/ui/*.js"], ignores: ["solver/play/web/ui/common.js"],
    languageOptions: { globals: { GonutsUI: "readonly" } } },
  { files: ["solver/play/web/ui/common.js"], rules: { "no-unused-vars": ["error", { args: "none", caughtErrors: "none",
                                                                                     varsIgnorePattern: "^GonutsUI$" }] } },
  { files: ["solver/play/web/sw.js"], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ["tests/js/**/*.js", "eslint.config.js"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node } } },
  // a browser driven from Node: Node's globals, and the page's inside the functions it evaluates there
  { files: ["tests/engines/**/*.js"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node, ...globals.browser } } },
];
