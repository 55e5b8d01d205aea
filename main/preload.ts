import { contextBridge, ipcRenderer } from 'electron';
import type { IpcContract, PreloadApi } from './ipc-contract.ts';

function invoke<C extends keyof IpcContract>(
  channel: C,
  ...args: IpcContract[C]['args']
): Promise<IpcContract[C]['result']> {
  return ipcRenderer.invoke(channel, ...args) as Promise<IpcContract[C]['result']>;
}

/** One named function per action; the renderer never sees ipcRenderer. */
const api: PreloadApi = {
  serviceUrl: () => invoke('service:url'),
  openExternal: (url) => invoke('shell:open-external', url),
  copyToken: (profile) => invoke('token:copy', profile),
};

contextBridge.exposeInMainWorld('pipelineSummary', api);
