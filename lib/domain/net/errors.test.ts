import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/foundation/http/api-error";
import { FetchFailedError, UrlNotAllowedError, formatBytes, toApiError } from "./errors";

describe("fetcher errors", () => {
  it("writes user-readable messages", () => {
    expect(FetchFailedError.httpStatus(404).message).toBe("The source URL answered 404 Not Found.");
    expect(FetchFailedError.tooLarge(50 * 1024 * 1024).message).toBe("The file is larger than the 50 MB limit.");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(900)).toBe("900 bytes");
  });

  it("maps a refused URL to 400 URL_NOT_ALLOWED naming the field", () => {
    const api = toApiError(new UrlNotAllowedError("only http and https URLs can be fetched"), "source_url");
    expect(api).toBeInstanceOf(ApiError);
    expect(api.status).toBe(400);
    expect(api.code).toBe("URL_NOT_ALLOWED");
    expect(api.details).toMatchObject({ field: "source_url" });
  });

  it("maps fetch failures to 400 SOURCE_UNREACHABLE or FILE_TOO_LARGE", () => {
    const notFound = toApiError(FetchFailedError.httpStatus(404), "image_url");
    expect([notFound.status, notFound.code]).toEqual([400, "SOURCE_UNREACHABLE"]);
    expect(notFound.details).toEqual({ field: "image_url", reason: "http_status", upstream_status: 404 });
    const big = toApiError(FetchFailedError.tooLarge(1024), "image_url");
    expect([big.status, big.code]).toEqual([400, "FILE_TOO_LARGE"]);
    expect(big.details).toMatchObject({ field: "image_url", reason: "too_large" });
  });

  it("returns unrelated errors unchanged", () => {
    const other = new Error("boom");
    expect(toApiError(other, "url")).toBe(other);
  });
});
