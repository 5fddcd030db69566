#!/usr/bin/env node
// The heap settings first, then the program: a static import of the program would load (and grow
// the young generation with) every module before any of them runs.
import { applyHeapSettings } from '@promptyard/host/heap-settings';

applyHeapSettings();
const { run } = await import('./run.js');
run();
