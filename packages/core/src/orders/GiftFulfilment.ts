import { Context, Duration, Effect, Layer, Option } from "effect"
import { type GiftRequest, GiftSender, isGiftFailureTransient } from "../ports/GiftSender.ts"
import { currentDate } from "../Time.ts"
import { Delivered, type FulfilmentOutcome, NotDelivered, Unknown } from "./FulfilmentOutcome.ts"
import type { Order } from "./Order.ts"
import { giftFailure } from "./OrderFailure.ts"
import { OrderWork } from "./OrderWork.ts"
import { OrderWorkSettings } from "./OrderWorkSettings.ts"

/** The order's reference while a gift send may be under way: `gift@<ISO instant before sending>`. */
const MARKER = "gift@"

export const giftMarker = (at: Date): string => `${MARKER}${at.toISOString()}`

export const markerTime = (reference: string | null): Date | undefined => {
  if (reference === null || !reference.startsWith(MARKER)) return undefined
  const at = new Date(reference.slice(MARKER.length))
  return Number.isNaN(at.getTime()) ? undefined : at
}

/** A service answer arrives within this; a send older than it that left no trace never happened. */
const SETTLE_MS = 60_000

const requestOf = (order: Order): GiftRequest | undefined =>
  order.item.kind === "gift"
    ? {
        account: order.item.senderAccount,
        recipient: order.recipient,
        giftId: order.item.giftId,
        message: order.item.comment,
        anonymous: order.item.anonymous
      }
    : undefined

/**
 * Gift orders through the GiftSender. Telegram has no idempotency key for gifts, so the order's
 * gift reference (`giftRef`) is set to a marker with the instant BEFORE each send; an order found with a marker
 * (resumed after a crash, or after a `Timeout`) first asks `findSent` whether that send happened
 * and only sends again when it surely did not.
 */
export class GiftFulfilment extends Context.Service<
  GiftFulfilment,
  {
    readonly attempt: (order: Order) => Effect.Effect<FulfilmentOutcome>
  }
>()("core/orders/GiftFulfilment") {
  static readonly layer = Layer.effect(
    GiftFulfilment,
    Effect.gen(function* () {
      const gifts = yield* GiftSender
      const work = yield* OrderWork
      const settings = yield* OrderWorkSettings
      const settleMs = Math.max(SETTLE_MS, Duration.toMillis(settings.unknownRetryBase))

      const delivered = (sent: { readonly account: string; readonly reference: string }) =>
        Delivered(`gift:${sent.account}:${sent.reference}`)

      const attempt = Effect.fn("GiftFulfilment.attempt")(function* (order: Order) {
        const request = requestOf(order)
        if (request === undefined) return NotDelivered(false, `order ${order.id} is not a gift order`)
        const since = markerTime(order.giftRef)
        if (since !== undefined) {
          const found = yield* Effect.result(gifts.findSent(request, since))
          if (found._tag === "Failure")
            return Unknown(`could not check whether the gift was sent: ${found.failure.message}`)
          if (Option.isSome(found.success)) return delivered(found.success.value)
          if ((yield* currentDate).getTime() - since.getTime() < settleMs) {
            return Unknown("gift send outcome unknown; checking again before sending")
          }
        }
        const startedAt = yield* currentDate
        yield* work.setGiftRef(order.id, giftMarker(startedAt))
        // Not cut short by a stop: a send under way finishes and its answer is kept.
        const sent = yield* Effect.uninterruptible(Effect.result(gifts.send(request)))
        if (sent._tag === "Success") return delivered(sent.success)
        const error = sent.failure
        if (error.reason === "Timeout") return Unknown(`gift send outcome unknown: ${error.message}`)
        // Nothing was sent: the marker goes, so the next attempt does not wait for a lookup.
        yield* work.setGiftRef(order.id, null)
        return NotDelivered(isGiftFailureTransient(error), giftFailure(error.reason, error.message))
      })

      return GiftFulfilment.of({ attempt })
    })
  )
}
