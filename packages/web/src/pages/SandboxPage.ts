import { FRAGMENT_MAGIC } from "@resale/marketplace/simulator/SimulatorMagic.ts"
import { GIFT_MAGIC } from "@resale/telegram/SimulatedGiftSender.ts"
import type { InboxNotice } from "@resale/push/SandboxPushInbox.ts"
import { type Html, html } from "../Html.ts"
import type { MessageKey } from "../i18n/en.ts"
import { formGuards, section, submit, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

export interface SandboxInboxView {
  readonly subscribed: boolean
  readonly notices: ReadonlyArray<InboxNotice>
}

/** The test recipients, in the order of docs/sandbox.md, with the words that explain each. */
const RECIPIENTS: ReadonlyArray<readonly [string, string]> = [
  [FRAGMENT_MAGIC.notFound, "notFound"],
  [FRAGMENT_MAGIC.timeout, "timeout"],
  [FRAGMENT_MAGIC.late, "late"],
  [FRAGMENT_MAGIC.unknown, "unknown"],
  [FRAGMENT_MAGIC.lostPayment, "lost"],
  [GIFT_MAGIC.refused, "giftRefused"],
  [GIFT_MAGIC.lost, "giftLost"]
]

/** Sandbox mode's help: the test recipients that fail on purpose, and the push receiver's inbox. */
export const sandboxPage = (ctx: PageContext, inbox: SandboxInboxView): Html => {
  const { t } = ctx.tr
  const recipients = table({
    caption: t("sandbox.recipients"),
    headers: [t("sandbox.col.name"), t("sandbox.col.what"), t("sandbox.col.ends")],
    rows: RECIPIENTS.map(([name, key]) => ({
      attrs: html` data-recipient="${name}"`,
      cells: [
        html`<code>${name}</code>`,
        t(`sandbox.m.${key}.what` as MessageKey),
        t(`sandbox.m.${key}.ends` as MessageKey)
      ]
    })),
    empty: ""
  })
  const enable = inbox.subscribed
    ? html`<p class="ok" id="inbox-on">${t("sandbox.push.on")}</p>`
    : html`<form method="post" action="/v2/sandbox/push/inbox">${formGuards(ctx)}${submit(t("sandbox.push.enable"))}</form>`
  const notices = table({
    caption: t("sandbox.push.received"),
    id: "inbox",
    headers: [t("sandbox.push.col.at"), t("sandbox.push.col.title"), t("sandbox.push.col.body")],
    rows: inbox.notices.map((n) => ({ attrs: html` data-notice`, cells: [time(n.at), n.title, n.body] })),
    empty: t("sandbox.push.empty")
  })
  return layout(ctx, {
    title: t("sandbox.title"),
    active: "sandbox",
    body: html`<h1>${t("sandbox.title")}</h1>
<p class="lead">${t("sandbox.lead")}</p>
${section("test-recipients", t("sandbox.recipients"), recipients)}
${section("push-inbox", t("sandbox.push.title"), html`<p>${t("sandbox.push.lead")}</p>${enable}<h3>${t("sandbox.push.received")}</h3>${notices}`)}`
  })
}
