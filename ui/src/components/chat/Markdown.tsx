import { memo, type ReactElement, type ReactNode } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CopyButton } from "./CopyButton";

/** A hast node, as far as text extraction needs it. */
type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

/** The `language-x` class of a block's `code` element, as highlight.js names it. */
function languageOf(pre: HastNode | undefined): string | null {
  const code = pre?.children?.find((c) => c.type === "element" && c.tagName === "code");
  const cls = code?.properties?.className;
  const lang = Array.isArray(cls) ? cls.map(String).find((c) => c.startsWith("language-")) : undefined;
  return lang === undefined ? null : lang.slice("language-".length);
}

function textOf(node: HastNode | undefined): string {
  if (node === undefined) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

const components: Components = {
  // A code block gets a copy button; the text comes from the tree, not the highlighted spans.
  pre({ node, children }) {
    const tree = node as HastNode | undefined;
    const code = textOf(tree).replace(/\n$/, "");
    const lang = languageOf(tree);
    return (
      <div className="code-block" data-testid="code-block">
        <div className="code-head">
          <span className="code-lang">{lang ?? "text"}</span>
          <CopyButton text={code} label="Copy code" testId="copy-code" />
        </div>
        <pre>{children as ReactNode}</pre>
      </div>
    );
  },
  // The model's links leave the app: never navigate the app's own window.
  a({ href, children }) {
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children as ReactNode}
      </a>
    );
  },
};

const remarkPlugins: Options["remarkPlugins"] = [remarkGfm];
// react-markdown builds its pipeline on every render, and rehype-highlight registers all its
// grammars each time its plugin is set up: set it up once and hand the same transformer out.
// Only fenced blocks that name their language are highlighted: guessing is slow and often wrong.
const highlight = rehypeHighlight({ detect: false });
const rehypePlugins: Options["rehypePlugins"] = [() => highlight];

/** Rendered texts kept, most recent last: scrolling back over a long thread re-renders nothing. */
const CACHE_MAX = 500;
const cache = new Map<string, ReactElement>();

function render(text: string, keep: boolean): ReactElement {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  // `ReactMarkdown` is a plain function of its options (no hooks), so its output can be kept.
  const out = ReactMarkdown({ children: text, remarkPlugins, rehypePlugins, components }) as ReactElement;
  if (keep) {
    cache.set(text, out);
    if (cache.size > CACHE_MAX) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }
  return out;
}

/**
 * Assistant text as GitHub-flavoured markdown with highlighted code. Raw HTML is not rendered.
 * `streaming` texts change with every delta and are not cached; nor are texts with `cached`
 * false (a file's preview: large, and seen once).
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
  cached = true,
}: {
  text: string;
  streaming?: boolean;
  cached?: boolean;
}) {
  return <div className="markdown">{render(text, cached && !streaming)}</div>;
});
