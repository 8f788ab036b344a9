/**
 * `@resale/core`'s index carries the domain and the use cases, never a port: a root that imports it
 * gets no way to the storage or the outside world around a use case. The ports are
 * `@resale/core/ports`, every one of them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as core from "@resale/core"
import * as ports from "@resale/core/ports"
import { readdirSync } from "node:fs"

/** The service ids of a module's exported services (`Context.Service` classes carry their id as `key`). */
const serviceIds = (module: Record<string, unknown>): Array<string> =>
  Object.values(module).flatMap((value) => {
    const key =
      typeof value === "function" || (typeof value === "object" && value !== null)
        ? (value as { key?: unknown }).key
        : undefined
    return typeof key === "string" ? [key] : []
  })

describe("@resale/core exports", () => {
  it("the index exports use cases and no port", () => {
    const ids = serviceIds(core)
    assert.include(ids, "core/orders/OrderService")
    assert.include(ids, "core/payments/Payments")
    assert.deepStrictEqual(
      ids.filter((id) => id.startsWith("core/ports/")),
      []
    )
  })

  it("@resale/core/ports exports every port file's service", () => {
    const files = readdirSync(new URL("../src/ports/", import.meta.url)).filter(
      (f) => f.endsWith(".ts") && f !== "index.ts"
    )
    const ids = new Set(serviceIds(ports))
    for (const file of files)
      assert.isTrue(ids.has(`core/ports/${file.replace(/\.ts$/, "")}`), `${file} is exported by @resale/core/ports`)
  })
})
