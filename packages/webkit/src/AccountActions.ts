import type { Topup, UserId } from "@resale/core"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import type { OrderRequest } from "@resale/core/orders/OrderRules.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { orderOut, topupOut } from "@resale/wire"
import * as Dto from "@resale/wire/Dtos.ts"
import { Effect } from "effect"
import { GiftCatalog } from "./GiftCatalog.ts"
import { HttpConfig } from "./HttpConfig.ts"
import type { idempotentWith } from "./Idempotent.ts"

/**
 * The signed-in shopper's money-moving calls, each under its `Idempotency-Key` when one is sent:
 * the JSON routes and the web's forms run the same code and store the same answer (the route's DTO),
 * so a key replays alike from either. `idempotent` says how a replay is marked (a header, or nothing).
 */
type Idempotent = ReturnType<typeof idempotentWith>

/** A new top-up as both top-up routes answer it: the record, the exact amount to transfer and where. */
export const topupCreatedOut = (
  t: Topup,
  payToCard: string | null,
  sandbox: boolean
): typeof Dto.TopupCreated.Type => ({
  topup: topupOut(t),
  payable_uzs: t.payableUzs,
  expires_at: t.expiresAt === null ? null : t.expiresAt.toISOString(),
  pay_to_card: payToCard,
  sandbox
})

/** A card top-up of `amount_uzs`. */
export const createTopup = (
  idempotent: Idempotent,
  endpoint: string,
  userId: UserId,
  key: string | undefined,
  payload: { readonly amount_uzs: number }
) =>
  Effect.gen(function* () {
    const topups = yield* TopupService
    const { paymentCard, sandbox } = yield* HttpConfig
    return yield* idempotent(
      key,
      { user: userId },
      endpoint,
      payload,
      Dto.TopupCreated,
      Effect.map(topups.create(userId, payload.amount_uzs), (t) => topupCreatedOut(t, paymentCard, sandbox))
    )
  })

/** A top-up paid already, with its receipt (the core checks the file's type and size). */
export const uploadReceipt = (
  idempotent: Idempotent,
  userId: UserId,
  key: string | undefined,
  amountUzs: number,
  bytes: Uint8Array
) =>
  Effect.gen(function* () {
    const topups = yield* TopupService
    return yield* idempotent(
      key,
      { user: userId },
      "POST /v2/balance/top-up/receipt",
      { amount_uzs: amountUzs, size: bytes.length },
      Dto.Topup,
      Effect.map(topups.createWithReceipt(userId, amountUzs, bytes), topupOut)
    )
  })

/** Creates an order (balance debited, order queued) and answers it with the new balance. */
export const placeOrder = <E, R>(
  idempotent: Idempotent,
  endpoint: string,
  userId: UserId,
  key: string | undefined,
  body: unknown,
  build: Effect.Effect<OrderRequest, E, R>
) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const { sandbox } = yield* HttpConfig
    const request = yield* build
    return yield* idempotent(
      key,
      { user: userId },
      endpoint,
      body,
      Dto.OrderCreated,
      Effect.map(orders.place(userId, request), ({ order, balanceAfter }) => ({
        ok: true,
        order: orderOut(order),
        balance_uzs: balanceAfter,
        sandbox
      }))
    )
  })

/** Raises the account's lookup tier, paid from the balance. */
export const upgradeInfoTier = (
  idempotent: Idempotent,
  userId: UserId,
  key: string | undefined,
  payload: { readonly tier: number }
) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const balances = yield* Balances
    return yield* idempotent(
      key,
      { user: userId },
      "POST /v2/api-docs/getinfo-upgrade",
      payload,
      Dto.TierUpgrade,
      Effect.gen(function* () {
        const { chargedUzs, user } = yield* accounts.upgradeTier(userId, payload.tier)
        const usage = yield* accounts.lookupUsage(userId)
        return {
          tier: user.tier,
          price_uzs: chargedUzs,
          balance_uzs: yield* balances.balance(userId),
          quota: { tier: usage.tier, used: usage.used, limit: usage.limit }
        }
      })
    )
  })

/** A gift from the catalogue for `username`, bought from the gifts page's form. */
export const buyGift = (
  idempotent: Idempotent,
  userId: UserId,
  key: string | undefined,
  payload: { readonly username: string; readonly gift_id: string; readonly comment: string }
) =>
  placeOrder(
    idempotent,
    "POST /v2/gifts/buy",
    userId,
    key,
    payload,
    Effect.map(
      GiftCatalog.use((gifts) => gifts.find(payload.gift_id)),
      (gift): OrderRequest => ({
        kind: "gift",
        recipient: payload.username,
        gift: { id: gift.id, stars: gift.stars },
        comment: payload.comment === "" ? null : payload.comment
      })
    )
  )
