import { describe, expect, it } from "vitest";
import { isImageInputError } from "@/lib/engines/ml/background-removal";
import { isFaceEngineError } from "@/lib/engines/ml/faces";
import { toFileError } from "./process-item";

// The engines' workers are process-wide singletons whose listeners belong to the
// server bundle that started them (the warm-up's), so their errors can be
// instances of another bundle's copy of the error class. Seen in the standalone
// build: a damaged photo in a synchronous face-crop batch answered 500.
describe("engine errors made by another bundle's copy of their class", () => {
  it("are still recognised by what they are", () => {
    class FaceInputError extends Error {
      constructor(
        readonly code: string,
        message: string,
      ) {
        super(message);
        this.name = "FaceInputError";
      }
    }
    expect(toFileError(new FaceInputError("UNREADABLE_IMAGE", "The image is damaged."))).toEqual({ code: "UNREADABLE_IMAGE", message: "The image is damaged." });
    expect(isFaceEngineError(Object.assign(new Error("Face detection failed on our side."), { name: "FaceEngineError" }))).toBe(true);
    expect(isImageInputError(Object.assign(new Error("not an image"), { name: "ImageInputError" }))).toBe(true);
  });

  it("and other errors are not taken for them", () => {
    expect(toFileError(new Error("boom"))).toBeNull();
    expect(toFileError(Object.assign(new Error("no code"), { name: "FaceInputError" }))).toBeNull();
    expect(isFaceEngineError(new TypeError("x"))).toBe(false);
  });
});
