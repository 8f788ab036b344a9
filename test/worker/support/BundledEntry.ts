/**
 * What a test runs to start an entry as a process: its start bundle (`dist/<build>/worker.mjs`, what
 * `npm start` / `npm run worker` run through `deploy/start.mjs`) while the bundle is fresh, as it is
 * in a clone after `npm ci`; else the TypeScript sources (a source changed since the last
 * `npm run build`). A bundled start reads a few files instead of resolving and type-stripping some
 * 1,200 modules: about 0.7 s of CPU instead of 3 s on a 2-core machine.
 * Tests never build: a build takes a minute on a loaded machine, and the launcher test makes the
 * bundle stale on purpose for a moment (a build then would record that moment's file times).
 */
import { Effect } from "effect"
import { join } from "node:path"
import { ENTRIES, freshBuild, ROOT } from "../../../deploy/bundle.mjs"

/** The absolute path of the module node runs for `name` (`node <path> [arguments]`). */
export const bundledEntry = (name: "server" | "worker" | "cli") =>
  Effect.sync(() => {
    const dir = freshBuild()
    return dir === undefined ? join(ROOT, ENTRIES[name]) : join(dir, `${name}.mjs`)
  })
