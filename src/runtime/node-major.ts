// The Node major this process runs on: the runtime workarounds apply only on the major they were measured on.

/** Node 20: every measurement in this folder's README was taken on it (v20.20.2). */
export const MEASURED_NODE_MAJOR = 20;

export function nodeMajor(): number {
  return Number(process.versions.node.split('.')[0]);
}

/** Whether this is the Node major the workarounds were measured on. */
export function onMeasuredNode(): boolean {
  return nodeMajor() === MEASURED_NODE_MAJOR;
}
