/**
 * A failed order's reason code comes from the structured reason its attempt failed with, never from
 * the foreign message: every marketplace and gift sender reason reads back as its code, also behind
 * the attempt limit, and any other text is `unknown`.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  failureCode,
  gaveUp,
  giftCodes,
  giftFailure,
  marketplaceCodes,
  marketplaceFailure,
  OrderFailureCode,
  operatorRefund
} from "../src/orders/OrderFailure.ts"
import { GiftSenderErrorReason } from "../src/ports/GiftSender.ts"
import { MarketplaceErrorReason } from "../src/ports/Marketplace.ts"

describe("order failure codes", () => {
  it("every marketplace reason reads back as its code, also after the attempt limit", () => {
    for (const reason of MarketplaceErrorReason.literals) {
      // A foreign message that looks like another reason does not change the code.
      const text = marketplaceFailure(reason, "Fragment searchStarsRecipient: gift not sent (Rejected): x")
      assert.strictEqual(failureCode(text), marketplaceCodes[reason], reason)
      assert.strictEqual(failureCode(gaveUp(8, text)), marketplaceCodes[reason], reason)
    }
  })

  it("every gift sender reason reads back as its code", () => {
    for (const reason of GiftSenderErrorReason.literals) {
      assert.strictEqual(failureCode(giftFailure(reason, "MarketplaceRejected (Timeout): y")), giftCodes[reason])
      assert.strictEqual(failureCode(gaveUp(3, giftFailure(reason, "z"))), giftCodes[reason])
    }
  })

  it("the reasons a shopper meets most have their own codes", () => {
    assert.strictEqual(
      failureCode("MarketplaceRejected (RecipientNotFound): Fragment searchStarsRecipient: No Telegram users found."),
      "recipient_not_found"
    )
    assert.strictEqual(failureCode(marketplaceFailure("AlreadySubscribed", "has Premium")), "already_premium")
    assert.strictEqual(failureCode(gaveUp(3, marketplaceFailure("Timeout", "slow"))), "marketplace_timeout")
    assert.strictEqual(failureCode(giftFailure("Rejected", "USER_DISALLOWED_STARGIFTS")), "gift_refused")
    assert.strictEqual(failureCode(giftFailure("GiftUnavailable", "sold out")), "gift_sold_out")
  })

  it("an operator's refund, with or without a note, is refunded_by_operator", () => {
    assert.strictEqual(failureCode(operatorRefund("")), "refunded_by_operator")
    assert.strictEqual(failureCode(operatorRefund("  checked on chain ")), "refunded_by_operator")
    assert.strictEqual(operatorRefund("  checked "), "refunded by an operator: checked")
  })

  it("anything else is unknown, and no error is no code", () => {
    assert.strictEqual(failureCode(null), null)
    for (const text of [
      "",
      "hot wallet: WalletNotFound: nothing funded",
      "MarketplaceRejected (NoSuchReason): x",
      "gift not sent (Nope): x",
      "order 7 is not a gift order",
      "gave up after 3 attempts: Not paid"
    ])
      assert.strictEqual(failureCode(text), "unknown", text)
  })

  it("every code is reachable or the generic one", () => {
    const reached = new Set<string>([
      ...Object.values(marketplaceCodes),
      ...Object.values(giftCodes),
      "refunded_by_operator",
      "unknown"
    ])
    assert.deepStrictEqual(
      [...OrderFailureCode.literals].filter((code) => !reached.has(code)),
      []
    )
  })
})
