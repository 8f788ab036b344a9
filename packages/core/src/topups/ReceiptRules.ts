/** Receipt content types we accept, recognised by their first bytes (never by file name or the client's header). */
export type ReceiptContentType =
  | "image/jpeg"
  | "image/png"
  | "image/webp"
  | "image/gif"
  | "image/heic"
  | "application/pdf"

const startsWith = (bytes: Uint8Array, offset: number, signature: ReadonlyArray<number>): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b)

const ascii = (text: string): ReadonlyArray<number> => Array.from(text, (c) => c.charCodeAt(0))

/** The receipt's real type from its magic number, or undefined when it is not an image or PDF we accept. */
export const sniffReceiptType = (bytes: Uint8Array): ReceiptContentType | undefined => {
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (startsWith(bytes, 0, ascii("RIFF")) && startsWith(bytes, 8, ascii("WEBP"))) return "image/webp"
  if (startsWith(bytes, 0, ascii("GIF87a")) || startsWith(bytes, 0, ascii("GIF89a"))) return "image/gif"
  if (
    startsWith(bytes, 4, ascii("ftyp")) &&
    ["heic", "heix", "mif1", "heif"].some((b) => startsWith(bytes, 8, ascii(b)))
  ) {
    return "image/heic"
  }
  if (startsWith(bytes, 0, ascii("%PDF-"))) return "application/pdf"
  return undefined
}
