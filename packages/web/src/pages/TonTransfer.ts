/**
 * A wallet-road quote as a TON payment link (`ton://transfer/<address>?amount=<nanoton>&bin=<payload>`,
 * the deep link wallet apps open) and its QR code, drawn as SVG on the server (the `qr` library), so
 * the page needs no script for it.
 */
import type { WalletQuote } from "@resale/core/ports/WalletQuotes.ts"
import { encodeQR } from "qr"

/** The quote's one message as a link: its address, exact amount and Fragment's payload (base64url). */
export const tonTransferLink = (quote: Pick<WalletQuote, "payTo" | "payAmount" | "payload">): string =>
  `ton://transfer/${encodeURIComponent(quote.payTo)}?amount=${quote.payAmount}&bin=${Buffer.from(quote.payload, "base64").toString("base64url")}`

/** The link's QR code as an SVG element (scaled by the page's CSS). */
export const qrSvg = (link: string): string => encodeQR(link, "svg", { ecc: "medium", border: 2 })
