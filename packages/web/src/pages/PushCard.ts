import { type Html, html } from "../Html.ts"
import { section } from "../layout/Components.ts"
import type { PageContext } from "../layout/PageContext.ts"

/**
 * The push opt-in: the button registers the service worker, subscribes with the server's VAPID key
 * and posts the subscription; without script it stays hidden (nothing would work).
 */
export const pushCard = (ctx: PageContext): Html => {
  const { t } = ctx.tr
  return section(
    "push",
    t("push.title"),
    html`<p>${t("push.lead")}</p>
<p><button type="button" class="btn btn-secondary" id="push-enable" hidden>${t("push.enable")}</button></p>
<p class="hint" id="push-status" role="status" aria-live="polite"></p>`
  )
}
