import { describe, expect, it } from "vitest";
import { formFromStatus, isLocalUrl, toSettings, validateForm, withKind, type ProviderForm } from "./settings";

const form = (over: Partial<ProviderForm> = {}): ProviderForm => ({
  kind: "openai",
  baseUrl: "http://localhost:11434/v1",
  model: "llama3.2",
  apiKey: "",
  ...over,
});

describe("validateForm", () => {
  it.each([
    { name: "local server without key is fine", f: form(), stored: false, want: {} },
    { name: "empty URL", f: form({ baseUrl: " " }), stored: false, want: { baseUrl: expect.stringContaining("Enter the base URL") } },
    { name: "not a URL", f: form({ baseUrl: "not a url" }), stored: false, want: { baseUrl: expect.stringContaining("not a valid URL") } },
    { name: "wrong scheme", f: form({ baseUrl: "ftp://x/v1" }), stored: false, want: { baseUrl: expect.stringContaining("http://") } },
    { name: "empty model", f: form({ model: "" }), stored: false, want: { model: expect.any(String) } },
    { name: "anthropic needs a key", f: form({ kind: "anthropic", baseUrl: "https://api.anthropic.com/v1" }), stored: false, want: { apiKey: expect.any(String) } },
    { name: "anthropic with stored key", f: form({ kind: "anthropic", baseUrl: "https://api.anthropic.com/v1" }), stored: true, want: {} },
  ])("$name", ({ f, stored, want }) => {
    expect(validateForm(f, stored)).toEqual(want);
  });
});

describe("form helpers", () => {
  it("empty key is sent as null (keep the stored key)", () => {
    expect(toSettings(form({ apiKey: "  " })).apiKey).toBeNull();
    expect(toSettings(form({ apiKey: " sk-1 " })).apiKey).toBe("sk-1");
    expect(toSettings(form({ baseUrl: " http://x/v1 " })).settings).toEqual({
      kind: "openai",
      base_url: "http://x/v1",
      model: "llama3.2",
    });
  });
  it("switching kind swaps only a default URL", () => {
    expect(withKind(form({ baseUrl: "https://api.openai.com/v1" }), "anthropic").baseUrl).toBe("https://api.anthropic.com/v1");
    expect(withKind(form(), "anthropic").baseUrl).toBe("http://localhost:11434/v1");
  });
  it("formFromStatus prefills saved settings, never a key", () => {
    expect(formFromStatus({ settings: { kind: "anthropic", base_url: "u", model: "m" }, has_key: true, keychain_error: null })).toEqual({
      kind: "anthropic",
      baseUrl: "u",
      model: "m",
      apiKey: "",
    });
    expect(formFromStatus(null).kind).toBe("openai");
  });
  it.each([
    ["http://localhost:11434/v1", true],
    ["http://127.0.0.1:8080/v1", true],
    ["http://192.168.1.5:1234/v1", true],
    ["https://api.openai.com/v1", false],
    ["garbage", false],
  ])("isLocalUrl(%s) = %s", (url, want) => {
    expect(isLocalUrl(url)).toBe(want);
  });
});
