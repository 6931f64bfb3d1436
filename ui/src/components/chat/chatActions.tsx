import { createContext, useContext } from "react";

/** What the conversation can ask of the app around it. */
export type ChatActions = {
  /** Show a file (a virtual /mnt/user-data path) in the artifacts panel. */
  onOpenFile: (virtualPath: string) => void;
};

const ChatActionsContext = createContext<ChatActions>({ onOpenFile: () => {} });

export const ChatActionsProvider = ChatActionsContext.Provider;

export function useChatActions(): ChatActions {
  return useContext(ChatActionsContext);
}
