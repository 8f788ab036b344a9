/**
 * The sandbox's pictures of Telegram's standard gifts: small drawn SVGs standing in for the stickers
 * Telegram shows, as data URLs (the pages allow `data:` images), so the shop looks as it will with
 * real pictures without fetching anything.
 */
const tile = (background: string, drawing: string): string => {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
    `<rect width="64" height="64" rx="14" fill="${background}"/>${drawing}</svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`
}

export const SANDBOX_GIFT_PICTURES: Readonly<Record<string, string>> = {
  // Heart
  "5170145012310081615": tile(
    "#ffe4ec",
    `<path d="M32 52 14 34a10 10 0 0 1 18-14 10 10 0 0 1 18 14z" fill="#e5284f"/>`
  ),
  // Teddy bear
  "5170233102089322756": tile(
    "#f6ead9",
    `<circle cx="19" cy="19" r="7" fill="#8a5a33"/><circle cx="45" cy="19" r="7" fill="#8a5a33"/><circle cx="32" cy="34" r="17" fill="#a0693d"/><circle cx="26" cy="30" r="2.5" fill="#2b1a0e"/><circle cx="38" cy="30" r="2.5" fill="#2b1a0e"/><ellipse cx="32" cy="40" rx="6" ry="4.5" fill="#e2c3a0"/>`
  ),
  // Gift box
  "5170250947678437525": tile(
    "#e6f0ff",
    `<rect x="13" y="26" width="38" height="26" rx="3" fill="#3b82f6"/><rect x="10" y="19" width="44" height="9" rx="2" fill="#2563eb"/><rect x="29" y="19" width="6" height="33" fill="#fbbf24"/><path d="M32 19c-8-10-16-4-10 0m10 0c8-10 16-4 10 0" stroke="#fbbf24" stroke-width="3" fill="none"/>`
  ),
  // Rose
  "5168103777563050263": tile(
    "#fdecef",
    `<path d="M32 36v18" stroke="#2f855a" stroke-width="3"/><path d="M32 46c-6-2-10 0-12 4 6 1 10 0 12-4z" fill="#38a169"/><circle cx="32" cy="25" r="12" fill="#d61f45"/><path d="M26 24a6 6 0 0 1 12 0" stroke="#9b1233" stroke-width="2" fill="none"/>`
  ),
  // Cake
  "5170144170496491616": tile(
    "#fff3e0",
    `<rect x="14" y="36" width="36" height="16" rx="3" fill="#c07a4a"/><rect x="18" y="26" width="28" height="12" rx="3" fill="#f4a6c0"/><rect x="31" y="15" width="2" height="11" fill="#7c3aed"/><path d="M32 9c3 3 2 6 0 6s-3-3 0-6z" fill="#f59e0b"/>`
  ),
  // Bouquet
  "5170314324215857265": tile(
    "#f0fdf4",
    `<path d="M24 54l8-20 8 20z" fill="#16a34a"/><circle cx="24" cy="24" r="8" fill="#ec4899"/><circle cx="40" cy="24" r="8" fill="#f59e0b"/><circle cx="32" cy="16" r="8" fill="#ef4444"/><circle cx="32" cy="31" r="7" fill="#a855f7"/>`
  ),
  // Rocket
  "5170564780938756245": tile(
    "#eef2ff",
    `<path d="M32 8c9 8 11 22 8 34H24C21 30 23 16 32 8z" fill="#e5e7eb" stroke="#6b7280" stroke-width="1.5"/><circle cx="32" cy="24" r="4.5" fill="#3b82f6"/><path d="M24 36l-7 10 8-2zM40 36l7 10-8-2z" fill="#ef4444"/><path d="M28 42h8l-4 12z" fill="#f59e0b"/>`
  ),
  // Trophy
  "5168043875654172773": tile(
    "#fffbeb",
    `<path d="M20 12h24v10a12 12 0 0 1-24 0z" fill="#f59e0b"/><path d="M20 15h-6a7 7 0 0 0 8 9M44 15h6a7 7 0 0 1-8 9" stroke="#d97706" stroke-width="3" fill="none"/><rect x="29" y="33" width="6" height="9" fill="#d97706"/><rect x="21" y="42" width="22" height="8" rx="2" fill="#92400e"/>`
  ),
  // Ring
  "5170690322832818290": tile(
    "#f5f3ff",
    `<circle cx="32" cy="38" r="14" stroke="#eab308" stroke-width="5" fill="none"/><path d="M26 18l6-8 6 8-6 6z" fill="#60a5fa" stroke="#2563eb" stroke-width="1.5"/>`
  ),
  // Diamond
  "5170521118301225164": tile(
    "#ecfeff",
    `<path d="M14 24l9-11h18l9 11-18 28z" fill="#22d3ee" stroke="#0e7490" stroke-width="2"/><path d="M14 24h36M23 13l9 11 9-11M32 24v28" stroke="#0e7490" stroke-width="1.5" fill="none"/>`
  )
}
