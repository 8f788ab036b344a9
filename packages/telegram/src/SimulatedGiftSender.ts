import {
  type GiftRequest,
  GiftSender,
  GiftSenderError,
  type GiftSent,
  type StarGift
} from "@resale/core/ports/GiftSender.ts"
import { Effect, Layer, Option, Semaphore } from "effect"
import { SANDBOX_GIFT_PICTURES } from "./SandboxGiftPictures.ts"
import { makeSentGiftLog, type SentGiftRecord } from "./SentGiftLog.ts"

export type { SentGiftRecord } from "./SentGiftLog.ts"

/** Telegram's standard (unlimited) star gifts: real ids and prices, used as the sandbox catalogue. */
export const SANDBOX_GIFTS: ReadonlyArray<StarGift> = [
  { id: "5170145012310081615", title: "Heart", stars: 15 },
  { id: "5170233102089322756", title: "Teddy bear", stars: 15 },
  { id: "5170250947678437525", title: "Gift box", stars: 25 },
  { id: "5168103777563050263", title: "Rose", stars: 25 },
  { id: "5170144170496491616", title: "Cake", stars: 50 },
  { id: "5170314324215857265", title: "Bouquet", stars: 50 },
  { id: "5170564780938756245", title: "Rocket", stars: 50 },
  { id: "5168043875654172773", title: "Trophy", stars: 100 },
  { id: "5170690322832818290", title: "Ring", stars: 100 },
  { id: "5170521118301225164", title: "Diamond", stars: 100 }
].map((g) => ({ ...g, remaining: null, total: null, soldOut: false, picture: SANDBOX_GIFT_PICTURES[g.id] ?? "" }))

/** Test switches of the simulator. */
export interface GiftSimulatorControl {
  readonly unknownRecipients: Set<string>
  /** Next sends fail with these reasons, in order ("TimeoutAfterSend" = sent, but the answer is lost). */
  readonly faults: Array<GiftSenderError["reason"] | "TimeoutAfterSend">
  readonly sent: () => ReadonlyArray<SentGiftRecord>
}

/**
 * The sandbox's test recipients of gifts (docs/sandbox.md, "Test recipients"), known only to this
 * simulator and only with `magic` (sandbox mode): the production sender treats them as any name.
 */
export const GIFT_MAGIC = {
  /** Telegram refuses the gift: the order fails and is refunded at once */
  refused: "sandbox_gift_refused",
  /** the gift is sent but the answer is lost: the outcome is unknown until the sent log is read, then delivered */
  lost: "sandbox_gift_lost"
} as const

export interface SimulatedGiftSenderOptions {
  readonly accounts: ReadonlyArray<string>
  /** honour the test recipients of `GIFT_MAGIC` (default off) */
  readonly magic?: boolean
  /**
   * Append-only log of sent gifts (one JSON line each): the simulated Telegram's history, shared by
   * the processes of a data directory and kept across restarts (`SentGiftLog.ts`).
   */
  readonly logFile?: string
}

const fail = (reason: GiftSenderError["reason"], message: string) => new GiftSenderError({ reason, message })

/**
 * Sandbox mode's GiftSender: Telegram's standard gift catalogue, named accounts from config and a
 * log of sent gifts (a file under the data directory: `findSent` knows what any process of it sent,
 * also after a restart).
 * Usernames follow Telegram's rules; `control` lets tests refuse recipients or inject faults.
 */
export const makeSimulatedGiftSender = Effect.fn("SimulatedGiftSender.make")(function* (
  options: SimulatedGiftSenderOptions
) {
  const log = yield* makeSentGiftLog(options.logFile)
  const control: GiftSimulatorControl = { unknownRecipients: new Set(), faults: [], sent: log.cached }
  const lock = yield* Semaphore.make(1)
  const accounts = options.accounts.length === 0 ? ["user"] : options.accounts

  const accountOf = (request: GiftRequest) =>
    request.account === null
      ? Effect.succeed(accounts[0] ?? "user")
      : accounts.includes(request.account)
        ? Effect.succeed(request.account)
        : Effect.fail(fail("UnknownAccount", `no gift sender account named "${request.account}"`))

  const send = Effect.fn("SimulatedGiftSender.send")(function* (request: GiftRequest) {
    const account = yield* accountOf(request)
    const recipient = request.recipient.replace(/^@/, "").toLowerCase()
    if (!/^[a-z][a-z0-9_]{3,31}$/.test(recipient) || control.unknownRecipients.has(recipient)) {
      return yield* fail("RecipientNotFound", `no Telegram user @${request.recipient}`)
    }
    if (!SANDBOX_GIFTS.some((g) => g.id === request.giftId)) {
      return yield* fail("GiftUnavailable", `gift ${request.giftId} is not on sale`)
    }
    if (options.magic === true && recipient === GIFT_MAGIC.refused) {
      return yield* fail("Rejected", `@${recipient} does not accept gifts (sandbox test recipient)`)
    }
    const fault = options.magic === true && recipient === GIFT_MAGIC.lost ? "TimeoutAfterSend" : control.faults.shift()
    if (fault !== undefined && fault !== "TimeoutAfterSend") return yield* fail(fault, `simulated ${fault}`)
    // Recorded (durably, in sandbox mode) before the send is reported, as Telegram keeps it in the history.
    const sentAt = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis)).toISOString()
    const sent: SentGiftRecord = yield* lock.withPermit(
      log.append({
        account,
        recipient,
        giftId: request.giftId,
        message: request.message,
        anonymous: request.anonymous,
        sentAt
      })
    )
    if (fault === "TimeoutAfterSend") return yield* fail("Timeout", "simulated lost answer after the gift was sent")
    return { account, reference: sent.reference, sentAt: new Date(sent.sentAt) } satisfies GiftSent
  })

  const findSent = Effect.fn("SimulatedGiftSender.findSent")(function* (request: GiftRequest, since: Date) {
    const account = yield* accountOf(request)
    const recipient = request.recipient.replace(/^@/, "").toLowerCase()
    // The history as it is now: another process of the data directory may have sent it.
    const found = (yield* log.read).find(
      (e) =>
        e.account === account &&
        e.recipient === recipient &&
        e.giftId === request.giftId &&
        new Date(e.sentAt).getTime() >= since.getTime()
    )
    return found === undefined
      ? Option.none<GiftSent>()
      : Option.some({ account, reference: found.reference, sentAt: new Date(found.sentAt) })
  })

  return {
    control,
    service: GiftSender.of({ accounts, catalogue: Effect.succeed(SANDBOX_GIFTS), send, findSent })
  }
})

export const SimulatedGiftSender = {
  layer: (options: SimulatedGiftSenderOptions) =>
    Layer.effect(
      GiftSender,
      Effect.map(makeSimulatedGiftSender(options), (sim) => sim.service)
    )
} as const
