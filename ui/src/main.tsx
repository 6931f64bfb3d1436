import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./components/App";
import { StoreProvider } from "./components/storeContext";
import { createStore } from "./core/store";
import { ipc } from "./ipc";
import "./styles.css";

const store = createStore(ipc);
void store.init();

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
