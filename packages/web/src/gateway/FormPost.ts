import type { WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { isDatabaseUnavailable } from "@resale/webkit/DatabaseOutage.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { redirectWithCookie } from "@resale/webkit/OperatorSignIn.ts"
import { isSameOrigin } from "@resale/webkit/OriginCheck.ts"
import type { ReceiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { keptValues } from "../layout/FormRecall.ts"
import { safeBack } from "../routes/AssetRoutes.ts"
import { askFirst } from "./AskFirst.ts"
import { type BrowserAnswers, pathOf } from "./BrowserAnswers.ts"
import { readBrowserForm } from "./BrowserForm.ts"
import { codeLines, withReceiptSize } from "./ErrorText.ts"
import { findForm, formAnchor, formBack, type FormServices } from "./FormTable.ts"
import type { FormResult } from "./Forms.ts"
import { NEW_KEY_COOKIE, NEW_KEY_PATH, sealKey } from "./NewKeyOnce.ts"
import { walletPostWait } from "./WalletLimit.ts"
import { walletPost } from "./WalletPages.ts"
import { CSRF_COOKIE, csrfValid, type Flash } from "./WebCookies.ts"

/**
 * Where a failed form returns: the page it was sent from (a same-host Referer), at the form's own
 * anchor when that page is the form's usual home; else the form's usual home.
 */
const backAfterFailure = (request: HttpServerRequest.HttpServerRequest, path: string): string => {
  const usual = formBack(path)
  const referer = request.headers["referer"]
  if (!referer) return usual
  try {
    const from = new URL(referer)
    if (from.host !== request.headers["host"]) return usual
    const page = from.pathname + from.search
    return page === pathOf(usual) ? usual : safeBack(page) === "/v2/" && page !== "/v2/" ? usual : safeBack(page)
  } catch {
    return usual
  }
}

/**
 * The gateway's answer to a browser's form post (`WebGateway.ts`); `walletRoad` is core's wallet road
 * when the server has one, `receipt` the receipt limits the top-up forms are held to.
 */
export const formPost = (
  answers: BrowserAnswers,
  walletRoad: WalletCheckout["Service"] | undefined,
  receipt: ReceiptLimits
) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const sessions = yield* WebSessions
    const walletWait = yield* walletPostWait
    const { secret, cookieOptions, context, redirect, render } = answers
    const formMaxBytes = receipt.body

    // What the forms' core calls need, as the JSON handlers get it.
    const formServices = yield* Effect.context<FormServices>()
    /** A defect of a form's call: the database away is said so, anything else is our fault. */
    const formDefect = (cause: unknown) =>
      isDatabaseUnavailable(cause)
        ? Effect.succeed({ _tag: "Refused", lines: codeLines("database_unavailable") } satisfies FormResult)
        : Effect.as(Effect.logError("web form: call failed", cause), {
            _tag: "Refused",
            lines: codeLines("internal_error")
          } satisfies FormResult)

    /** A form post: CSRF checked, its form's core call made (`FormTable.ts`), answered with a redirect (or the one-time key page). */
    const form = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const prepared = yield* context(request)
        const path = pathOf(request.url)
        let back = backAfterFailure(request, path)
        let anchor = /#([a-z0-9-]{1,40})$/.exec(back)?.[1]
        let kept: Record<string, string> | undefined
        /** Not signed in: to the area's sign-in page, saying why. */
        const signIn = (from: string) => {
          const admin = from.startsWith("/v2/admin")
          return redirect(
            admin ? "/v2/admin/login" : "/v2/",
            { kind: "error", lines: [{ key: admin ? "error.adminSignIn" : "error.signIn" }] },
            prepared
          )
        }
        /** The new API key travels sealed to the one page that shows it once. */
        const showKeyOnce = (key: string) =>
          HttpServerResponse.setCookieUnsafe(
            redirect(NEW_KEY_PATH, undefined, prepared),
            NEW_KEY_COOKIE,
            sealKey(secret, key),
            { ...cookieOptions, path: NEW_KEY_PATH, maxAge: "300 seconds" }
          )
        const fail = (lines: Flash["lines"]) =>
          redirect(
            back,
            {
              kind: "error",
              lines: withReceiptSize(lines, receipt.file),
              ...(anchor ? { form: anchor } : {}),
              ...(kept ? { values: kept } : {})
            },
            prepared
          )
        const read = yield* Effect.result(readBrowserForm(request, formMaxBytes))
        if (read._tag === "Failure") return fail([{ key: "error.receiptLarge" }])
        const posted = read.success
        kept = keptValues(posted.fields)
        const many = formAnchor(path)
        if (many !== undefined) {
          anchor = many
          back = `${back.split("#")[0]}#${many}`
        }
        if (!csrfValid(secret, request.cookies[CSRF_COOKIE], posted.csrf)) return fail([{ key: "error.csrf" }])
        // The wallet page's posts call core's wallet road themselves (gateway/WalletPages.ts).
        const wallet = walletPost(path, walletRoad, posted.fields, kept ?? {}, walletWait(request))
        if (wallet !== undefined) return render(prepared, yield* wallet)
        // Replacing the key or spending the balance without a purchase form: only from the confirmation page.
        const question = askFirst(path, posted.fields)
        if (question !== undefined) return redirect(question, undefined, prepared)
        const found = findForm(path)
        if (found !== undefined) {
          const result = yield* found[1]
            .post(found[0], posted.fields, {
              user: sessions.user(request),
              operator: sessions.operator(request),
              sameSite: isSameOrigin(request.headers, [config.publicUrl]),
              idempotencyKey: posted.idempotencyKey,
              files: posted.files,
              host: request.headers["host"] ?? "",
              request
            })
            .pipe(Effect.provideContext(formServices), Effect.catchDefect(formDefect))
          if (result._tag === "SignIn") return signIn(path)
          if (result._tag === "Refused") return fail(result.lines)
          const { next, flash, newKey, cookie } = result.outcome
          if (cookie !== undefined) return redirectWithCookie(next, cookie, sessions.secureCookies)
          return newKey === undefined ? redirect(next, flash, prepared) : showKeyOnce(newKey)
        }
        // Not one of our forms: nothing to post it to.
        return fail(codeLines("not_found"))
      })

    return form
  })
