/**
 * The purchase pages the simulator serves: enough of fragment.com's HTML for a client to find the
 * api hash the way it does on the real site, inside `ajInit({...})` with a JSON-escaped slash.
 */
import type { SimPage } from "./SimulatorState.ts"

export const PAGES: ReadonlyArray<SimPage> = ["/stars/buy", "/premium/gift", "/ads/topup"]

const TITLES: Record<SimPage, string> = {
  "/stars/buy": "Buy Telegram Stars",
  "/premium/gift": "Gift Telegram Premium",
  "/ads/topup": "Top up Telegram account"
}

export const isPage = (path: string): path is SimPage => (PAGES as ReadonlyArray<string>).includes(path)

export const renderPage = (page: SimPage, hash: string, tonRate: number): string => {
  const init = JSON.stringify({
    version: 5112,
    apiUrl: `/api?hash=${hash}`,
    unauth: false,
    citySlug: "",
    state: { tonRate, page }
  }).replaceAll("/", "\\/")
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>${TITLES[page]} - Fragment (sandbox)</title>
</head>
<body>
<main class="tm-main"><h1>${TITLES[page]}</h1><p>Sandbox Fragment: no real purchase happens here.</p></main>
<script src="/js/tgfragment.js"></script>
<script>ajInit(${init});</script>
</body>
</html>
`
}
