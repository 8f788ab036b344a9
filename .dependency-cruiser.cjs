// The hexagon, checked mechanically: core is pure, adapters stay apart.
const adapters = ["store", "ton", "marketplace", "telegram", "push"]
module.exports = {
  forbidden: [
    {
      name: "core-only-effect",
      comment: "packages/core is the pure domain: it may import only itself and effect",
      severity: "error",
      from: { path: "^packages/core/src/", pathNot: "\\.test\\.ts$" },
      to: { pathNot: ["^packages/core/src/", "^node_modules/effect/"] }
    },
    {
      name: "config-only-effect",
      comment: "packages/config reads and checks settings: it imports only itself, effect and node builtins",
      severity: "error",
      from: { path: "^packages/config/src/" },
      to: { pathNot: ["^packages/config/src/", "^node_modules/effect/"], dependencyTypesNot: ["core"] }
    },
    ...adapters.map((name) => ({
      name: `${name}-imports-no-other-adapter`,
      comment: "an adapter depends on core only, never on another adapter or a composition root",
      severity: "error",
      from: { path: `^packages/${name}/src/` },
      to: { path: "^packages/(store|ton|marketplace|telegram|push|http|worker|cli)/", pathNot: `^packages/${name}/` }
    })),
    {
      name: "no-imports-from-tests",
      severity: "error",
      from: { path: "^packages/[^/]+/src/", pathNot: "\\.test\\.ts$" },
      to: { path: "(^test/|/test/|\\.test\\.ts$)" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "((^|/)(\\.tsbuild|dist)/|vitest\\.config\\.ts$)" },
    parser: "swc",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.single.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"]
    }
  }
}
