/**
 * A mnemonic phrase's words, and whether a text holds them: an order id or a comment that does is
 * refused, because order ids are stored and logged and a comment is public on chain forever.
 */

/** Words of a phrase the way wallets split it: any whitespace or commas, case-insensitive. */
export const phraseWords = (text: string): ReadonlyArray<string> =>
  text
    .normalize("NFKD")
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w.length > 0)

/** True when `text` contains the phrase's words in order (whatever separates them). */
export const containsPhrase = (text: string, words: ReadonlyArray<string>): boolean => {
  if (words.length === 0) return false
  const tokens = text
    .normalize("NFKD")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0)
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, j) => tokens[i + j] === w)) return true
  }
  return false
}
