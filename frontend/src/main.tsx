import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, applyTheme } from "./App";
import { backend, fontFamilies, type AppState } from "./bridge";
import { applyFonts, MONO, SANS } from "./fonts";
import { approvalBackend } from "./bridge/approval";
import { processBackend } from "./bridge/processes";
import { sessionsBackend } from "./bridge/sessions";
import { detectLocalModels } from "./bridge/localModels";
import { filesBackend } from "./bridge/files";
import { leftoverBackend, sandboxBackend } from "./bridge/sandbox";
import { mcpBackend } from "./bridge/mcp";
import { agentsTrustBackend, trustedFoldersBackend } from "./bridge/agents";
import { commandsTrustBackend } from "./bridge/commands";
import { skillsTrustBackend } from "./bridge/skills";
import { hooksTrustBackend } from "./bridge/hooksTrust";
import { policyBackend } from "./bridge/policy";
import { undoBackend } from "./bridge/undo";
import { gitBackend } from "./bridge/git";
import { reviewBackend } from "./bridge/review";
import { tabsBackend } from "./bridge/tabs";
import "./styles.css";

const root = createRoot(document.getElementById("root")!);

function mount(initialState?: AppState) {
  root.render(
    <StrictMode>
      <App backend={backend} processes={processBackend} sessions={sessionsBackend} localModels={detectLocalModels} files={filesBackend} approvals={approvalBackend} initialState={initialState} mcp={mcpBackend} agentsTrust={agentsTrustBackend} commandsTrust={commandsTrustBackend} skillsTrust={skillsTrustBackend} hooksTrust={hooksTrustBackend} trusted={trustedFoldersBackend} policy={policyBackend} sandbox={sandboxBackend} leftovers={leftoverBackend} undo={undoBackend} git={gitBackend} tabs={tabsBackend} review={reviewBackend} />
    </StrictMode>,
  );
}

// The first frame is the real one: the page draws nothing (the window's own
// background) until it has the frame's state, in its theme and fonts, rather
// than drawing a loading screen first and then everything again. When State
// fails, App asks again and shows the error.
// A backend slow to answer for the fonts (fontconfig building its cache) does
// not hold the frame: past 150 ms the stacks go as they are.
const fonts = Promise.race([
  fontFamilies([SANS, MONO]).catch((): string[] => []),
  new Promise<string[]>((resolve) => setTimeout(() => resolve([]), 150)),
]);
backend.state().then(async (s) => {
  applyFonts(await fonts);
  applyTheme(s.theme);
  mount(s);
}, async () => {
  applyFonts(await fonts);
  mount();
});
