import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { ApiKeyRotation } from "@resale/core/accounts/ApiKeyRotation.ts"
import type { User } from "@resale/core/accounts/User.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import type { LedgerEntry } from "@resale/core/ledger/LedgerEntry.ts"
import { type Command, Option } from "commander"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { nonBlank, signedUzs, type UserRef, userRef, wholeNumber } from "../Args.ts"
import { CliCore } from "../Layers.ts"
import { confirm } from "../Confirmation.ts"
import { fields, formatSignedUzs, formatUzs, listing, output, table } from "../Output.ts"
import { userJson } from "../Records.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { type PageOptions, pageOf, resolveUser, userLabel, withJson, withPage, withYes } from "./Common.ts"

const userFields = (u: User, balance: number): string =>
  fields([
    ["User", userLabel(u)],
    ["Telegram id", u.telegramId],
    ["First name", u.firstName],
    ["Balance UZS", formatUzs(balance)],
    ["Lookup tier", u.tier],
    ["API key", u.hasApiKey ? "set" : "none"],
    ["Bot chat", u.botChatId === null ? "not linked" : "linked"],
    ["Created", u.createdAt]
  ])

const entryRow = (e: LedgerEntry) => [
  e.id,
  formatSignedUzs(e.amount),
  formatUzs(e.balanceAfter),
  `${e.cause}:${e.causeId}`,
  e.note,
  e.createdAt
]
const ENTRY_HEADERS = ["ENTRY", "AMOUNT UZS", "BALANCE UZS", "CAUSE", "NOTE", "AT"]

interface ListOptions extends CommonOptions, PageOptions {
  readonly search?: string
}

const list = (options: ListOptions) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const page = yield* (yield* Accounts).list({
      ...pageOf(options),
      ...(options.search === undefined ? {} : { search: options.search })
    })
    const items = yield* Effect.forEach(page.items, (user) =>
      Effect.map(balances.balance(user.id), (balanceUzs) => ({ ...user, balanceUzs }))
    )
    return output(
      { users: items.map((u) => ({ ...userJson(u), balance_uzs: u.balanceUzs })), total: page.total },
      listing(
        ["ID", "USERNAME", "TELEGRAM ID", "BALANCE UZS", "TIER", "API KEY", "CREATED"],
        items.map((u) => [
          u.id,
          u.username === null ? null : `@${u.username}`,
          u.telegramId,
          formatUzs(u.balanceUzs),
          u.tier,
          u.hasApiKey ? "yes" : "",
          u.createdAt
        ]),
        { total: page.total, offset: options.offset },
        "users"
      )
    )
  })

interface ShowOptions extends CommonOptions {
  readonly entries: number
}

const show = (ref: UserRef, options: ShowOptions) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const user = yield* resolveUser(ref)
    const balanceUzs = yield* balances.balance(user.id)
    const entries = yield* balances.entries(user.id, { offset: 0, limit: options.entries })
    const history =
      entries.items.length === 0
        ? "No ledger entries."
        : `Latest ${entries.items.length} of ${entries.total} ledger entries:\n${table(ENTRY_HEADERS, entries.items.map(entryRow))}`
    return output(
      { user: userJson(user), balance_uzs: balanceUzs, entries: entries.items, total_entries: entries.total },
      `${userFields(user, balanceUzs)}\n\n${history}`
    )
  })

interface AdjustOptions extends CommonOptions {
  readonly yes?: boolean
  readonly amount: number
  readonly reason: string
  readonly key?: string
}

const adjust = (ref: UserRef, options: AdjustOptions) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const user = yield* resolveUser(ref)
    // The key makes the adjustment idempotent: running the printed command again moves nothing twice.
    const key = options.key ?? `cli:${randomUUID()}`
    const before = yield* balances.balance(user.id)
    const direction = options.amount > 0 ? "Credit" : "Debit"
    yield* confirm(
      `${direction} ${formatUzs(Math.abs(options.amount))} UZS ${options.amount > 0 ? "to" : "from"} user ${userLabel(user)} ` +
        `(balance ${formatUzs(before)} UZS) for "${options.reason.trim()}"?`,
      { yes: options.yes === true, action: `adjust the balance of user ${userLabel(user)}` }
    )
    const { created, entry } = yield* balances.adjust({
      userId: user.id,
      amount: options.amount,
      reason: options.reason,
      key
    })
    const text = created
      ? `Ledger entry #${entry.id}: ${formatSignedUzs(entry.amount)} UZS; balance of ${userLabel(user)} is now ${formatUzs(entry.balanceAfter)} UZS.\nIdempotency key: ${key}`
      : `Key ${key} was already used by ledger entry #${entry.id} (${formatSignedUzs(entry.amount)} UZS); nothing moved.`
    return output({ created, key, entry }, text)
  })

interface RotateOptions extends CommonOptions {
  readonly yes?: boolean
  readonly keepWebhooks?: boolean
}

const rotateKey = (ref: UserRef, options: RotateOptions) =>
  Effect.gen(function* () {
    const rotation = yield* ApiKeyRotation
    const user = yield* resolveUser(ref)
    const keepWebhooks = options.keepWebhooks === true
    if (user.hasApiKey) {
      const hooks = keepWebhooks ? "" : " Its webhook endpoints are removed with it (--keep-webhooks keeps them)."
      yield* confirm(`Replace the API key of user ${userLabel(user)}? The current key stops working at once.${hooks}`, {
        yes: options.yes === true,
        action: `rotate the API key of user ${userLabel(user)}`
      })
    }
    // The webhooks go with the old key unless kept, as on the web and the API (a leaked key's endpoints).
    const rotated = yield* rotation.rotate(user.id, { keepWebhooks })
    // Shown this once, for the operator to hand over; only its hash is stored.
    const apiKey = Redacted.value(rotated.apiKey)
    const removed = rotated.webhooksRemoved > 0 ? `\n${rotated.webhooksRemoved} webhook endpoint(s) removed.` : ""
    return output(
      { user: userJson(rotated.user), api_key: apiKey, webhooks_removed: rotated.webhooksRemoved },
      `New API key of user ${userLabel(rotated.user)} (shown once, only its hash is stored):\n${apiKey}${removed}`
    )
  })

export const registerUsers = (program: Command): void => {
  const users = program.command("users").description("user accounts, balances and API keys")

  withPage(
    withJson(
      users
        .command("list")
        .description("list users with their balances, newest first")
        .option("--search <text>", "username or first name contains this text")
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    users
      .command("show")
      .description("a user with balance and latest ledger entries")
      .argument("<user>", "user id or @username", userRef)
      .addOption(
        new Option("--entries <n>", "ledger entries to show, 1-100")
          .argParser(wholeNumber("--entries", 1, 100))
          .default(10)
      )
  ).action((ref: UserRef, options: ShowOptions) => runCommand(CliCore, show(ref, options), options))

  withYes(
    withJson(
      users
        .command("adjust")
        .description("correct a balance with a new ledger entry (never an edit); negative amounts debit")
        .argument("<user>", "user id or @username", userRef)
        .requiredOption("--amount <uzs>", "signed so'm, e.g. 50000 or -20000", signedUzs)
        .requiredOption("--reason <text>", "why; kept on the entry and shown to the user", nonBlank("--reason"))
        .option(
          "--key <key>",
          "idempotency key; reuse it to retry safely (default: a new one, printed)",
          nonBlank("--key")
        )
    )
  ).action((ref: UserRef, options: AdjustOptions) => runCommand(CliCore, adjust(ref, options), options))

  withYes(
    withJson(
      users
        .command("rotate-key")
        .description(
          "issue a new API key (the old one stops working) and print it once; the user's webhook endpoints are removed with the old key"
        )
        .argument("<user>", "user id or @username", userRef)
        .option("--keep-webhooks", "keep the webhook endpoints registered with the old key")
    )
  ).action((ref: UserRef, options: RotateOptions) => runCommand(CliCore, rotateKey(ref, options), options))
}
