import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Message } from "../../bindings/Message";
import type { PendingCall } from "../../bindings/PendingCall";
import { isAnswered } from "../../core/approvals";
import type { Usage } from "../../bindings/Usage";
import { groupActive, groupMessages, lastGroupOfRun, reuseGroups, type MessageGroup } from "../../core/groups";
import { GroupView } from "./GroupView";

/** Within this many pixels of the bottom the list keeps following new text. */
const STICK_TO_BOTTOM_PX = 80;
/** Groups drawn beyond each edge of the viewport, so a fast scroll rarely shows blank space. */
const OVERSCAN = 6;
/** Space above the first and below the last group. */
const LIST_PADDING_PX = 24;

/** A first guess of a group's height before it is measured: keeps the scrollbar roughly right. */
function estimateHeight(g: MessageGroup): number {
  if (g.kind === "assistant:processing") return 56;
  const chars = g.items.reduce((n, i) => n + i.message.content.length, 0);
  return 48 + Math.min(600, Math.ceil(chars / 90) * 22);
}

/**
 * The conversation, grouped and virtualized: only the groups near the viewport are in the
 * DOM, each measured once drawn, so a thread of thousands of messages scrolls smoothly.
 */
export function MessageList({
  messages,
  running,
  loading,
  threadId,
  runUsage,
  waiting,
}: {
  messages: Message[];
  running: boolean;
  loading: boolean;
  threadId: string | null;
  runUsage: Readonly<Record<string, Usage>>;
  /** Calls waiting for the user (approvals, questions): shown as waiting, not interrupted. */
  waiting: readonly PendingCall[] | undefined;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const previous = useRef<MessageGroup[]>([]);
  // The user's open/closed choice per processing group; absent means "open while active".
  const [choice, setChoice] = useState<ReadonlyMap<string, boolean>>(new Map());

  const waitingIds = useMemo(
    () => new Set((waiting ?? []).filter((p) => !isAnswered(p)).map((p) => p.call.id)),
    [waiting],
  );
  const groups = useMemo(() => {
    const next = reuseGroups(previous.current, groupMessages(messages, running, waitingIds));
    previous.current = next;
    return next;
  }, [messages, running, waitingIds]);
  const usageAt = useMemo(() => {
    const out = new Map<number, Usage>();
    for (const [run, index] of lastGroupOfRun(groups)) {
      const u = runUsage[run];
      if (u !== undefined) out.set(index, u);
    }
    return out;
  }, [groups, runUsage]);

  // A newly opened thread starts at its end, with every group folded by default.
  useLayoutEffect(() => {
    stick.current = true;
    previous.current = [];
    setChoice(new Map());
  }, [threadId]);

  // Stable while the groups are: new functions would make the virtualizer re-lay out every group.
  const estimateSize = useCallback((i: number) => {
    const g = groups[i];
    return g === undefined ? 60 : estimateHeight(g);
  }, [groups]);
  const getItemKey = useCallback((i: number) => groups[i]?.key ?? i, [groups]);
  const getScrollElement = useCallback(() => ref.current, []);
  const virtualizer = useVirtualizer({
    count: groups.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN,
    paddingStart: LIST_PADDING_PX,
    paddingEnd: LIST_PADDING_PX,
  });
  const total = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [groups, total]);

  const onToggle = useCallback((key: string, open: boolean) => {
    setChoice((m) => new Map(m).set(key, open));
  }, []);

  const empty = !loading && groups.length === 0;
  return (
    <div
      className="messages"
      ref={ref}
      data-testid="message-list"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
      }}
    >
      {loading && <p className="muted center list-note">Loading…</p>}
      {empty && (
        <div className="empty-chat">
          <h2>{threadId === null ? "Start a conversation" : "No messages yet"}</h2>
          <p className="muted">Type a message below. Enter sends, Shift+Enter adds a new line.</p>
        </div>
      )}
      {!loading && !empty && (
        <div className="messages-inner" style={{ height: total }}>
          {virtualizer.getVirtualItems().map((v) => {
            const g = groups[v.index];
            if (g === undefined) return null;
            // The last group of a live run may get more steps: keep it open between them.
            const live = running && v.index === groups.length - 1;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className="group-row"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <GroupView
                  group={g}
                  live={live}
                  usage={usageAt.get(v.index) ?? null}
                  open={choice.get(g.key) ?? (live || groupActive(g))}
                  onToggle={onToggle}
                />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
