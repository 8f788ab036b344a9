import { statSync } from "node:fs"
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Longest first, so that both cores stay busy to the end instead of one finishing a long file alone.
 * vitest's own order (projects by name; in a project, the durations of the last run, or the file size
 * when there is none, as in a fresh clone) would start the end-to-end project half way through, and
 * a file's size says little of its time.
 *
 * - Files of one project stay together: a worker keeps its loaded modules only for the next file of
 *   the same project (`isolate: false`), so interleaving projects would load them again and again.
 * - Projects holding a file of `slowFirst` come first (in the order of their first such file), the
 *   others by the size of their test files, largest first.
 * - In a project, the files of `slowFirst` in that order, then vitest's own order.
 */
export const longestFirst = (root: string, slowFirst: ReadonlyArray<string>) =>
  class LongestFirst extends BaseSequencer {
    override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
      const own = await super.sort(files)
      const rank = (spec: TestSpecification) => {
        const at = slowFirst.indexOf(relative(root, spec.moduleId))
        return at === -1 ? slowFirst.length : at
      }
      const projects = new Map<string, { rank: number; bytes: number }>()
      for (const spec of own) {
        const name = spec.project.name
        const seen = projects.get(name) ?? { rank: slowFirst.length, bytes: 0 }
        projects.set(name, { rank: Math.min(seen.rank, rank(spec)), bytes: seen.bytes + statSync(spec.moduleId).size })
      }
      const position = new Map(own.map((spec, i) => [spec, i]))
      return own.toSorted((a, b) => {
        const pa = projects.get(a.project.name)!
        const pb = projects.get(b.project.name)!
        if (a.project.name !== b.project.name) {
          return pa.rank - pb.rank || pb.bytes - pa.bytes || (a.project.name < b.project.name ? -1 : 1)
        }
        return rank(a) - rank(b) || position.get(a)! - position.get(b)!
      })
    }
  }
