import { TopupId } from "@resale/core/ids.ts"
import { type Topup, TopupStatus } from "@resale/core/topups/Topup.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import type { Command } from "commander"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { positiveId, type UserRef, userRef } from "../Args.ts"
import { CliCore } from "../Layers.ts"
import { CliCommandError } from "../CliErrors.ts"
import { confirm } from "../Confirmation.ts"
import { fields, formatUzs, listing, output } from "../Output.ts"
import { topupJson } from "../Records.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import {
  choiceOption,
  operator,
  type PageOptions,
  pageOf,
  resolveOptionalUser,
  withJson,
  withPage,
  withYes
} from "./Common.ts"

const topupRow = (t: Topup) => [
  t.id,
  t.userId,
  t.method,
  formatUzs(t.requestedUzs),
  formatUzs(t.payableUzs),
  t.status,
  t.createdAt,
  t.adminNote
]

export const topupText = (t: Topup): string =>
  fields([
    ["Top-up", `#${t.id}`],
    ["User", `#${t.userId}`],
    ["Method", t.method],
    ["Status", t.status],
    ["Requested UZS", formatUzs(t.requestedUzs)],
    ["Payable UZS", formatUzs(t.payableUzs)],
    ["Credited UZS", t.creditedUzs === null ? null : formatUzs(t.creditedUzs)],
    ["Confirmed by", t.confirmedBy],
    ["Payment", t.paymentId === null ? null : `#${t.paymentId}`],
    ["Receipt", t.receipt === null ? null : `${t.receipt.contentType}, ${t.receipt.size} bytes`],
    ["Admin note", t.adminNote],
    ["Expires", t.expiresAt],
    ["Created", t.createdAt],
    ["Updated", t.updatedAt]
  ])

interface ListOptions extends CommonOptions, PageOptions {
  readonly status?: TopupStatus
  readonly user?: UserRef
}

const list = (options: ListOptions) =>
  Effect.gen(function* () {
    const userId = yield* resolveOptionalUser(options.user)
    const page = yield* (yield* TopupService).list({
      ...pageOf(options),
      ...(options.status === undefined ? {} : { status: [options.status] }),
      ...(userId === undefined ? {} : { userId })
    })
    return output(
      { topups: page.items.map(topupJson), total: page.total },
      listing(
        ["ID", "USER", "METHOD", "REQUESTED UZS", "PAYABLE UZS", "STATUS", "CREATED", "NOTE"],
        page.items.map(topupRow),
        {
          total: page.total,
          offset: options.offset
        },
        "top-ups"
      )
    )
  })

const show = (id: TopupId) =>
  Effect.gen(function* () {
    const topup = yield* (yield* TopupService).find(operator, id)
    return output(topupJson(topup), topupText(topup))
  })

interface ReceiptOptions extends CommonOptions {
  readonly out?: string
  readonly force?: boolean
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/heic": "heic",
  "application/pdf": "pdf"
}

/** Saves the uploaded receipt to a file, so an operator on the server can look at it before approving. */
const receipt = (id: TopupId, options: ReceiptOptions) =>
  Effect.gen(function* () {
    const file = yield* (yield* TopupService).receipt(operator, id)
    const path = resolve(options.out ?? `receipt-${id}.${EXTENSIONS[file.contentType] ?? "bin"}`)
    yield* Effect.try({
      try: () => writeFileSync(path, file.bytes, { flag: options.force === true ? "w" : "wx" }),
      catch: (error) =>
        new CliCommandError({
          reason: "Invalid",
          message:
            (error as NodeJS.ErrnoException).code === "EEXIST"
              ? `${path} exists; choose another --out or pass --force`
              : `cannot write ${path}: ${(error as Error).message}`
        })
    })
    return output(
      { topup_id: id, path, content_type: file.contentType, bytes: file.bytes.length },
      `Receipt of top-up #${id} (${file.contentType}, ${file.bytes.length} bytes) saved to ${path}`
    )
  })

interface ActOptions extends CommonOptions {
  readonly yes?: boolean
  readonly note?: string
  readonly confirmDuplicate?: boolean
}

/** Reads the top-up first, so the question names the user and the amount that will move. */
const act = (
  id: TopupId,
  options: ActOptions,
  verb: string,
  question: (t: Topup) => string,
  run: (service: TopupService["Service"], id: TopupId, note: string | undefined) => Effect.Effect<Topup, unknown>
) =>
  Effect.gen(function* () {
    const service = yield* TopupService
    const current = yield* service.find(operator, id)
    yield* confirm(question(current), { yes: options.yes === true, action: `${verb} top-up #${id}` })
    const note = options.note?.trim() === "" ? undefined : options.note?.trim()
    const topup = yield* run(service, id, note)
    return output(topupJson(topup), `Top-up #${topup.id} is now ${topup.status}.\n\n${topupText(topup)}`)
  })

export const registerTopups = (program: Command): void => {
  const topups = program.command("topups").description("card and receipt top-ups of UZS balances")

  withPage(
    withJson(
      topups
        .command("list")
        .description("list top-ups, newest first")
        .addOption(choiceOption("--status <status>", "only top-ups in this status", TopupStatus.literals))
        .option("--user <user>", "only this user's top-ups (id or @username)", userRef)
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    topups
      .command("show")
      .description("one top-up in full")
      .argument("<id>", "top-up id", positiveId("the top-up id", TopupId))
  ).action((id: TopupId, options: CommonOptions) => runCommand(CliCore, show(id), options))

  withJson(
    topups
      .command("receipt")
      .description("save the receipt file of a top-up, to check it before approving")
      .argument("<id>", "top-up id", positiveId("the top-up id", TopupId))
      .option("--out <path>", "file to write (default receipt-<id>.<type> here)")
      .option("--force", "overwrite the file if it exists")
  ).action((id: TopupId, options: ReceiptOptions) => runCommand(CliCore, receipt(id, options), options))

  withYes(
    withJson(
      topups
        .command("approve")
        .description("approve a pending or review top-up and credit its payable amount to the user")
        .argument("<id>", "top-up id", positiveId("the top-up id", TopupId))
        .option("--note <text>", "note kept on the top-up (e.g. the receipt check)")
        .option(
          "--confirm-duplicate",
          "the receipt repeats a recent credit of the same amount, and you checked it is a second payment"
        )
    )
  ).action((id: TopupId, options: ActOptions) =>
    runCommand(
      CliCore,
      act(
        id,
        options,
        "approve",
        (t) => `Approve top-up #${t.id} (${t.status}) and credit ${formatUzs(t.payableUzs)} UZS to user #${t.userId}?`,
        (s, topupId, note) => s.approve(topupId, note, { confirmDuplicate: options.confirmDuplicate === true })
      ),
      options
    )
  )

  withYes(
    withJson(
      topups
        .command("reject")
        .description("reject a pending or review top-up (nothing is credited)")
        .argument("<id>", "top-up id", positiveId("the top-up id", TopupId))
        .option("--note <text>", "reason shown to the user")
    )
  ).action((id: TopupId, options: ActOptions) =>
    runCommand(
      CliCore,
      act(
        id,
        options,
        "reject",
        (t) => `Reject top-up #${t.id} (${t.status}, ${formatUzs(t.payableUzs)} UZS) of user #${t.userId}?`,
        (s, topupId, note) => s.reject(topupId, note)
      ),
      options
    )
  )

  withYes(
    withJson(
      topups
        .command("mark-paid")
        .description("mark a top-up paid, as the admin API's mark-paid does, and credit its payable amount")
        .argument("<id>", "top-up id", positiveId("the top-up id", TopupId))
    )
  ).action((id: TopupId, options: ActOptions) =>
    runCommand(
      CliCore,
      act(
        id,
        options,
        "mark paid",
        (t) =>
          `Mark top-up #${t.id} (${t.status}) paid and credit ${formatUzs(t.payableUzs)} UZS to user #${t.userId}?`,
        (s, topupId) => s.markPaid(topupId)
      ),
      options
    )
  )
}
