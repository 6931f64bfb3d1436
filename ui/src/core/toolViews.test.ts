import { describe, expect, it } from "vitest";
import { call } from "./fixtures";
import {
  argsWithoutPath,
  fetchedPage,
  filePath,
  imageResults,
  LINKS_MAX,
  parseShellResult,
  searchLinks,
  toolKind,
  webResultLinks,
} from "./toolViews";

describe("toolKind", () => {
  it.each([
    ["bash", "shell"],
    ["read_file", "file"],
    ["ls", "file"],
    ["str_replace", "file"],
    ["file_search", "file"],
    ["view_image", "file"],
    ["web_search", "search"],
    ["web_fetch", "search"],
    ["github__create_issue", "mcp"],
    ["tool_search", "generic"],
    ["job_output", "generic"],
  ])("%s -> %s", (name, want) => {
    expect(toolKind(name)).toBe(want);
  });
});

describe("filePath and argsWithoutPath", () => {
  it.each([
    [{ path: "/mnt/user-data/workspace/a.md", start_line: 3 }, "/mnt/user-data/workspace/a.md", '{"start_line":3}'],
    [{ pattern: "*.rs" }, null, '{"pattern":"*.rs"}'],
    [{ path: "  " }, null, "{}"],
    [{ path: 7 }, null, "{}"],
  ])("%j", (args, path, rest) => {
    const c = call("c", "read_file", args);
    expect(filePath(c)).toBe(path);
    expect(argsWithoutPath(c)).toBe(rest);
  });

  it("view_image's path is its image_path", () => {
    const c = call("c", "view_image", { image_path: "/mnt/user-data/uploads/shot.png" });
    expect(filePath(c)).toBe("/mnt/user-data/uploads/shot.png");
    expect(argsWithoutPath(c)).toBe("{}");
    expect(filePath(call("c", "view_image", { path: "/x.png" }))).toBeNull();
  });

  it("invalid JSON has no path and is summarised raw", () => {
    const c = { id: "c", name: "read_file", arguments: '{"path": "a' };
    expect(filePath(c)).toBeNull();
    expect(argsWithoutPath(c)).toBe('{"path": "a');
  });
});

describe("parseShellResult", () => {
  it.each([
    ["hello\n[exit code: 0]", { output: "hello", exitCode: 0, note: null }],
    ["a\nb\n[exit code: 2]\n", { output: "a\nb", exitCode: 2, note: null }],
    ["(no output)\n[exit code: 0]", { output: "", exitCode: 0, note: null }],
    ["partial\n[killed by signal 9]", { output: "partial", exitCode: null, note: "killed by signal 9" }],
    ["x\n[exit status unknown]", { output: "x", exitCode: null, note: "exit status unknown" }],
    [
      "command timed out after 120 s and its process group was killed. Output so far:\nstep 1\n",
      { output: "step 1\n", exitCode: null, note: "timed out after 120 s" },
    ],
    ["started background job j1. Read its output", { output: "started background job j1. Read its output", exitCode: null, note: null }],
    ["the text says [exit code: 3] in the middle\nmore", { output: "the text says [exit code: 3] in the middle\nmore", exitCode: null, note: null }],
  ])("%j", (text, want) => {
    expect(parseShellResult(text)).toEqual(want);
  });
});

describe("searchLinks", () => {
  it("reads a JSON list of results with any of the usual field names", () => {
    const text = JSON.stringify([
      { title: "Rust", url: "https://www.rust-lang.org/", snippet: "A language" },
      { name: "Docs", link: "https://doc.rust-lang.org/", description: "The docs" },
      { title: "no url" },
      { title: "Dup", href: "https://www.rust-lang.org/" },
    ]);
    expect(searchLinks(text)).toEqual([
      { url: "https://www.rust-lang.org/", title: "Rust", snippet: "A language" },
      { url: "https://doc.rust-lang.org/", title: "Docs", snippet: "The docs" },
    ]);
  });

  it("reads results nested under `results`", () => {
    expect(searchLinks(JSON.stringify({ results: [{ url: "http://a.example/x" }] }))).toEqual([
      { url: "http://a.example/x", title: "http://a.example/x", snippet: "" },
    ]);
  });

  it("finds URLs in plain text, dropping trailing punctuation", () => {
    expect(searchLinks("See https://a.example/one, and (https://b.example/two).").map((l) => l.url)).toEqual([
      "https://a.example/one",
      "https://b.example/two",
    ]);
  });

  it("never turns a non-web URL into a link", () => {
    const text = JSON.stringify([{ url: "javascript:alert(1)" }, { url: "file:///etc/passwd" }, { url: "https://ok.example" }]);
    expect(searchLinks(text).map((l) => l.url)).toEqual(["https://ok.example"]);
  });

  it("lists at most LINKS_MAX links", () => {
    const text = Array.from({ length: 50 }, (_, i) => `https://e.example/${i}`).join("\n");
    expect(searchLinks(text)).toHaveLength(LINKS_MAX);
  });
});

// The exact text crates/web/src/results.rs writes (see its unit tests).
const WEB_RESULTS = `Web results for "rust book" (DuckDuckGo, 3 results):

1. [The Rust Book](https://doc.rust-lang.org/book/)
   Learn Rust from the start

2. [Rust](https://www.rust-lang.org/)

3. [Bad link](javascript:alert(1))
   never a link
`;

describe("webResultLinks", () => {
  it("reads web_search's numbered list with titles and snippets", () => {
    expect(webResultLinks(WEB_RESULTS).slice(0, 2)).toEqual([
      { url: "https://doc.rust-lang.org/book/", title: "The Rust Book", snippet: "Learn Rust from the start" },
      { url: "https://www.rust-lang.org/", title: "Rust", snippet: "" },
    ]);
  });

  it("feeds searchLinks, which drops what is not http(s)", () => {
    expect(searchLinks(WEB_RESULTS).map((l) => l.title)).toEqual(["The Rust Book", "Rust"]);
  });

  it("finds nothing in other text", () => {
    expect(webResultLinks("No web results for \"zzz\" (Brave).")).toEqual([]);
  });
});

describe("imageResults", () => {
  const text = `Image results for "ferris" (DuckDuckGo, 3 results):

1. Ferris the crab
   image: https://rustacean.net/ferris.png
   thumbnail: https://tse1.mm.bing.net/th?id=1
   source: https://rustacean.net/
   size: 1200x800

2. (untitled)
   image: https://b.example/b.jpg
   thumbnail: data:image/png;base64,AAAA

3. Sneaky
   image: javascript:alert(1)

Found through DuckDuckGo's unofficial keyless image endpoint, which may refuse requests at any time.
`;

  it("reads image, thumbnail, source and size; non-web URLs never become links", () => {
    expect(imageResults(text)).toEqual([
      {
        title: "Ferris the crab",
        imageUrl: "https://rustacean.net/ferris.png",
        thumbnailUrl: "https://tse1.mm.bing.net/th?id=1",
        sourceUrl: "https://rustacean.net/",
        size: "1200x800",
      },
      { title: "(untitled)", imageUrl: "https://b.example/b.jpg", thumbnailUrl: null, sourceUrl: null, size: null },
    ]);
  });
});

describe("fetchedPage", () => {
  it("reads the title and URL lines and whether the text was cut", () => {
    const page = "Title: Understanding async Rust\nURL: https://blog.example.org/a\n\nText.\n";
    expect(fetchedPage(page)).toEqual({ title: "Understanding async Rust", url: "https://blog.example.org/a", cut: false });
    const cut = "Title: (no title)\nURL: http://e.example/\n\nxxx\n\n[Cut: showing 10,000 of 34,567 characters of the page's text.]\n";
    expect(fetchedPage(cut)).toEqual({ title: null, url: "http://e.example/", cut: true });
    const cut2 = "Title: T\nURL: http://e.example/\n\nxxx\n\n[Cut: showing 50 of 102 characters of the page's text.]\n";
    expect(fetchedPage(cut2)?.cut).toBe(true);
  });

  it("is null for other text and for non-web URLs", () => {
    expect(fetchedPage("could not connect to example.com: refused")).toBeNull();
    expect(fetchedPage("Title: x\nURL: file:///etc/passwd\n\n")).toBeNull();
  });
});
