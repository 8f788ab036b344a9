import type { Form } from "./Forms.ts"
import { OPERATOR_FORMS } from "./OperatorForms.ts"
import { SHOPPER_FORMS } from "./ShopperForms.ts"

/** Every form post the web answers by calling core (`Forms.ts`), first match wins. */
export const FORMS = [...SHOPPER_FORMS, ...OPERATOR_FORMS]

/** The services the forms' core calls need: the gateway provides them. */
export type FormServices = (typeof FORMS)[number] extends Form<infer R> ? R : never

export const findForm = (path: string): readonly [RegExpExecArray, Form<FormServices>] | undefined => {
  for (const entry of FORMS) {
    const match = entry.pattern.exec(path)
    if (match) return [match, entry]
  }
  return undefined
}
