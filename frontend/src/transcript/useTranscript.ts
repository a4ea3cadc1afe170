import { useEffect, useMemo, useSyncExternalStore } from "react";
import { TranscriptStore, type TranscriptSource, type TranscriptView } from "./store";

/** A transcript store for source, started while the component is mounted. */
export function useTranscriptStore(source: TranscriptSource): TranscriptStore {
  const store = useMemo(() => new TranscriptStore(source), [source]);
  useEffect(() => store.start(), [store]);
  return store;
}

/** The store's current view; re-renders on every change. */
export function useTranscript(store: TranscriptStore): TranscriptView {
  return useSyncExternalStore(store.subscribe, store.get);
}
