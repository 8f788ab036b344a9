import type { Form } from "./Forms.ts"
import { OPERATOR_FORMS } from "./OperatorForms.ts"
import { SHOPPER_FORMS } from "./ShopperForms.ts"

/** Every form post the web answers by calling core (`Forms.ts`), first match wins. */
export const FORMS = [...SHOPPER_FORMS, ...OPERATOR_FORMS]

/** The services the forms' core calls need: the gateway provides them. */
export type FormServices = (typeof FORMS)[number] extends Form<infer R> ? R : never

/** Where a failed post to `path` returns to when the Referer does not say: its form's page, else the area's home. */
export const formBack = (path: string): string => {
  const found = findForm(path)
  if (found) return found[1].back(found[0])
  return path.startsWith("/v2/admin") ? "/v2/admin" : "/v2/dashboard"
}

/** The form a failed post came from when its page's anchor is not the usual one: the gifts' one form. */
export const formAnchor = (path: string): string | undefined => (path === "/v2/gifts/buy" ? "send-gift" : undefined)

export const findForm = (path: string): readonly [RegExpExecArray, Form<FormServices>] | undefined => {
  for (const entry of FORMS) {
    const match = entry.pattern.exec(path)
    if (match) return [match, entry]
  }
  return undefined
}
