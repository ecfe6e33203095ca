export { Simulator, winsimModulePath } from "./simulator.js";
export type { SimulatorOptions } from "./simulator.js";
export type { BlockedFault, BlockSpec } from "./fault-gate.js";
export type { GuidSeedState } from "./seeded-guid.js";
export { diskOf, iscsiSessions, mountsOf, partitionStyles, volumesOnDisk } from "./state-views.js";
export type { DiskView, IscsiSessionView, PartitionStyleName, VolumeView } from "./state-views.js";
export { scenarios } from "./scenarios.js";
export { demoNodeWorld } from "./demo-node.js";
export { findPwsh, PwshNotFoundError, simulatorPwshVersion, winsimCacheDir } from "./find-pwsh.js";
export type { FindPwshOptions } from "./find-pwsh.js";
export { createSimulatedPowerShell } from "./simulated-shell.js";
export type { SimulatedPowerShellOptions } from "./simulated-shell.js";
export { buildScenario, systemDiskSpec } from "./scenario.js";
export type { BuiltScenario, MountSpec } from "./scenario.js";
export { busTypes, offlineReasons } from "./spec.js";
export type {
  BusTypeName,
  CimLatencySpec,
  DiskSpec,
  FileSystemName,
  OfflineReasonName,
  Page83Spec,
  PartitionSpec,
  ScenarioSpec,
} from "./spec.js";
export type {
  CallLogEntry,
  DeviceIdState,
  DiskState,
  FaultError,
  FaultSpec,
  NoiseKind,
  PartitionState,
  SimState,
  VolumeState,
} from "./types.js";
export type {
  SmbAccountState,
  SmbGlobalMappingState,
  SmbMappingSpec,
  SmbServerSpec,
  SmbServerState,
  SmbShareSpec,
  SmbShareState,
  SmbSpec,
  SmbState,
  SmbStatusName,
} from "./smb.js";
export { buildSmbState, smbPasswordHash, smbStatuses } from "./smb.js";
export {
  localToUnc,
  setSmbMappingStatus,
  setSmbPassword,
  smbShareDir,
  translateUncLinks,
  uncToLocal,
} from "./smb-host.js";
export type { UncLinkHost } from "./smb-host.js";
export { buildIscsiState, iscsiDefaultPort } from "./iscsi.js";
export {
  buildIscsiHostNames,
  iscsiHostNameResolver,
  localhostAddresses,
  resolveIscsiHostName,
} from "./iscsi-names.js";
export type { IscsiHostNameState } from "./iscsi-names.js";
export type {
  IscsiConnectionState,
  IscsiFavoriteState,
  IscsiInitiatorState,
  IscsiLunSpec,
  IscsiLunState,
  IscsiPortalState,
  IscsiServerSpec,
  IscsiServerState,
  IscsiSessionState,
  IscsiSpec,
  IscsiState,
  IscsiTargetSpec,
  IscsiTargetState,
} from "./iscsi.js";
export type {
  BiosSpec,
  BiosState,
  ServiceSpec,
  ServiceState,
  ServiceStatusName,
  ServiceTransitionState,
  StartModeName,
  SystemSpec,
  SystemState,
} from "./system.js";
export {
  defaultServiceSpecs,
  defaultSystemState,
  serviceStatusAt,
  serviceStatuses,
  startModes,
  systemDefaultsPath,
} from "./system.js";
export { windowsFilesystemHost } from "./fs-host.js";
