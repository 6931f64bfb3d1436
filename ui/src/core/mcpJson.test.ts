import { describe, expect, it } from "vitest";
import { checkPastedJson, jsonErrorOffset, lineColumn, syntaxSentence } from "./mcpJson";

const err = (text: string, name = "") => {
  const r = checkPastedJson(text, name);
  if (r.ok) throw new Error(`expected an error for ${text}`);
  return r.error;
};

describe("checkPastedJson", () => {
  it("accepts Claude Desktop's whole config, a map of servers, and one named entry", () => {
    const whole = `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "x"]}, "web": {"url": "https://h/mcp"}}, "theme": "dark"}`;
    expect(checkPastedJson(whole, "")).toEqual({ ok: true, text: whole, names: ["fs", "web"], single: false });
    const map = `{"gh": {"command": "uvx", "env": {"TOKEN": "t"}}}`;
    expect(checkPastedJson(map, "")).toMatchObject({ ok: true, names: ["gh"], single: false });
    const one = `{"command": "node", "args": ["server.js"]}`;
    expect(checkPastedJson(one, " mine ")).toEqual({ ok: true, text: one, names: ["mine"], single: true });
  });

  it("wraps a fragment copied from a README", () => {
    const r = checkPastedJson(`"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},\n`, "");
    expect(r).toMatchObject({ ok: true, names: ["github"] });
    if (r.ok) expect(JSON.parse(r.text)).toEqual({ github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"] } });
  });

  it("a single entry without a name asks for one", () => {
    const r = checkPastedJson(`{"command": "node"}`, "");
    expect(r).toMatchObject({ ok: false, single: true });
    expect(err(`{"command": "node"}`)).toMatch(/one server's entry: give it a name/);
  });

  it("turns syntax errors into sentences with where and what to change", () => {
    expect(err("")).toBe("Paste the JSON first.");
    expect(err(`{\n  "a": {"command": "x",},\n}`)).toMatch(/^Line 2 ends a list or object with a comma/);
    expect(err(`{\n  // my servers\n  "a": {"command": "x"}\n}`)).toMatch(/^Line 2 is a comment/);
    expect(err(`{'a': {'command': 'x'}}`)).toMatch(/single quotes/);
    expect(err(`{"mcpServers": {"a": {"command": "x"}`)).toMatch(/ends too early/);
    expect(err(`{"a" {"command": "x"}}`)).toMatch(/^This is not valid JSON: .+ at line 1, column \d+\.$/);
    expect(err(`{"a":\n  {"command" "x"}}`)).toMatch(/at line 2, column \d+/);
  });

  it("checks the shape of every entry like the backend", () => {
    expect(err("[1, 2]")).toMatch(/this is a list/);
    expect(err(`{"mcpServers": []}`)).toMatch(/"mcpServers" should be an object/);
    expect(err(`{"mcpServers": {}}`)).toBe("The JSON names no servers.");
    expect(err(`{"a": 3}`)).toMatch(/“a” should be an object .* it is a number/);
    expect(err(`{"a": {"args": []}}`)).toMatch(/“a” needs "command"/);
    expect(err(`{"a": {"command": "x", "url": "https://h"}}`)).toMatch(/both "command" and "url"/);
    expect(err(`{"a": {"type": "sse", "url": "https://h/sse"}}`)).toMatch(/old SSE transport/);
    expect(err(`{"a": {"command": "x", "args": "-y"}}`)).toMatch(/"args" should be a list of texts/);
    expect(err(`{"a": {"command": "x", "env": {"N": 1}}}`)).toMatch(/"env" value “N” should be a text/);
    expect(err(`{"a/b": {"command": "x"}}`)).toMatch(/“a\/b”/);
    // A secret reference (what mcp.json holds) is a valid value.
    expect(checkPastedJson(`{"a": {"url": "https://h/mcp", "headers": {"Authorization": {"secret": "mcp/a/header/Authorization"}}}}`, "").ok).toBe(true);
  });

  it("words WebKit's errors too (the desktop window), which carry no position", () => {
    expect(syntaxSentence(`{"a": {"command": "x"}`, new SyntaxError("JSON Parse error: Unexpected EOF"))).toMatch(/ends too early/);
    expect(syntaxSentence(`{"a" 1}`, new SyntaxError("JSON Parse error: Expected ':' before value in object property definition"))).toBe(
      "This is not valid JSON: Expected ':' before value in object property definition at line 1, column 6.",
    );
  });

  it("jsonErrorOffset finds where JSON goes wrong and agrees with JSON.parse on what is valid", () => {
    const valid = [`{}`, `[]`, ` {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} `, `"s"`, `0`];
    for (const t of valid) {
      expect(() => JSON.parse(t)).not.toThrow();
      expect(jsonErrorOffset(t), t).toBeNull();
    }
    const cases: [string, number][] = [
      [`{"a" 1}`, 5],
      [`{"a": 1,}`, 8],
      [`{\n  "a": tru\n}`, 12],
      [`[1 2]`, 3],
      [`{"a": "x}`, 9],
      [`{"a": 01}`, 7],
      [`{} x`, 3],
      [`{'a': 1}`, 1],
    ];
    for (const [t, at] of cases) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(jsonErrorOffset(t), t).toBe(at);
    }
  });

  it("lineColumn counts from 1", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});
