import { Context, Effect, type Option } from "effect"

/** A gift's picture as bytes the service serves from its own address (never a Telegram URL). */
export interface GiftPicture {
  /** image/webp, image/jpeg or image/png */
  readonly contentType: string
  readonly bytes: Uint8Array
}

/**
 * Pictures of the star gifts where Telegram gives them (the Bot API's gift stickers), for gift
 * senders that give none themselves (mtcute's catalogue). Read through the `Gifts` use case.
 * The default has none: sandbox mode and tests draw their own, and a production without a bot
 * token shows the generic gift box.
 */
export interface GiftPicturesShape {
  /** Ids of the gifts that have a picture (empty when Telegram cannot be asked right now). */
  readonly pictured: Effect.Effect<ReadonlySet<string>>
  /** One gift's picture; none when it has none or it cannot be fetched right now. */
  readonly picture: (giftId: string) => Effect.Effect<Option.Option<GiftPicture>>
}

export const GiftPictures = Context.Reference<GiftPicturesShape>("core/ports/GiftPictures", {
  defaultValue: () => ({ pictured: Effect.succeed(new Set<string>()), picture: () => Effect.succeedNone })
})
