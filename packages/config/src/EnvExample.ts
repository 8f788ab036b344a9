/** `.env.example` rendered from the catalogue, so the file lists exactly the settings the code reads. */
import { CATALOGUE } from "./Catalogue.ts"

export const renderEnvExample = (): string => {
  const lines = [
    "# Every setting of resale, with its default and meaning. The processes read their environment: export",
    "# these (e.g. `set -a; . ./.env; set +a`, or a systemd EnvironmentFile). An unset or empty variable takes its default.",
    "# Production (SANDBOX=false) refuses to start without",
    "# TELEGRAM_BOT_TOKEN, SESSION_SECRET, ADMIN_TOKEN (24+ characters), FRAGMENT_COOKIES and, for the worker,",
    "# HOT_WALLET_MNEMONIC; all problems are listed at once."
  ]
  for (const group of CATALOGUE) {
    lines.push("", `# --- ${group.title}`)
    for (const setting of group.settings) {
      lines.push(`# ${setting.meaning}${setting.secret ? " [secret]" : ""}`)
      lines.push(`#${setting.name}=${setting.defaultText}`)
    }
  }
  lines.push(
    "",
    "# Per gift sender account named in GIFT_SENDERS (production with TELEGRAM_API_ID): an mtcute session string [secret]",
    "#GIFT_SENDER_USER_SESSION=",
    "",
    "# Per Fragment session named in FRAGMENT_SESSIONS: its Cookie header, like FRAGMENT_COOKIES [secret]",
    "#FRAGMENT_COOKIES_SECOND=",
    ""
  )
  return lines.join("\n")
}
