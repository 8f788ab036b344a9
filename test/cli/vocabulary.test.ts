import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { Effect, Layer } from "effect"
import { type CliRun, cardTopup, cli, CliTestLayer, fund, json } from "./support/CliHarness.ts"
import { cookiesOf, http, ResaleServerLayer } from "./support/HttpServer.ts"

/**
 * One vocabulary: `resale ... --json` names a record's fields as the API answers them. For each
 * record both print, the CLI has every key of the API's answer, and the keys it adds are exactly the
 * operator-only ones listed here (a rename, or a key dropped or added on one side, fails).
 */
const Both = ResaleServerLayer.pipe(Layer.provideMerge(CliTestLayer))

// What operators see beyond the API's record: the admin API's order fields, then the CLI's own.
const ORDER_OPERATOR_ONLY = [
  "attempts",
  "next_attempt_at",
  "unknown_checks",
  "unknown_since",
  "evidence",
  "charge_seq",
  "gift_ref",
  "gift",
  "updated_at",
  "completed_at"
]
const TOPUP_OPERATOR_ONLY = ["confirmed_by", "payment_id", "receipt", "updated_at"]
const USER_OPERATOR_ONLY = ["created_at"]
const MESSAGE_OPERATOR_ONLY = ["ticket_id"]

const keys = (record: object): Array<string> => Object.keys(record).sort()

/** The CLI's record has the API's keys and, beyond them, exactly `operatorOnly`. */
const sameVocabulary = (what: string, cliRecord: object, apiRecord: object, operatorOnly: ReadonlyArray<string>) => {
  const api = keys(apiRecord)
  assert.includeMembers(keys(cliRecord), api, `${what}: the CLI lacks a key the API answers`)
  assert.deepStrictEqual(
    keys(cliRecord).filter((k) => !api.includes(k)),
    [...operatorOnly].sort(),
    `${what}: keys the CLI adds`
  )
}

const ok = (run: CliRun) => {
  assert.strictEqual(run.code, 0, run.stderr)
  return json(run)
}

/** Every key at every depth that has an uppercase letter, with its path. */
const upperKeys = (value: unknown, path = "$"): Array<string> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => upperKeys(v, `${path}[${i}]`))
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => [
    ...(/[A-Z]/.test(k) ? [`${path}.${k}`] : []),
    ...upperKeys(v, `${path}.${k}`)
  ])
}

const premium = (userId: UserId) =>
  OrderService.use((o) => o.create(userId, { kind: "premium", recipient: "friend_vocab", months: 6 })).pipe(
    Effect.orDie
  )

layer(Both, { timeout: "120 seconds", excludeTestServices: true })("one vocabulary: CLI --json and /v2", (it) => {
  it.effect("pricing, orders, top-ups, tickets and users: the CLI's keys are the API's, plus the operator's", () =>
    Effect.gen(function* () {
      const signIn = yield* http("/v2/auth/sandbox?user=vera_vocab")
      const cookie = cookiesOf(signIn)
      const apiKey: string = ok(yield* cli(["users", "rotate-key", "@vera_vocab", "--yes", "--json"])).api_key
      const shownUser = ok(yield* cli(["users", "show", "@vera_vocab", "--json"]))
      const userId = shownUser.user.user_id as UserId
      yield* fund(userId, 500_000)
      const order = yield* premium(userId)
      const topup = yield* cardTopup(userId, 50_000)
      const detail = yield* TicketService.use((t) => t.create(userId, { subject: "Where?", body: "Not yet." })).pipe(
        Effect.orDie
      )
      const asKey = { headers: { "x-api-key": apiKey } }

      const pricing = yield* http("/v2/api/pricing")
      assert.deepStrictEqual(keys(ok(yield* cli(["pricing", "show", "--json"]))), keys(pricing.body))

      const apiOrder = (yield* http(`/v2/api/orders/${order.id}`, asKey)).body
      assert.strictEqual(apiOrder.duration, 6)
      assert.strictEqual(apiOrder.months, 6, "the deprecated alias still answers")
      const cliOrder = ok(yield* cli(["orders", "show", String(order.id), "--json"]))
      assert.strictEqual(cliOrder.duration, 6)
      sameVocabulary("orders show", cliOrder, apiOrder, ORDER_OPERATOR_ONLY)
      const apiOrders = (yield* http("/v2/api/orders", asKey)).body
      const cliOrders = ok(yield* cli(["orders", "list", "--user", "@vera_vocab", "--json"]))
      sameVocabulary("orders list", cliOrders.orders[0], apiOrders.orders[0], ORDER_OPERATOR_ONLY)

      const apiTopup = (yield* http("/v2/api/topups", asKey)).body.topups[0]
      assert.strictEqual(apiTopup.topup_id, topup.id)
      sameVocabulary(
        "topups show",
        ok(yield* cli(["topups", "show", String(topup.id), "--json"])),
        apiTopup,
        TOPUP_OPERATOR_ONLY
      )
      const cliTopups = ok(yield* cli(["topups", "list", "--user", "@vera_vocab", "--json"]))
      sameVocabulary("topups list", cliTopups.topups[0], apiTopup, TOPUP_OPERATOR_ONLY)

      const apiTicket = (yield* http(`/v2/tickets/${detail.ticket.id}`, { headers: { cookie } })).body
      const cliTicket = ok(yield* cli(["tickets", "show", String(detail.ticket.id), "--json"]))
      assert.deepStrictEqual(keys(cliTicket), keys(apiTicket))
      sameVocabulary("tickets show: ticket", cliTicket.ticket, apiTicket.ticket, [])
      sameVocabulary("tickets show: message", cliTicket.messages[0], apiTicket.messages[0], MESSAGE_OPERATOR_ONLY)

      const dashboard = (yield* http("/v2/dashboard", { headers: { cookie } })).body
      sameVocabulary("users show", shownUser.user, dashboard.user, USER_OPERATOR_ONLY)
    })
  )

  it.effect("no key of any CLI JSON output has an uppercase letter", () =>
    Effect.gen(function* () {
      yield* http("/v2/auth/sandbox?user=walt_vocab")
      const user = ok(yield* cli(["users", "show", "@walt_vocab", "--json"])).user
      yield* fund(user.user_id, 300_000)
      const order = yield* premium(user.user_id)
      const topup = yield* cardTopup(user.user_id, 40_000)
      const detail = yield* TicketService.use((t) => t.create(user.user_id, { subject: "Hi", body: "?" })).pipe(
        Effect.orDie
      )
      const runs: ReadonlyArray<ReadonlyArray<string>> = [
        ["pricing", "show"],
        ["orders", "list"],
        ["orders", "show", String(order.id)],
        ["topups", "list"],
        ["topups", "show", String(topup.id)],
        ["tickets", "list"],
        ["tickets", "show", String(detail.ticket.id)],
        ["tickets", "reply", String(detail.ticket.id), "--body", "On its way."],
        ["users", "list"],
        ["users", "show", "@walt_vocab"],
        ["users", "adjust", "@walt_vocab", "--amount", "1000", "--reason", "vocabulary", "--yes"],
        ["orders", "mark-done", String(order.id), "--yes"],
        ["topups", "mark-paid", String(topup.id), "--yes"],
        ["payments", "list"],
        ["payouts", "list"],
        ["report"],
        ["db", "status"],
        ["orders", "show", "424242"]
      ]
      for (const args of runs) {
        const run = yield* cli([...args, "--json"])
        assert.deepStrictEqual(upperKeys(json(run)), [], `resale ${args.join(" ")} --json`)
      }
    })
  )
})
