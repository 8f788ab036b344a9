/**
 * `docs/architecture.md` keeps to the code: its numbered "path of one account order" names, step by
 * step, a file and the symbol in it that does the step (`` `packages/.../File.ts` `symbol` ``). Each
 * file must exist and declare the symbol (a function, method, property or export of that name), so
 * a rename or a move fails here until the page follows it.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../", import.meta.url))
const page = readFileSync(join(repo, "docs/architecture.md"), "utf8")

const SECTION = "## The path of one account order through the files"

interface Step {
  readonly n: number
  readonly file: string
  readonly symbol: string
}

/** The numbered steps of the section: `N. \`file.ts\` \`symbol\`` at the start of a line. */
const stepsOf = (markdown: string): ReadonlyArray<Step> => {
  const start = markdown.indexOf(SECTION)
  if (start < 0) return []
  const rest = markdown.slice(start + SECTION.length)
  const end = rest.search(/^## /m)
  const section = end < 0 ? rest : rest.slice(0, end)
  return [...section.matchAll(/^(\d+)\. `([^`\s]+\.ts)` `([A-Za-z_$][\w$]*)`/gm)].map((m) => ({
    n: Number(m[1]),
    file: m[2] ?? "",
    symbol: m[3] ?? ""
  }))
}

const escape = (text: string) => text.replace(/[$]/g, "\\$")

/** Whether `source` declares `symbol`: a binding, a function or class, or a property / method of that name. */
const declares = (source: string, symbol: string): boolean => {
  const s = escape(symbol)
  return [
    new RegExp(`\\b(?:const|let|var|function\\*?|class|interface|type|enum)\\s+${s}\\b`),
    new RegExp(`^\\s*(?:export\\s+)?(?:readonly\\s+|static\\s+|async\\s+|get\\s+)*${s}\\s*(?:[:=(<]|\\?:)`, "m")
  ].some((pattern) => pattern.test(source))
}

describe("docs/architecture.md: the path of one account order", () => {
  const steps = stepsOf(page)

  it("has at least 6 numbered steps, each naming a file and a symbol", () => {
    assert.isAtLeast(steps.length, 6, `steps found: ${steps.map((s) => s.n).join(", ")}`)
    assert.deepStrictEqual(
      steps.map((s) => s.n),
      steps.map((_, i) => i + 1),
      "the steps are numbered 1, 2, 3, ... with no gap"
    )
  })

  it("names files that exist and declare the symbol named", () => {
    const wrong = steps.flatMap((step) => {
      const path = join(repo, step.file)
      if (!existsSync(path)) return [`${step.n}. ${step.file}: no such file`]
      return declares(readFileSync(path, "utf8"), step.symbol)
        ? []
        : [`${step.n}. ${step.file}: declares no \`${step.symbol}\``]
    })
    assert.deepStrictEqual(wrong, [])
  })

  it("tells a declaration from a mention", () => {
    const source =
      'const place = Effect.fn("x")\nreturn Orders.of({ insert, claimNext })\n  readonly hold: <A>() => A\n'
    assert.isTrue(declares(source, "place"))
    assert.isTrue(declares(source, "hold"))
    assert.isFalse(declares(source, "insert"))
    assert.isFalse(declares(source, "Effect"))
  })
})
