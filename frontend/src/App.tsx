import { useEffect, useRef, useState } from "react";
import type { AppState, ApprovalMode, Backend } from "./bridge";
import { Header } from "./components/Header";
import { Chat } from "./components/Chat";
import { SidePanel } from "./components/SidePanel";
import { FileTree } from "./components/FileTree";
import type { FilesBackend } from "./bridge/files";

export function App({ backend, files }: { backend: Backend; files?: FilesBackend }) {
  const [state, setState] = useState<AppState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const readySent = useRef(false);

  useEffect(() => {
    backend.state().then(setState, (e) => setError(String(e)));
  }, [backend]);

  // Tell the backend once the first real frame has been painted.
  useEffect(() => {
    if (!state || readySent.current) return;
    readySent.current = true;
    requestAnimationFrame(() => {
      requestAnimationFrame(() => void backend.ready());
    });
  }, [state, backend]);

  const act = (p: Promise<AppState>) =>
    p.then((s) => {
      setState(s);
      setError(null);
    }, (e) => setError(String(e)));

  if (!state) {
    return (
      <div className="loading" role="status">
        {error ?? "Starting Gatehouse…"}
      </div>
    );
  }

  return (
    <div className="app">
      <Header
        state={state}
        onChooseWorkspace={() => act(backend.chooseWorkspace())}
        onModeChange={(m: ApprovalMode) => act(backend.setApprovalMode(m))}
      />
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <main className="body">
        <SidePanel side="left" title="Files" emptyText={state.workspace ? "The file tree appears here." : "Choose a folder to start."}>
          {files && state.workspace ? <FileTree key={state.workspace} files={files} /> : undefined}
        </SidePanel>
        <Chat state={state} onChooseWorkspace={() => act(backend.chooseWorkspace())} />
        <SidePanel side="right" title="Processes" emptyText="No processes yet. Processes the agent starts show up here." />
      </main>
    </div>
  );
}
