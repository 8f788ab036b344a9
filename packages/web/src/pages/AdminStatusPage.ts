import type { AdminStatus } from "@resale/wire"
import { type Html, html } from "../Html.ts"
import { table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

type Status = typeof AdminStatus.Type

const hotWallet = (ctx: PageContext, wallet: Status["hot_wallet"], batches: number, lastBlock: string | null): Html => {
  const { t } = ctx.tr
  if (wallet === null) return html`<p class="hint">${t("fleet.walletUnread")}</p>`
  const facts: ReadonlyArray<readonly [string, Html | string]> = wallet.funded
    ? [
        [t("fleet.walletType"), wallet.type ?? ""],
        [t("fleet.walletAddress"), html`<code>${wallet.address ?? ""}</code>`],
        [t("fleet.walletBalance"), wallet.balance_ton ?? ""],
        [t("fleet.walletRead"), time(wallet.read_at)],
        [t("fleet.batches"), String(batches)],
        [t("fleet.lastBlock"), time(lastBlock)]
      ]
    : [
        [
          t("fleet.walletUnfunded"),
          html`${wallet.fund_at.map((w) => html`<div>${w.type}: <code>${w.address}</code></div>`)}`
        ],
        [t("fleet.walletRead"), time(wallet.read_at)]
      ]
  return html`<dl class="facts" id="status-wallet">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`
}

/** The operator's status panel: the whole fleet at one instant, from the shared store. */
export const adminStatusPage = (ctx: PageContext, status: Status): Html => {
  const { t } = ctx.tr
  const { queue } = status
  return layout(ctx, {
    title: t("fleet.title"),
    active: "status",
    body: html`<h1>${t("fleet.title")}</h1>
<p class="hint">${t("fleet.lead", { at: new Date(status.at).toISOString().slice(0, 19).replace("T", " ") })}</p>
<h2>${t("fleet.sessions")}</h2>
${table({
  id: "status-sessions",
  caption: t("fleet.sessions"),
  headers: [t("fleet.session"), t("fleet.health"), t("fleet.lastHour"), t("fleet.lastPurchase")],
  empty: t("fleet.noSessions"),
  rows: status.sessions.map((s) => ({
    attrs: s.health === "failing" ? html` class="row-hot"` : html``,
    cells: [
      s.session,
      html`<span data-health="${s.health}">${t(`fleet.health.${s.health}`)}</span>`,
      `${s.purchases_last_hour.accepted} / ${s.purchases_last_hour.refused} / ${s.purchases_last_hour.unsent}`,
      time(s.last_purchase_at)
    ]
  }))
})}
<h2>${t("fleet.hotWallet")}</h2>
${hotWallet(ctx, status.hot_wallet, status.batches_in_flight, status.last_block_at)}
<h2>${t("fleet.queue")}</h2>
<dl class="facts" id="status-queue">
<dt>${t("fleet.queued")}</dt><dd>${String(queue.queued)}</dd>
<dt>${t("fleet.processing")}</dt><dd>${String(queue.processing)}</dd>
<dt>${t("fleet.needsAttention")}</dt><dd>${
      queue.needs_attention > 0
        ? html`<a href="/v2/admin/orders">${String(queue.needs_attention)}</a>`
        : String(queue.needs_attention)
    }</dd>
</dl>
${
  queue.oldest_waiting_order_id === null
    ? ""
    : html`<p>${t("fleet.oldest", { id: queue.oldest_waiting_order_id, seconds: queue.oldest_waiting_seconds ?? 0 })}</p>`
}
<h2>${t("fleet.workers")}</h2>
${table({
  id: "status-workers",
  caption: t("fleet.workers"),
  headers: [t("fleet.worker"), t("fleet.started"), t("fleet.beat"), t("fleet.health")],
  empty: t("fleet.noWorkers"),
  rows: status.workers.map((w) => ({
    attrs: w.alive ? html`` : html` class="row-hot"`,
    cells: [
      w.worker,
      time(w.started_at),
      time(w.beat_at),
      w.alive ? t("fleet.alive") : t("fleet.silent", { seconds: w.silent_seconds })
    ]
  }))
})}`
  })
}
