// Ids of the emulator's seed that help examples use, so each example runs as written against
// `pds emulator start`.
export const DEMO_PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
