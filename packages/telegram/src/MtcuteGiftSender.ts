/**
 * GiftSender over MTProto with mtcute: each named sender account is a Telegram user session
 * (`GIFT_SENDER_<NAME>_SESSION`, an mtcute session string) in a `TelegramClient` on in-memory
 * storage (so better-sqlite3's native addon is never loaded). `send` is mtcute's `sendStarGift`
 * (payment form + Stars payment), `findSent` reads the sender's history with the recipient for the
 * "star gift sent" service message, `catalogue` is `getStarGiftOptions`, cached.
 */
import type { GiftRequest, GiftSent, StarGift } from "@resale/core/ports/GiftSender.ts"
import { GiftSender, GiftSenderError } from "@resale/core/ports/GiftSender.ts"
import { Long, MemoryStorage, MtPeerNotFoundError, TelegramClient, tl } from "@mtcute/node"
import { Duration, Effect, Layer, Option, Redacted } from "effect"

export interface MtcuteAccount {
  readonly name: string
  readonly client: TelegramClient
}

export interface MtcuteGiftSenderOptions {
  readonly accounts: ReadonlyArray<MtcuteAccount>
  /** How long the catalogue is reused (default 10 minutes). */
  readonly catalogueTtl?: Duration.Input
  /** How many recent messages with the recipient `findSent` reads (default 100). */
  readonly historyDepth?: number
}

const fail = (reason: GiftSenderError["reason"], message: string, retryAfterSeconds?: number) =>
  new GiftSenderError({ reason, message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) })

/** What an mtcute failure means for the caller. `sending`: the failure came from the paying call. */
export const toGiftSenderError = (cause: unknown, sending: boolean): GiftSenderError => {
  if (cause instanceof MtPeerNotFoundError) return fail("RecipientNotFound", "no Telegram user with that username")
  if (!tl.RpcError.is(cause)) {
    // no answer from Telegram: for the paying call the gift may or may not have been sent
    return sending
      ? fail("Timeout", "Telegram did not answer the gift payment")
      : fail("Unavailable", "Telegram could not be reached")
  }
  const text = cause.text
  if (cause.code === 420) {
    const seconds = (cause as unknown as { seconds?: number }).seconds
    return fail("FloodWait", `Telegram asked to wait${seconds === undefined ? "" : ` ${seconds} s`}`, seconds)
  }
  if (/^(USERNAME_NOT_OCCUPIED|USERNAME_INVALID|PEER_ID_INVALID|USER_ID_INVALID|INPUT_USER_DEACTIVATED)/.test(text)) {
    return fail("RecipientNotFound", `Telegram: ${text}`)
  }
  if (/^STARGIFT_/.test(text)) return fail("GiftUnavailable", `Telegram: ${text}`)
  if (/^BALANCE_TOO_LOW/.test(text)) return fail("InsufficientStars", "the sender account has too few Stars")
  if (cause.code === 401) return fail("Unavailable", `the sender account's session is not valid (${text})`)
  if (cause.code >= 500 || cause.code < 0) {
    return sending
      ? fail("Timeout", `Telegram failed internally (${text}); the gift may have been sent`)
      : fail("Unavailable", `Telegram: ${text}`)
  }
  return fail("Rejected", `Telegram: ${text}`)
}

const toStarGift = (gift: {
  id: Long
  purchaseStars: Long
  title: string | null
  isSoldOut: boolean
  availability: { remains: number; total: number } | null
}): StarGift => ({
  id: gift.id.toString(),
  stars: gift.purchaseStars.toNumber(),
  title: gift.title,
  remaining: gift.availability?.remains ?? null,
  total: gift.availability?.total ?? null,
  soldOut: gift.isSoldOut === true
})

export const makeMtcuteGiftSender = Effect.fn("MtcuteGiftSender.make")(function* (options: MtcuteGiftSenderOptions) {
  const names = options.accounts.map((a) => a.name)
  const ttl = options.catalogueTtl ?? Duration.minutes(10)
  const depth = options.historyDepth ?? 100

  const accountOf = (request: GiftRequest) => {
    const found =
      request.account === null ? options.accounts[0] : options.accounts.find((a) => a.name === request.account)
    return found === undefined
      ? Effect.fail(fail("UnknownAccount", `no gift sender account named "${request.account ?? "(default)"}"`))
      : Effect.succeed(found)
  }

  const call = <A>(sending: boolean, run: () => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: (cause) => toGiftSenderError(cause, sending) })

  const send = Effect.fn("MtcuteGiftSender.send")(function* (request: GiftRequest) {
    const account = yield* accountOf(request)
    const gift = yield* Effect.try({
      try: () => Long.fromString(request.giftId),
      catch: () => fail("GiftUnavailable", "gift ids are numeric strings")
    })
    const peer = yield* call(false, () => account.client.resolvePeer(request.recipient.replace(/^@/, "")))
    const message = yield* call(true, () =>
      account.client.sendStarGift({
        peerId: peer,
        gift,
        anonymous: request.anonymous,
        ...(request.message === null ? {} : { message: request.message })
      })
    )
    const sentAt = message?.date ?? new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
    return {
      account: account.name,
      reference: message === null ? "sent" : `msg:${message.id}`,
      sentAt
    } satisfies GiftSent
  })

  const findSent = Effect.fn("MtcuteGiftSender.findSent")(function* (request: GiftRequest, since: Date) {
    const account = yield* accountOf(request)
    const history = yield* call(false, () =>
      account.client.getHistory(request.recipient.replace(/^@/, ""), { limit: depth })
    )
    const found = history.find(
      (m) =>
        m.isOutgoing &&
        m.action?.type === "star_gift_sent" &&
        m.action.gift.id.toString() === request.giftId &&
        m.date.getTime() >= since.getTime() - 1000
    )
    return found === undefined
      ? Option.none<GiftSent>()
      : Option.some({ account: account.name, reference: `msg:${found.id}`, sentAt: found.date })
  })

  const first = options.accounts[0]
  const load =
    first === undefined
      ? Effect.fail(fail("UnknownAccount", "no gift sender account is configured"))
      : call(false, () => first.client.getStarGiftOptions()).pipe(Effect.map((gifts) => gifts.map(toStarGift)))
  const catalogue = yield* Effect.cachedWithTTL(load, ttl)

  return GiftSender.of({ accounts: names, catalogue, send, findSent })
})

export interface MtcuteAccountsOptions {
  readonly apiId: number
  readonly apiHash: Redacted.Redacted<string>
  /** One mtcute session string per sender account, in GIFT_SENDERS order. */
  readonly sessions: ReadonlyArray<{ readonly name: string; readonly session: Redacted.Redacted<string> }>
}

const layerWith = (options: MtcuteAccountsOptions) =>
  Layer.effect(
    GiftSender,
    Effect.gen(function* () {
      const accounts: Array<MtcuteAccount> = []
      for (const { name, session } of options.sessions) {
        const client = yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new TelegramClient({
                apiId: options.apiId,
                apiHash: Redacted.value(options.apiHash),
                storage: new MemoryStorage(),
                disableUpdates: true
              })
          ),
          (client) => Effect.promise(() => client.destroy())
        )
        yield* Effect.tryPromise({
          try: () => client.importSession(Redacted.value(session)),
          // A start with a broken account stops here, naming the setting (never its value).
          catch: () =>
            fail("UnknownAccount", `GIFT_SENDER_${name.toUpperCase()}_SESSION is not an mtcute session string`)
        })
        accounts.push({ name, client })
      }
      return yield* makeMtcuteGiftSender({ accounts })
    })
  )

/**
 * Clients are destroyed with the layer. `layerWith`: explicit accounts (the configuration reads
 * TELEGRAM_API_ID, TELEGRAM_API_HASH and one GIFT_SENDER_<NAME>_SESSION per name of GIFT_SENDERS).
 */
export const MtcuteGiftSender = { layerWith } as const
