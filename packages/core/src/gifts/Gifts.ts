import { Context, Effect, Layer, type Option } from "effect"
import { type GiftPicture, GiftPictures } from "../ports/GiftPictures.ts"
import { GiftSender, type GiftSenderError, type StarGift } from "../ports/GiftSender.ts"

/**
 * The star gifts on sale, as the GiftSender reports them, and their pictures where Telegram gives
 * them (the GiftPictures port): the one way the roots read the catalogue (they never hold the ports
 * themselves; sending goes through the order use cases).
 */
export class Gifts extends Context.Service<
  Gifts,
  {
    readonly catalogue: Effect.Effect<ReadonlyArray<StarGift>, GiftSenderError>
    /** Ids of the gifts whose picture the service can serve itself (`picture`). */
    readonly pictured: Effect.Effect<ReadonlySet<string>>
    readonly picture: (giftId: string) => Effect.Effect<Option.Option<GiftPicture>>
  }
>()("core/gifts/Gifts") {
  static readonly layer = Layer.effect(
    Gifts,
    Effect.gen(function* () {
      const sender = yield* GiftSender
      const pictures = yield* GiftPictures
      return Gifts.of({
        catalogue: sender.catalogue.pipe(Effect.withSpan("Gifts.catalogue")),
        pictured: pictures.pictured.pipe(Effect.withSpan("Gifts.pictured")),
        picture: (giftId) => pictures.picture(giftId).pipe(Effect.withSpan("Gifts.picture"))
      })
    })
  )
}
