import { Command } from "commander"
import { registerBot } from "./commands/Bot.ts"
import { registerDb } from "./commands/Db.ts"
import { registerHotWallet } from "./commands/HotWallet.ts"
import { registerOrders } from "./commands/Orders.ts"
import { registerPayments } from "./commands/Payments.ts"
import { registerPayouts } from "./commands/Payouts.ts"
import { registerPricing } from "./commands/Pricing.ts"
import { registerReport } from "./commands/Report.ts"
import { registerSandbox } from "./commands/Sandbox.ts"
import { registerTickets } from "./commands/Tickets.ts"
import { registerTopups } from "./commands/Topups.ts"
import { registerUsers } from "./commands/Users.ts"

const HELP_FOOTER = `
Configuration (the same as the server's):
  DATABASE_URL   PostgreSQL to work on; when unset, the embedded database in DATA_DIR/pg
  DATA_DIR       data directory of the embedded database and the sandbox (default .data)
  PORT           the server's port: the embedded database and the sandbox chain are refused while it answers
  SANDBOX        sandbox mode as the server decides it (default: on unless TELEGRAM_BOT_TOKEN and DATABASE_URL are set)
  TONCENTER_URL, TONCENTER_API_KEY, FRAGMENT_*   chain and marketplace for \`reconcile\` outside sandbox mode

Every command accepts --json (machine-readable output on stdout) and --help.
Exit codes: 0 done, 1 failed (unknown id, invalid transition, refused), 2 usage error.`

/**
 * The `resale` command tree. Settings given here are inherited by every subcommand created with
 * `.command()`, so the whole tree reports usage errors the same way (see `main.ts`).
 */
export const makeCli = (): Command => {
  const program = new Command("resale")
    .description("Operator tool of the resale service: the web panel's operator actions, from a terminal.")
    .version("0.1.0", "-V, --version")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .showSuggestionAfterError(true)
    .addHelpText("after", HELP_FOOTER)
  registerTopups(program)
  registerPayments(program)
  registerOrders(program)
  registerPricing(program)
  registerTickets(program)
  registerUsers(program)
  registerPayouts(program)
  registerHotWallet(program)
  registerReport(program)
  registerDb(program)
  registerSandbox(program)
  registerBot(program)
  return program
}
