// The only module that imports the generated Wails bindings. Components talk
// to the backend through these functions, so tests can run the UI against the
// real backend (e2e) and unit tests can swap this module out.
import * as App from "./wailsjs/go/main/App";
import type { main } from "./wailsjs/go/models";

export type AppState = main.AppState;
export type ApprovalMode = "manual" | "safe" | "auto";

export const backend = {
  state: (): Promise<AppState> => App.State(),
  ready: (): Promise<void> => App.Ready(),
  chooseWorkspace: (): Promise<AppState> => App.ChooseWorkspace(),
  setApprovalMode: (mode: ApprovalMode): Promise<AppState> => App.SetApprovalMode(mode),
};

export type Backend = typeof backend;
