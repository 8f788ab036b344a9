import { type Html, html } from "../Html.ts"
import type { PageContext } from "./PageContext.ts"

/** Who a user number is, as operator lists show it (the wire `UserOut`'s naming fields). */
export interface Person {
  readonly user_id: number
  readonly telegram_id: number
  readonly username: string | null
  readonly first_name: string | null
}

/** Every `user_id` number anywhere in a JSON answer: the people an operator list mentions. */
export const userIdsIn = (json: unknown, into: Set<number> = new Set()): Set<number> => {
  if (Array.isArray(json)) for (const item of json) userIdsIn(item, into)
  else if (json !== null && typeof json === "object") {
    for (const [key, value] of Object.entries(json)) {
      if ((key === "user_id" || key.endsWith("_user_id")) && typeof value === "number") into.add(value)
      else if (typeof value === "object") userIdsIn(value, into)
    }
  }
  return into
}

/** Name (opening the operator's page of the user), @username (opening Telegram) and Telegram id. */
export const personView = (person: Person): Html =>
  html`<span class="person" data-person="${person.user_id}"><a href="/v2/admin/users/${person.user_id}" data-user-link><strong>${
    person.first_name ?? `#${person.user_id}`
  }</strong></a>${
    person.username
      ? html` <a href="https://t.me/${person.username}" rel="noopener noreferrer" target="_blank" class="nowrap">@${person.username}</a>`
      : ""
  } <span class="hint nowrap">Telegram ${person.telegram_id}</span></span>`

/** A user on an operator page: the person when the page knows them, else the number, linked. */
export const userLink = (ctx: PageContext, userId: number): Html => {
  const person = ctx.people?.get(userId)
  return person === undefined
    ? html`<a href="/v2/admin/users/${userId}" data-user-link>#${userId}</a>`
    : personView(person)
}
