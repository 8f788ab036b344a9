/**
 * The gift simulator's test recipients act only with `magic` (sandbox mode); without it they are
 * ordinary names, and the production sender (mtcute) never names them.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { GIFT_MAGIC, makeSimulatedGiftSender, SANDBOX_GIFTS } from "../src/SimulatedGiftSender.ts"

const request = (recipient: string) => ({
  account: null,
  recipient,
  giftId: SANDBOX_GIFTS[0]!.id,
  message: null,
  anonymous: false
})

describe("sandbox gift test recipients", () => {
  it.effect("with magic: refused fails Rejected; lost is sent but answers Timeout, and findSent knows it", () =>
    Effect.gen(function* () {
      const { service } = yield* makeSimulatedGiftSender({ accounts: ["user"], magic: true })
      assert.strictEqual((yield* Effect.flip(service.send(request(GIFT_MAGIC.refused)))).reason, "Rejected")
      assert.strictEqual((yield* Effect.flip(service.send(request(GIFT_MAGIC.lost)))).reason, "Timeout")
      const found = yield* service.findSent(request(GIFT_MAGIC.lost), new Date(0))
      assert.strictEqual(found._tag, "Some")
    })
  )

  it.effect("without magic every test recipient gets its gift", () =>
    Effect.gen(function* () {
      const { service } = yield* makeSimulatedGiftSender({ accounts: ["user"] })
      for (const name of Object.values(GIFT_MAGIC)) yield* service.send(request(name))
    })
  )

  it("the production sender never names them", () => {
    const text = readFileSync(new URL("../src/MtcuteGiftSender.ts", import.meta.url), "utf8")
    for (const name of Object.values(GIFT_MAGIC)) assert.notInclude(text, name)
  })
})
