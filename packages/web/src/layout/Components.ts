import { randomUUID } from "node:crypto"
import { CSRF_FIELD, type FlashLine } from "../gateway/WebCookies.ts"
import { type Html, html, type Interpolation } from "../Html.ts"
import type { MessageKey } from "../i18n/en.ts"
import { formatDateTime, type Translator } from "../i18n/Translate.ts"
import type { PageContext } from "./PageContext.ts"

/** Small building blocks shared by the pages; each renders accessible, escaped markup. */
const lineText = (tr: Translator, line: FlashLine): string => ("key" in line ? tr.t(line.key, line.params) : line.text)

/** The message left by the last form: `status` for success, `alert` (read out at once) for errors. */
export const flashBox = (ctx: PageContext): Html => {
  const flash = ctx.flash
  if (!flash || flash.lines.length === 0) return html``
  const role = flash.kind === "error" ? "alert" : "status"
  const lines = flash.lines.map((line) => lineText(ctx.tr, line))
  // tabindex lets the script move focus to a failure, so the reader hears it and the screen shows it.
  // data-flash-topup: the script rewrites a message about a top-up once that top-up is settled.
  return html`<div class="flash flash-${flash.kind}" role="${role}" id="flash" tabindex="-1"${
    flash.topup === undefined ? "" : html` data-flash-topup="${String(flash.topup)}"`
  }>${lines.length === 1 ? html`<p>${lines[0]}</p>` : html`<ul>${lines.map((l) => html`<li>${l}</li>`)}</ul>`}</div>`
}

export const money = (tr: Translator, amount: number): Html => html`<span class="money">${tr.uzs(amount)}</span>`

export const time = (iso: string | null | undefined): Html =>
  iso ? html`<time datetime="${iso}">${formatDateTime(iso)}</time>` : html`<span>—</span>`

export type StatusKind = "topup" | "order" | "ticket" | "payment" | "delivery"

/** A status word with its colour; `data-status` lets the client script update it in place. */
export const statusBadge = (tr: Translator, kind: StatusKind, status: string): Html =>
  html`<span class="badge badge-${status}" data-status="${status}" data-status-kind="${kind}">${tr.t(
    `status.${kind}.${status}` as MessageKey
  )}</span>`

/** Hidden fields every POST form carries: the CSRF token and, for money-moving forms, a fresh idempotency key. */
export const formGuards = (ctx: PageContext, options: { readonly idempotent?: boolean } = {}): Html =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrf}">${
    options.idempotent ? html`<input type="hidden" name="idempotency_key" value="${randomUUID()}">` : ""
  }`

export interface FieldSpec {
  readonly name: string
  readonly label: string
  readonly type?: string
  readonly value?: string | number | undefined
  readonly hint?: Interpolation
  readonly required?: boolean
  readonly min?: number
  readonly max?: number
  readonly step?: number
  readonly inputmode?: string
  readonly autocomplete?: string
  readonly pattern?: string
  readonly maxlength?: number
  readonly accept?: string
  readonly id?: string
  readonly extra?: Html
}

/** A labelled input; the hint is tied to it with aria-describedby. */
export const field = (spec: FieldSpec): Html => {
  const id = spec.id ?? `f-${spec.name}`
  const hintId = `${id}-hint`
  const attrs = html`${spec.type ? html` type="${spec.type}"` : html` type="text"`}${
    spec.value !== undefined ? html` value="${String(spec.value)}"` : ""
  }${spec.required ? html` required` : ""}${spec.min !== undefined ? html` min="${spec.min}"` : ""}${
    spec.max !== undefined ? html` max="${spec.max}"` : ""
  }${spec.step !== undefined ? html` step="${spec.step}"` : ""}${spec.inputmode ? html` inputmode="${spec.inputmode}"` : ""}${
    spec.autocomplete ? html` autocomplete="${spec.autocomplete}"` : ""
  }${spec.pattern ? html` pattern="${spec.pattern}"` : ""}${spec.maxlength ? html` maxlength="${spec.maxlength}"` : ""}${
    spec.accept ? html` accept="${spec.accept}"` : ""
  }${spec.hint ? html` aria-describedby="${hintId}"` : ""}`
  return html`<div class="field"><label for="${id}">${spec.label}</label><input id="${id}" name="${spec.name}"${attrs}${
    spec.extra ?? ""
  }>${spec.hint ? html`<p class="hint" id="${hintId}">${spec.hint}</p>` : ""}</div>`
}

export const textarea = (spec: {
  readonly name: string
  readonly label: string
  readonly required?: boolean
  readonly maxlength?: number
  readonly id?: string
  readonly rows?: number
}): Html => {
  const id = spec.id ?? `f-${spec.name}`
  return html`<div class="field"><label for="${id}">${spec.label}</label><textarea id="${id}" name="${spec.name}" rows="${
    spec.rows ?? 4
  }"${spec.required ? html` required` : ""}${spec.maxlength ? html` maxlength="${spec.maxlength}"` : ""}></textarea></div>`
}

export const select = (spec: {
  readonly name: string
  readonly label: string
  readonly options: ReadonlyArray<{
    readonly value: string
    readonly label: string
    readonly selected?: boolean
    readonly data?: Html
  }>
  readonly id?: string
}): Html => {
  const id = spec.id ?? `f-${spec.name}`
  return html`<div class="field"><label for="${id}">${spec.label}</label><select id="${id}" name="${spec.name}">${spec.options.map(
    (o) => html`<option value="${o.value}"${o.selected ? html` selected` : ""}${o.data ?? ""}>${o.label}</option>`
  )}</select></div>`
}

export const submit = (label: string, options: { readonly kind?: "primary" | "secondary" | "danger" } = {}): Html =>
  html`<button type="submit" class="btn btn-${options.kind ?? "primary"}">${label}</button>`

/** A one-button form (approve, cancel, retry...). */
export const actionForm = (
  ctx: PageContext,
  action: string,
  label: string,
  options: {
    readonly kind?: "primary" | "secondary" | "danger"
    readonly idempotent?: boolean
    readonly fields?: Html
  } = {}
): Html =>
  html`<form method="post" action="${action}" class="inline">${formGuards(ctx, options)}${options.fields ?? ""}${submit(
    label,
    options
  )}</form>`

/**
 * A table that turns into labelled cards on narrow screens (each cell repeats its column name),
 * inside a region that can be scrolled by keyboard when it is wider than the screen.
 */
export const table = (spec: {
  readonly caption: string
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<{ readonly cells: ReadonlyArray<Interpolation>; readonly attrs?: Html }>
  readonly empty: string
  readonly id?: string
}): Html => {
  if (spec.rows.length === 0) return html`<p class="empty"${spec.id ? html` id="${spec.id}"` : ""}>${spec.empty}</p>`
  return html`<div class="table-wrap" role="region" aria-label="${spec.caption}" tabindex="0"><table class="stack"${
    spec.id ? html` id="${spec.id}"` : ""
  }><caption class="visually-hidden">${spec.caption}</caption><thead><tr>${spec.headers.map(
    (h) => html`<th scope="col">${h}</th>`
  )}</tr></thead><tbody>${spec.rows.map(
    (row) =>
      html`<tr${row.attrs ?? ""}>${row.cells.map((cell, i) => html`<td data-label="${spec.headers[i] ?? ""}">${cell}</td>`)}</tr>`
  )}</tbody></table></div>`
}

/** Newer / older links over an offset-limit list. */
export const pagination = (tr: Translator, base: string, offset: number, limit: number, total: number): Html => {
  if (total <= limit && offset === 0) return html``
  const page = Math.floor(offset / limit) + 1
  const pages = Math.max(1, Math.ceil(total / limit))
  const link = (to: number) => `${base}${base.includes("?") ? "&" : "?"}offset=${Math.max(0, to)}&limit=${limit}`
  return html`<nav class="pager" aria-label="${tr.t("common.page", { page: String(page), pages: String(pages) })}">${
    offset > 0 ? html`<a rel="prev" href="${link(offset - limit)}">← ${tr.t("common.newer")}</a>` : html`<span></span>`
  }<span class="pager-label">${tr.t("common.page", { page: String(page), pages: String(pages) })}</span>${
    offset + limit < total
      ? html`<a rel="next" href="${link(offset + limit)}">${tr.t("common.older")} →</a>`
      : html`<span></span>`
  }</nav>`
}

export const section = (id: string, title: string, body: Html, options: { readonly level?: 2 | 3 } = {}): Html => {
  const heading = options.level === 3 ? html`<h3 id="${id}-h">${title}</h3>` : html`<h2 id="${id}-h">${title}</h2>`
  return html`<section class="card" id="${id}" aria-labelledby="${id}-h">${heading}${body}</section>`
}
