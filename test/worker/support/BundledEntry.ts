/**
 * The start bundle of an entry (`dist/<build>/worker.mjs`, what `npm run worker` runs through
 * `deploy/start.mjs`), for tests that start the entry as a process many times: a bundled start reads
 * a few files instead of resolving and type-stripping some 1,200 modules (about 0.7 s of CPU instead
 * of 3 s on a 2-core machine). The bundle is the one of these very sources: when a source changed
 * since the last build, it is built again once per test process before the first start.
 */
import { Effect } from "effect"
import { join } from "node:path"
import { build, freshBuild } from "../../../deploy/bundle.mjs"

let current: Promise<string> | undefined

// The launcher test makes the bundle stale for a few seconds (a source's time moved forward, then put
// back): a build in that window would record the moved time and leave a stale bundle behind. So a
// stale bundle is looked at again for a while before it is built.
const resolveBuild = async (): Promise<string> => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const fresh = freshBuild()
    if (fresh !== undefined) return fresh
    await new Promise((done) => setTimeout(done, 500))
  }
  return freshBuild() ?? (await build())
}

/** The path of `name`'s bundled module (node runs it as `node <path>`), the bundle fresh for these sources. */
export const bundledEntry = (name: "server" | "worker" | "cli") =>
  Effect.promise(() => {
    current ??= resolveBuild().catch((error: unknown) => {
      current = undefined
      throw error
    })
    return current
  }).pipe(Effect.map((dir) => join(dir, `${name}.mjs`)))
