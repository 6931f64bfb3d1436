import { describe, expect, it } from "vitest";
import type { ArtifactContent } from "./api";
import {
  codeLanguage,
  csvDelimiter,
  dataUrl,
  fencedBlock,
  fileName,
  formatSize,
  newlyPresented,
  orderOutputs,
  parseCsv,
  previewKind,
  truncationNote,
} from "./artifacts";

const OUT = "/mnt/user-data/outputs";

function content(path: string, mime: string, over: Partial<ArtifactContent> = {}): ArtifactContent {
  return { path, mime, size: 10, text: "x", base64: null, truncated: false, ...over };
}

describe("previewKind", () => {
  it.each([
    [content(`${OUT}/r.md`, "text/markdown"), "markdown"],
    [content(`${OUT}/notes.markdown`, "text/x-markdown"), "markdown"],
    [content(`${OUT}/page.html`, "text/html"), "html"],
    [content(`${OUT}/data.csv`, "text/csv"), "csv"],
    [content(`${OUT}/data.tsv`, "text/tab-separated-values"), "csv"],
    [content(`${OUT}/main.rs`, "text/x-rust"), "code"],
    [content(`${OUT}/app.ts`, "video/mp2t"), "code"],
    [content(`${OUT}/conf.json`, "application/json"), "code"],
    [content(`${OUT}/notes.txt`, "text/plain"), "text"],
    [content(`${OUT}/README`, "text/plain"), "text"],
    [content(`${OUT}/logo.svg`, "image/svg+xml"), "image"],
    [content(`${OUT}/chart.png`, "image/png", { text: null, base64: "iVBO" }), "image"],
    [content(`${OUT}/paper.pdf`, "application/pdf", { text: null, base64: "JVBE" }), "pdf"],
    [content(`${OUT}/archive.zip`, "application/zip", { text: null, base64: "UEsD" }), "none"],
  ])("%#: %o is %s", (c, kind) => {
    expect(previewKind(c)).toBe(kind);
  });
});

describe("code", () => {
  it("knows languages by extension and nothing else", () => {
    expect(codeLanguage(`${OUT}/a.py`)).toBe("python");
    expect(codeLanguage(`${OUT}/dir.v2/Makefile`)).toBe("makefile");
    expect(codeLanguage(`${OUT}/A.RS`)).toBe("rust");
    expect(codeLanguage(`${OUT}/.env`)).toBeNull();
    expect(codeLanguage(`${OUT}/notes.txt`)).toBeNull();
  });

  it("fences code with more backticks than it holds", () => {
    expect(fencedBlock("let a = 1;", "rust")).toBe("```rust\nlet a = 1;\n```");
    expect(fencedBlock("see ```js\nx\n``` and ````", null)).toBe("`````\nsee ```js\nx\n``` and ````\n`````");
  });
});

describe("parseCsv", () => {
  it("reads quoted fields with separators, doubled quotes and line breaks", () => {
    const text = 'name,quote,n\r\n"Smith, J","He said ""hi""",1\n"multi\nline",,2\n';
    expect(parseCsv(text).rows).toEqual([
      ["name", "quote", "n"],
      ["Smith, J", 'He said "hi"', "1"],
      ["multi\nline", "", "2"],
    ]);
  });

  it("keeps empty fields and a last line without a line break, skips blank lines and a BOM", () => {
    expect(parseCsv("\uFEFFa,,c\n\n,b,\nx,y,z").rows).toEqual([
      ["a", "", "c"],
      ["", "b", ""],
      ["x", "y", "z"],
    ]);
  });

  it("is forgiving: a stray quote stays text, an unclosed quote runs to the end", () => {
    expect(parseCsv('5" screen,ok\n"open,end\nmore').rows).toEqual([
      ['5" screen', "ok"],
      ["open,end\nmore"],
    ]);
  });

  it("caps the rows and counts what it left out", () => {
    const text = Array.from({ length: 10 }, (_, i) => `r${i},${i}`).join("\n");
    const t = parseCsv(text, ",", 4);
    expect(t.rows).toEqual([["r0", "0"], ["r1", "1"], ["r2", "2"], ["r3", "3"]]);
    expect(t.omitted).toBe(6);
  });

  it("splits TSV on tabs", () => {
    const c = content(`${OUT}/d.tsv`, "text/tab-separated-values", { text: "a\tb,c\n1\t2" });
    expect(parseCsv(c.text ?? "", csvDelimiter(c)).rows).toEqual([["a", "b,c"], ["1", "2"]]);
    expect(csvDelimiter(content(`${OUT}/d.csv`, "text/csv"))).toBe(",");
  });

  it("gives nothing for empty text", () => {
    expect(parseCsv("")).toEqual({ rows: [], omitted: 0 });
  });
});

describe("list and notes", () => {
  const f = (name: string, presented = false) => ({ path: `${OUT}/${name}`, size: 1, modified_ms: 1, presented });

  it("lists presented files first in presentation order, then the rest by path", () => {
    const files = [f("z.txt"), f("b.md", true), f("a.csv"), f("c.png")];
    // c.png was presented after the listing was made.
    const ordered = orderOutputs(files, [`${OUT}/c.png`, `${OUT}/b.md`]);
    expect(ordered.map((x) => [fileName(x.path), x.presented])).toEqual([
      ["c.png", true],
      ["b.md", true],
      ["a.csv", false],
      ["z.txt", false],
    ]);
  });

  it("finds the latest newly presented file", () => {
    expect(newlyPresented([`${OUT}/a`], [`${OUT}/a`, `${OUT}/b`, `${OUT}/c`])).toBe(`${OUT}/c`);
    expect(newlyPresented([`${OUT}/a`, `${OUT}/b`], [`${OUT}/b`, `${OUT}/a`])).toBeNull();
    expect(newlyPresented([`${OUT}/a`], [])).toBeNull();
  });

  it("builds data URLs for binary and SVG text", () => {
    expect(dataUrl(content(`${OUT}/a.png`, "image/png", { text: null, base64: "iVBO" }))).toBe("data:image/png;base64,iVBO");
    expect(dataUrl(content(`${OUT}/a.svg`, "image/svg+xml", { text: "<svg a='1'/>" }))).toBe(
      "data:image/svg+xml;charset=utf-8,%3Csvg%20a%3D'1'%2F%3E",
    );
  });

  it("says when a preview is cut", () => {
    expect(truncationNote(content(`${OUT}/a.txt`, "text/plain", { size: 30 << 20, truncated: true }))).toMatch(/Only the start .*\(30 MB in all\)/);
    expect(truncationNote(content(`${OUT}/a.txt`, "text/plain", { text: "abcdef" }), 3)).toMatch(/first 3 characters/);
    expect(truncationNote(content(`${OUT}/a.txt`, "text/plain"))).toBeNull();
    expect(formatSize(512)).toBe("512 B");
    expect(formatSize(1536)).toBe("1.5 KB");
  });
});
