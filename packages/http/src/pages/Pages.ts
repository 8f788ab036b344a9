import { escapeHtml, form, layout, renderValue } from "./Html.ts"

/** The HTML variants of the spec's pages; each takes the same data as the JSON answer. */
const userNav = [
  ["/v2/dashboard", "Dashboard"],
  ["/v2/orders", "Orders"],
  ["/v2/gifts", "Gifts"],
  ["/v2/tickets", "Support"],
  ["/v2/api-docs", "API"],
  ["/v2/logout", "Sign out"]
] as const
const adminNav = [
  ["/v2/admin", "Admin"],
  ["/v2/admin/topups", "Top-ups"],
  ["/v2/admin/orders", "Orders"],
  ["/v2/admin/tickets", "Tickets"],
  ["/v2/admin/logout", "Sign out"]
] as const

export const homePage = (data: {
  readonly sandbox: boolean
  readonly signed_in: boolean
  readonly sign_in_url: string | null
  readonly bot_username: string | null
  /** The widget's callback URL, bound to this browser (auth/LoginState.ts). */
  readonly auth_url: string
}) =>
  layout(
    { title: "Stars, Premium and gifts for UZS", sandbox: data.sandbox, nav: data.signed_in ? userNav : [] },
    data.signed_in
      ? `<p><a href="/v2/dashboard">Open your dashboard</a></p>`
      : (data.bot_username
          ? `<script async src="https://telegram.org/js/telegram-widget.js?22" data-telegram-login="${escapeHtml(data.bot_username)}" data-size="large" data-auth-url="${escapeHtml(data.auth_url)}"></script>`
          : "") +
          (data.sign_in_url
            ? `<p><a href="${escapeHtml(data.sign_in_url)}">Sign in as the sandbox demo user</a></p>`
            : "")
  )

export const dashboardPage = (
  data: { readonly sandbox: boolean; readonly balance_uzs: number } & Record<string, unknown>
) =>
  layout(
    { title: "Dashboard", sandbox: data.sandbox, nav: userNav },
    `<p>Balance: <strong>${data.balance_uzs} UZS</strong></p>` +
      form("/v2/balance/top-up", [["amount_uzs", "Top up (UZS)", "number"]], "Create top-up") +
      `<form method="post" action="/v2/api-key/rotate"><button>New API key</button></form>` +
      renderValue(data)
  )

export const userPage = (title: string, sandbox: boolean, data: unknown, extra = "") =>
  layout({ title, sandbox, nav: userNav }, extra + renderValue(data))

export const giftsPage = (sandbox: boolean, data: unknown) =>
  userPage(
    "Gifts",
    sandbox,
    data,
    form(
      "/v2/gifts/buy",
      [
        ["username", "Recipient"],
        ["gift_id", "Gift id"],
        ["comment", "Comment"]
      ],
      "Send gift"
    )
  )

export const ticketsPage = (sandbox: boolean, data: unknown) =>
  userPage(
    "Support tickets",
    sandbox,
    data,
    form(
      "/v2/tickets/new",
      [
        ["subject", "Subject"],
        ["body", "Message", "textarea"]
      ],
      "Open ticket"
    )
  )

export const ticketPage = (sandbox: boolean, ticketId: number, data: unknown) =>
  userPage(
    `Ticket #${ticketId}`,
    sandbox,
    data,
    form(`/v2/tickets/${ticketId}/reply`, [["body", "Reply", "textarea"]], "Send")
  )

export const adminPage = (title: string, sandbox: boolean, data: unknown, extra = "") =>
  layout({ title, sandbox, nav: adminNav }, extra + renderValue(data))

export const adminHomePage = (sandbox: boolean, data: unknown) =>
  adminPage(
    "Operator panel",
    sandbox,
    data,
    form(
      "/v2/admin/pricing",
      [
        ["star_price_uzs", "Star price (UZS)", "number"],
        ["premium_3_month_uzs", "Premium 3 months", "number"],
        ["premium_6_month_uzs", "Premium 6 months", "number"],
        ["premium_12_month_uzs", "Premium 12 months", "number"]
      ],
      "Update prices"
    )
  )

export const adminLoginPage = (sandbox: boolean, signedIn: boolean) =>
  layout(
    { title: "Operator sign-in", sandbox },
    signedIn
      ? `<p>Signed in. <a href="/v2/admin">Open the panel</a></p>`
      : form("/v2/admin/login", [["token", "Admin token", "password"]], "Sign in")
  )
