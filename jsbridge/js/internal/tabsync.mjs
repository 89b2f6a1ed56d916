// Sync between tabs (docs/js-api.md, "Sync between tabs"): df.syncTabs
// posts a controller's changes on a BroadcastChannel and applies the
// changes the controllers at the other ends post. The messages are made and
// read in Go (core/controller/sync.go documents the format, versioned):
// each crosses as its JSON text, which is what goes on the channel.

import { controllerInternals } from './controller.mjs';
import { SYNC_APPLIED, SYNC_UNKNOWN_VERSION } from './protocol.mjs';
import { show } from './values.mjs';

const DEFAULT_CHANNEL = 'datafetch';

// makeSyncTabs returns syncTabs over bridge.
export function makeSyncTabs(bridge) {
  const { calls } = bridge;

  /**
   * Syncs ctrl with the controllers (other tabs, workers, instances) on the
   * BroadcastChannel named options.channel; returns the function that
   * stops it, both ways.
   */
  function syncTabs(ctrl, options) {
    const inner = controllerInternals.get(ctrl);
    if (inner === undefined) throw new TypeError(`syncTabs: expected a Controller, got ${show(ctrl)}`);
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw new TypeError(`syncTabs: options must be an object, got ${show(options)}`);
    }
    const { channel: name = DEFAULT_CHANNEL } = options ?? {};
    if (typeof name !== 'string' || name === '') throw new TypeError(`syncTabs: channel must be a non-empty string, got ${show(name)}`);
    if (typeof BroadcastChannel !== 'function') throw new TypeError('syncTabs: there is no BroadcastChannel here');
    const where = `syncTabs "${name}"`;

    const channel = new BroadcastChannel(name);
    // In Node an open channel keeps the process alive; syncing should not.
    channel.unref?.();
    let stopped = false;

    // Go calls post with each message of this controller, as JSON text; a
    // channel cannot take it only once closed, and then nothing is lost
    // that stop did not ask for.
    const post = (text) => {
      if (stopped) return;
      try {
        channel.postMessage(text);
      } catch (err) {
        console.debug(`${where}: a message could not be posted:`, err);
      }
    };
    const sink = calls.ctrlSyncStart(inner.handle, post);

    // Messages from the other ends. Nothing here throws: a message this
    // build cannot read (malformed, or of another version) is reported on
    // console.debug and ignored, and the next one is read as usual.
    channel.onmessage = (event) => {
      if (stopped) return;
      const text = event.data;
      if (typeof text !== 'string') {
        console.debug(`${where}: ignored a message that is not a datafetch sync message (JSON text): ${show(text)}`);
        return;
      }
      let r;
      try {
        r = calls.ctrlSyncApply(inner.handle, text);
      } catch (err) {
        console.debug(`${where}: ignored a malformed message: ${err?.message ?? String(err)}`);
        return;
      }
      if (r === SYNC_UNKNOWN_VERSION) console.debug(`${where}: ignored a message of another version`);
      else if (r !== SYNC_APPLIED) console.debug(`${where}: unexpected answer ${show(r)} applying a message`);
    };
    channel.onmessageerror = () => console.debug(`${where}: ignored a message that could not be received`);

    return function stop() {
      if (stopped) return;
      stopped = true;
      channel.onmessage = null;
      channel.close();
      try {
        calls.ctrlSyncStop(sink);
      } catch (err) {
        // The Go program has exited: there is no sink left to remove.
        console.debug(`${where}: stop:`, err);
      }
    };
  }

  return { syncTabs };
}
