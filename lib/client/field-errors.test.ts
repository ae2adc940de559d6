import { describe, expect, it } from "vitest";
import { ApiRequestError } from "./api-fetch";
import { fieldErrorList, fieldErrors } from "./field-errors";

const validation = { error: "VALIDATION_ERROR", message: "Invalid body", request_id: "req_1", details: { in: "body", fields: [{ field: "name", message: "Required." }, { field: "name", message: "Too long." }, { field: "sku", message: "Taken?" }] } };
const conflict = { error: "SKU_TAKEN", message: "SKU A-1 is taken.", request_id: "req_2", details: { field: "sku" } };

describe("fieldErrors", () => {
  it("reads details.fields of a studio error or of a body, the first message of a field winning", () => {
    expect(fieldErrors(new ApiRequestError(400, validation))).toEqual({ name: "Required.", sku: "Taken?" });
    expect(fieldErrors(validation)).toEqual({ name: "Required.", sku: "Taken?" });
    expect(fieldErrorList(validation).map((f) => f.field)).toEqual(["name", "name", "sku"]);
  });

  it("puts a conflict's single details.field under its message only when asked", () => {
    const err = new ApiRequestError(409, conflict);
    expect(fieldErrors(err)).toEqual({});
    expect(fieldErrors(err, { single: true })).toEqual({ sku: "SKU A-1 is taken." });
  });

  it("is empty for anything that is not an error body", () => {
    expect(fieldErrors(new Error("network"))).toEqual({});
    expect(fieldErrors(undefined)).toEqual({});
    expect(fieldErrorList(null)).toEqual([]);
    expect(fieldErrorList(new ApiRequestError(500, {}))).toEqual([]);
  });
});
