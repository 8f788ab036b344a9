import type { FlashLine } from "../gateway/WebCookies.ts"
import { type Html, html } from "../Html.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** An error in words, with a way back; never the raw JSON the API would send. */
export const errorPage = (ctx: PageContext, lines: ReadonlyArray<FlashLine>): Html => {
  const { t } = ctx.tr
  const text = lines.map((line) => ("key" in line ? t(line.key, line.params) : line.text))
  const home = ctx.area === "admin" ? "/v2/admin" : ctx.signedIn ? "/v2/dashboard" : "/v2/"
  return layout(ctx, {
    title: t("error.title"),
    active: "none",
    body: html`<h1>${t("error.title")}</h1>
<div class="flash flash-error" role="alert">${text.length === 1 ? html`<p>${text[0]}</p>` : html`<ul>${text.map((line) => html`<li>${line}</li>`)}</ul>`}</div>
<p><a href="${home}">${t("error.home")}</a></p>`
  })
}
