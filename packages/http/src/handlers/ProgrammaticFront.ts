import type { Uzs } from "@resale/core"
import type * as Dto from "@resale/wire/Dtos.ts"

/**
 * The answer of `GET /v2/api/balance`: the HttpApi handler (`Programmatic.ts`) and the fast path
 * (`server/FastPaths.ts`) both give this one.
 */
export const balanceAnswer = (balance: Uzs, sandbox: boolean): typeof Dto.Balance.Type => ({
  balance_uzs: balance,
  sandbox
})
