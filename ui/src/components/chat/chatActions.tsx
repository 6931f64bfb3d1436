import { createContext, useContext } from "react";
import type { BranchLink } from "../../bindings/BranchLink";

/** What the conversation can ask of the app around it. */
export type ChatActions = {
  /** Show a file (a virtual /mnt/user-data path) in the artifacts panel. */
  onOpenFile: (virtualPath: string) => void;
  /**
   * Send an edited version of a past user message (the thread branches there). Resolves
   * with the sentence to show when it was refused, null once the branch runs.
   */
  onEditMessage?: (messageId: string, text: string) => Promise<string | null>;
  /** Messages may be edited now (no run is going in the thread). */
  canEdit?: boolean;
  /** Branches made from this thread, by the user message each one edited. */
  branchesAt?: ReadonlyMap<string, readonly BranchLink[]>;
  /** Open another thread (a branch). */
  onOpenThread?: (threadId: string) => void;
};

const ChatActionsContext = createContext<ChatActions>({ onOpenFile: () => {} });

export const ChatActionsProvider = ChatActionsContext.Provider;

export function useChatActions(): ChatActions {
  return useContext(ChatActionsContext);
}
