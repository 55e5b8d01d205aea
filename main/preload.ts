import { contextBridge, ipcRenderer } from 'electron';
import type { IpcContract, PreloadApi } from './ipc-contract.ts';

function invoke<C extends keyof IpcContract>(
  channel: C,
  ...args: IpcContract[C]['args']
): Promise<IpcContract[C]['result']> {
  return ipcRenderer.invoke(channel, ...args) as Promise<IpcContract[C]['result']>;
}

/** Only what the dashboard calls (its copy-token control); the renderer never sees ipcRenderer. */
const api: PreloadApi = {
  listProfiles: () => invoke('token:profiles'),
  copyToken: (profile) => invoke('token:copy', profile),
};

contextBridge.exposeInMainWorld('pipelineSummary', api);
