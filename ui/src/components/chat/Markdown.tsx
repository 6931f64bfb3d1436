import { memo, type ReactNode } from "react";
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
// Only fenced blocks that name their language are highlighted: guessing is slow and often wrong.
const rehypePlugins: Options["rehypePlugins"] = [[rehypeHighlight, { detect: false }]];

/** Assistant text as GitHub-flavoured markdown with highlighted code. Raw HTML is not rendered. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
