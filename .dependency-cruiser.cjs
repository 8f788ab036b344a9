// The hexagon, checked mechanically: core is pure, adapters stay apart.
const adapters = ["store", "ton", "marketplace", "telegram", "push"]

// Roots (http, web, worker, cli) change state only through core use cases. The only files of theirs that
// may name a port are those that wire layers: entry points, `*Live.ts` layer files and the server's
// and CLI's layer assembly. Type-only imports of a port's value types (a record a use case returns)
// are not uses of the port and stay allowed. The ports are `@resale/core/ports` (core/src/ports/index.ts)
// or one port's file, both under core/src/ports/: `@resale/core` itself exports none (the two core rules
// below), so no root reaches a port without this rule seeing it. test/architecture/depcheck-rules.test.ts
// runs these rules over a tree with bad imports in it.
const wiring = [
  "(^|/)main\\.ts$",
  "Live\\.ts$",
  "^packages/http/src/server/HttpApp\\.ts$",
  // the direct surface's gate on key derivation: a layer that wraps the Blockchain port
  "^packages/http/src/direct/DerivationGate\\.ts$",
  "^packages/cli/src/Layers\\.ts$"
]
// The server's start entry: the only files that mount the web UI (packages/web) on the JSON server.
const startEntry = ["^packages/http/src/main\\.ts$", "^packages/http/src/server/ServerLayer\\.ts$"]
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
      comment:
        "packages/config reads and checks settings: it imports only itself, effect, node builtins and the defaults core's domain declares (never a port)",
      severity: "error",
      from: { path: "^packages/config/src/" },
      to: {
        pathNot: ["^packages/config/src/", "^node_modules/effect/", "^packages/core/src/(?!ports/)"],
        dependencyTypesNot: ["core"]
      }
    },
    ...adapters.map((name) => ({
      name: `${name}-imports-no-other-adapter`,
      comment: "an adapter depends on core only, never on another adapter or a composition root",
      severity: "error",
      from: { path: `^packages/${name}/src/` },
      to: {
        path: "^packages/(store|ton|marketplace|telegram|push|world|http|web|webkit|worker|cli)/",
        pathNot: `^packages/${name}/`
      }
    })),
    {
      name: "roots-call-use-cases-only",
      comment:
        "http, web, webkit, worker and cli reach storage and the outside world through core use cases; only files that wire layers name a port",
      severity: "error",
      from: { path: "^packages/(http|web|webkit|worker|cli)/src/", pathNot: ["\\.test\\.ts$", ...wiring] },
      to: { path: "^packages/core/src/ports/", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "world-imports-no-root",
      comment: "packages/world wires the adapters for every root; it never imports a root",
      severity: "error",
      from: { path: "^packages/world/src/" },
      to: { path: "^packages/(http|web|webkit|worker|cli)/" }
    },
    {
      name: "web-imports-no-http",
      comment:
        "the web UI (pages, layout, i18n, assets, form handling) never imports the JSON server: what both need is packages/webkit",
      severity: "error",
      from: { path: "^packages/web/" },
      to: { path: "^packages/http/" }
    },
    {
      name: "http-imports-no-web",
      comment: "the JSON server never imports the web UI; only its start entry mounts it beside the /v2 routes",
      severity: "error",
      from: { path: "^packages/http/src/", pathNot: startEntry },
      to: { path: "^packages/web/" }
    },
    {
      name: "webkit-imports-no-root",
      comment:
        "packages/webkit (sessions, sign-in, the origin check, the server's settings, the request id, the gift catalogue, the client address and rate limiter) is shared by http and web: it imports neither, nor another root",
      severity: "error",
      from: { path: "^packages/webkit/" },
      to: { path: "^packages/(http|web|worker|cli)/" }
    },
    {
      name: "http-imports-no-worker",
      comment:
        "the server shares adapters with the worker, not its code: only the entry of `npm start` starts the worker in process",
      severity: "error",
      from: { path: "^packages/http/", pathNot: "^packages/http/src/main\\.ts$" },
      to: { path: "^packages/worker/" }
    },
    {
      name: "cli-and-http-apart",
      comment:
        "the CLI and the server are separate roots: they share the record shapes through packages/wire, never each other's code",
      severity: "error",
      from: { path: "^packages/(cli|http)/" },
      to: { path: "^packages/(cli|http)/", pathNot: "^packages/$1/" }
    },
    {
      name: "wire-only-core-and-effect",
      comment:
        "packages/wire maps domain records to their snake_case wire shapes: pure, it imports only itself, core's domain and effect",
      severity: "error",
      from: { path: "^packages/wire/src/" },
      to: { pathNot: ["^packages/wire/src/", "^packages/core/src/", "^node_modules/effect/"] }
    },
    {
      name: "wire-takes-no-port",
      comment: "the wire shapes are of domain records; no port passes through them",
      severity: "error",
      from: { path: "^packages/wire/src/" },
      to: { path: "^packages/core/src/ports/" }
    },
    {
      name: "core-index-exports-no-port",
      comment:
        "@resale/core's index is the domain and its use cases; the ports are `@resale/core/ports` (core/src/ports/index.ts), which roots-call-use-cases-only sees",
      severity: "error",
      from: { path: "^packages/core/src/index\\.ts$" },
      to: { path: "^packages/core/src/ports/" }
    },
    {
      name: "only-ports-reexport-ports",
      comment:
        "no domain or use-case module passes a port on (`export ... from` a port), so no index can carry one past the rules",
      severity: "error",
      from: { path: "^packages/core/src/", pathNot: "^packages/core/src/ports/" },
      to: { path: "^packages/core/src/ports/", dependencyTypes: ["export"] }
    },
    {
      name: "observability-only-effect",
      comment:
        "packages/observability is shared by every root: it may import only itself, effect, Node and the word list",
      severity: "error",
      from: { path: "^packages/observability/src/" },
      to: {
        dependencyTypesNot: ["core"],
        pathNot: ["^packages/observability/src/", "^node_modules/effect/", "^node_modules/@scure/bip39/"]
      }
    },
    {
      name: "outbound-only-effect",
      comment:
        "packages/outbound (HttpClient over undici and the one retry policy) is shared by adapters and world: it imports only itself, effect, @effect/platform-node and Node",
      severity: "error",
      from: { path: "^packages/outbound/src/" },
      to: {
        dependencyTypesNot: ["core"],
        pathNot: ["^packages/outbound/src/", "^node_modules/effect/", "^node_modules/@effect/platform-node/"]
      }
    },
    {
      name: "apiclient-is-an-outsider",
      comment:
        "packages/apiclient is what an integrator generates from the served documents: it knows the product only through them",
      severity: "error",
      from: { path: "^packages/apiclient/" },
      to: { path: "^packages/", pathNot: "^packages/apiclient/" }
    },
    {
      name: "no-product-package-imports-apiclient",
      comment: "the generated client is a dev dependency (absent after `npm ci --omit=dev`); only tests use it",
      severity: "error",
      from: { path: "^packages/", pathNot: "^packages/apiclient/" },
      to: { path: "^packages/apiclient/" }
    },
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
