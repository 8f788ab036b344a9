import { Context, Effect, Layer } from "effect"
import { GiftSender, type GiftSenderError, type StarGift } from "../ports/GiftSender.ts"

/**
 * The star gifts on sale, as the GiftSender reports them: the one way the roots read the catalogue
 * (they never hold the port itself; sending goes through the order use cases).
 */
export class Gifts extends Context.Service<Gifts, {
  readonly catalogue: Effect.Effect<ReadonlyArray<StarGift>, GiftSenderError>
}>()("core/gifts/Gifts") {
  static readonly layer = Layer.effect(
    Gifts,
    Effect.gen(function*() {
      const sender = yield* GiftSender
      return Gifts.of({ catalogue: sender.catalogue.pipe(Effect.withSpan("Gifts.catalogue")) })
    })
  )
}
