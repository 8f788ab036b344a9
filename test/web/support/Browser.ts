/**
 * Headless Chromium (Debian's build) driven by playwright-core: one browser per test worker, one
 * context per person. Requests that leave the machine are refused, so a test never waits on the
 * network. Screenshots land in test-artifacts/web (git-ignored): the named ones only when
 * WEB_SCREENSHOTS=1 asks for them (a person reviewing the pages), those of a failed test always.
 */
import { Effect, Exit } from "effect"
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

export const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/web/", import.meta.url))

/** Named screenshots are taken only when asked for: PNG encoding is CPU that no assertion reads. */
export const SCREENSHOTS = process.env["WEB_SCREENSHOTS"] === "1"

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // Only 127.0.0.1 is reached. Chromium refuses the rest itself: every other address (other loopback
  // ones and IP literals included) goes to a proxy port where nothing listens, and no name is looked
  // up. Cheaper than intercepting each request through playwright's protocol.
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>;127.0.0.1",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
]

const launch = () => chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS })

// One Chromium per test worker process, launched on first use: a launch costs a second or more of
// CPU, and every test gets fresh profiles (`person`) anyway. It is closed once no test has used it
// for a while (or by playwright when the process exits).
let shared: Promise<Browser> | undefined
let leases = 0
let idle: NodeJS.Timeout | undefined
const IDLE_CLOSE_MS = 20_000

const lease = async (): Promise<Browser> => {
  clearTimeout(idle)
  leases++
  const current = (shared ??= launch())
  try {
    const b = await current
    if (b.isConnected()) return b
    if (shared === current) shared = undefined
    return await (shared ??= launch())
  } catch (error) {
    if (shared === current) shared = undefined
    leases--
    throw error
  }
}

let failures = 0

/** What every open tab showed when a test failed (or timed out): test-artifacts/web/failed-<n>-<tab>.png. */
const screenshotOpenTabs = async (b: Browser): Promise<void> => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const run = `${process.pid}-${++failures}`
  const pages = b.contexts().flatMap((context) => context.pages())
  await Promise.all(
    pages.map((page, i) =>
      page.screenshot({ path: `${ARTIFACTS}failed-${run}-${i + 1}.png`, timeout: 5_000 }).catch(() => undefined)
    )
  )
}

/** Ends a lease: the profiles opened under it are closed, so the next test starts from a clean browser. */
const release = async (b: Browser, failed: boolean): Promise<void> => {
  if (failed) await screenshotOpenTabs(b)
  leases--
  if (leases > 0) return
  await Promise.all(b.contexts().map((context) => context.close().catch(() => undefined)))
  if (leases > 0) return
  idle = setTimeout(() => {
    const current = shared
    shared = undefined
    void current?.then((browser) => browser.close()).catch(() => undefined)
  }, IDLE_CLOSE_MS)
  idle.unref()
}

/**
 * The browser for the scope of a test (or a whole test file, when built into its layer): the
 * worker's shared Chromium; when the scope closes, every profile opened in it is closed.
 */
export const browser = Effect.acquireRelease(Effect.promise(lease), (b, exit) =>
  Effect.promise(() => release(b, Exit.isFailure(exit)))
)

export interface Person {
  readonly context: BrowserContext
  readonly page: Page
}

export const DESKTOP = { width: 1280, height: 900 } as const
export const PHONE = { width: 360, height: 740 } as const

/**
 * A fresh browser profile (own cookies) with one tab, in the given language and screen size. A
 * phone is a touch screen; its pixels are doubled only for screenshots (four times the painting).
 */
export const person = async (
  b: Browser,
  base: string,
  options: { readonly locale?: string; readonly viewport?: { readonly width: number; readonly height: number } } = {}
): Promise<Person> => {
  const context = await b.newContext({
    baseURL: base,
    locale: options.locale ?? "en-US",
    viewport: options.viewport ?? DESKTOP,
    ...(options.viewport?.width === PHONE.width
      ? { isMobile: true, hasTouch: true, deviceScaleFactor: SCREENSHOTS ? 2 : 1 }
      : {})
  })
  context.setDefaultTimeout(15_000)
  const page = await context.newPage()
  return { context, page }
}

/** A full-page PNG in test-artifacts/web/<name>.png, when WEB_SCREENSHOTS=1. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (!SCREENSHOTS) return
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true })
}
