import { assert, describe, it } from "@effect/vitest"
import {
  AdjustmentInvalid,
  IdempotencyKeyInProgress,
  InfoLookupQuotaExceeded,
  InsufficientBalance,
  OrderRequestInvalid,
  OrderTransitionInvalid,
  type OrderId,
  Uzs,
  WebhookEndpointInvalid
} from "@resale/core"
import { MarketplaceError } from "@resale/core/ports"
import { Effect, Exit } from "effect"
import { ERROR_CODES } from "@resale/wire/ErrorCodes.ts"
import { Conflict, ServiceUnavailable, statusOf, TooManyRequests } from "../src/api/Errors.ts"
import { mapErrors, retryAfterSeconds, toHttpError } from "../src/handlers/ErrorMapping.ts"

describe("the typed error edge", () => {
  it("domain errors become a status, a stable code and the values behind the words", () => {
    const short = toHttpError(
      new InsufficientBalance({ userId: 1 as never, required: Uzs.make(23_000), balance: Uzs.make(1_500) })
    )
    assert.instanceOf(short, Conflict)
    assert.deepStrictEqual(
      [short?.code, short?.params],
      ["balance_insufficient", { required_uzs: 23_000, balance_uzs: 1_500 }]
    )
    const transition = toHttpError(
      new OrderTransitionInvalid({ orderId: 3 as OrderId, from: "completed", to: "queued" })
    )
    assert.deepStrictEqual([transition && statusOf(transition), transition?.code], [409, "order_transition_invalid"])
    const stars = toHttpError(
      new OrderRequestInvalid({ reason: "StarsAmountTooSmall", message: "amount must be at least 50" })
    )
    assert.deepStrictEqual(
      [stars && statusOf(stars), stars?.code, stars?.detail],
      [400, "stars_amount_too_small", "amount must be at least 50"]
    )
    const down = toHttpError(new MarketplaceError({ reason: "Unavailable", message: "502 from upstream" }))
    assert.instanceOf(down, ServiceUnavailable)
    assert.strictEqual(down?.code, "marketplace_unavailable")
    assert.notInclude(down?.detail ?? "", "upstream")
  })

  it("a refused webhook URL says why in params.reason", () => {
    const refused = toHttpError(
      new WebhookEndpointInvalid({
        reason: "UrlRefused",
        message: "url is a loopback address: loopback targets are never allowed in production",
        refusal: "loopback_not_in_production"
      })
    )
    assert.deepStrictEqual(
      [refused && statusOf(refused), refused?.code, refused?.params],
      [400, "webhook_url_refused", { field: "url", reason: "loopback_not_in_production" }]
    )
    assert.include(refused?.detail, "never allowed in production")
  })

  it("retry-later answers say when: the in-progress 409 and every 429", () => {
    const busy = toHttpError(new IdempotencyKeyInProgress({ scope: "user:1" }))!
    assert.strictEqual(retryAfterSeconds(busy, 0), 2)
    const quota = toHttpError(new InfoLookupQuotaExceeded({ limit: 10, day: "2026-01-01" }))!
    assert.instanceOf(quota, TooManyRequests)
    // 23:00 UTC: the quota starts again in an hour.
    assert.strictEqual(retryAfterSeconds(quota, Date.UTC(2026, 0, 1, 23, 0, 0)), 3600)
    assert.isUndefined(
      retryAfterSeconds(
        toHttpError(new InsufficientBalance({ userId: 1 as never, required: Uzs.make(2), balance: Uzs.make(1) }))!,
        0
      )
    )
  })

  it.effect("an error nobody mapped does not compile, and at run time it is a defect, never a guessed answer", () =>
    Effect.gen(function* () {
      const unmapped = Effect.fail(new AdjustmentInvalid({ amount: 0, message: "no" }))
      // @ts-expect-error AdjustmentInvalid has no entry in the mapping, so the handler would not type-check.
      const exit = yield* Effect.exit(mapErrors(unmapped))
      assert.isTrue(Exit.hasDies(exit))
    })
  )

  it("codes are unique snake_case words", () => {
    assert.strictEqual(new Set(ERROR_CODES).size, ERROR_CODES.length)
    for (const code of ERROR_CODES) assert.match(code, /^[a-z]+(_[a-z0-9]+)*$/)
  })
})
