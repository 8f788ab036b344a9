/**
 * Gift pictures from the Bot API, for the gift senders that give none (mtcute's catalogue):
 * `getAvailableGifts` lists each gift with its sticker; the sticker's thumbnail (WEBP or JPG; the
 * sticker itself when it is a static one) is found with `getFile` and downloaded from the file
 * endpoint `{apiUrl}/file/bot{token}/{file_path}`. The list is kept for `listTtl`, each picture for
 * as long as the process runs: the service serves them from its own address, so a shopper's browser
 * never talks to Telegram and never sees the bot token. No failure carries a URL (the token is in it).
 * Anyone may ask for a picture, so the bot's calls are bounded: one download at a time per gift
 * (concurrent requests await it) and a failed one is not tried again for `failureTtl`, which keeps
 * anonymous requests from driving the bot into Telegram's flood limits.
 */
import type { GiftPicture, GiftPicturesShape } from "@resale/core/ports/GiftPictures.ts"
import { Cache, Clock, Duration, Effect, Exit, Option, Redacted, Ref, Schema, Semaphore } from "effect"
import { HttpClientRequest } from "effect/http"
import { botClient } from "./BotApi.ts"

export interface BotGiftPicturesOptions {
  /** e.g. https://api.telegram.org (TELEGRAM_API_URL) */
  readonly apiUrl: string
  readonly token: Redacted.Redacted<string>
  /** How long the list of gifts is reused (default 1 hour; 1 minute after a failed read). */
  readonly listTtl?: Duration.Input
  /** The largest picture accepted (default 512 KiB): a thumbnail is a few kilobytes. */
  readonly maxBytes?: number
  /** How long a picture that could not be fetched is not asked for again (default 5 minutes). */
  readonly failureTtl?: Duration.Input
}

/** Entries are gifts of Telegram's own list only (unknown ids never reach the cache): a few hundred at most. */
const PICTURE_CAPACITY = 1000

// The Bot API's own field names (https://core.telegram.org/bots/api#gift); the rest is ignored.
const PhotoSize = Schema.Struct({ file_id: Schema.String })
const Sticker = Schema.Struct({
  file_id: Schema.String,
  is_animated: Schema.optionalKey(Schema.Boolean),
  is_video: Schema.optionalKey(Schema.Boolean),
  thumbnail: Schema.optionalKey(PhotoSize)
})
const Gift = Schema.Struct({ id: Schema.String, sticker: Sticker })
const GiftsAnswer = Schema.Struct({ ok: Schema.Literal(true), result: Schema.Struct({ gifts: Schema.Array(Gift) }) })
const FileAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  result: Schema.Struct({ file_path: Schema.optionalKey(Schema.String) })
})

/** Only images a browser shows in an `<img>`: a gift's animated (TGS) or video sticker is not one. */
const IMAGE_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png"
}

/** The file to show for a gift: its sticker's thumbnail, or the sticker itself when static. */
const pictureFileOf = (gift: typeof Gift.Type): string | undefined =>
  gift.sticker.thumbnail?.file_id ??
  (gift.sticker.is_animated === true || gift.sticker.is_video === true ? undefined : gift.sticker.file_id)

interface ListState {
  readonly files: ReadonlyMap<string, string>
  readonly until: number
}

export const makeBotGiftPictures = (options: BotGiftPicturesOptions) =>
  Effect.gen(function* () {
    const client = yield* botClient
    const base = options.apiUrl.replace(/\/+$/, "")
    const token = () => Redacted.value(options.token)
    const listTtl = Duration.toMillis(options.listTtl ?? "1 hour")
    const maxBytes = options.maxBytes ?? 512 * 1024
    const list = yield* Ref.make<ListState>({ files: new Map(), until: 0 })
    const listLock = yield* Semaphore.make(1)

    /** A Bot API method's answer decoded, or none (logged without the URL). */
    const call = <S extends Schema.Top>(method: string, body: unknown, answer: S) =>
      client
        .execute(HttpClientRequest.post(`${base}/bot${token()}/${method}`).pipe(HttpClientRequest.bodyJsonUnsafe(body)))
        .pipe(
          Effect.flatMap((response) => response.json),
          Effect.flatMap(Schema.decodeUnknownEffect(answer)),
          Effect.map(Option.some),
          Effect.catchCause(() =>
            Effect.as(
              Effect.logWarning(`Bot API ${method} gave no usable answer: no gift pictures from it for now`),
              Option.none()
            )
          )
        ) as Effect.Effect<Option.Option<S["Type"]>, never, S["DecodingServices"]>

    const files = listLock.withPermit(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const current = yield* Ref.get(list)
        if (now < current.until) return current.files
        const read = yield* call("getAvailableGifts", {}, GiftsAnswer)
        const next: ListState = Option.match(read, {
          // Keep what was known; ask again in a minute.
          onNone: () => ({ files: current.files, until: now + 60_000 }),
          onSome: (answer) => ({
            files: new Map(
              answer.result.gifts.flatMap((g) => {
                const file = pictureFileOf(g)
                return file === undefined ? [] : [[g.id, file] as const]
              })
            ),
            until: now + listTtl
          })
        })
        yield* Ref.set(list, next)
        return next.files
      })
    )

    const download = (filePath: string) =>
      Effect.gen(function* () {
        const type = IMAGE_TYPES[/\.([a-z0-9]+)$/i.exec(filePath)?.[1]?.toLowerCase() ?? ""]
        if (type === undefined) return Option.none<GiftPicture>()
        const response = yield* client.execute(HttpClientRequest.get(`${base}/file/bot${token()}/${filePath}`))
        if (response.status !== 200) return Option.none<GiftPicture>()
        const bytes = new Uint8Array(yield* response.arrayBuffer)
        return bytes.length === 0 || bytes.length > maxBytes
          ? Option.none<GiftPicture>()
          : Option.some({ contentType: type, bytes })
      }).pipe(
        Effect.catchCause(() =>
          Effect.as(
            Effect.logWarning("a gift picture could not be downloaded from the Bot API"),
            Option.none<GiftPicture>()
          )
        )
      )

    /** One gift's picture from Telegram: its file's path, then the bytes. */
    const fetchPicture = (file: string) =>
      Effect.gen(function* () {
        const found = yield* call("getFile", { file_id: file }, FileAnswer)
        const path = Option.flatMap(found, (answer) => Option.fromNullishOr(answer.result.file_path))
        if (Option.isNone(path)) return Option.none<GiftPicture>()
        return yield* download(path.value)
      })

    // Keyed by the gift's file: one lookup in flight per picture, its waiters share it; a picture is
    // kept for good, a failure (none) for failureTtl.
    const failureTtl = options.failureTtl ?? "5 minutes"
    const pictures = yield* Cache.makeWith(fetchPicture, {
      capacity: PICTURE_CAPACITY,
      timeToLive: (exit) => (Exit.isSuccess(exit) && Option.isSome(exit.value) ? Duration.infinity : failureTtl)
    })

    const picture = (giftId: string) =>
      Effect.gen(function* () {
        const file = (yield* files).get(giftId)
        if (file === undefined) return Option.none<GiftPicture>()
        return yield* Cache.get(pictures, file)
      })

    return {
      pictured: Effect.map(files, (known) => new Set(known.keys()) as ReadonlySet<string>),
      picture
    } satisfies GiftPicturesShape
  })
