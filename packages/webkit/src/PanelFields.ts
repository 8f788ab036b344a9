import { Option, Schema } from "effect"

/**
 * Path ids of the panel's pages and forms that answer "not found" (never a 422) for a path naming no
 * record: digits only and positive.
 */

/** A path id: digits only and positive, else the route does not exist for it. */
export const pathId = (raw: string | undefined): number | undefined =>
  raw !== undefined && /^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined

/** A path id decoded into the core's branded id (`UserId`, `TicketId`, ...); undefined as for `pathId`. Build it once per route file. */
export const pathIdOf = <S extends Schema.ConstraintDecoder<unknown>>(id: S) => {
  const decode = Schema.decodeUnknownOption(id)
  return (raw: string | undefined): S["Type"] | undefined => {
    const n = pathId(raw)
    return n === undefined ? undefined : Option.getOrUndefined(decode(n))
  }
}
