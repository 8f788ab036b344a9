/** The direct document's examples of one POST operation: the request it shows and the 200 answer. */
import { directOpenApi } from "../../../src/direct/DirectOpenApi.ts"

export type Json = Record<string, any>

export const media = (path: string): { asked: Json; answered: Json } => {
  const op = (directOpenApi as Json)["paths"][path]["post"]
  return {
    asked: op["requestBody"]["content"]["application/json"]["schema"]["examples"][0],
    answered: op["responses"]["200"]["content"]["application/json"]["schema"]["examples"][0]
  }
}
