import { describe, expect, it } from "vitest";
import { passwordResetMail, verifyAddressMail } from "./templates";
import { linksIn } from "./message";

describe("mail templates", () => {
  it("say the same thing in text and HTML, with the studio's name and the link", () => {
    const url = "https://studio.example/reset-password?token=abc_DEF-123";
    const m = passwordResetMail("ada@example.com", "Lumen & Co", url);
    expect(m.subject).toBe("Reset your password · Print Studio");
    expect(m.text).toContain("Hello Lumen & Co,");
    expect(m.html).toContain("Hello Lumen &amp; Co,");
    expect(linksIn(m.text)).toEqual([url]);
    expect(m.html).toContain(`href="${url}"`);
    expect(m.text).toMatch(/one hour/);
  });

  it("escape a studio name in the HTML part", () => {
    const m = verifyAddressMail("ada@example.com", `<img src=x onerror="alert(1)">`, "https://studio.example/verify-email?token=t");
    expect(m.html).not.toContain("<img");
    expect(m.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});
