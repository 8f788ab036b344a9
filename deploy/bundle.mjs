// The start bundles: each entry (server, worker, CLI) with everything it imports, built by esbuild into
// one directory of ES modules (code shared by entries and lazily imported code in chunks), so a start
// reads a few files instead of resolving, reading and type-stripping some 1,200 modules.
// A bundle records every file it was made of (size and modification time): `freshBuild` finds it stale
// as soon as one of them changed, and the launcher (`start.mjs`) then rebuilds or runs the sources.
// Run: `node deploy/bundle.mjs` (`npm run build`); `--if-sources` does nothing without the sources
// (an install of the manifests alone).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export const ROOT = fileURLToPath(new URL("..", import.meta.url))
const DIST = join(ROOT, "dist")
const CURRENT = join(DIST, "current.json")
const KEEP = 3

export const ENTRIES = {
  server: "packages/http/src/main.ts",
  worker: "packages/worker/src/main.ts",
  cli: "packages/cli/src/main.ts"
}

// What a build depends on besides its inputs: resolution (manifests, lockfile, tsconfig) and this file.
const settingsFiles = () => [
  "package.json",
  "package-lock.json",
  "tsconfig.base.json",
  "deploy/bundle.mjs",
  ...readdirSync(join(ROOT, "packages")).map((name) => `packages/${name}/package.json`)
]

const stampOf = (file) => {
  try {
    const s = statSync(join(ROOT, file))
    // Rounded to whole milliseconds, as a stat's Date is: a time put back from one (as tools and
    // tests do) reads back a few nanoseconds off, never a whole millisecond.
    return [s.size, Math.round(s.mtimeMs)]
  } catch {
    return null
  }
}

/** The current build's directory when it is fresh (no file it was made of changed), else undefined. */
export const freshBuild = () => {
  let current
  try {
    current = JSON.parse(readFileSync(CURRENT, "utf8"))
  } catch {
    return undefined
  }
  for (const [file, stamp] of Object.entries(current.files)) {
    const now = stampOf(file)
    if (now === null || now[0] !== stamp?.[0] || now[1] !== stamp?.[1]) return undefined
  }
  const dir = join(DIST, current.dir)
  return Object.keys(ENTRIES).every((name) => existsSync(join(dir, `${name}.mjs`))) ? dir : undefined
}

const TOKENS = /import\.meta\.url|__dirname|__filename|export \* from/
const STAR = /export \* from ["']([^"']+)["'];?/g

const isCommonJs = (file) => {
  if (file.endsWith(".cjs")) return true
  if (!file.endsWith(".js")) return false
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).type !== "module"
  }
  return true
}

/**
 * `export * from` a CommonJS module has no names esbuild can see (they exist only once it runs), so
 * a chunk would export none of them: such a line becomes the module's names, listed here.
 */
const namedStars = async (build, text, file) => {
  let out = text
  for (const [line, spec] of text.matchAll(STAR)) {
    const resolved = await build.resolve(spec, { kind: "import-statement", resolveDir: dirname(file) })
    if (resolved.errors.length > 0 || !isCommonJs(resolved.path)) continue
    const names = Object.keys(createRequire(file)(resolved.path)).filter(
      (n) => n !== "default" && /^[A-Za-z_$][\w$]*$/.test(n)
    )
    const local = `__star_${spec.replace(/\W/g, "_")}`
    out = out.replace(
      line,
      `import ${local} from ${JSON.stringify(spec)}; export const { ${names.join(", ")} } = ${local};`
    )
  }
  return out
}

const ownLocation = (outdir) => ({
  name: "own-location",
  setup(build) {
    build.onLoad({ filter: /\.(m?[jt]s|cjs)$/ }, async (args) => {
      const text = readFileSync(args.path, "utf8")
      if (!TOKENS.test(text)) return undefined
      // No `import.meta` is added: esbuild would take a CommonJS file that has one for an ES module.
      const path = `__bundleJoin(__bundleDir, ${JSON.stringify(relative(outdir, args.path))})`
      const head = /__dirname|__filename/.test(text)
        ? `var __filename = ${path}; var __dirname = __bundleDirname(__filename);\n`
        : ""
      const loader = args.path.endsWith(".ts") ? "ts" : "js"
      const contents =
        head +
        (await namedStars(build, text, args.path)).replaceAll("import.meta.url", `__bundlePathToFileURL(${path}).href`)
      return { contents, loader, resolveDir: dirname(args.path) }
    })
  }
})

/**
 * Runs `use` with esbuild's API, then stops esbuild's service process: otherwise it lives as long as
 * this process, and a server that rebuilt its stale bundle at start kept it (some 300 MB) for good.
 */
export const withEsbuild = async (use) => {
  const esbuild = await import("esbuild")
  try {
    return await use(esbuild)
  } finally {
    await esbuild.stop()
  }
}

/** Builds every entry into a new directory of dist/ and makes it the current build; returns it. */
export const build = async () => {
  const name = `build-${Date.now()}-${process.pid}`
  const outdir = join(DIST, name)
  mkdirSync(DIST, { recursive: true })
  const result = await withEsbuild((esbuild) =>
    esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node22",
      // Less source for V8 to keep (some 10 MB of memory); names stay, for stack traces and class names.
      minifyWhitespace: true,
      minifySyntax: true,
      keepNames: true,
      sourcemap: "linked",
      metafile: true,
      logLevel: "error",
      plugins: [ownLocation(outdir)],
      // CommonJS dependencies call require() (node: modules, optional packages).
      banner: {
        js: [
          'import { createRequire as __bundleCreateRequire } from "node:module";',
          'import { fileURLToPath as __bundleFileURLToPath, pathToFileURL as __bundlePathToFileURL } from "node:url";',
          'import { dirname as __bundleDirname, join as __bundleJoin } from "node:path";',
          "const require = __bundleCreateRequire(import.meta.url);",
          "const __bundleDir = __bundleDirname(__bundleFileURLToPath(import.meta.url));"
        ].join(" ")
      }
    })
  )
  const files = {}
  for (const file of [...Object.keys(result.metafile.inputs), ...settingsFiles()]) {
    const stamp = stampOf(file)
    if (stamp !== null) files[file] = stamp
  }
  // Written whole, then renamed: a process starting meanwhile sees the previous build or this one.
  const temp = `${CURRENT}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify({ dir: name, files }))
  renameSync(temp, CURRENT)
  prune(name)
  return outdir
}

// Older builds go, but not the last few: a running process may still import a lazy chunk of its own.
const prune = (keep) => {
  const builds = readdirSync(DIST)
    .filter((d) => d.startsWith("build-") && d !== keep)
    .sort((a, b) => {
      const time = (d) => Number(d.split("-")[1])
      return time(b) - time(a)
    })
  for (const old of builds.slice(KEEP - 1)) rmSync(join(DIST, old), { recursive: true, force: true })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--if-sources") && !Object.values(ENTRIES).every((e) => existsSync(join(ROOT, e)))) {
    process.exit(0)
  }
  const began = performance.now()
  try {
    const dir = await build()
    process.stdout.write(`built ${relative(ROOT, dir)} in ${((performance.now() - began) / 1000).toFixed(1)} s\n`)
  } catch (error) {
    // After an install a failed build must not fail the install: the launcher builds or runs the sources.
    if (!process.argv.includes("--if-sources")) throw error
    process.stderr.write(
      `resale: the start bundle was not built (${String(error).split("\n")[0]}); npm start will build it or run the sources\n`
    )
  }
}
