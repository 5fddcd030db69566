#!/usr/bin/env node
// The heap settings first, then the program: a static import of the program would load (and grow
// the young generation with) every module before any of them runs. The gateway favours memory: it
// keeps little (its routes) and relays; bench/README.md has what that saves and costs.
import { applyHeapSettings } from '@promptyard/host/heap-settings';

applyHeapSettings({ favourMemory: true });
const { run } = await import('./run.js');
run();
